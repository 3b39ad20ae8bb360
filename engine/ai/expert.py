"""The expert player: the hard player's choices, checked by a search over determinised deals.

It sees only its :class:`engine.views.PlayerView` and the legal actions, like every
player (it gets no game state). At its two kinds of decision that shape a hand most,
the draw (stock or discard pile) and the discard, it:

1. lists a few *candidates*: the choice of the expert's policy
   (:class:`engine.ai.expert_policy.PolicyPlayer`: the hard player,
   :class:`engine.ai.hard.HardPlayer`, with the weights and thresholds tuned per variant
   in :data:`engine.ai.expert_policy.TUNED`: in Rummy 500 it melds once the other
   players hold eight cards, elsewhere it is the hard player's choice) and the next
   best by the policy's
   own order (:func:`engine.ai.expert_policy.discard_key` for discards; the stock and the
   upcard for draws), at most :data:`CANDIDATES`;
2. samples :attr:`Budget.deals` *determinisations* (:func:`determinise`): the cards the
   seat has not seen (:func:`engine.ai.hard.unseen_cards`: not in its hand, not on the
   table, not visible in the discard pile) dealt at random to the other hands (as many as
   each holds, ``hand_sizes``), the hidden part of the discard pile (``discard_size``)
   and the stock (``stock_size``), with the public table and the variant's public and
   private records of the view rebuilt into a :class:`engine.state.GameState`;
3. plays every candidate on every determinisation (the same deals for all candidates:
   common random numbers) to the end of the deal with the greedy policy for every seat
   (:class:`engine.ai.greedy.GreedyPlayer`; in German Rommé and Rummy 500 playouts the
   hard player's policy costs ten times as much per action, too much for the decision
   budget), at most
   :attr:`Budget.actions` actions, and scores the outcome for the seat
   (:func:`outcome`: the share of the hand won plus the points lead over
   :data:`POINT_SCALE`; a playout cut at the action limit scores by deadwood);
4. keeps the hard player's choice unless another candidate's mean is better by more than
   :data:`MARGIN` and by more than :data:`SURE` standard errors of the paired
   differences (a deviation must be worth its noise: one different action early in a
   playout changes every card drawn after it, so single playouts diverge widely).

Every other decision (melds, lay-offs, calls, the variants' own moves) is the hard
player's. A determinisation whose rebuilt state does not give the seat exactly the
legal draws, or in the play phase the legal discards, it was given (a variant record the
view does not show) is not used; with none left the hard player's choice stands.

The view holds no history, so a card an opponent took from the discard pile and still
holds is dealt like any other unseen card (the seat's AI is built anew for each
decision, as the service builds it).

Deterministic for a view and a seed: all sampling comes from ``random.Random`` seeded
by the AI's seed, the table's version and the seat. The budget is counted in deals and
actions, never in wall time, so a decision never depends on the machine's speed;
:data:`BUDGETS` is set per variant so that the decision time stays within 500 ms at the
99th percentile (``rummy-bot bench --only strength`` prints it).

Strength (docs/performance.md, "The expert AI"): in Rummy 500 it wins 68 % of
duplicate hands against the hard player with a lead in points, from its tuned policy;
in the other variants it is not measurably stronger than the hard player. Tried and not
kept (duplicate self-play against the hard player on tuning seeds 50000..,
docs/performance.md): other values of the hard player's weights and thresholds there
(none won more hands than the hard player's own), and playouts that follow the hard
player's policy instead of the greedy one (basic: 40 % of 40 hands, decision p99 343 ms
CPU).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from engine.actions import Action, Discard, Draw, TakeDiscard
from engine.ai.expert_policy import PolicyPlayer, discard_key, params_for
from engine.ai.greedy import GreedyPlayer
from engine.ai.greedy_core import deadwood_after_discard
from engine.ai.hard import unseen_cards
from engine.ai.interrupt import interrupt
from engine.cards import Card
from engine.errors import EngineError
from engine.game import apply, apply_legal, legal_actions
from engine.search import best_melds
from engine.state import GameState, Phase, TurnState
from engine.variants.german.state import GermanState, GermanTurn
from engine.variants.german.views import GermanTable, SeatStatus
from engine.variants.romanian.state import RomanianExtra
from engine.variants.romanian.state import TurnExtra as RomanianTurn
from engine.variants.romanian.variant import PublicExtra as RomanianTable
from engine.variants.rummy500.state import GameExtra, PublicExtra, TurnExtra
from engine.views import PlayerView, view_for

__all__ = [
    "BUDGETS",
    "CANDIDATES",
    "MARGIN",
    "POINT_SCALE",
    "Budget",
    "ExpertPlayer",
    "Playouts",
    "candidates",
    "determinise",
    "evaluate",
    "outcome",
    "outcome_parts",
]


@dataclass(frozen=True, slots=True)
class Budget:
    """The search's size per decision: ``deals`` determinisations, each candidate played
    on each of them for at most ``actions`` actions."""

    deals: int
    actions: int


BUDGETS: dict[str, Budget] = {
    "basic": Budget(deals=6, actions=80),
    "500": Budget(deals=3, actions=80),
    "german": Budget(deals=4, actions=60),
    "romanian": Budget(deals=3, actions=80),
}
"""Budget per variant (others: :data:`DEFAULT_BUDGET`), for a decision p99 of at most
500 ms: measured 150-203 ms CPU at the 99th percentile, 231 ms at most (docs/performance.md,
"The expert AI")."""

DEFAULT_BUDGET = Budget(deals=4, actions=100)

CANDIDATES = 3
"""The most candidates searched per decision (the hard player's choice among them)."""

MARGIN = 0.15
"""How much better (in :func:`outcome` units, about a share of hands) another candidate's
mean must be than the hard player's choice to replace it."""

SURE = 2.0
"""Standard errors of the mean difference the gain must exceed as well (paired over the
determinisations: common random numbers)."""

POINT_SCALE = 400.0
"""Points of lead worth one whole hand won in :func:`outcome`."""

_LIVE = (Phase.DRAW, Phase.PLAY)


def determinise(view: PlayerView, rng: random.Random) -> GameState | None:
    """A full game state consistent with ``view``: the seat's hand, the public table and
    the variant's records as the view shows them; every unseen card
    (:func:`engine.ai.hard.unseen_cards`) dealt at random (``rng``) to the other hands,
    the hidden part of the discard pile and the stock. ``None`` when the view's phase or
    records cannot be rebuilt (between deals, a variant's pre-play step, German closing
    lay-offs or buy-backs) or the card counts do not add up."""
    table = view.table
    if table.phase not in _LIVE or table.current is None:
        return None
    seats = len(table.players)
    unseen = unseen_cards(view)
    face_up = getattr(table.extra, "face_up", None)
    if isinstance(face_up, Card) and face_up in unseen:
        unseen.remove(face_up)  # Romanian: the face-up tile lies open beside the stock
    hidden_discard = table.discard_size - len(table.discard)
    need = (
        sum(n for s, n in enumerate(table.hand_sizes) if s != view.seat)
        + hidden_discard
        + table.stock_size
    )
    if need != len(unseen) or hidden_discard < 0:
        return None
    rng.shuffle(unseen)
    hands: list[tuple[Card, ...]] = []
    at = 0
    for seat in range(seats):
        if seat == view.seat:
            hands.append(view.hand)
            continue
        size = table.hand_sizes[seat]
        hands.append(tuple(unseen[at : at + size]))
        at += size
    discard = (*unseen[at : at + hidden_discard], *table.discard)
    at += hidden_discard
    stock = tuple(unseen[at:])
    records = _records(view)
    if records is None:
        return None
    extra, turn_extra, has_played = records
    fresh = not has_played[table.current]
    return GameState(
        rules=table.rules,
        players=table.players,
        seed=rng.getrandbits(62),
        deal_number=table.deal_number,
        dealer=table.dealer,
        phase=table.phase,
        current=table.current,
        hands=tuple(hands),
        stock=stock,
        discard=discard,
        melds=table.melds,
        turn=TurnState(taken=table.taken, fresh=fresh, extra=turn_extra),
        has_melded=table.has_melded,
        has_played=has_played,
        reuses=table.reuses,
        totals=table.totals,
        results=table.results,
        winners=table.winners,
        version=table.version,
        extra=extra,
    )


def _records(view: PlayerView) -> tuple[object, object, tuple[bool, ...]] | None:
    """The variant's game record, turn record and ``has_played`` rebuilt from ``view``
    (``None`` where the view's phase cannot be rebuilt). A seat has played (melded or
    laid off) this deal when it has melded; the seat's own flag comes from its private
    record where the variant keeps one."""
    table = view.table
    variant = table.rules.variant
    has_played = tuple(table.has_melded)
    if variant == "500":
        public = table.extra
        if not isinstance(public, PublicExtra):
            return None
        owed = TurnExtra(public.must_play) if public.must_play is not None else None
        return GameExtra(public.call_window), owed, has_played
    if variant == "german":
        public, own = table.extra, view.extra
        if (
            not isinstance(public, GermanTable)
            or not isinstance(own, SeatStatus)
            or public.closing
            or public.buyback is not None
        ):
            return None
        seats = len(table.players)
        played = tuple(not own.first_turn if s == view.seat else True for s in range(seats))
        has_played = tuple(not own.fresh if s == view.seat else f for s, f in enumerate(has_played))
        state = GermanState(
            played=played,
            bought_back=public.bought_back,
            out_in=tuple(1 if e else 0 for e in public.eliminated),
            chips=public.chips if public.chips is not None else (Fraction(0),) * seats,
            pot=public.pot,
            stolen=public.stolen,
        )
        turn = GermanTurn(
            first=own.first_turn,
            provisional=own.provisional,
            total=own.opening_total,
            laid_off=own.laid_off,
            dealer_discard=own.dealer_discard,
            opened_now=own.opened and own.opening_total > 0,
        )
        return state, turn, has_played
    if variant == "romanian":
        public = table.extra
        if not isinstance(public, RomanianTable) or public.preplay or public.owed is not None:
            return None
        extra = RomanianExtra(
            face_up=public.face_up,
            preplay=None,
            announced=public.announced,
            jolys=public.jolys,
            low=public.low,
            played=(True,) * len(table.players),
        )
        return extra, RomanianTurn(out=public.going_out, opening=public.opening_turn), has_played
    if table.extra is not None or view.extra is not None:
        return None
    return None, None, has_played


def candidates(view: PlayerView, legal: Sequence[Action], choice: Action) -> list[Action]:
    """The actions searched: ``choice`` (the hard player's) first, then in the draw phase
    the stock and the upcard, in the play phase (when ``choice`` is a discard) the other
    discards in :func:`engine.ai.hard.race_key` order; at most :data:`CANDIDATES`, only
    elements of ``legal``. A single candidate means no search."""
    out: list[Action] = [choice]
    table = view.table
    if table.phase is Phase.DRAW:
        for action in legal:
            drawn = isinstance(action, Draw) or (
                isinstance(action, TakeDiscard) and action.card in (None, table.upcard)
            )
            if drawn and action not in out:
                out.append(action)
    elif isinstance(choice, Discard):
        options = {a.card: a for a in legal if isinstance(a, Discard)}
        if len(options) > 1:
            unseen = unseen_cards(view)
            values = dict(deadwood_after_discard(view.hand, table.rules, keep=table.taken))
            params = params_for(table.rules.variant)
            ranked = sorted(options, key=lambda c: discard_key(view, c, unseen, values, params))
            out.extend(options[c] for c in ranked if options[c] != choice)
    return out[:CANDIDATES]


def outcome(state: GameState, seat: int) -> float:
    """The playout's value for ``seat``: after a finished deal, its share of the hand
    (1 for going out, else shared among the fewest penalty points) plus its score lead over
    the best other seat in the variant's own scoring over :data:`POINT_SCALE`; for a
    playout stopped before the end, 0.5 plus 0.05 per deadwood card fewer than the best
    other seat's hand (best partition, :func:`engine.search.best_melds`)."""
    share, lead = outcome_parts(state, seat)
    return share + lead / POINT_SCALE


def outcome_parts(state: GameState, seat: int) -> tuple[float, float]:
    """The two parts of :func:`outcome` for ``seat``: (share of the hand, 0 to 1; points
    lead over the best other seat in the variant's scoring, signed so that more is better
    for ``seat``). A playout stopped before the end has no points: (0.5 plus 0.05 per
    deadwood card fewer than the best other hand, 0.0)."""
    if state.phase in _LIVE:
        rules = state.rules
        own = len(best_melds(state.hands[seat], rules).deadwood)
        others = min(
            len(best_melds(h, rules).deadwood) for s, h in enumerate(state.hands) if s != seat
        )
        return 0.5 + 0.05 * (others - own), 0.0
    if not state.results:
        return 0.5, 0.0
    result = state.results[-1]
    if result.winner is not None:
        share = 1.0 if result.winner == seat else 0.0
    else:
        least = min(result.points)
        best = [s for s, p in enumerate(result.points) if p == least]
        share = 1.0 / len(best) if seat in best else 0.0
    sign = (
        1 if state.rules.var.match_winners(state.rules, (Fraction(1), Fraction(0))) == (0,) else -1
    )
    rivals = [float(v) for i, v in enumerate(result.scores) if i != seat]
    if not rivals:
        return share, 0.0
    lead = sign * (float(result.scores[seat]) - (max(rivals) if sign > 0 else min(rivals)))
    return share, lead


@dataclass(frozen=True, slots=True)
class Playouts:
    """What :func:`evaluate` measured: ``actions`` as given, and per usable
    determinisation (row) and action (column) the :func:`outcome_parts` of the playout:
    ``shares`` (0 to 1) and ``leads`` (points). The same determinisations and policy
    seeds serve every action (common random numbers), so columns compare pairwise."""

    actions: tuple[Action, ...]
    shares: tuple[tuple[float, ...], ...]
    leads: tuple[tuple[float, ...], ...]

    def values(self) -> list[list[float]]:
        """Per row and action the :func:`outcome` value (share plus lead over
        :data:`POINT_SCALE`)."""
        return [
            [s + p / POINT_SCALE for s, p in zip(shares, leads, strict=True)]
            for shares, leads in zip(self.shares, self.leads, strict=True)
        ]


def evaluate(
    view: PlayerView,
    legal: Sequence[Action],
    actions: Sequence[Action],
    budget: Budget,
    rng: random.Random,
) -> Playouts:
    """Play each of ``actions`` (for ``view.seat``, elements of ``legal`` or moves the
    verifying :func:`engine.game.apply` accepts) on the same :attr:`Budget.deals`
    determinisations of ``view`` (:func:`determinise`, sampled from ``rng``) to the end of
    the deal or :attr:`Budget.actions` actions of the greedy policy, as
    :meth:`ExpertPlayer.decide` does. A determinisation that does not reproduce the
    seat's legal draws (or, in the play phase, discards), or on which one of ``actions``
    is refused, is left out (so fewer rows than deals, none for a view that cannot be
    rebuilt). Sees only ``view``; deterministic for ``rng``'s state."""
    phase = view.table.phase
    wanted = _searched(legal, phase)
    known = set(legal)
    shares: list[tuple[float, ...]] = []
    leads: list[tuple[float, ...]] = []
    for _ in range(budget.deals):
        state = determinise(view, rng)
        if state is None or _searched(legal_actions(state, view.seat), phase) != wanted:
            continue
        policy_seed = rng.getrandbits(32)
        try:
            parts = [
                outcome_parts(
                    _playout_state(state, action, policy_seed, budget.actions, action in known),
                    view.seat,
                )
                for action in actions
            ]
        except EngineError:
            continue
        shares.append(tuple(p[0] for p in parts))
        leads.append(tuple(p[1] for p in parts))
    return Playouts(tuple(actions), tuple(shares), tuple(leads))


class ExpertPlayer(PolicyPlayer):
    """The ``expert`` AI (see the module docstring). ``seed`` drives the determinisations
    (and the greedy policy's deadlock breaker); ``budget`` defaults to the variant's
    :data:`BUDGETS` entry."""

    name = "expert"

    def __init__(self, seed: int | None = None, budget: Budget | None = None) -> None:
        super().__init__(seed)
        self.seed = seed
        self.budget = budget

    def decide(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """One element of ``legal`` or a first meld of several of its melds
        (:mod:`engine.ai.base`); raises ``NoLegalAction`` when it is empty."""
        choice = super().decide(view, legal)
        options = candidates(view, legal, choice)
        if len(options) < 2:
            return choice
        budget = self.budget or BUDGETS.get(view.table.rules.variant, DEFAULT_BUDGET)
        rng = random.Random(f"{self.seed}/{view.table.version}/{view.seat}")
        values = evaluate(view, legal, options, budget, rng).values()
        best, lead = 0, 0.0
        for i in range(1, len(options)):
            gain = _sure_gain([row[i] - row[0] for row in values])
            if gain > lead:
                best, lead = i, gain
        return options[best]


def _sure_gain(diffs: list[float]) -> float:
    """The mean of ``diffs`` (a candidate's value less the hard choice's, per
    determinisation) when it exceeds :data:`MARGIN` and :data:`SURE` standard errors (a
    one-sided test; outcomes of playouts that diverge after one different action are
    noisy), else 0. Needs two values at least."""
    n = len(diffs)
    if n < 2:
        return 0.0
    mean = sum(diffs) / n
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
    return mean if mean > MARGIN and mean > SURE * spread else 0.0


def _searched(legal: Sequence[Action], phase: Phase) -> Counter[Action]:
    """The part of a legal list a determinisation must reproduce: all of it in the draw
    phase, the discards in the play phase (a discard ends the turn, so the turn's other
    records, which the view does not show in full, no longer matter)."""
    if phase is Phase.DRAW:
        return Counter(legal)
    return Counter(a for a in legal if isinstance(a, Discard))


def _playout_state(
    state: GameState, action: Action, seed: int, limit: int, listed: bool = True
) -> GameState:
    """The state after ``action`` (applied unchecked when ``listed``: an element of the
    legal list; else through the verifying :func:`engine.game.apply`, which raises an
    ``EngineError`` for a refused move) and at most ``limit`` actions of the greedy policy
    for every seat (seeded by ``seed``)."""
    state, _ = apply_legal(state, action) if listed else apply(state, action)
    players = [GreedyPlayer(seed + s) for s in range(state.seats)]
    for _ in range(limit):
        if state.phase not in _LIVE:
            break
        mover = state.current
        called = interrupt(state, players, mover)
        if called is not None:
            state, _ = apply_legal(state, called)
            continue
        moves = legal_actions(state, mover)
        chosen = players[mover].decide(view_for(state, mover), moves)
        state, _ = apply_legal(state, chosen) if chosen in moves else apply(state, chosen)
    return state
