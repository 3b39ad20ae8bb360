"""German Rommé melds and card values (german-romme.de.txt), checked through
``MeldRules.check`` and the first-meld count."""

from __future__ import annotations

import pytest

from engine.cards import parse_card
from engine.melds import CardSpec, MeldProblem, check_meld, readings
from engine.rules import make_rules
from engine.variants import get_variant
from engine.variants.german.values import card_points, meld_value

GERMAN = get_variant("german")


def specs(text: str) -> tuple[CardSpec, ...]:
    return tuple(CardSpec.parse(w) for w in text.split())


def valid(text: str, **options: object) -> bool:
    rules = GERMAN.meld_rules(make_rules("german", options=options))  # type: ignore[arg-type]
    return bool(readings(specs(text), 0, rules))


def test_runs_may_hold_as_many_jokers_as_natural_cards() -> None:
    """ "Sequenzen dürfen nicht mehr Joker als natürliche Karten enthalten. Richtig z.B.
    5♣ J J 8♣, aber falsch J 10 J oder 9 J J Q J" (the text's own examples)."""
    assert valid("5c jk jk 8c")
    assert not valid("jk 10h jk")
    assert not valid("9s jk jk qs jk")
    assert valid("9s jk jk qs")


def test_the_reason_for_too_many_jokers_is_given() -> None:
    """ "Sequenzen dürfen nicht mehr Joker als natürliche Karten enthalten." """
    rules = GERMAN.meld_rules(make_rules("german"))
    with pytest.raises(MeldProblem) as info:
        check_meld(specs("9s jk=10s jk=js qs jk=ks"), 0, rules)
    assert info.value.reason == "too_many_jokers"


def test_sets_need_two_natural_cards() -> None:
    """ "Ein Satz muss mindestens zwei natürliche Karten enthalen, z.B. 6 J 6, aber nicht
    Q J J" """
    assert valid("6h jk 6s")
    assert not valid("qd jk jk")
    assert valid("qd qs jk jk")


def test_sets_have_distinct_suits_and_at_most_four_cards() -> None:
    """ "Sätze sind 3 oder 4 gleichrangige Karten"; "Sätze dürfen keine gleichrangige Karten
    des selben Symbols beinhalten: A♠ A A♣ A♣ oder 7 7 7♠ sind z.B. ungültige Figuren." """
    assert valid("ks kh kc kd")
    assert not valid("as ah ac ac")
    assert not valid("7s 7s 7h")
    assert not valid("8s 8h 8c 8d jk")


def test_aces_are_low_or_high_but_not_around_the_corner() -> None:
    """ "Asse können als niedrigste Karte (1) und höchste Karte benutzt werden: z.B. A 2 3
    oder Q K A"; "Sequenzen 'um die Ecke' sind nicht erlaubt: K A 2 ist z.B. eine ungültige
    Sequenz." """
    assert valid("ah 2h 3h")
    assert valid("qh kh ah")
    assert not valid("kh ah 2h")


def test_gameduell_allows_runs_around_the_corner() -> None:
    """ "Achtung: Diese Regel gilt bei Gameduell nicht, Sequenzen 'um die Ecke' sind dort
    explizit erlaubt!" (option ``around``, preset ``gameduell``)."""
    assert valid("kh ah 2h", around=True)
    rules = make_rules("german", "gameduell")
    assert readings(specs("kh ah 2h"), 0, GERMAN.meld_rules(rules))


def test_house_rule_one_joker_per_meld() -> None:
    """Hausregel: "Eine Figur darf grundsätzlich nicht mehr als ein Joker enthalten." """
    assert valid("5c jk jk 8c")
    assert not valid("5c jk jk 8c", one_joker=True)
    assert valid("5c jk 7c 8c", one_joker=True)
    assert not valid("qd qs jk jk", one_joker=True)


def test_runs_of_three_or_more() -> None:
    """ "Sequenzen sind 3 oder mehr Karten des gleichen Farbsymbols in Reihenfolge, z.B.
    4♠ 5♠ 6♠" """
    assert valid("4s 5s 6s")
    assert not valid("4s 5s")
    assert not valid("4s 5s 6h")
    assert valid("2s 3s 4s 5s 6s 7s 8s 9s 10s js qs ks as")


def first_meld_points(text: str, **options: object) -> int:
    rules = make_rules("german", options=options)  # type: ignore[arg-type]
    (meld,) = readings(specs(text), 0, GERMAN.meld_rules(rules))
    return meld_value(rules, meld)


def test_first_meld_values_of_aces_and_jokers() -> None:
    """ "Asse zählen bei der Erstmeldung in Sequenzen 1 Punkte wenn als 1 benutzt und 11
    Punkte wenn es nach dem König benutzt wird. In Sätzen zählen Asse immer 11 Punkte.
    Joker zählen bei der Erstmeldung jeweils den Wert der Karte den sie ersetzen." """
    assert first_meld_points("ah 2h 3h") == 6
    assert first_meld_points("qh kh ah") == 31
    assert first_meld_points("as ah ac") == 33
    assert first_meld_points("jk=qh kh ah") == 31
    assert first_meld_points("9c jk=10c jc") == 29
    assert first_meld_points("7s 7h jk=7") == 21


def test_first_meld_around_the_corner_counts_the_ace_after_the_king_high() -> None:
    """ "11 Punkte wenn es nach dem König benutzt wird" (GameDuell: K-A-2 allowed)."""
    assert first_meld_points("kh ah 2h", around=True) == 23


def test_penalty_values() -> None:
    """ "Joker = 25 (30) Punkte; As = 11 (15) Punkte; König, Dame, Bube, 10 = 10 Punkte;
    9 = 9 Punkte ... 2 = 2 Punkte" """
    rules = make_rules("german")
    values = {
        t: card_points(rules, parse_card(t))
        for t in ("jk", "ah", "kh", "qh", "jh", "10h", "9h", "2h")
    }
    assert values == {"jk": 25, "ah": 11, "kh": 10, "qh": 10, "jh": 10, "10h": 10, "9h": 9, "2h": 2}
    other = make_rules("german", options={"joker_points": 30, "ace_points": 15})
    assert card_points(other, parse_card("jk")) == 30
    assert card_points(other, parse_card("ac")) == 15
    assert card_points(make_rules("german", "gameduell"), parse_card("jk")) == 20


def test_house_rule_flat_values() -> None:
    """Hausregel: "Spielkarten haben folgende Werte: 2 - 8 = 5 Punkte, 9 - K = 10 Punkte,
    As = 11 Joker = 25" (for the hand and the first meld)."""
    rules = make_rules("german", options={"card_values": "flat"})
    assert [card_points(rules, parse_card(t)) for t in ("2c", "8c", "9c", "kc", "ac", "jk")] == [
        5,
        5,
        10,
        10,
        11,
        25,
    ]
    assert first_meld_points("6c 7c 8c 9c", card_values="flat") == 25
