"""Basic Rummy: the deck, the deal, the turn order (basic-rummy.de.txt, "Der Deal", "Spielen")."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.actions import Discard, Draw, NextDeal
from engine.cards import standard_deck
from engine.dealing import deal_from_deck, new_game
from engine.errors import RuleOptionError
from engine.game import apply, current_player
from engine.rules import make_rules
from engine.state import Phase

NAMES = ["ana", "ben", "cem", "dan", "eve", "fay", "gil"]


@pytest.mark.parametrize(("players", "size"), [(2, 10), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_hand_size_by_player_count(players: int, size: int) -> None:
    """ "In einem Zwei-Spieler-Spiel erhält jeder Spieler eine Hand mit zehn Karten. Bei drei
    oder vier Spielern werden jeweils sieben Karten ausgeteilt, und wenn fünf oder sechs
    Spieler spielen, erhält jeder Spieler sechs Karten.\""""
    state = new_game(make_rules("basic"), NAMES[:players], seed=3)
    assert [len(h) for h in state.hands] == [size] * players
    assert len(state.discard) == 1
    assert len(state.stock) == 52 - players * size - 1
    everything = [c for h in state.hands for c in h] + list(state.discard) + list(state.stock)
    assert Counter(everything) == Counter(standard_deck())


@pytest.mark.parametrize("players", [1, 7])
def test_player_count_outside_two_to_six_is_refused(players: int) -> None:
    """ "Das Spiel wird am besten mit zwei bis vier Spielern gespielt, aber bis zu sechs können
    teilnehmen.\""""
    with pytest.raises(RuleOptionError):
        new_game(make_rules("basic"), NAMES[:players], seed=1)


def test_cards_are_dealt_one_at_a_time_then_the_upcard() -> None:
    """ "Die Karten werden einzeln ausgeteilt, und nach dem Austeilen wird die nächste Karte
    offen auf den Tisch gelegt, um den Ablagestapel zu starten, und der Rest des Decks wird
    verdeckt daneben gelegt, um den Vorrat zu bilden.\""""
    deck = standard_deck()
    spec = deal_from_deck(make_rules("basic"), 3, 1, deck)
    # Dealer is seat 1, so seat 2 (left of the dealer) gets the first card.
    assert spec.hands[2][:2] == (deck[0], deck[3])
    assert spec.hands[0][:2] == (deck[1], deck[4])
    assert spec.hands[1][:2] == (deck[2], deck[5])
    assert spec.upcard == deck[21]
    assert spec.stock == tuple(deck[22:])


def test_two_players_start_with_the_non_dealer_and_the_deal_alternates() -> None:
    """ "Wenn es zwei Spieler gibt, wechseln sie sich ab, beginnend mit dem Nicht-Dealer." and
    "die Runde zum Austeilen wechselt sich ab, wenn es zwei Spieler gibt\""""
    state = new_game(make_rules("basic", options={"deals": 3}), NAMES[:2], seed=5, dealer=0)
    assert state.current == 1
    assert current_player(state) == 1


def test_more_players_start_left_of_the_dealer_and_the_deal_rotates_clockwise() -> None:
    """ "Wenn es mehr als zwei Spieler gibt, wechseln sie sich im Uhrzeigersinn ab, beginnend
    mit dem Spieler links vom Dealer." / "dreht sich im Uhrzeigersinn\""""
    rules = make_rules("basic", options={"reuses": 0, "deals": 5})
    state = new_game(rules, NAMES[:4], seed=9, dealer=3)
    assert state.current == 0
    # Play the stock empty by drawing and discarding the drawn card; the hand then ends.
    while state.phase is not Phase.HAND_OVER:
        seat = state.current
        state, _ = apply(state, Draw(seat))
        if state.phase is Phase.HAND_OVER:
            break
        state, _ = apply(state, Discard(seat, state.hands[seat][-1]))
    state, _ = apply(state, NextDeal(2))
    assert state.deal_number == 2
    assert state.dealer == 0
    assert state.current == 1


def test_first_dealer_is_drawn_at_random_but_reproducibly() -> None:
    """ "Der erste Dealer wird zufällig ausgewählt": from the game's seed, not a global RNG."""
    dealers = {new_game(make_rules("basic"), NAMES[:4], seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    a = new_game(make_rules("basic"), NAMES[:4], seed=11)
    b = new_game(make_rules("basic"), NAMES[:4], seed=11)
    assert a == b
