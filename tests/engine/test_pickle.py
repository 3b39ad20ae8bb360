"""Engine records survive pickling: states, views, actions and search results travel to the
bot's engine workers and back pickled (bot/service/compute.py), in the pure-Python build
and in the compiled one, whose native classes restore themselves through the reducers of
:func:`engine.frozen.picklable` (docs/performance.md, "Compiled engine")."""

from __future__ import annotations

import dataclasses
import pickle
import random

import pytest

from engine.ai import make_ai
from engine.cards import JOKER, Card, parse_cards
from engine.frozen import replace
from engine.game import apply, legal_actions, new_game
from engine.melds import CardSpec
from engine.rules import make_rules
from engine.search import best_partition
from engine.state import Phase
from engine.variants.romanian.melds import MELD_RULES as ROMANIAN_MELDS
from engine.variants.romanian.plan import Plan, PlanContext, going_out_plan
from engine.variants.rummy500.melds import MELD_RULES as RUMMY500_MELDS
from engine.views import view_for


def round_trip(value: object) -> object:
    """``value`` pickled with the workers' protocol and read back."""
    return pickle.loads(pickle.dumps(value, protocol=5))


@pytest.mark.parametrize("variant", ["basic", "500", "german", "romanian"])
def test_states_views_and_legal_actions_survive_pickling(variant: str) -> None:
    """Along a game of greedy players every state, view and legal list reads back equal,
    cards with the same hash (they are dict keys in the worker)."""
    state = new_game(make_rules(variant), ["ana", "ben", "cem"], seed=11)
    players = [make_ai("greedy", seed) for seed in range(3)]
    for _ in range(60):
        if state.phase is not Phase.DRAW and state.phase is not Phase.PLAY:
            break
        seat = state.current
        view = view_for(state, seat)
        legal = legal_actions(state, seat)
        assert round_trip(state) == state
        assert round_trip(view) == view
        assert round_trip(legal) == legal
        hand = state.hands[seat]
        assert [hash(c) for c in round_trip(hand)] == [hash(c) for c in hand]  # type: ignore[attr-defined]
        state, _ = apply(state, players[seat].decide(view, legal))


def test_cards_jokers_and_search_results_survive_pickling() -> None:
    """A card, the joker, a best partition and the meld rules read back equal; a card
    stays usable as a key of a dict built before pickling."""
    hand = parse_cards("7h 8h 9h 9c 9s kd jk")
    for card in (*hand, JOKER):
        back = round_trip(card)
        assert back == card and hash(back) == hash(card)
        assert {card: 1}[back] == 1  # type: ignore[index]
    part = best_partition(hand, RUMMY500_MELDS, lambda card: card.rank)
    assert part.melds and part.deadwood == (parse_cards("kd")[0],)
    assert round_trip(part) == part
    assert round_trip(RUMMY500_MELDS) == RUMMY500_MELDS
    assert round_trip(ROMANIAN_MELDS) == ROMANIAN_MELDS


def test_romanian_plans_survive_pickling() -> None:
    """A going-out plan and its context read back equal (the hints send them)."""
    rack = parse_cards("r1 r2 r3 b5 y5 k5 r9")
    ctx = PlanContext((), 0, ())
    plan = going_out_plan(rack, ctx)
    assert isinstance(plan, Plan) and plan.discard == Card(9, rack[0].suit)
    assert round_trip(plan) == plan
    assert round_trip(ctx) == ctx


def test_replace_copies_meld_rules_like_dataclasses_replace() -> None:
    """:func:`engine.frozen.replace` on the meld rules (a native class in the compiled
    build, a slotted dataclass otherwise) equals ``dataclasses.replace``."""
    for rules in (RUMMY500_MELDS, ROMANIAN_MELDS):
        changed = replace(rules, min_cards=4, max_set=8)
        assert changed == dataclasses.replace(rules, min_cards=4, max_set=8)
        assert changed.check is rules.check and rules.min_cards == 3
    rng = random.Random(3)
    spec = CardSpec(JOKER, rng.choice(parse_cards("7h 8s")))
    assert replace(spec, face=None) == CardSpec(JOKER)
