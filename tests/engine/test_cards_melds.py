"""Card notation and meld validation (readings, jokers, lay-offs)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.actions import Discard, discards
from engine.cards import (
    JOKER,
    SORT_KEY,
    Card,
    Suit,
    distinct_cards,
    format_cards,
    parse_card,
    parse_cards,
    standard_deck,
)
from engine.errors import CardParseError
from engine.melds import (
    AceMode,
    CardSpec,
    MeldKind,
    MeldProblem,
    MeldRules,
    check_meld,
    extend_readings,
    readings,
)
from engine.variants.romanian.tiles import tile_set


def specs(text: str) -> list[CardSpec]:
    return [CardSpec.parse(t) for t in text.split()]


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("7h", Card(7, Suit.HEARTS)),
        ("10D", Card(10, Suit.DIAMONDS)),
        ("td", Card(10, Suit.DIAMONDS)),
        ("Qs", Card(12, Suit.SPADES)),
        ("A♣", Card(1, Suit.CLUBS)),
        ("k♥", Card(13, Suit.HEARTS)),
        ("jk", JOKER),
        ("Joker", JOKER),
        ("Dh", Card(12, Suit.HEARTS)),
        ("bs", Card(11, Suit.SPADES)),
    ],
)
def test_card_notation(text: str, card: Card) -> None:
    """Cards are written ``7h 10d qs ac jk``, case-insensitive, suit symbols and ``t`` accepted."""
    assert parse_card(text) == card


@pytest.mark.parametrize("text", ["11h", "7x", "h", "", "1", "jkk", "10"])
def test_bad_card_names_raise_a_typed_error(text: str) -> None:
    with pytest.raises(CardParseError) as err:
        parse_card(text)
    assert err.value.code == "bad_card"


@given(st.lists(st.sampled_from(standard_deck(2, 2)), max_size=20))
def test_notation_round_trip(cards: list[Card]) -> None:
    assert list(parse_cards(format_cards(cards))) == cards


def test_nine_with_two_jokers_has_four_readings() -> None:
    """rummy-500.de.txt: "Wenn Sie die -9 mit zwei Jokern melden würden, müssten Sie
    festlegen, ob diese Meldung einen Satz von Neunern oder eine Folge darstellen soll ...
    ob die Folge für 7-8-9, 8-9-10 oder 9-10-B steht.\""""
    found = readings(specs("9h jk jk"), 0, MeldRules())
    assert sorted(str(m) for m in found) == sorted(
        ["9h jk=9 jk=9", "jk=7h jk=8h 9h", "jk=8h 9h jk=10h", "9h jk=10h jk=jh"]
    )
    declared = readings(specs("9h jk=10h jk=jh"), 0, MeldRules())
    assert [m.kind for m in declared] == [MeldKind.RUN]


def test_a_declared_joker_stays_fixed_when_laid_off_to() -> None:
    """rummy-500.de.txt: "Danach kann ein anderer Spieler die -5 oder -9 an diese Folge
    anlegen, aber er darf den Joker nicht in eine -5 umwandeln, um eine -4 anlegen zu
    können.\""""
    run = readings(specs("6h 7h jk=8h"), 0, MeldRules())[0]
    assert [str(m) for m in extend_readings(run, specs("9h"), 1, MeldRules())] == ["6h 7h jk=8h 9h"]
    assert extend_readings(run, specs("4h"), 1, MeldRules()) == []
    assert extend_readings(run, specs("8h"), 1, MeldRules()) == []


def test_a_set_has_at_most_four_cards_of_distinct_suits() -> None:
    """basic-rummy.de.txt: "Eine Gruppe ... besteht aus drei oder vier Karten desselben
    Ranges"; a joker cannot be a fifth king (rummy-500.de.txt: "da es keinen fünften König
    gibt, für den der Joker stehen könnte")."""
    rules = MeldRules()
    assert readings(specs("kc kd kh ks"), 0, rules)
    assert readings(specs("kc kd kh ks jk"), 0, rules) == []
    assert readings(specs("kc kc kd"), 0, rules) == []
    with pytest.raises(MeldProblem) as err:
        check_meld(specs("kc kd kh ks jk"), 0, rules)
    assert err.value.reason == "set_too_big"


@pytest.mark.parametrize(
    ("mode", "ok", "bad"),
    [
        (AceMode.LOW, ["ah 2h 3h"], ["qh kh ah", "kh ah 2h"]),
        (AceMode.HIGH_OR_LOW, ["ah 2h 3h", "qh kh ah"], ["kh ah 2h"]),
        (AceMode.AROUND, ["ah 2h 3h", "qh kh ah", "kh ah 2h"], []),
    ],
)
def test_ace_modes(mode: AceMode, ok: list[str], bad: list[str]) -> None:
    """basic-rummy.de.txt: "Im Standardspiel sind Asse niedrig ... so dass Q-K-A auch ein
    gültiger Lauf ist ... „Um die Ecke“ -Läufe mit einem Ass in der Mitte (K-A-2)\""""
    for text in ok:
        assert readings(specs(text), 0, MeldRules(ace=mode)), text
    for text in bad:
        assert readings(specs(text), 0, MeldRules(ace=mode)) == [], text


def test_every_meld_needs_a_natural_card() -> None:
    """A joker stands for a card "die zum Verschmelzen eines Satzes oder Laufs benötigt
    wird": a meld of jokers alone stands for nothing in particular and is refused."""
    assert readings(specs("jk jk jk"), 0, MeldRules()) == []


@given(
    st.sampled_from([[*standard_deck(2, 2), Card(9, None)], tile_set()]).flatmap(
        lambda pack: st.lists(st.sampled_from(pack), max_size=30)
    )
)
def test_distinct_cards_are_the_sorted_set(cards: list[Card]) -> None:
    """One of each card (of a pack, or of the tiles), suits then ranks, jokers last: what
    ``sorted(set(cards))`` in card order gives (a joker, a suitless face and a natural
    card of the same rank stay apart)."""
    assert distinct_cards(cards) == sorted(set(cards), key=SORT_KEY)


@given(
    st.lists(st.sampled_from(standard_deck(2, 2)), max_size=20),
    st.integers(0, 5),
    st.sampled_from([None, *standard_deck(1, 1)]),
)
def test_shared_discards_equal_new_records_and_leave_the_skipped_card_out(
    cards: list[Card], seat: int, skip: Card | None
) -> None:
    """The discard records of a move list are shared per seat and card, and equal to the
    records the move would build (a card taken this turn is left out where it may not be
    discarded: engine.moves.verify_discard)."""
    first = discards(seat, cards, skip)
    assert first == [Discard(seat, c) for c in cards if c != skip]
    again = discards(seat, cards, skip)
    assert all(a is b for a, b in zip(first, again, strict=True))
    assert discards(seat + 1, cards) == [Discard(seat + 1, c) for c in cards]
