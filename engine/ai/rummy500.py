"""The greedy AI's Rummy 500 decisions (the variant's ``ai_move`` hook).

It sees only the seat's view and the legal actions. In the draw phase it compares
taking from the discard pile (the top card, a deeper card with everything above it, or
a call) with drawing: a hand is worth its best melds' points minus its deadwood counted
twice (melded cards score, cards left in the hand count against), and a take is
chosen when the card it must play goes into a meld of the best partition (or can be
laid off) and the hand gains. A lay-off call (``calling=last_layoff``) is free points
and always made, and so is a call on a player's playable last card (``going_out=callable``:
uncalled, that player goes out); out of turn (:func:`call_choice`) it calls when the call
gains as a take would. In the play phase it first plays the card it owes (the meld of the
best partition holding it, else the largest legal meld, else a lay-off); everything
else is the shared greedy player's.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, cast

from engine.actions import Action, Draw, LayOff, MeldCards, TakeDiscard
from engine.cards import Card
from engine.options import RuleSet
from engine.search import best_melds, card_value
from engine.state import Phase
from engine.variants.rummy500.actions import CallRummy
from engine.variants.rummy500.melds import MELD_RULES
from engine.variants.rummy500.pile import layoff_readings, topmost_index
from engine.variants.rummy500.state import PublicExtra
from engine.views import PlayerView

MAX_TAKE = 10
"""Deeper takes of more cards than this are not considered (rarely good, costly to weigh)."""


def hand_score(hand: Sequence[Card], rules: RuleSet) -> int:
    """Melded points of the best partition minus twice its deadwood: the hand's worth at
    the end of the deal if the melds go down (total - 2 x deadwood)."""
    part = best_melds(hand, rules)
    total = sum(card_value(c, rules) for c in hand)
    return total - 2 * part.deadwood_points


def _take_gain(view: PlayerView, cards: Sequence[Card], base: int) -> int | None:
    """What taking ``cards`` (bottom first) gains, or ``None`` when the bottom card would
    not go into a meld of the best partition nor onto the table."""
    table = view.table
    rules = table.rules
    hand = (*view.hand, *cards)
    owed = cards[0]
    part = best_melds(hand, rules)
    gain = sum(card_value(c, rules) for c in hand) - 2 * part.deadwood_points - base
    if owed in part.melded_cards():
        return gain
    if rules.flag("take_new_meld"):
        return None
    if layoff_readings(owed, table.melds, view.seat, MELD_RULES):
        return gain + 2 * card_value(owed, rules)
    return None


def taken_cards(pile: Sequence[Card], action: TakeDiscard | CallRummy) -> tuple[Card, ...]:
    """The cards a take or call moves from ``pile`` to the hand, bottom first: the top card,
    or a deeper card with every card above it ("alle Karten oberhalb ... der Karte, die Sie
    melden wollen", rummy-500.de.txt); ``()`` when the card is not in the pile."""
    if action.card is None:
        return tuple(pile[-1:])
    below = isinstance(action, TakeDiscard) and action.card != pile[-1]
    index = topmost_index(pile, action.card, below_top=below)
    return tuple(pile[index:]) if index is not None else ()


def _draw_choice(view: PlayerView, legal: Sequence[Any]) -> Action | None:
    pile = view.table.discard
    for action in legal:
        if isinstance(action, CallRummy) and action.meld is not None:
            return cast(Action, action)  # a variant action, outside the shared union
    extra = view.table.extra
    if isinstance(extra, PublicExtra) and extra.call_window is not None and extra.call_window.out:
        # a last card that could be laid off: uncalled, its player goes out and every
        # other hand counts against its owner; called, it floats
        call = next((a for a in legal if isinstance(a, CallRummy)), None)
        if call is not None:
            return cast(Action, call)
    draw = next((a for a in legal if isinstance(a, Draw)), None)
    base = hand_score(view.hand, view.table.rules)
    best: tuple[int, Any] | None = None
    for action in legal:
        if isinstance(action, CallRummy) and draw is not None:
            continue  # the seat to play takes the same cards with `take`
        if not isinstance(action, TakeDiscard | CallRummy):
            continue
        cards = taken_cards(pile, action)
        if not cards or len(cards) > MAX_TAKE:
            continue
        gain = _take_gain(view, cards, base)
        if gain is not None and gain > 0 and (best is None or gain > best[0]):
            best = (gain, action)
    if best is not None:
        chosen: Action = best[1]
        return chosen
    return draw


def _play_owed(view: PlayerView, legal: Sequence[Action], owed: Card) -> Action | None:
    rules = view.table.rules
    part = best_melds(view.hand, rules)
    melds = [
        a
        for a in legal
        if isinstance(a, MeldCards) and any(s.card == owed for g in a.groups for s in g)
    ]
    for action in melds:
        if action.groups[0] in part.melds:
            return action
    if melds:
        return max(melds, key=lambda a: sum(len(g) for g in a.groups))
    return next(
        (a for a in legal if isinstance(a, LayOff) and any(s.card == owed for s in a.cards)), None
    )


def call_choice(view: PlayerView, legal: Sequence[Action]) -> Action | None:
    """Whether to call "Rommé!" out of turn, and which call: a lay-off call
    (``calling=last_layoff``) always, else the call whose taken cards gain the hand most
    (as a take is weighed), or ``None`` when no call gains. rummy-500.de.txt: "kann, bevor
    der nächste Spieler eine Karte zieht, außer dem Spieler, der gerade eine Karte abgelegt
    hat, jeder Spieler "Rommé!" rufen"."""
    calls = [a for a in legal if isinstance(a, CallRummy)]
    if not calls:
        return None
    return _draw_choice(view, calls)


def ai_move(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
    """The variant's choice (see the module docstring), or ``None`` for the shared greedy
    player's."""
    table = view.table
    extra = table.extra
    if table.phase is Phase.DRAW:
        return _draw_choice(view, legal)
    if (
        table.phase is Phase.PLAY
        and isinstance(extra, PublicExtra)
        and extra.must_play is not None
        and table.current == view.seat
    ):
        return _play_owed(view, legal, extra.must_play)
    return None
