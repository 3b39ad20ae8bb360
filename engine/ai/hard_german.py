"""The hard player's German Rommé race: the first meld waits for hand rummy, goes down
small, and later melds stay in the hand until they go out with it.

german-romme.de.txt: "Ziel ist es sich als erster von all seinen Karten zu entledigen";
once a seat has made its first meld, every player who has made theirs may lay off on it
("egal wer die Figur ursprünglich gemeldet hat") and exchange its jokers. A meld on the
table is a target for the others; a meld in the hand costs nothing in the race as long
as it goes down in the turn its owner goes out, and going out with every card at once
pays double: "Rummy (geht) - ... kann alle seine Karten auf einmal in Figuren melden
... Die Mindestpunktzahl für die Erstmeldung kommt bei Rummy gehen nicht zur Anwendung";
"Wenn der Rundensieger 'Rummy geht' schreiben die Verlierer ihre Verlustpunkte doppelt
auf". So the hard player:

- keeps its first meld in the hand while every other player holds more than
  :data:`OPEN_WHEN_OTHERS_HOLD` cards (:func:`opening_waits`: it discards instead), unless
  the meld goes out (hand rummy);
- then makes it with the fewest melds of the greedy player's opening plan that reach the
  minimum (:func:`small_opening`): the fewest jokers first (a joker on the table can be
  exchanged by the others), then the fewest cards, then the most points;
- after its first meld holds new melds back (:func:`held_back`) while it cannot go out
  this turn and every other player holds more than :data:`HOLD_WHILE_OTHERS_HOLD` cards;
  lay-offs and joker exchanges are still played.

Measured in duplicate two-player matches against the greedy player, 1,000 deal pairs
per seed, hands won (points per hand, positive: hard better):

- without these rules: 57.9 / 57.5 % on seeds 5000 / 20000 (+0.9 / +0.7), 57.1 / 56.9 %
  on seeds 2026 / 9000;
- later melds held (released at one card): 60.9 / 60.5 % (-1.9 / -1.2; released at zero
  cards: more hands, more points lost); with the small first meld 61.5 / 62.1 % (+0.2 /
  +1.3), the fewest jokers first 62.0 / 62.5 % (+0.5 / +1.4);
- with the first meld waiting too, the wait tuned on seeds 2026 / 9000 (first meld when
  the other holds 1, 2, 3, 5, 8 cards: 64.5 / 64.6, 64.4 / 64.5, 65.2 / 64.2, 65.3 / 63.4,
  61.8 / 62.8 %; 3: +12.5 / +12.0 points) and checked on seeds 5000 / 20000: 67.7 /
  66.8 % (+13.5 / +13.8). Melds released at three cards instead of one: 64.0 / 62.0 %.

Holding melds in basic Rummy and Romanian Rummy won fewer hands (60.0 vs 63.6 %, 62.1 vs
63.2 % on seed 20000), so these rules are German Rommé's only.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from engine.actions import Action, MeldCards
from engine.ai.greedy_core import cards_to_place
from engine.melds import CardSpec, readings
from engine.state import Phase
from engine.variants.german.melds import meld_rules
from engine.variants.german.values import meld_value
from engine.variants.german.views import SeatStatus
from engine.views import PlayerView

__all__ = [
    "HOLD_WHILE_OTHERS_HOLD",
    "OPEN_WHEN_OTHERS_HOLD",
    "can_go_out",
    "held_back",
    "opening_waits",
    "small_opening",
]

OPEN_WHEN_OTHERS_HOLD = 3
"""The first meld waits while every other player holds more cards than this."""

HOLD_WHILE_OTHERS_HOLD = 1
"""Melds after the first wait while every other player holds more cards than this."""

Group = tuple[CardSpec, ...]


def can_go_out(view: PlayerView, status: SeatStatus) -> bool:
    """True when at most one card of the hand lies outside the melds of its best partition
    and, where the seat may lay off now (``status.may_lay_off``), the table's lay-offs
    (one a turn with the house rule ``one_layoff``): the seat can go out this turn (one
    card left to discard)."""
    most = (0 if status.laid_off else 1) if view.table.rules.flag("one_layoff") else None
    return cards_to_place(view, view.hand, status.may_lay_off, most) <= 1


def held_back(
    view: PlayerView, legal: Sequence[Action], hold: int = HOLD_WHILE_OTHERS_HOLD
) -> list[Action] | None:
    """``legal`` without new melds when the seat holds them back (see the module
    docstring: while every other player holds more than ``hold`` cards), else ``None``."""
    status = view.extra
    table = view.table
    if not isinstance(status, SeatStatus) or not status.opened or table.phase is not Phase.PLAY:
        return None
    if not any(isinstance(a, MeldCards) for a in legal):
        return None
    others = [n for seat, n in enumerate(table.hand_sizes) if seat != view.seat]
    if min(others, default=0) <= hold or can_go_out(view, status):
        return None
    rest: list[Action] = [a for a in legal if not isinstance(a, MeldCards)]
    return rest or None


def opening_waits(view: PlayerView, choice: Action, wait: int = OPEN_WHEN_OTHERS_HOLD) -> bool:
    """True when ``choice`` is a first meld (nothing provisional on the table yet) that
    does not go out and every other player holds more than ``wait`` cards (the hard
    player's :data:`OPEN_WHEN_OTHERS_HOLD`): the seat discards instead and keeps its melds
    for hand rummy."""
    status = view.extra
    if (
        not isinstance(choice, MeldCards)
        or not isinstance(status, SeatStatus)
        or status.opened
        or status.provisional
    ):
        return False
    if len(view.hand) - sum(len(g) for g in choice.groups) <= 1:
        return False
    table = view.table
    others = [n for seat, n in enumerate(table.hand_sizes) if seat != view.seat]
    return min(others, default=0) > wait


def small_opening(view: PlayerView, choice: Action) -> Action:
    """``choice``, or for a first meld that leaves two cards or more in the hand, the fewest
    of its melds that still reach the minimum (see the module docstring)."""
    status = view.extra
    if (
        not isinstance(choice, MeldCards)
        or not isinstance(status, SeatStatus)
        or status.opened
        or len(choice.groups) < 2
    ):
        return choice
    if len(view.hand) - sum(len(g) for g in choice.groups) <= 1:
        return choice
    rules = view.table.rules
    mrules = meld_rules(rules)
    values = [meld_value(rules, readings(g, view.seat, mrules)[0]) for g in choice.groups]
    best: tuple[tuple[int, int, int], tuple[Group, ...]] | None = None
    for size in range(1, len(choice.groups)):
        for picked in combinations(range(len(choice.groups)), size):
            total = status.opening_total + sum(values[i] for i in picked)
            if total < status.opening_needed:
                continue
            groups = tuple(choice.groups[i] for i in picked)
            key = (
                sum(1 for g in groups for s in g if s.card.is_joker),
                sum(len(g) for g in groups),
                -total,
            )
            if best is None or key < best[0]:
                best = (key, groups)
    return choice if best is None else MeldCards(choice.seat, best[1])
