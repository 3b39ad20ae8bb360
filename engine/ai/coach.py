"""The coach: after a deal, the moves of one seat where the expert's alternative was
clearly better, each with the position as that seat saw it and a reason.

A *decision* (:class:`Decision`) is the seat's view before one of its own moves in the
draw or play phase (:class:`engine.views.PlayerView`), the legal actions then and the
action it took; :func:`record_decisions` builds them from a game record
(:func:`engine.records.replay_steps`). :func:`review_deal` looks at each of them:

1. *Screen*: a move the hard player would make from that view
   (:class:`engine.ai.hard.HardPlayer`, a few milliseconds) is not reviewed: the expert
   plays the hard player's move unless its own search finds a sure gain, and the coach
   flags only sure losses, so such a move is at most a near miss. A move with no
   alternative, or a view that cannot be determinised (a variant's pre-play step, German
   closing lay-offs), is not reviewed either.
2. *Evaluate*: the move taken and the hard player's move are played out on
   :attr:`CoachBudget.screen` determinisations; when the hard player's move gains more
   than half of :data:`MIN_LOSS` there, the move taken, the hard player's and the
   expert's next candidate (:func:`engine.ai.expert.candidates`) are played out on the
   same :attr:`CoachBudget.deals` determinisations of the view with the expert's own
   evaluation (:func:`engine.ai.expert.evaluate`: unseen cards dealt at random, greedy
   playouts for every seat, the outcome as the share of the hand won plus the points lead
   over :data:`engine.ai.expert.POINT_SCALE`).
3. *Judge*: the better move is the alternative with the highest mean; it is *clearly
   better* when its mean gain over the move taken (paired per determinisation) exceeds
   both :data:`MIN_LOSS` and :data:`SURE` standard errors of that mean. Measured
   (docs/ai.md, "The threshold, and why"): on 80 deals the expert played, the coach
   evaluated 61 of its moves and wrote no note; on 48 deals of the greedy player, played
   out with the full budget, 17 of 332 evaluated moves passed it. Two standard errors
   do most of the work (a playout's outcome is mostly noise); the minimum drops small
   consistent gains from playouts cut at the action limit (0.05 is one deadwood card
   there).
4. *Explain*: a :class:`Reason` read off the view (never the playouts' hidden cards):
   a lay-off or meld the better move makes, a meld in hand the discard broke, a partial
   meld the better discard keeps with its number of live completions, a discard the next
   player can lay off on the table or is likely to use, an upcard that completes a meld,
   more deadwood left, or just the playouts' estimate.

At most :data:`MOST_NOTES` notes per deal, the costliest first (then in play order).

Privacy: every card a note names (its position is the seat's own view; the actions and
the reason name cards of that view's hand, visible discard pile and melds) was visible to
the seat at that moment; ``tests/engine/test_coach_privacy.py`` checks it over simulated
deals of every variant.

Deterministic for a seed: every decision's sampling comes from ``random.Random`` seeded
by the seed, the view's version and the seat. The budget is a count of determinisations
and playout actions per decision, never wall time; :data:`COACH_BUDGETS` keeps a deal's
review within 2 s at the 99th percentile (``python -m benchmarks.coach``).
"""

from __future__ import annotations

import enum
import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.actions import Action, Discard, Draw, LayOff, MeldCards, SwapJoker, TakeDiscard
from engine.ai.expert import Budget, candidates, evaluate
from engine.ai.greedy_core import deadwood_after_discard, meld_completions
from engine.ai.hard import HardPlayer, feed_risk, live_outs, unseen_cards
from engine.cards import Card
from engine.commands import parse_record_line
from engine.game import legal_actions
from engine.records import replay_steps
from engine.search import best_melds, card_value, layoff_options
from engine.state import Phase
from engine.views import PlayerView, view_for

__all__ = [
    "COACH_BUDGETS",
    "MIN_LOSS",
    "MOST_NOTES",
    "MOST_OPTIONS",
    "SURE",
    "CoachBudget",
    "CoachNote",
    "DealReview",
    "Decision",
    "Reason",
    "ReasonKind",
    "deal_decisions",
    "deal_review",
    "explain",
    "judge",
    "record_decisions",
    "review_deal",
    "review_decision",
    "review_record",
]

MIN_LOSS = 0.12
"""The least mean gain, in the expert's outcome units (a whole hand won is 1, a points
lead of :data:`engine.ai.expert.POINT_SCALE` points is 1 more), for a move to be clearly
better: about one hand in eight, or 48 points of lead, and more than two deadwood cards
at a playout cut at the action limit (0.05 each). In Romanian Rummy 2 of 98 evaluated
moves of the greedy player had a gain beyond :data:`SURE` standard errors but below it
(docs/ai.md)."""

SURE = 2.0
"""Standard errors of the paired mean gain that the gain must exceed as well (a one-sided
test at about 2.5 % per comparison)."""

MOST_NOTES = 3
"""The most notes per deal and seat."""

MOST_OPTIONS = 3
"""The most moves played out per reviewed decision: the move taken, the hard player's
and the expert's next candidate (:func:`engine.ai.expert.candidates`)."""


@dataclass(frozen=True, slots=True)
class CoachBudget:
    """The coach's budget per reviewed decision, in counts (never time): the move taken
    and the hard player's are played on ``screen`` determinisations first, each for at
    most ``actions`` actions; only when the hard player's move gains more than half of
    :data:`MIN_LOSS` there are all candidates played on ``deals`` determinisations (the
    same stream again, so the first ``screen`` are the same deals)."""

    deals: int
    actions: int
    screen: int = 3


COACH_BUDGETS: dict[str, CoachBudget] = {
    "basic": CoachBudget(deals=8, actions=80),
    "500": CoachBudget(deals=5, actions=40, screen=2),
    "german": CoachBudget(deals=5, actions=50, screen=2),
    "romanian": CoachBudget(deals=4, actions=40, screen=2),
}
"""Budget per variant (others: :data:`DEFAULT_COACH_BUDGET`), so that a deal's review
stays within 2 s at the 99th percentile (docs/ai.md, "The coach")."""

DEFAULT_COACH_BUDGET = CoachBudget(deals=6, actions=60)

_LIVE = (Phase.DRAW, Phase.PLAY)


class ReasonKind(enum.StrEnum):
    """Why the better move was better, as read off the seat's view. The cards a reason
    names (:attr:`Reason.cards`) per kind:

    - ``lay_off``: the cards the better move lays off; ``points``: their penalty value.
    - ``meld``: the cards the better move melds; ``points``: their penalty value.
    - ``breaks_meld``: the discarded card, then the rest of the meld in hand it belonged to.
    - ``keeps_outs``: the two cards of the partial meld the move taken broke (the first is
      the card discarded); ``count``: its live completions (unseen cards that complete it).
    - ``feeds_table``: the discarded card; ``seat``: the next player, who can lay it off
      on a meld on the table.
    - ``feeds``: the discarded card; ``seat``: the next player, likely to use it.
    - ``take_fits``: the upcard, then the cards of the hand it melds with.
    - ``take_unused``: the upcard taken, which melds with nothing in the hand.
    - ``deadwood``: the card discarded and the better discard; ``points``: how many more
      deadwood points the move taken left.
    - ``playouts``: the cards of the two moves; nothing but the playouts' estimate.
    """

    LAY_OFF = "lay_off"
    MELD = "meld"
    BREAKS_MELD = "breaks_meld"
    KEEPS_OUTS = "keeps_outs"
    FEEDS_TABLE = "feeds_table"
    FEEDS = "feeds"
    TAKE_FITS = "take_fits"
    TAKE_UNUSED = "take_unused"
    DEADWOOD = "deadwood"
    PLAYOUTS = "playouts"


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a move was better (:class:`ReasonKind` says what ``cards``, ``points``,
    ``count`` and ``seat`` mean for each kind); every card is one the seat could see."""

    kind: ReasonKind
    cards: tuple[Card, ...] = ()
    points: int = 0
    count: int = 0
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Decision:
    """One move of a seat: its ``view`` before it (the position it saw), the ``legal``
    actions then and the action ``chosen``; ``deal`` (1-based) and ``turn`` (the seat's
    turn in the deal, 1-based) locate it."""

    deal: int
    turn: int
    view: PlayerView
    legal: tuple[Action, ...]
    chosen: Action


@dataclass(frozen=True, slots=True)
class CoachNote:
    """A move where the expert's alternative was clearly better.

    ``deal`` (1-based), ``turn`` (the seat's turn in the deal, 1-based) and ``version``
    (the table's version before the move) locate it; ``view`` is the position as the seat
    saw it (hand, upcard, discard pile as shown, melds). ``chosen``: the move taken;
    ``better``: the expert's alternative. The estimate, per deal, averaged over
    ``playouts`` determinisations: ``loss`` in the expert's outcome units (share of the
    hand plus points lead over 400), ``error`` its standard error, ``win_chance`` the
    share of the hand lost (0 to 1) and ``points`` the points lead lost.
    """

    deal: int
    turn: int
    version: int
    view: PlayerView
    chosen: Action
    better: Action
    loss: float
    error: float
    win_chance: float
    points: float
    playouts: int
    reason: Reason

    @property
    def seat(self) -> int:
        """The seat reviewed (0-based)."""
        return self.view.seat


@dataclass(frozen=True, slots=True)
class DealReview:
    """The coach's word on one ``deal`` (1-based) for ``seat``: its ``notes`` (empty: no
    move was clearly worse) and how many of its ``decisions`` it ``reviewed`` (the rest
    were the hard player's move, forced, or not rebuildable)."""

    deal: int
    seat: int
    notes: tuple[CoachNote, ...]
    decisions: int
    reviewed: int


# --- decisions ------------------------------------------------------------------------------


def record_decisions(record: Mapping[str, Any], seat: int) -> dict[int, list[Decision]]:
    """The decisions of ``seat`` (0-based) in every deal of a game ``record`` (the JSON
    object of :mod:`engine.records`), by deal number (1-based; a deal without a decision of
    the seat maps to an empty list). A decision is an action of the seat while it is the
    seat to move in the draw or play phase; calls out of turn and the steps between deals
    are not decisions. Raises :class:`engine.records.ReplayStopped` for a record that does
    not replay, ``IndexError`` for a seat not at the table."""
    out: dict[int, list[Decision]] = {}
    before = None
    turns = 0
    for step in replay_steps(record):
        if step.line is None:
            if not 0 <= seat < step.state.seats:
                raise IndexError(seat)
            out.setdefault(step.deal, [])
            before, turns = step.state, 0
            continue
        assert before is not None
        action = parse_record_line(step.line, before.players)
        if action.seat == seat and before.current == seat and before.phase in _LIVE:
            if before.phase is Phase.DRAW or (turns == 0):
                turns += 1
            out[step.deal].append(
                Decision(
                    step.deal,
                    turns,
                    view_for(before, seat),
                    tuple(legal_actions(before, seat)),
                    action,
                )
            )
        before = step.state
    return out


def deal_decisions(
    steps: Iterable[tuple[PlayerView, Sequence[Action], Action]], deal: int = 1
) -> list[Decision]:
    """:class:`Decision` records from (view, legal actions, chosen action) triples of one
    seat in one ``deal``, in play order (the turn counts up at each draw-phase view)."""
    out: list[Decision] = []
    turns = 0
    for view, legal, chosen in steps:
        if view.table.phase is Phase.DRAW or turns == 0:
            turns += 1
        out.append(Decision(deal, turns, view, tuple(legal), chosen))
    return out


# --- review ---------------------------------------------------------------------------------


def review_record(
    record: Mapping[str, Any],
    seat: int,
    deal: int | None = None,
    seed: int = 0,
    budget: CoachBudget | None = None,
) -> tuple[DealReview, ...]:
    """The coach's review of ``seat`` (0-based) in every deal of a game ``record``, or only
    in ``deal`` (1-based; e.g. the deal that just finished): one :class:`DealReview` per
    deal, in order. This is the function a service calls after a deal, in its engine
    worker pool. ``seed`` and ``budget`` as in :func:`review_deal`. Raises
    :class:`engine.records.ReplayStopped` for a record that does not replay and
    ``IndexError`` for a seat not at the table (or a ``deal`` the record does not have)."""
    found = record_decisions(record, seat)
    if deal is not None and deal not in found:
        raise IndexError(deal)
    numbers = [deal] if deal is not None else sorted(found)
    return tuple(deal_review(found[n], n, seat, seed, budget) for n in numbers)


def deal_review(
    decisions: Sequence[Decision],
    deal: int,
    seat: int,
    seed: int = 0,
    budget: CoachBudget | None = None,
) -> DealReview:
    """:func:`review_deal` of the ``decisions`` of ``seat`` (0-based) in ``deal``
    (1-based) as a :class:`DealReview` (with how many decisions were evaluated)."""
    notes, reviewed = _review(decisions, seed, budget)
    return DealReview(deal, seat, notes, len(decisions), reviewed)


def review_deal(
    decisions: Sequence[Decision], seed: int = 0, budget: CoachBudget | None = None
) -> tuple[CoachNote, ...]:
    """The notes on one deal of one seat: at most :data:`MOST_NOTES` of ``decisions``
    (the seat's moves in play order, :func:`record_decisions` or :func:`deal_decisions`)
    where the expert's alternative was clearly better (see the module docstring), the
    costliest first (ties in play order); empty when no move was clearly worse.

    ``budget``: determinisations and playout actions per reviewed decision (default: the
    variant's :data:`COACH_BUDGETS` entry). Deterministic for ``seed``; sees only the
    decisions' views."""
    return _review(decisions, seed, budget)[0]


def _review(
    decisions: Sequence[Decision], seed: int, budget: CoachBudget | None
) -> tuple[tuple[CoachNote, ...], int]:
    notes: list[CoachNote] = []
    reviewed = 0
    for decision in decisions:
        note, looked = _decision_note(decision, seed, budget)
        reviewed += looked
        if note is not None:
            notes.append(note)
    ranked = sorted(enumerate(notes), key=lambda item: (-item[1].loss, item[0]))
    return tuple(n for _, n in ranked[:MOST_NOTES]), reviewed


def review_decision(
    decision: Decision, seed: int = 0, budget: CoachBudget | None = None
) -> CoachNote | None:
    """The note on one decision (:func:`review_deal`'s steps 1-4), or ``None`` when the
    move taken was the hard player's, forced, not rebuildable or not clearly worse."""
    return _decision_note(decision, seed, budget)[0]


def _decision_note(
    decision: Decision, seed: int, budget: CoachBudget | None
) -> tuple[CoachNote | None, int]:
    """The note on ``decision`` (or ``None``) and 1 when it was evaluated, else 0."""
    view, legal, chosen = decision.view, decision.legal, decision.chosen
    if view.table.phase not in _LIVE or view.table.current != view.seat or len(legal) < 2:
        return None, 0
    hard = HardPlayer(seed).decide(view, legal)
    if _same(hard, chosen):
        return None, 0
    options: list[Action] = [chosen]
    for action in candidates(view, legal, hard):
        if len(options) < MOST_OPTIONS and not any(_same(action, o) for o in options):
            options.append(action)
    if len(options) < 2:
        return None, 0
    size = budget or COACH_BUDGETS.get(view.table.rules.variant, DEFAULT_COACH_BUDGET)
    stream = f"coach/{seed}/{view.table.version}/{view.seat}"
    first = min(size.screen, size.deals)
    screen = evaluate(view, legal, options[:2], Budget(first, size.actions), random.Random(stream))
    if not screen.shares or _mean_gain(screen.values(), 1) <= MIN_LOSS / 2:
        return None, 1
    playouts = evaluate(
        view, legal, options, Budget(size.deals, size.actions), random.Random(stream)
    )
    shares, leads = playouts.shares, playouts.leads
    rows = playouts.values()
    verdict = judge(rows)
    if verdict is None:
        return None, 1
    best, loss, error = verdict
    share_gain = [r[best] - r[0] for r in shares]
    lead_gain = [r[best] - r[0] for r in leads]
    better = options[best]
    note = CoachNote(
        deal=decision.deal,
        turn=decision.turn,
        version=view.table.version,
        view=view,
        chosen=chosen,
        better=better,
        loss=loss,
        error=error,
        win_chance=sum(share_gain) / len(share_gain),
        points=sum(lead_gain) / len(lead_gain),
        playouts=len(rows),
        reason=explain(view, chosen, better),
    )
    return note, 1


def judge(rows: Sequence[Sequence[float]]) -> tuple[int, float, float] | None:
    """The clearly better alternative in ``rows`` (per determinisation, the outcome of
    each action; column 0 the move taken): ``(column, mean gain, standard error)`` of the
    alternative with the highest mean gain over column 0 (paired per row) when that gain
    exceeds :data:`MIN_LOSS` and :data:`SURE` standard errors; ``None`` otherwise or with
    fewer than two rows."""
    n = len(rows)
    if n < 2:
        return None
    best: tuple[int, float, float] | None = None
    for column in range(1, len(rows[0])):
        diffs = [row[column] - row[0] for row in rows]
        mean = sum(diffs) / n
        error = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
        if best is None or mean > best[1]:
            best = (column, mean, error)
    if best is None or best[1] <= MIN_LOSS or best[1] <= SURE * best[2]:
        return None
    return best


def _mean_gain(rows: Sequence[Sequence[float]], column: int) -> float:
    return sum(row[column] - row[0] for row in rows) / len(rows)


def _same(a: Action, b: Action) -> bool:
    """Whether two moves are the same move: equal, or melds of the same cards in any
    order."""
    if a == b:
        return True
    if isinstance(a, MeldCards) and isinstance(b, MeldCards):
        return a.seat == b.seat and _groups(a) == _groups(b)
    return False


def _groups(action: MeldCards) -> Counter[frozenset[tuple[Card, Card | None]]]:
    return Counter(frozenset((s.card, s.face) for s in g) for g in action.groups)


# --- reasons --------------------------------------------------------------------------------


def explain(view: PlayerView, chosen: Action, better: Action) -> Reason:
    """Why ``better`` beats ``chosen`` from ``view`` (:class:`ReasonKind`), read off the
    view alone: the first that holds of a lay-off or meld the better move makes (and the
    move taken does not), a meld in hand the discard broke, a discard the next player can
    lay off on the table, an upcard that completes a meld, a partial meld with live
    completions the better discard keeps, more deadwood left, a discard the next player is
    likely to use, an upcard taken that melds with nothing; else the playouts' estimate."""
    table = view.table
    if isinstance(better, LayOff) and not isinstance(chosen, LayOff):
        cards = tuple(s.card for s in better.cards)
        return Reason(ReasonKind.LAY_OFF, cards, points=_value(cards, view))
    if isinstance(better, MeldCards) and not isinstance(chosen, MeldCards):
        cards = tuple(s.card for g in better.groups for s in g)
        return Reason(ReasonKind.MELD, cards, points=_value(cards, view))
    if isinstance(chosen, Discard) and isinstance(better, Discard):
        return _discard_reason(view, chosen.card, better.card)
    upcard = table.upcard
    if isinstance(better, TakeDiscard) and isinstance(chosen, Draw) and upcard is not None:
        card = better.card or upcard
        partners = _meld_partners(view.hand, card, view)
        if partners:
            return Reason(ReasonKind.TAKE_FITS, (card, *partners))
    if isinstance(chosen, TakeDiscard) and isinstance(better, Draw) and upcard is not None:
        card = chosen.card or upcard
        if not _meld_partners(view.hand, card, view) and not _pairs_with(view.hand, card, view):
            return Reason(ReasonKind.TAKE_UNUSED, (card,))
    return Reason(ReasonKind.PLAYOUTS, _action_cards(chosen) + _action_cards(better))


def _discard_reason(view: PlayerView, taken: Card, kept: Card) -> Reason:
    """:func:`explain` for two discards: ``taken`` (the move taken) and ``kept`` (the
    better discard, which keeps ``taken``)."""
    table = view.table
    rules = table.rules
    hand = view.hand
    part = best_melds(hand, rules)
    for group in part.melds:
        cards = [s.card for s in group]
        if taken in cards and kept not in cards:
            rest = list(cards)
            rest.remove(taken)
            return Reason(ReasonKind.BREAKS_MELD, (taken, *rest))
    following = (view.seat + 1) % len(table.players)
    if table.melds and following != view.seat:
        fits_taken = layoff_options((taken,), table.melds, rules, following)
        fits_kept = layoff_options((kept,), table.melds, rules, following)
        if fits_taken and not fits_kept:
            return Reason(ReasonKind.FEEDS_TABLE, (taken,), seat=following)
    unseen = unseen_cards(view)
    counts = Counter((c.rank, c.suit) for c in unseen if not c.is_joker)
    ace = rules.var.meld_rules(rules).ace
    without_taken = _without(hand, taken)
    without_kept = _without(hand, kept)
    if live_outs(without_kept, counts, ace) > live_outs(without_taken, counts, ace):
        pair = _best_pair(taken, without_taken, counts, ace)
        if pair is not None:
            partner, ways = pair
            return Reason(ReasonKind.KEEPS_OUTS, (taken, partner), count=ways)
    values = dict(deadwood_after_discard(hand, rules, keep=table.taken))
    if taken in values and kept in values and values[taken] > values[kept]:
        return Reason(ReasonKind.DEADWOOD, (taken, kept), points=values[taken] - values[kept])
    if following != view.seat:
        size = table.hand_sizes[following]
        if feed_risk(taken, unseen, size, ace) >= feed_risk(kept, unseen, size, ace) + 0.2:
            return Reason(ReasonKind.FEEDS, (taken,), seat=following)
    return Reason(ReasonKind.PLAYOUTS, (taken, kept))


def _best_pair(
    card: Card, others: Sequence[Card], counts: Counter[tuple[int, Any]], ace: Any
) -> tuple[Card, int] | None:
    """The card of ``others`` that with ``card`` has the most live completions (distinct
    unseen cards that complete the three-card meld), and their number; ``None`` for none."""
    if card.is_joker:
        return None
    best: tuple[Card, int] | None = None
    for other in others:
        if other.is_joker or other == card:
            continue
        ways = sum(1 for w in meld_completions(card, other, ace) if counts.get(w, 0))
        if ways and (best is None or ways > best[1]):
            best = (other, ways)
    return best


def _meld_partners(hand: Sequence[Card], card: Card, view: PlayerView) -> tuple[Card, ...]:
    """The cards of ``hand`` that ``card`` melds with in the best partition of the hand with
    it; empty when it stays deadwood."""
    part = best_melds((*hand, card), view.table.rules)
    for group in part.melds:
        cards = [s.card for s in group]
        if card in cards:
            cards.remove(card)
            return tuple(cards)
    return ()


def _pairs_with(hand: Sequence[Card], card: Card, view: PlayerView) -> bool:
    """Whether ``card`` and a card of ``hand`` are two thirds of a meld."""
    if card.is_joker:
        return True
    ace = view.table.rules.var.meld_rules(view.table.rules).ace
    return any(not c.is_joker and meld_completions(card, c, ace) for c in hand)


def _without(cards: Sequence[Card], card: Card) -> tuple[Card, ...]:
    out = list(cards)
    out.remove(card)
    return tuple(out)


def _value(cards: Sequence[Card], view: PlayerView) -> int:
    return sum(card_value(c, view.table.rules) for c in cards)


def _action_cards(action: Action) -> tuple[Card, ...]:
    """The cards an action names (the hand's, or the discard pile's it takes)."""
    match action:
        case TakeDiscard(card=card) if card is not None:
            return (card,)
        case Discard(card=card) | SwapJoker(card=card):
            return (card,)
        case MeldCards(groups=groups):
            return tuple(s.card for g in groups for s in g)
        case LayOff(cards=cards):
            return tuple(s.card for s in cards)
    return ()
