"""The greedy AI's German Rommé moves (:meth:`Variant.ai_move`); it sees only its view.

- Before its first meld it takes the upcard only when it improves its melds, and melds
  only a whole first meld at once: the melds of the best partition of its hand
  (:func:`engine.search.best_melds`, joker rules checked) when they reach the minimum,
  keeping one card to discard; or all of them when only one card is left (hand rummy,
  where the minimum does not apply). Else it plays the shared greedy turn without melding
  (discard). Melds left provisional (a human's turn handed to the autopilot) are
  completed or taken back.
- With two cards or fewer it takes the upcard only to lay it off.
- After its first meld: a joker exchange when it lowers the deadwood, else the shared
  greedy turn.
- Lay-offs after someone went out: the most valuable card first, then ``done``.
- Buy-back (pot play): when the points it would take are at most two thirds of the target.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.actions import Action, Discard, LayOff, MeldCards
from engine.ai.greedy_core import GreedyCore, take_or_draw, takes_upcard
from engine.cards import JOKER, Card
from engine.melds import CardSpec, MeldKind, readings
from engine.search import best_melds, layoff_options
from engine.state import Phase
from engine.variants.german.actions import (
    BuyBack,
    DeclineBuyBack,
    EndLayOffs,
    ExchangeJoker,
    TakeBack,
)
from engine.variants.german.melds import meld_rules
from engine.variants.german.values import card_points, meld_value
from engine.variants.german.views import GermanTable, SeatStatus
from engine.views import PlayerView

Group = tuple[CardSpec, ...]


def ai_move(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Any:
    """The move for the greedy AI, or ``None`` for the shared greedy logic."""
    status = view.extra
    if not isinstance(status, SeatStatus):
        return None
    decision = _buyback(view, legal) or _closing(view, legal)
    if decision is not None:
        return decision
    if view.table.phase is Phase.DRAW and not status.opened:
        return _draw_unopened(view, legal)
    if view.table.phase is Phase.DRAW and len(view.hand) <= 2:
        return _draw_short(view, legal)
    if view.table.phase is not Phase.PLAY or status.dealer_discard:
        return None
    if not status.opened:
        if len(view.hand) == 1:
            out = next((a for a in legal if isinstance(a, Discard)), None)
            if out is not None:
                return out
        plan = opening_plan(view, status)
        if plan is not None:
            return plan
        take_back = next((a for a in legal if isinstance(a, TakeBack)), None)
        if take_back is not None:
            return take_back
        rest = [a for a in legal if not isinstance(a, MeldCards | TakeBack)]
        return _greedy(view, rest, rng) if rest else None
    return best_exchange(view, legal)


def _draw_unopened(view: PlayerView, legal: Sequence[Action]) -> Action | None:
    """Before the first meld nothing can be laid off, so the upcard is taken only when it
    goes into a meld and lowers the deadwood (:func:`engine.ai.greedy.takes_upcard`)."""
    return take_or_draw(
        view, legal, lambda upcard: takes_upcard(view.hand, upcard, view.table.rules)
    )


def _draw_short(view: PlayerView, legal: Sequence[Action]) -> Action | None:
    """With two cards at most a taken upcard cannot go into a new meld (one card must stay
    for the discard, and not the taken one), so it is taken only to be laid off; taking
    cards back and forth would otherwise never end a deal."""
    return take_or_draw(
        view,
        legal,
        lambda upcard: bool(
            layoff_options((upcard,), view.table.melds, view.table.rules, view.seat)
        ),
    )


def _greedy(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
    player = GreedyCore()
    player.rng = rng
    return player.play(view, legal)


def _buyback(view: PlayerView, legal: Sequence[Any]) -> Any:
    buy = next((a for a in legal if isinstance(a, BuyBack)), None)
    decline = next((a for a in legal if isinstance(a, DeclineBuyBack)), None)
    if buy is None or decline is None:
        return None
    table = view.table.extra
    target = view.table.rules.number("target")
    if (
        isinstance(table, GermanTable)
        and target is not None
        and table.buyback_points * 3 <= target * 2
    ):
        return buy
    return decline


def _closing(view: PlayerView, legal: Sequence[Any]) -> Any:
    done = next((a for a in legal if isinstance(a, EndLayOffs)), None)
    if done is None:
        return None
    rules = view.table.rules
    layoffs = [a for a in legal if isinstance(a, LayOff)]
    if not layoffs:
        return done
    return max(layoffs, key=lambda a: card_points(rules, a.cards[0].card))


def _valid(view: PlayerView, group: Group) -> bool:
    return len(readings(group, view.seat, meld_rules(view.table.rules))) == 1


def _value(view: PlayerView, group: Group) -> int:
    found = readings(group, view.seat, meld_rules(view.table.rules))
    return meld_value(view.table.rules, found[0])


def _trim(view: PlayerView, groups: list[Group]) -> list[Group]:
    """Keep one card out of ``groups`` (which use the whole hand): drop a natural end card
    of a run of 4+, or a card of a set of 4, the cheapest first; else the cheapest meld."""
    rules = view.table.rules
    options: list[tuple[int, int, Group]] = []
    for i, group in enumerate(groups):
        if len(group) < 4:
            continue
        kind = readings(group, view.seat, meld_rules(rules))[0].kind
        ends = (0, len(group) - 1) if kind is MeldKind.RUN else tuple(range(len(group)))
        for end in ends:
            card = group[end].card
            smaller = group[:end] + group[end + 1 :]
            if not card.is_joker and _valid(view, smaller):
                options.append((card_points(rules, card), i, smaller))
    if options:
        _, i, smaller = min(options, key=lambda o: (o[0], o[1]))
        return [*groups[:i], smaller, *groups[i + 1 :]]
    cheapest = min(range(len(groups)), key=lambda i: _value(view, groups[i]))
    return groups[:cheapest] + groups[cheapest + 1 :]


def opening_plan(view: PlayerView, status: SeatStatus) -> MeldCards | None:
    """A whole first meld from the hand, or hand rummy; ``None`` when there is none."""
    hand = view.hand
    table = view.table
    groups = [g for g in best_melds(hand, table.rules).melds if _valid(view, g)]
    if not groups:
        return None
    if sum(len(g) for g in groups) >= len(hand):
        groups = _trim(view, groups)
        if not groups:
            return None
    left = list((Counter(hand) - Counter(s.card for g in groups for s in g)).elements())
    total = status.opening_total + sum(_value(view, g) for g in groups)
    no_rummy = table.rules.flag("no_rummy_first_turn") and status.first_turn and status.fresh
    if len(left) == 1 and no_rummy:
        if len(groups) == 1:
            return None
        groups = sorted(groups, key=lambda g: _value(view, g))[1:]
        left = list((Counter(hand) - Counter(s.card for g in groups for s in g)).elements())
        total = status.opening_total + sum(_value(view, g) for g in groups)
    if not _keeps_discard(left, table.taken):
        return None
    if len(left) == 1 and not no_rummy:
        return MeldCards(view.seat, tuple(groups))
    if total < status.opening_needed:
        return None
    return MeldCards(view.seat, tuple(groups))


def _keeps_discard(left: list[Card], taken: Card | None) -> bool:
    return bool(left) and not (taken is not None and all(c == taken for c in left))


def best_exchange(view: PlayerView, legal: Sequence[Any]) -> ExchangeJoker | None:
    """The exchange that lowers the deadwood most, if any."""
    options = [a for a in legal if isinstance(a, ExchangeJoker)]
    if not options:
        return None
    rules = view.table.rules
    now = best_melds(view.hand, rules).deadwood_points
    best: tuple[int, ExchangeJoker] | None = None
    for action in options:
        used = Counter(action.cards) + Counter(s.card for s in action.group)
        used[JOKER] -= action_freed(action, view)
        rest = list((Counter(view.hand) - +used).elements())
        after = best_melds(rest, rules).deadwood_points
        if after < now and (best is None or after < best[0]):
            best = (after, action)
    return best[1] if best is not None else None


def action_freed(action: ExchangeJoker, view: PlayerView) -> int:
    """Jokers the exchange frees: one, or every joker of a set under ``set_swap_four``."""
    meld = view.table.melds[action.meld]
    if len(action.cards) > 1:
        return sum(1 for p in meld.cards if p.card.is_joker)
    return 1
