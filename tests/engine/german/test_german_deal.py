"""Dealing German Rommé: the pack, hand sizes, the upcard or the dealer's extra card, the
cutter's joker, and the players still in the match."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest

from engine.actions import Discard, Draw, MeldCards, NextDeal, TakeDiscard
from engine.cards import JOKER, Card, standard_deck
from engine.dealing import new_game
from engine.errors import IllegalMove
from engine.game import apply, legal_actions
from engine.melds import CardSpec
from engine.rules import make_rules
from engine.state import GameState, Phase
from engine.variants.german.dealing import deal_cards
from engine.variants.german.errors import DealerDiscardsFirst
from engine.variants.german.events import JokerStolen

NAMES = ["ana", "ben", "cem", "dan", "eve", "fay"]


def all_cards(state: GameState) -> Counter[Card]:
    cards = [c for h in state.hands for c in h] + list(state.stock) + list(state.discard)
    return Counter(cards + [p.card for m in state.melds for p in m.cards])


def test_the_pack_is_two_decks_and_six_jokers() -> None:
    """ "Gespielt wird mit zwei Deck Spielkarten mit je 3 Joker, 2 x 52 Karten und 6 Joker,
    also 110 Karten. Optional können auch nur je 2, also 4 Joker benützt werden." """
    state = new_game(make_rules("german"), NAMES[:3], seed=5)
    assert all_cards(state) == Counter(standard_deck(2, 6))
    assert sum(all_cards(state).values()) == 110
    four = new_game(make_rules("german", options={"four_jokers": True}), NAMES[:3], seed=5)
    assert all_cards(four) == Counter(standard_deck(2, 4))


@pytest.mark.parametrize(("players", "size"), [(2, 13), (3, 13), (4, 13), (5, 11), (6, 11)])
def test_hand_sizes(players: int, size: int) -> None:
    """ "Bei 2 - 4 Spielern bekommt jeder 13 Spielkarten verteilt, bei 5 und 6 Spielern je 11
    Karten." The upcard starts the discard pile, the player left of the dealer begins."""
    state = new_game(make_rules("german"), NAMES[:players], seed=players, dealer=0)
    assert [len(h) for h in state.hands] == [size] * players
    assert len(state.discard) == 1
    assert state.current == 1 and state.phase is Phase.DRAW


@pytest.mark.parametrize("cards", [14, 15])
def test_two_players_may_get_14_or_15_cards(cards: int) -> None:
    """Hausregel: "Die Anzahl der verteilten Karten ist bei 2 Spielern 14 oder 15 Karten"."""
    rules = make_rules("german", options={"two_player_cards": cards})
    state = new_game(rules, NAMES[:2], seed=3)
    assert [len(h) for h in state.hands] == [cards, cards]
    three = new_game(rules, NAMES[:3], seed=3)
    assert [len(h) for h in three.hands] == [13, 13, 13]


def test_draw_from_stock_or_take_the_upcard() -> None:
    """ "Der Spieler an der Reihe hat die Wahl entweder die oberste aufgedeckte Karte des
    Abwurfstapels oder aber die oberste verdeckte Karte des Talons in sein Blatt
    aufzunehmen." """
    state = new_game(make_rules("german"), NAMES[:3], seed=9, dealer=2)
    assert legal_actions(state, 0) == [Draw(0), TakeDiscard(0)]
    upcard = state.discard[-1]
    taken, _ = apply(state, TakeDiscard(0))
    assert upcard in taken.hands[0] and not taken.discard
    drawn, _ = apply(state, Draw(0))
    assert drawn.hands[0][-1] == state.stock[0]


def test_dealer_extra_card_opens_by_discarding() -> None:
    """ "Optional kann sich der Geber eine zusätzliche Karte verteilen, anstatt eine Karte
    aufzudecken. Er wirft dann eine Karte aufgedeckt als erste Karte des Abwurfstapels ab
    und eröffnet somit das Spiel." """
    rules = make_rules("german", options={"dealer_extra": True})
    state = new_game(rules, NAMES[:3], seed=4, dealer=1)
    assert [len(h) for h in state.hands] == [13, 14, 13]
    assert state.discard == () and state.current == 1 and state.phase is Phase.PLAY
    legal = legal_actions(state, 1)
    assert legal and all(isinstance(a, Discard) for a in legal)
    card = state.hands[1][0]
    with pytest.raises(DealerDiscardsFirst):
        apply(state, MeldCards(1, ((CardSpec(card),),)))
    after, _ = apply(state, Discard(1, card))
    assert after.discard == (card,) and after.current == 2 and after.phase is Phase.DRAW


def _stealing_seed(players: int, dealer: int) -> int:
    rules = make_rules("german", options={"joker_steal": True})
    for seed in range(1, 2000):
        if deal_cards(rules, players, dealer, seed, 1).extra is not None:
            return seed
    raise AssertionError("no seed found")


def test_the_cutter_keeps_a_joker_and_gets_one_card_fewer() -> None:
    """Hausregel: "Der abhebende Spieler darf die unterste Karte des abgehobenen
    Kartenpackets ansehen, und wenn es ein Joker ist, darf er sie behalten (Joker rauben)
    und bekommt eine Karte weniger verteilt." The cutter sits right of the dealer."""
    dealer = 1
    seed = _stealing_seed(4, dealer)
    rules = make_rules("german", options={"joker_steal": True})
    state = new_game(rules, NAMES[:4], seed=seed, dealer=dealer)
    cutter = 0
    assert state.extra.stolen == cutter
    assert JOKER in state.hands[cutter]
    assert [len(h) for h in state.hands] == [13] * 4
    assert all_cards(state) == Counter(standard_deck(2, 6))


def test_a_stolen_joker_is_announced_when_the_next_deal_starts() -> None:
    """ "wenn es ein Joker ist, darf er sie behalten (Joker rauben)": public event."""
    rules = make_rules("german", options={"joker_steal": True, "deals": 40})
    state = new_game(rules, NAMES[:3], seed=1, dealer=0)
    for _ in range(30):
        state = replace(state, phase=Phase.HAND_OVER)
        state, events = apply(state, NextDeal(0))
        stolen = [e for e in events if isinstance(e, JokerStolen)]
        if stolen:
            assert stolen[0].seat == state.extra.stolen
            assert JOKER in state.hands[stolen[0].seat]
            return
        assert state.extra.stolen is None
    raise AssertionError("no joker was stolen in 30 deals")


def test_eliminated_players_are_not_dealt_and_never_deal() -> None:
    """ "ein Spieler welcher mehr Verlustpunkte geschrieben hat scheidet aus. Die anderen
    Spieler spielen weiter": an eliminated seat gets no cards, is skipped as dealer and as
    first player, and the others get the cards of their number (13 for 2-4)."""
    rules = make_rules("german", options={"target": 100})
    state = new_game(rules, NAMES[:5], seed=2, dealer=0)
    state = replace(
        state,
        phase=Phase.HAND_OVER,
        totals=(Fraction(10), Fraction(120), Fraction(0), Fraction(30), Fraction(0)),
    )
    state, _ = apply(state, NextDeal(3))
    assert state.dealer == 2
    assert state.hands[1] == ()
    assert [len(h) for i, h in enumerate(state.hands) if i != 1] == [13] * 4
    assert state.current == 3
    state = replace(state, phase=Phase.HAND_OVER, dealer=0)
    state, _ = apply(state, NextDeal(1))
    assert state.dealer == 2 and state.current == 3


def test_turns_skip_eliminated_players() -> None:
    """ "Die anderen Spieler spielen weiter, bis nur noch ein Spieler übrig ist": the turn
    passes over an eliminated seat."""
    rules = make_rules("german", options={"target": 100})
    state = new_game(rules, NAMES[:3], seed=2, dealer=2)
    state = replace(state, phase=Phase.HAND_OVER, totals=(Fraction(0), Fraction(101), Fraction(0)))
    state, _ = apply(state, NextDeal(0))
    assert state.dealer == 0 and state.current == 2
    state, _ = apply(state, Draw(2))
    card = next(c for c in state.hands[2])
    state, _ = apply(state, Discard(2, card))
    assert state.current == 0
    with pytest.raises(IllegalMove):
        apply(state, Draw(1))
