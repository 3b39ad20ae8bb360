"""The expert AI (engine/ai/expert.py): the hard player's draws and discards checked by
playouts on determinised deals.

It sees only its view: the hidden cards of the other seats, dealt again, never change
its decision; its determinisations rebuild exactly what the view shows; it is legal and
deterministic for a seed in every variant."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from engine.actions import Action, Discard, Draw, MeldCards, TakeDiscard
from engine.ai import KINDS, ExpertPlayer, make_ai
from engine.ai.expert import Budget, candidates, determinise, outcome
from engine.ai.hard import HardPlayer
from engine.dealing import new_game
from engine.frozen import replace
from engine.game import apply, can, is_over, legal_actions
from engine.rules import make_rules
from engine.state import DealResult, GameState, Phase
from engine.views import view_for
from tests.engine.test_hard_ai import _rehidden

VARIANTS = ["basic", "500", "german", "romanian"]
SMALL = Budget(deals=2, actions=30)


def _positions(variant: str, seed: int, limit: int = 120) -> list[GameState]:
    """The states of one deal of two hard players where a seat is to draw or play."""
    state = new_game(make_rules(variant), ["ana", "ben"], seed=seed)
    out: list[GameState] = []
    for _ in range(limit):
        if state.phase not in (Phase.DRAW, Phase.PLAY):
            break
        out.append(state)
        seat = state.current
        state, _ = apply(
            state, HardPlayer(seed).decide(view_for(state, seat), legal_actions(state, seat))
        )
    return out


def _cards(state: GameState) -> Counter[object]:
    melded = tuple(p.card for m in state.melds for p in m.cards)
    return Counter(state.hands[0] + state.hands[1] + state.stock + state.discard + melded)


def test_expert_is_a_kind() -> None:
    assert "expert" in KINDS
    assert isinstance(make_ai("expert", 3), ExpertPlayer)
    assert make_ai(" Expert ", 3).name == "expert"


@pytest.mark.parametrize("variant", VARIANTS)
def test_determinisations_show_the_seat_exactly_its_view(variant: str) -> None:
    """A rebuilt state gives the seat its own hand, the same table (melds, visible
    discards, hand sizes, stock size, phase, seat to move) and the whole pack, and, where
    the view is rebuilt, the legal draws or discards the seat has."""
    rebuilt = 0
    for state in _positions(variant, 5):
        seat = state.current
        view = view_for(state, seat)
        found = determinise(view, random.Random(7))
        if found is None:
            continue
        rebuilt += 1
        again = view_for(found, seat)
        assert again.hand == view.hand
        table, other = view.table, again.table
        assert (
            other.melds,
            other.discard,
            other.discard_size,
            other.hand_sizes,
            other.stock_size,
            other.phase,
            other.current,
            other.taken,
        ) == (
            table.melds,
            table.discard,
            table.discard_size,
            table.hand_sizes,
            table.stock_size,
            table.phase,
            table.current,
            table.taken,
        )
        assert found.card_count() == state.card_count()
        assert _cards(found) == _cards(state)
        if state.phase is Phase.DRAW:
            assert Counter(legal_actions(found, seat)) == Counter(legal_actions(state, seat))
    assert rebuilt >= 5


@pytest.mark.parametrize("variant", VARIANTS)
def test_hidden_cards_of_other_seats_change_nothing_it_decides(variant: str) -> None:
    """At decisions of seat 0 in a deal, the cards it cannot see (the other hand, the
    stock, the buried discards) are dealt again: the view and legal list stay the same,
    and so does the expert's decision. An expert that read another seat's hand or the
    stock would decide differently on some of these positions."""
    rng = random.Random(11)
    checked = 0
    for state in _positions(variant, 2, limit=40):
        if state.current != 0 or not state.stock:
            continue
        view, legal = view_for(state, 0), legal_actions(state, 0)
        other = _rehidden(state, 0, rng)
        assert other != state
        assert view_for(other, 0) == view
        assert legal_actions(other, 0) == legal
        first = ExpertPlayer(9, SMALL).decide(view, legal)
        assert ExpertPlayer(9, SMALL).decide(view_for(other, 0), legal) == first
        checked += 1
        if checked >= 6:
            break
    assert checked >= 3


@pytest.mark.parametrize("variant", VARIANTS)
def test_decisions_are_legal_and_deterministic_for_a_seed(variant: str) -> None:
    """A deal of the expert (small budget) against the hard player: every decision is in
    the legal list (or a German first meld of several melds the rules accept), and the
    same seed gives the same decision."""
    state = new_game(make_rules(variant), ["ana", "ben"], seed=3)
    searched = 0
    for _ in range(60):
        if is_over(state) or state.phase not in (Phase.DRAW, Phase.PLAY):
            break
        seat = state.current
        view, legal = view_for(state, seat), legal_actions(state, seat)
        player = ExpertPlayer(seat, SMALL) if seat == 0 else HardPlayer(seat)
        action: Action = player.decide(view, legal)
        assert action in legal or (isinstance(action, MeldCards) and can(state, action))
        if seat == 0:
            assert ExpertPlayer(0, SMALL).decide(view, legal) == action
            searched += len(candidates(view, legal, HardPlayer(0).decide(view, legal))) > 1
        state, _ = apply(state, action)
    assert searched >= 1


def test_candidates_start_with_the_hard_choice_and_are_legal() -> None:
    for state in _positions("basic", 8):
        seat = state.current
        view, legal = view_for(state, seat), legal_actions(state, seat)
        choice = HardPlayer(0).decide(view, legal)
        found = candidates(view, legal, choice)
        assert found[0] == choice
        assert 1 <= len(found) <= 3 and len(set(found)) == len(found)
        assert all(a in legal for a in found[1:])
        if state.phase is Phase.DRAW and len(legal) > 1:
            assert {type(a) for a in found} == {Draw, TakeDiscard}
        elif isinstance(choice, Discard):
            assert all(isinstance(a, Discard) for a in found)


def _ended(
    state: GameState, winner: int | None, points: tuple[int, int], scores: tuple[int, int]
) -> GameState:
    result = DealResult(
        deal_number=1,
        dealer=0,
        winner=winner,
        rummy=False,
        points=points,
        scores=tuple(Fraction(s) for s in scores),
    )
    return replace(state, phase=Phase.HAND_OVER, results=(result,))


def test_outcome_counts_the_hand_won_and_the_points_lead() -> None:
    """basic-rummy.de.txt: the player who goes out scores the others' cards; the playout
    is worth a whole hand to the winner plus its lead over 400 points."""
    state = new_game(make_rules("basic"), ["ana", "ben"], seed=1)
    won = _ended(state, 0, (0, 20), (20, 0))
    assert outcome(won, 0) == pytest.approx(1 + 20 / 400)
    assert outcome(won, 1) == pytest.approx(-20 / 400)
    tie = _ended(state, None, (5, 5), (0, 0))
    assert outcome(tie, 0) == outcome(tie, 1) == 0.5


def test_outcome_in_german_rummy_favours_fewer_penalty_points() -> None:
    """German Rommé counts penalty points (the lower total wins), so a lead is fewer
    points."""
    state = new_game(make_rules("german"), ["ana", "ben"], seed=1)
    won = _ended(state, 1, (30, 0), (30, 0))
    assert outcome(won, 1) == pytest.approx(1 + 30 / 400)
    assert outcome(won, 0) == pytest.approx(-30 / 400)


def test_a_playout_cut_short_scores_by_deadwood_cards() -> None:
    state = new_game(make_rules("basic"), ["ana", "ben"], seed=1)
    value = outcome(state, 0)
    assert 0.0 < value < 1.0
    assert outcome(state, 0) + outcome(state, 1) == pytest.approx(1.0)
