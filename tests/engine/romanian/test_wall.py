"""The wall and the deal (romanian-rummy.de.txt, "Spielvorbereitung und die Zuteilung der
Steine")."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.cards import parse_card
from engine.dealing import new_game
from engine.errors import RuleOptionError
from engine.rules import make_rules
from engine.state import Phase
from engine.variants.romanian.tiles import tile_set
from engine.variants.romanian.wall import shuffled_wall, wall_deal

from .conftest import all_tiles, wall_deck


def stacks_of(deck: list) -> list[list]:
    return [deck[k * 7 : (k + 1) * 7] for k in range(15)]


def test_the_face_up_tile_marks_a_stack_and_the_next_gets_eight() -> None:
    """ "Der Geber dreht den Extrastein um und zählt die Zahl auf dem Stein von einem Ende der
    Mauer. Von dem Stapel, der durch den Extrastein bestimmt wurde, nimmt er den obersten
    Stein und ersetzt ihn durch den offenen Extrastein, der neue Extrastein wird verdeckt
    auf den nächsten Stapel gelegt, der dadurch 8 Steine hoch ist." and "Der Spieler rechts
    vom Geber bekommt den Stapel mit dem Extrastein\""""
    deck = wall_deck("b8")
    stacks = stacks_of(deck)
    spec = wall_deal(deck, 3, dealer=2)
    assert spec.extra == parse_card("b8")
    first = 0  # the seat after the dealer
    assert spec.hands[first][:8] == (stacks[7][0], *stacks[8])
    assert len(spec.hands[first]) == 15
    assert [len(h) for h in spec.hands] == [15, 14, 14]


def test_two_stacks_each_in_play_order_then_the_draw_order() -> None:
    """ "der Geber gibt gegen den Uhrzeigersinn jedem Spieler einen der folgenden Stapel ...
    bis jeder Spieler zwei Stapel bekommen hat" and "Der erste Stapel, von dem ein Stein
    gezogen wird, ist der nächste Stapel, der bei einem weiteren Geben an der Reihe gewesen
    wäre"; the six tiles under the face-up tile come last."""
    deck = wall_deck("y8")
    stacks = stacks_of(deck)
    spec = wall_deal(deck, 4, dealer=1)
    order = [2, 3, 0, 1]
    # stacks 9..16 (1-based) = indices 8..15 wrap: 8, 9, ..., 14, 0
    assert spec.hands[order[0]] == (stacks[7][0], *stacks[8], *stacks[12])
    assert spec.hands[order[1]] == (*stacks[9], *stacks[13])
    assert spec.hands[order[2]] == (*stacks[10], *stacks[14])
    assert spec.hands[order[3]] == (*stacks[11], *stacks[0])
    assert spec.stock == (
        *stacks[1],
        *stacks[2],
        *stacks[3],
        *stacks[4],
        *stacks[5],
        *stacks[6],
        *stacks[7][1:],
    )
    assert len(spec.stock) == 106 - 57 - 1


def test_a_small_number_splits_the_wall_in_two_parts() -> None:
    """ "Wenn der Extrastein am Anfang eine kleine Zahl hatte, dann wird nach dem Geben die
    Mauer aus zwei Teilen bestehen. In diesem Fall werden natürlich die Steine zunächst von
    dem Teil, der nach dem Geben übrig blieb, gezogen – und danach von dem anderen Teil,
    wobei man sich von links nach rechts in Richtung des Stapels mit dem aufgedeckten Stein
    bewegt." With a 2 and two players stacks 3..6 are dealt, 7..15 drawn, then 1, then the
    six tiles of stack 2 under the face-up tile."""
    deck = wall_deck("k2")
    stacks = stacks_of(deck)
    spec = wall_deal(deck, 2, dealer=0)
    assert spec.hands[1] == (stacks[1][0], *stacks[2], *stacks[4])
    assert spec.hands[0] == (*stacks[3], *stacks[5])
    expected = [t for k in range(6, 15) for t in stacks[k]] + stacks[0] + stacks[1][1:]
    assert list(spec.stock) == expected


def test_with_a_thirteen_the_deal_wraps_round() -> None:
    """ "Wenn das rechte Ende der Mauer erreicht ist, macht er von der linken Seite der Mauer
    weiter.\""""
    deck = wall_deck("r13")
    stacks = stacks_of(deck)
    spec = wall_deal(deck, 4, dealer=3)
    assert spec.hands[0] == (stacks[12][0], *stacks[13], *stacks[2])
    assert spec.hands[1] == (*stacks[14], *stacks[3])
    assert spec.hands[3] == (*stacks[1], *stacks[5])
    assert spec.stock[-6:] == tuple(stacks[12][1:])


def test_every_tile_is_dealt_once() -> None:
    for seats in (2, 3, 4):
        for dealer in range(seats):
            spec = shuffled_wall(seats, dealer, seed=11, deal_number=dealer + 1)
            tiles = [*spec.cards(), spec.extra]
            assert Counter(tiles) == Counter(tile_set())
            assert len(spec.hands[(dealer + 1) % seats]) == 15


def test_a_joly_as_extra_tile_is_refused_for_an_explicit_deck() -> None:
    """A Joly has no number to count the wall with; a given deck ending with one is refused
    (a shuffle mixes again)."""
    assert tile_set()[-1].is_joker
    with pytest.raises(RuleOptionError):
        wall_deal(tile_set(), 3, 0)
    with pytest.raises(RuleOptionError):
        wall_deal(wall_deck("r5")[:-1], 3, 0)


def test_a_shuffled_game_starts_with_the_first_player_holding_fifteen() -> None:
    """ "jeder Spieler hat 14 Steine mit Ausnahme des Spielers rechts vom Geber, der mit 15
    Steinen beginnt"; the first player begins (after the pre-play step) by discarding."""
    rules = make_rules("romanian")
    state = new_game(rules, ["ana", "ben", "cem"], seed=4, dealer=1)
    assert [len(h) for h in state.hands] == [14, 14, 15]
    assert state.current == 2
    assert state.phase is Phase.PLAY
    assert sum(all_tiles(state).values()) == 106
    assert not state.discard
