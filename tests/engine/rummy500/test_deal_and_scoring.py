"""Rummy 500: players, pack, deal, card values and scoring (rummy-500.de.txt)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from engine.cards import JOKER, parse_card, parse_cards
from engine.dealing import new_game
from engine.errors import RuleOptionError
from engine.events import GameEnded, HandEnded, WentOut
from engine.rules import make_rules
from engine.state import Phase
from engine.variants import get_variant
from engine.variants.rummy500.scoring import match_result
from engine.views import view_for

from .conftest import NAMES, Deal500

VARIANT = get_variant("500")


def test_the_variant_is_registered_with_its_options() -> None:
    rules = make_rules("500")
    assert VARIANT.name == "Rummy 500"
    assert rules.as_dict() == {
        "target": 500,
        "jokers": True,
        "values": "standard",
        "take_must_meld": False,
        "take_new_meld": False,
        "calling": "any",
        "going_out": "any",
        "win_needs_out": False,
    }
    assert make_rules("500", "book").changed() == {"take_must_meld": True, "calling": "off"}
    assert make_rules("500", "original").changed() == {"jokers": False}


@pytest.mark.parametrize(
    ("seats", "size", "jokers"), [(2, 54, 2), (4, 54, 2), (5, 108, 4), (8, 108, 4)]
)
def test_pack_size(seats: int, size: int, jokers: int) -> None:
    """ "Rommé 500 wird mit einem Standardkartenspiel mit 52 Karten plus 2 Jokern, also
    insgesamt 54 Karten, gespielt. ... Bei 5 oder mehr Spielern sollten 2 Kartenspiele
    (108 Karten) zusammen verwendet werden.\""""
    deck = VARIANT.deck(make_rules("500"), seats)
    assert len(deck) == size
    assert Counter(deck)[JOKER] == jokers
    assert max(Counter(c for c in deck if not c.is_joker).values()) == size // 54


@pytest.mark.parametrize(("seats", "size"), [(2, 52), (5, 104)])
def test_without_jokers(seats: int, size: int) -> None:
    """ "Rommé 500 kann ohne Joker gespielt werden (was ursprünglich auch der Fall war).\""""
    deck = VARIANT.deck(make_rules("500", options={"jokers": False}), seats)
    assert len(deck) == size and JOKER not in deck


@pytest.mark.parametrize(("seats", "size"), [(2, 13), (3, 7), (5, 7), (8, 7)])
def test_hand_sizes(seats: int, size: int) -> None:
    """ "Bei mehr als zwei Spielern teilt der Geber die Karten ... einzeln aus, ... bis jeder
    sieben Karten hat. Bei zwei Spielern teilt der Geber jedem Spieler dreizehn Karten
    aus." The next card is the upcard, the rest the stock."""
    state = new_game(make_rules("500"), NAMES[:seats], seed=3)
    assert all(len(h) == size for h in state.hands)
    assert len(state.discard) == 1
    assert len(state.stock) == len(VARIANT.deck(state.rules, seats)) - seats * size - 1
    assert state.current == (state.dealer + 1) % seats


@pytest.mark.parametrize("seats", [1, 9])
def test_two_to_eight_players(seats: int) -> None:
    """ "Das Spiel ist für 2 bis etwa 8 Spieler geeignet.\""""
    with pytest.raises(RuleOptionError):
        new_game(make_rules("500"), [f"p{i}" for i in range(seats)], seed=1)


@pytest.mark.parametrize(
    ("values", "cards", "points"),
    [
        ("standard", "2c 5d 9h 10s", 26),
        ("standard", "jc qd kh", 30),
        ("standard", "ah jk", 30),
        ("5_10_15", "2c 5d 9h", 15),
        ("5_10_15", "10s jc qd kh", 40),
        ("5_10_15", "ah jk", 30),
    ],
)
def test_card_values_in_hand(values: str, cards: str, points: int) -> None:
    """ "2 ... 10 Nennwert"; "Bube, Dame, König je 10 Punkte"; "Ass, Joker je 15 Punkte".
    Option: "zählen die Zahlenkarten 2 bis 9 jeweils 5 Punkte. Die Zehner und die
    Bildkarten B, D, K zählen jeweils 10 und die Joker zählen 15 Punkte.\""""
    rules = make_rules("500", options={"values": values})
    assert sum(VARIANT.card_points(rules, c) for c in parse_cards(cards)) == points


def _melded(deal500: Deal500, meld: str, **options: object) -> int:
    hand = meld.split() + ["2c", "3d", "9s", "10c"][: 7 - len(meld.split())]
    game = deal500(
        [" ".join(hand), "4c 6d 7s 8c jd qs kc", "5c 6c 7c 8d jc qc kd"], "5s", "9d", **options
    )
    game.do("ana: draw", f"ana: meld {meld}")
    extra = view_for(game.state, 0).table.extra
    return int(extra.melded_points[0])


@pytest.mark.parametrize(
    ("meld", "values", "points"),
    [
        ("ah 2h 3h", "standard", 1 + 2 + 3),
        ("ah 2h 3h 4h", "standard", 1 + 2 + 3 + 4),
        ("qh kh ah", "standard", 10 + 10 + 15),
        ("ah ad as", "standard", 45),
        ("ah 2h 3h", "5_10_15", 15),
        ("qh kh ah", "5_10_15", 35),
    ],
)
def test_ace_counts_low_only_in_a_low_run(
    deal500: Deal500, meld: str, values: str, points: int
) -> None:
    """ "Ein Ass, das mit der 2 und der 3 derselben Farbe als Teil einer Folgenkombination
    ... kombiniert wird, zählt 1 Punkt anstatt 15." With 5/10/15: "Das Ass zählt 5 Punkte
    anstatt 15, wenn es als niedrige Karte in einer Folge verwendet wird"."""
    assert _melded(deal500, meld, values=values) == points


def test_hand_score_is_melded_minus_hand_for_every_player(deal500: Deal500) -> None:
    """ "Alle Spieler zählen den gesamten Wert der Karten, die sie kombiniert haben, und
    ziehen davon den Wert der Karten, die sie noch auf der Hand haben, ab. Das Ergebnis
    jedes Spielers wird zu dessen Gesamtpunktzahl addiert." A laid-off card scores for the
    player who laid it ("alle ausgelegten Karten [bringen] dem Spieler Punkte ..., der sie
    ausgelegt hat"), and a score may be negative."""
    game = deal500(
        ["7h 8h 9h 2c 2d 2s ks", "10h 3c 4d 6s qd jc ac", "3d 5c 8c jd qh 4s 9s"],
        "4c",
        "5d 6c 7c 2h 10d",
    )
    game.do(
        "ana: draw",
        "ana: meld 7h 8h 9h | 2c 2d 2s",
        "ana: discard ks",
        "ben: draw",
        "ben: layoff 10h 1",
        "ben: discard ac",
        "cem: draw",
        "cem: discard qh",
        "ana: draw",
        "ana: layoff 2h 2",
    )
    events = game.do("ana: discard 5d")
    assert isinstance(events[1], WentOut) and events[1].seat == 0
    ended = events[2]
    assert isinstance(ended, HandEnded)
    assert ended.points == (0, 3 + 4 + 6 + 10 + 10 + 6, 3 + 5 + 8 + 10 + 4 + 9 + 7)
    assert ended.scores == (7 + 8 + 9 + 2 + 2 + 2 + 2, 10 - 39, -46)
    assert game.state.totals == (32, -29, -46)
    assert game.state.phase is Phase.HAND_OVER


def test_first_to_the_target_ends_the_match(deal500: Deal500) -> None:
    """ "Es werden so lange weitere Runden gespielt, bis ein Spieler eine Punktzahl von
    mindestens 500 erreicht. Dann endet das Spiel, und der Spieler mit der höchsten
    Punktzahl gewinnt." (Here the target is 30.)"""
    game = deal500(
        ["7h 8h 9h 2c 2d 2s ks", "10h 3c 4d 6s qd jc ac", "3d 5c 8c jd qh 4s 9s"],
        "4c",
        "5d 6c 7c 2h 10d",
        target=30,
    )
    game.do(
        "ana: draw",
        "ana: meld 7h 8h 9h | 2c 2d 2s",
        "ana: discard ks",
        "ben: draw",
        "ben: layoff 10h 1",
        "ben: discard ac",
        "cem: draw",
        "cem: discard qh",
        "ana: draw",
        "ana: layoff 2h 2",
    )
    events = game.do("ana: discard 5d")
    assert isinstance(events[-1], GameEnded) and events[-1].winners == (0,)
    assert game.state.phase is Phase.GAME_OVER


def F(*values: int) -> tuple[Fraction, ...]:
    return tuple(Fraction(v) for v in values)


@pytest.mark.parametrize(
    ("totals", "winners"),
    [
        (F(499, 300, 20), ()),
        (F(505, 300, 20), (0,)),
        (F(505, 530, 20), (1,)),
        (F(510, 510, 20), ()),
        (F(510, 510, 511), (2,)),
    ],
)
def test_highest_total_wins_and_ties_play_on(
    totals: tuple[Fraction, ...], winners: tuple[int, ...]
) -> None:
    """ "der Spieler mit der höchsten Punktzahl gewinnt. Falls es einen Gleichstand gibt,
    werden weitere Runden gespielt, bis es nur einen Sieger gibt.\""""
    assert match_result(make_rules("500"), totals, None) == winners


@pytest.mark.parametrize(
    ("totals", "out", "winners"),
    [
        (F(505, 520), 0, (0,)),
        (F(505, 520), None, ()),
        (F(480, 520), 0, ()),
        (F(480, 520), 1, (1,)),
    ],
)
def test_winning_needs_going_out(
    totals: tuple[Fraction, ...], out: int | None, winners: tuple[int, ...]
) -> None:
    """Option: "Wenn der Spieler, der alle Karten ausgelegt hat, 500 oder mehr Punkte
    erzielt hat, gewinnt er ... Wenn zum Beispiel Spieler A alle Karten auslegt und eine
    Gesamtpunktzahl von 505 hat, wohingegen Spieler B eine Gesamtpunktzahl von 520 hat,
    dann hat Spieler A gewonnen.\""""
    rules = make_rules("500", options={"win_needs_out": True})
    assert match_result(rules, totals, out) == winners
    assert not VARIANT.match_over(rules, totals, 3)


def test_the_discard_pile_is_spread_and_public(deal500: Deal500) -> None:
    """ "Die Karten auf dem Ablagestapel liegen nicht deckend aufeinander, so dass alle
    zuvor abgelegten Karten erkennbar sind.\""""
    game = deal500(
        ["2c 3c 4c 5h 6h 9s ks", "2d 3d 4d 5s 6s 9c kc", "2s 3s 4s 5c 6c 9d kd"], "qh", "jh 10h 8h"
    )
    game.do("ana: draw", "ana: discard ks", "ben: draw", "ben: discard kc")
    for seat in range(3):
        assert [str(c) for c in view_for(game.state, seat).table.discard] == ["qh", "ks", "kc"]
    assert parse_card("qh") not in game.state.hands[0]
