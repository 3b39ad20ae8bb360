"""Calling "Rommé!": the interrupt of the turn order after a discard.

rummy-500.de.txt: "Wenn ein Spieler eine Karte ablegt, die anlegbar gewesen wäre, oder
wenn er den Ablagestapel so hinterlässt, dass dieser Karten enthält, die ohne weitere
Karten von einem der Spieler ausgelegbar sind, dann kann, bevor der nächste Spieler eine
Karte zieht, außer dem Spieler, der gerade eine Karte abgelegt hat, jeder Spieler
"Rommé!" rufen und alle Karten vom Ablagestapel bis zur entsprechenden Karte aufnehmen.
Dieser Spieler beendet dann seinen Spielzug, indem er diese Karte und jegliche anderen
gewünschten Karten auslegt und eine Karte auf den Ablagestapel legt. Dann ist der
Spieler links von dem Spieler, der "Rommé!" gerufen hat, am Zug".

The window (:class:`engine.variants.rummy500.state.CallWindow`) opens when a turn ends
without going out and closes when the next player draws or takes, or someone calls.
While it is open the phase is ``DRAW`` for the next player, who stays
:func:`engine.game.current_player`; a call may come from any seat but the discarder
(:meth:`Rummy500.may_act`).

With ``calling=last_layoff`` only the last discard may be called, and only onto a meld:
"nimmt der Spieler, der Rommé ruft, die Karte und legt sie ab [an], wodurch er Punkte
damit erzielt, und dann geht das Spiel mit dem Spieler weiter, der an der Reihe war."
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.cards import Card
from engine.errors import InvalidLayOff, NoSuchMeld
from engine.frozen import replace
from engine.melds import CardSpec, Meld, extend_readings
from engine.moves import Result
from engine.state import GameState, Phase, TurnState
from engine.variants.rummy500.actions import CallRummy
from engine.variants.rummy500.errors import (
    CallingOff,
    CallNeedsCard,
    CallNeedsMeld,
    CallTakesNoMeld,
    DiscarderCannotCall,
    NoCallWindow,
    NotCallable,
    NothingToCall,
    NotInPile,
)
from engine.variants.rummy500.events import Floated, RummyCalled, as_events
from engine.variants.rummy500.melds import one_reading
from engine.variants.rummy500.moves import game_extra, keep_one, meld_rules, out_window
from engine.variants.rummy500.pile import callable_indices, can_play, topmost_index
from engine.variants.rummy500.state import CallWindow, GameExtra, TurnExtra


@dataclass(frozen=True, slots=True)
class CallPlan:
    """A verified call: the pile ``index`` of the called card; with
    ``calling=last_layoff`` also the meld it goes onto and that meld afterwards."""

    window: CallWindow
    index: int
    meld: int | None = None
    after: Meld | None = None


def open_window(state: GameState, seat: int) -> CallWindow:
    """The open window in which ``seat`` may call; raises ``CallingOff``, ``NoCallWindow``
    (also once the hand is over: "es nicht möglich ist, "Rommé!" zu rufen, nachdem das
    Spiel beendet ist") or ``DiscarderCannotCall``."""
    if state.rules.text("calling") == "off":
        raise CallingOff()
    window = game_extra(state).call_window
    if state.phase is not Phase.DRAW or window is None:
        raise NoCallWindow()
    if seat == window.discarder:
        raise DiscarderCannotCall()
    return window


def callable_for(state: GameState, seat: int) -> list[int]:
    """Pile indices ``seat`` may call with ``calling=any``, top first: the card can be
    played at once (:func:`engine.variants.rummy500.pile.callable_indices`) and by this
    seat with the cards it takes. On a last card (:func:`engine.variants.rummy500.moves.
    out_window`) only that card: "jeder andere Spieler "Rommé!" rufen und die von Ihnen
    auf den Ablagestapel gelegte Karte melden kann"."""
    pile = state.discard
    rules = meld_rules(state)
    hand = state.hands[seat]
    out = []
    indices = callable_indices(pile, state.melds, rules, seat)
    if out_window(state) is not None:
        indices = [i for i in indices if i == len(pile) - 1]
    for index in indices:
        taken = pile[-1] if index == len(pile) - 1 else None
        if can_play(
            pile[index],
            (*hand, *pile[index:]),
            state.melds,
            rules,
            seat,
            keep_one=keep_one(state),
            taken=taken,
        ):
            out.append(index)
    return out


def plan_call(state: GameState, action: CallRummy) -> CallPlan:
    """Check a call. ``calling=any``: the named card (or the only one) must be callable;
    a call with nothing callable is refused and changes nothing."""
    window = open_window(state, action.seat)
    if state.rules.text("calling") == "last_layoff":
        return _plan_layoff_call(state, action, window)
    if action.meld is not None or action.face is not None:
        raise CallTakesNoMeld(card=str(action.card) if action.card else "")
    options = callable_for(state, action.seat)
    pile = state.discard
    if action.card is None:
        cards = _distinct(pile[i] for i in options)
        if not cards:
            raise NothingToCall()
        if len(cards) > 1:
            raise CallNeedsCard(cards=" ".join(map(str, cards)))
        return CallPlan(window, options[0])
    if topmost_index(pile, action.card) is None:
        raise NotInPile(card=str(action.card))
    matching = [i for i in options if pile[i] == action.card]
    if not matching:
        raise NotCallable(card=str(action.card))
    return CallPlan(window, matching[0])


def _distinct(cards: Iterable[Card]) -> list[Card]:
    out: list[Card] = []
    for card in cards:
        if card not in out:
            out.append(card)
    return out


def _plan_layoff_call(state: GameState, action: CallRummy, window: CallWindow) -> CallPlan:
    pile = state.discard
    top = pile[-1] if pile else None
    if top is None or window.card is None or top != window.card:
        raise NothingToCall()
    if action.card is not None and action.card != top:
        raise NotCallable(card=str(action.card))
    rules = meld_rules(state)
    spec = CardSpec(top, action.face if top.is_joker else None)
    if action.meld is None:
        fits = [
            (i, found)
            for i, m in enumerate(state.melds)
            if (found := extend_readings(m, (spec,), action.seat, rules))
        ]
        if not fits:
            if action.card is None:
                raise NothingToCall()
            raise NotCallable(card=str(top))
        if len(fits) > 1:
            raise CallNeedsMeld(card=str(top), numbers=", ".join(str(i + 1) for i, _ in fits))
        index, found = fits[0]
    else:
        index = action.meld
        if not 0 <= index < len(state.melds):
            raise NoSuchMeld(number=index + 1)
        found = extend_readings(state.melds[index], (spec,), action.seat, rules)
        if not found:
            raise InvalidLayOff(
                cards=str(spec),
                number=index + 1,
                reason="the meld would not stay a valid set or run",
            )
    return CallPlan(window, len(pile) - 1, index, one_reading(found, (spec,)))


def verify_call(state: GameState, action: CallRummy) -> None:
    """See :func:`plan_call`."""
    plan_call(state, action)


def apply_call(state: GameState, action: CallRummy) -> Result:
    """``calling=any``: the caller takes the pile down to the card, must play it
    (:class:`engine.variants.rummy500.state.TurnExtra`) and plays the turn; the seats in
    between are skipped. ``calling=last_layoff``: the card goes onto the meld, scoring for
    the caller, and the player to draw still draws. A called last card
    (``going_out=callable``) leaves the discarder floating: "In diesem Fall werden Sie zu
    einem "Schwebenden"" (the hand goes on; the floater's next turn comes in turn)."""
    plan = plan_call(state, action)
    seat = action.seat
    pile = state.discard
    cards = pile[plan.index :]
    card = pile[plan.index]
    floated = [Floated(plan.window.discarder)] if plan.window.out else []
    if plan.meld is not None and plan.after is not None:
        melds = list(state.melds)
        melds[plan.meld] = plan.after
        played = tuple(True if i == seat else f for i, f in enumerate(state.has_played))
        state = replace(
            state, discard=pile[:-1], melds=tuple(melds), has_played=played, extra=GameExtra(None)
        )
        return state, as_events(
            [RummyCalled(seat, plan.window.discarder, card, cards, plan.meld, plan.after), *floated]
        )
    taken = cards[-1] if len(cards) == 1 else None
    hand = (*state.hands[seat], *cards)
    state = replace(
        state,
        hands=state.hands_with(seat, hand),
        discard=pile[: plan.index],
        current=seat,
        phase=Phase.PLAY,
        turn=TurnState(taken=taken, fresh=not state.has_played[seat], extra=TurnExtra(card, False)),
        extra=GameExtra(None),
    )
    return state, as_events([RummyCalled(seat, plan.window.discarder, card, cards), *floated])
