"""The greedy AI's Romanian moves (:meth:`engine.variants.base.Variant.ai_move`).

It sees only its view and the legal actions and always answers one of them:

- pre-play: announce the face-up tile's twin when it holds it, reject doubla offers,
  then ``ready``;
- draw: take the face-up tile when it may (it can go out with it); once opened, take
  the previous discard when it goes into a meld and lowers the rack's value, or a
  deeper tile of the row when it costs no more than three tiles; else draw;
- play: meld what is owed; go out when a plan exists (:mod:`.plan`); open with the
  best opening offered; exchange a Joly; meld the groups of the best partition of the
  rack (most valuable first), lay off loose tiles (Jolys first: a melded Joly is worth
  50); discard the loose tile worth most, never a Joly while another tile will do.
  After a renewed wall it sometimes discards a random loose tile, which breaks
  deadlocks of players waiting for each other's tiles.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import Action, Discard, Draw, LayOff, MeldCards, SwapJoker, TakeDiscard
from engine.ai.greedy_core import takes_upcard
from engine.cards import Card
from engine.search import Partition, best_partition
from engine.state import Phase
from engine.variants.romanian.actions import (
    AnnounceFaceUp,
    AnswerDoubla,
    ExchangeJoly,
    Ready,
    TakeFaceUp,
    as_action,
)
from engine.variants.romanian.melds import MELD_RULES
from engine.variants.romanian.plan import PlanContext, going_out_plan
from engine.variants.romanian.tiles import rack_points, rack_value
from engine.views import PlayerView

RANDOM_DISCARD = 0.2


def _points(view: PlayerView) -> int:
    one = view.table.rules.number("rack_one")
    return 25 if one is None else one


def _partition(view: PlayerView, hand: Sequence[Card]) -> Partition:
    one = _points(view)
    return best_partition(hand, MELD_RULES, rack_points(one))


def _first(legal: Sequence[Action], kind: type) -> Action | None:
    return next((a for a in legal if isinstance(a, kind)), None)


def _context(view: PlayerView) -> PlanContext:
    table = view.table
    seat = view.seat
    extra = table.extra
    opened = table.has_melded[seat]
    opening_turn = bool(getattr(extra, "opening_turn", False))
    threshold = None if opened else table.rules.number("opening")
    if not opened:
        targets: tuple[int, ...] = ()
    elif opening_turn:
        targets = tuple(i for i, m in enumerate(table.melds) if m.owner == seat)
    else:
        targets = tuple(range(len(table.melds)))
    return PlanContext(table.melds, seat, targets, threshold, table.taken)


def _plan_step(view: PlayerView, legal: Sequence[Action]) -> Action | None:
    plan = going_out_plan(view.hand, _context(view))
    if plan is None:
        return None
    step: Action = Discard(view.seat, plan.discard)
    if plan.melds:
        step = MeldCards(view.seat, plan.melds)
    elif plan.layoffs:
        index, cards = plan.layoffs[0]
        step = LayOff(view.seat, cards, index)
    if step in legal:
        return step
    if isinstance(step, MeldCards) and len(step.groups) > 1:
        first = MeldCards(view.seat, step.groups[:1])
        return first if first in legal else None
    return None


def _draw(view: PlayerView, legal: Sequence[Action]) -> Action:
    face_up = _first(legal, TakeFaceUp)
    if face_up is not None:
        return face_up
    table = view.table
    top = table.discard[-1] if table.discard else None
    if (
        top is not None
        and TakeDiscard(view.seat) in legal
        and table.has_melded[view.seat]
        and not top.is_joker
        and takes_upcard(view.hand, top, table.rules)
    ):
        return TakeDiscard(view.seat)
    if top is not None and top.is_joker and TakeDiscard(view.seat) in legal:
        return TakeDiscard(view.seat)
    best: tuple[int, Action] | None = None
    for action in legal:
        if isinstance(action, TakeDiscard) and action.card is not None:
            row = table.discard
            index = max(i for i, c in enumerate(row) if c == action.card)
            cost = len(row) - index
            if cost <= 3 and (best is None or cost < best[0]):
                best = (cost, action)
    if best is not None:
        return best[1]
    return _first(legal, Draw) or legal[0]


def _discard(
    view: PlayerView, legal: Sequence[Action], part: Partition, rng: random.Random
) -> Action | None:
    options = [a for a in legal if isinstance(a, Discard)]
    if not options:
        return None
    one = _points(view)
    loose = [a for a in options if a.card in part.deadwood and not a.card.is_joker]
    if loose and view.table.reuses >= 1 and rng.random() < RANDOM_DISCARD:
        return loose[rng.randrange(len(loose))]
    pool = loose or [a for a in options if not a.card.is_joker] or options
    return max(pool, key=lambda a: (rack_value(a.card, one, 25), a.card.sort_key))


def _play(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    extra = view.table.extra
    melds = [a for a in legal if isinstance(a, MeldCards)]
    if getattr(extra, "owed", None) is not None and melds:
        return max(melds, key=lambda a: sum(len(g) for g in a.groups))
    step = _plan_step(view, legal)
    if step is not None:
        return step
    if not view.table.has_melded[view.seat] and melds:
        return melds[0]
    exchange = next((a for a in legal if isinstance(a, ExchangeJoly | SwapJoker)), None)
    if exchange is not None:
        return exchange
    part = _partition(view, view.hand)
    offered = {a.groups[0]: a for a in melds if len(a.groups) == 1}
    for group in sorted(part.melds, key=lambda g: -len(g)):
        if group in offered:
            return offered[group]
    layoffs = [
        a
        for a in legal
        if isinstance(a, LayOff)
        and len(a.cards) == 1
        and (a.cards[0].card.is_joker or a.cards[0].card in part.deadwood)
    ]
    if layoffs:
        return max(
            layoffs,
            key=lambda a: (
                a.cards[0].card.is_joker,
                rack_value(a.cards[0].card, _points(view), 25),
            ),
        )
    return _discard(view, legal, part, rng) or legal[0]


def ai_move(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
    """The Romanian move for ``view`` (one of ``legal``), see the module docstring."""
    pre = [a for a in legal if isinstance(a, AnnounceFaceUp | AnswerDoubla | Ready)]
    if pre:
        announce = _first(pre, AnnounceFaceUp)
        if announce is not None:
            return announce
        answer = _first(pre, AnswerDoubla)
        if answer is not None:
            return as_action(AnswerDoubla(view.seat, None))
        return _first(pre, Ready) or legal[0]
    if view.table.phase is Phase.DRAW:
        return _draw(view, legal)
    if view.table.phase is Phase.PLAY:
        return _play(view, legal, rng)
    return legal[0]
