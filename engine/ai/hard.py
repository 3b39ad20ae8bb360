"""The hard player: the greedy player racing to go out. Its discards keep the hand
closest to going out, with the most live outs, and give the next player least help.

It sees only its :class:`engine.views.PlayerView` and the legal actions, like every
player. Its information set: every card of the pack that is neither in its hand, nor on
the table, nor visible in the discard pile may lie in any other hand or anywhere in the
stock, with equal chance (the *unseen* cards, :func:`unseen_cards`).

A hand is won by going out first ("Das Ziel des Spiels ist es, alle Karten in der Hand
zu entsorgen", basic-rummy.de.txt), so it changes one of the greedy player's
(:class:`engine.ai.greedy.GreedyPlayer`) decisions:

- its discard (:func:`race_key`) leaves, in this order: the fewest cards to place
  (outside the best partition's melds and, once it has melded, not playable on the
  table); the most live outs (:func:`live_outs`: unseen cards that would turn two kept
  cards into a meld, each copy counted) less :data:`FEED_WEIGHT` times the chance that
  the next player can use the discard (:func:`feed_risk`, or certainty when the next
  player could lay it off on the table); the least deadwood points; card order.

In Rummy 500 it also races where the greedy player collects points
(:func:`rummy500_race`): it refuses a take from deep in the discard pile of more than
:data:`DEEP_TAKE_LIMIT` cards (a full hand is slow to go out with, and every card left
in it counts against its owner), and it holds its melds and lay-offs back while every
other player still holds more than :data:`HOLD_WHILE_OTHERS_HOLD` cards (the rule text
advises it: "Deshalb würden Sie normalerweise Ihre -4--5--6 noch nicht melden, sondern
würden warten", rummy-500.de.txt; a meld on the table is a target for the others'
lay-offs and calls), unless the move goes out or plays the card owed from the pile.

In German Rommé it races for hand rummy (:mod:`engine.ai.hard_german`): its first meld
waits while every other player holds more than
:data:`engine.ai.hard_german.OPEN_WHEN_OTHERS_HOLD` cards (it discards instead), then is
the smallest part of the greedy player's that reaches the minimum, and later melds stay
in the hand until they go out with it or another player is down to
:data:`engine.ai.hard_german.HOLD_WHILE_OTHERS_HOLD` card.

Every other decision (draws and takes, melds, lay-offs, joker exchanges, the variants'
own moves and calls) is the greedy player's. Tried and left out, measured in duplicate
matches against the greedy player: holding melds back until going out (500: 71 % of
hands, -15 points per hand), or in basic and Romanian Rummy (fewer hands won there);
refusing every deep take of more than two or three cards (more hands, fewer points);
the greedy discard when the next player is close to going out (fewer hands,
about the same points). Deterministic for a view and a seed; cost: a few best-meld
searches per decision (cached), a few milliseconds at most.

Measured in duplicate two-player matches against the greedy player (``rummy-bot bench
--only strength``): see the README's performance table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from engine.actions import Action, Discard, Draw, LayOff, MeldCards, TakeDiscard
from engine.ai.greedy import GreedyPlayer
from engine.ai.greedy_core import (
    CardKey,
    cards_to_place,
    deadwood_after_discard,
    meld_completions,
    run_partners,
)
from engine.ai.hard_german import held_back, opening_waits, small_opening
from engine.ai.rummy500 import taken_cards
from engine.cards import SORT_KEY, Card
from engine.melds import AceMode
from engine.search import layoff_options
from engine.variants.rummy500.state import PublicExtra
from engine.views import PlayerView

__all__ = [
    "DEEP_TAKE_LIMIT",
    "FEED_WEIGHT",
    "HOLD_WHILE_OTHERS_HOLD",
    "HardPlayer",
    "cards_to_place",
    "feed_risk",
    "live_outs",
    "race_discard",
    "race_key",
    "rummy500_race",
    "unseen_cards",
]

DEEP_TAKE_LIMIT = 5
"""Rummy 500: the most cards a take from deep in the discard pile may move to the hand
(tuned in duplicate matches against the greedy player, 800 deal pairs: limits 2, 3, 4,
5, 7 gave 65, 65, 64, 62, 59 % of hands and -10, +1, +6, +12, +17 points per hand)."""

HOLD_WHILE_OTHERS_HOLD = 5
"""Rummy 500: melds and lay-offs wait while every other player holds more cards than this
(3, 5, 7 tried: 5 won the most hands)."""

FEED_WEIGHT = 3.0
"""Outs a discard is worth giving up for each unit of chance that it helps the next
player (tuned in duplicate matches against the greedy player: 0, 3, 5 and 8 tried)."""

Key = tuple[int, float, int, tuple[int, int]]
DiscardChoice = Callable[[PlayerView, Sequence[Action], Discard], Discard]
"""Picks a discard: (view, legal actions, the fallback discard) -> the discard."""


def unseen_cards(view: PlayerView) -> list[Card]:
    """The cards of the pack this seat has not seen: not in its hand, not on the table, not
    visible in the discard pile (a multiset, in card order)."""
    table = view.table
    pack = Counter(table.rules.var.deck(table.rules, len(table.players)))
    pack.subtract(view.hand)
    pack.subtract(p.card for m in table.melds for p in m.cards)
    pack.subtract(table.discard)
    return sorted(pack.elements(), key=SORT_KEY)


def live_outs(cards: Sequence[Card], unseen: Counter[CardKey], ace: AceMode = AceMode.LOW) -> int:
    """Unseen cards (``unseen``: (rank, suit) -> copies) that would turn two natural cards
    of ``cards`` into a three-card meld under the ace rule ``ace``
    (:func:`engine.ai.greedy_core.meld_completions`), each wanted card counted once with
    its copies."""
    naturals = sorted({c for c in cards if not c.is_joker}, key=SORT_KEY)
    wanted: set[CardKey] = set()
    for i, a in enumerate(naturals):
        for b in naturals[i + 1 :]:
            wanted |= meld_completions(a, b, ace)
    return sum(unseen.get(w, 0) for w in wanted)


def feed_risk(
    card: Card, unseen: Sequence[Card], hand_size: int, ace: AceMode = AceMode.LOW
) -> float:
    """The chance that a hand of ``hand_size`` cards dealt from ``unseen`` holds two cards
    that make a three-card meld with ``card`` (two of its rank in other suits, or two of
    its suit next to it where the ace rule ``ace`` lets the run stand); 1 for a joker.
    Pairs are taken as independent."""
    if card.is_joker:
        return 1.0
    if not unseen or hand_size <= 0:
        return 0.0
    share = min(1.0, hand_size / len(unseen))
    count = Counter(c for c in unseen if not c.is_joker)
    same_rank = [n for c, n in count.items() if c.rank == card.rank and c.suit != card.suit]
    pairs = [(a, b) for i, a in enumerate(same_rank) for b in same_rank[i + 1 :]]
    by_rank = {c.rank: n for c, n in count.items() if c.suit == card.suit}
    for low, high in run_partners(card.rank, ace):
        a, b = by_rank.get(low, 0), by_rank.get(high, 0)
        if a and b:
            pairs.append((a, b))
    miss = 1.0
    for a, b in pairs:
        miss *= 1.0 - (1.0 - (1.0 - share) ** a) * (1.0 - (1.0 - share) ** b)
    return 1.0 - miss


def race_key(
    view: PlayerView,
    card: Card,
    unseen: Sequence[Card],
    values: dict[Card, int],
    feed_weight: float = FEED_WEIGHT,
    deadwood_weight: float = 0.0,
) -> Key:
    """The order of discards described in the module docstring (smaller is better) for
    discarding ``card``; ``values``: deadwood points after each discard. ``feed_weight``:
    live outs a discard is worth giving up per unit of chance that it helps the next
    player; ``deadwood_weight``: live outs per deadwood point left (0: points only break
    ties). The expert's policy passes its own (:mod:`engine.ai.expert_policy`)."""
    table = view.table
    kept = list(view.hand)
    kept.remove(card)
    counts = Counter((c.rank, c.suit) for c in unseen if not c.is_joker)
    following = (view.seat + 1) % len(table.players)
    ace = table.rules.var.meld_rules(table.rules).ace
    if table.melds and layoff_options((card,), table.melds, table.rules, following):
        risk = 1.0
    else:
        risk = feed_risk(card, unseen, table.hand_sizes[following], ace)
    points = values.get(card, 0)
    score = live_outs(kept, counts, ace) - feed_weight * risk - deadwood_weight * points
    return (cards_to_place(view, kept), -score, points, card.sort_key)


class HardPlayer(GreedyPlayer):
    """The ``hard`` AI (see the module docstring)."""

    name = "hard"

    def decide(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """One element of ``legal`` or a first meld of several of its melds
        (:mod:`engine.ai.base`); raises ``NoLegalAction`` when it is empty."""
        variant = view.table.rules.variant
        if variant == "german":
            legal = held_back(view, legal) or legal
        choice = super().decide(view, legal)
        if variant == "500":
            choice = rummy500_race(view, legal, choice)
        elif variant == "german":
            discards = [a for a in legal if isinstance(a, Discard)]
            if discards and opening_waits(view, choice):
                return race_discard(view, legal, discards[0])
            choice = small_opening(view, choice)
        if not isinstance(choice, Discard):
            return choice
        return race_discard(view, legal, choice)


def race_discard(view: PlayerView, legal: Sequence[Action], fallback: Discard) -> Discard:
    """The legal discard with the smallest :func:`race_key`; ``fallback`` when there is no
    other choice."""
    options = {a.card: a for a in legal if isinstance(a, Discard)}
    if len(options) < 2:
        return fallback
    unseen = unseen_cards(view)
    values = dict(deadwood_after_discard(view.hand, view.table.rules, keep=view.table.taken))
    best = min(options, key=lambda c: race_key(view, c, unseen, values))
    return options[best]


def rummy500_race(
    view: PlayerView,
    legal: Sequence[Action],
    choice: Action,
    deep_take_limit: int = DEEP_TAKE_LIMIT,
    hold: int = HOLD_WHILE_OTHERS_HOLD,
    discard: DiscardChoice | None = None,
) -> Action:
    """Rummy 500 (see the module docstring): ``choice`` (the greedy player's), a draw
    instead of a take of more than ``deep_take_limit`` cards (:data:`DEEP_TAKE_LIMIT`), or
    the best discard (``discard``, default :func:`race_discard`) instead of a meld or
    lay-off while every other player holds more than ``hold`` cards
    (:data:`HOLD_WHILE_OTHERS_HOLD`), unless it goes out or plays the card owed from the
    pile. The expert's policy passes its own values (:mod:`engine.ai.expert_policy`)."""
    table = view.table
    if isinstance(choice, TakeDiscard) and choice.card is not None:
        draw = next((a for a in legal if isinstance(a, Draw)), None)
        if draw is not None and len(taken_cards(table.discard, choice)) > deep_take_limit:
            return draw
        return choice
    if not isinstance(choice, MeldCards | LayOff):
        return choice
    extra = table.extra
    if isinstance(extra, PublicExtra) and extra.must_play is not None:
        return choice
    used = (
        sum(len(g) for g in choice.groups) if isinstance(choice, MeldCards) else len(choice.cards)
    )
    others = [n for seat, n in enumerate(table.hand_sizes) if seat != view.seat]
    if used >= len(view.hand) - 1 or min(others, default=0) <= hold:
        return choice
    discards = [a for a in legal if isinstance(a, Discard)]
    return (discard or race_discard)(view, legal, discards[0]) if discards else choice
