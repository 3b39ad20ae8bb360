"""The legal actions of Rummy 500 (see :func:`engine.game.legal_actions`).

The seat to play: ``draw``, ``take`` (the top card) and ``take CARD`` for every deeper
card that could be played this turn; then every single meld of the hand, every
single-card lay-off (a joker once per card it could stand for) and the discards, each
checked by this variant's moves. During the call window every seat but the discarder
also gets its calls (``call CARD``, or ``call CARD N`` per meld with
``calling=last_layoff``).
"""

from __future__ import annotations

from typing import cast

from engine.actions import Action, Discard, Draw, LayOff, MeldCards, NextDeal, TakeDiscard
from engine.candidates import candidate_melds
from engine.cards import Card
from engine.flow import shared_quick_actions
from engine.game import can
from engine.melds import CardSpec, Meld, extend_readings
from engine.state import GameState, Phase
from engine.variants.rummy500.actions import CallRummy
from engine.variants.rummy500.calls import callable_for
from engine.variants.rummy500.moves import game_extra, meld_rules, obligation
from engine.variants.rummy500.pile import layoff_readings, melds_with


def _can(state: GameState, action: object) -> bool:
    return can(state, cast(Action, action))


def draw_actions(state: GameState, seat: int) -> list[Action]:
    """Draw, take the top card, take each deeper card (the topmost copy of each)."""
    out: list[Action] = [Draw(seat)]
    pile = state.discard
    if not pile:
        return out
    if _can(state, TakeDiscard(seat)):
        out.append(TakeDiscard(seat))
    top = pile[-1]
    seen: set[Card] = {top}
    for index in range(len(pile) - 2, -1, -1):
        card = pile[index]
        if card in seen:
            continue
        seen.add(card)
        action = TakeDiscard(seat, card)
        if _can(state, action):
            out.append(action)
    return out


def _new_face(old: Meld, reading: Meld) -> Card:
    """The face of the one card ``reading`` has more than ``old``."""
    faces = list(reading.faces)
    for face in old.faces:
        faces.remove(face)
    return faces[0]


def play_actions(state: GameState, seat: int) -> list[Action]:
    """Melds, single-card lay-offs and discards of the seat to play that are legal now."""
    rules = meld_rules(state)
    hand = state.hands[seat]
    cards = sorted(set(hand), key=lambda c: c.sort_key)
    out: list[Action] = [MeldCards(seat, (g,)) for g in candidate_melds(hand, rules)]
    for card in cards:
        for index, found in layoff_readings(card, state.melds, seat, rules):
            if card.is_joker and len(found) > 1:
                out.extend(LayOff(seat, (CardSpec(card, _new_face(state.melds[index], r)),),
                                  index) for r in found)
            else:
                out.append(LayOff(seat, (CardSpec(card),), index))
    out.extend(Discard(seat, card) for card in cards)
    return [a for a in out if _can(state, a)]


def call_actions(state: GameState, seat: int) -> list[object]:
    """The calls ``seat`` may make now (none outside the window, for the discarder, or with
    ``calling=off``)."""
    window = game_extra(state).call_window
    mode = state.rules.text("calling")
    if state.phase is not Phase.DRAW or window is None or seat == window.discarder \
            or mode == "off":
        return []
    out: list[object] = []
    pile = state.discard
    if mode == "any":
        seen: set[Card] = set()
        for index in callable_for(state, seat):
            if pile[index] not in seen:
                seen.add(pile[index])
                out.append(CallRummy(seat, pile[index]))
        return out
    if not pile or window.card is None or pile[-1] != window.card:
        return []
    top = pile[-1]
    rules = meld_rules(state)
    for index, meld in enumerate(state.melds):
        found = extend_readings(meld, (CardSpec(top),), seat, rules)
        if (found and not top.is_joker) or len(found) == 1:
            out.append(CallRummy(seat, top, index))
        elif top.is_joker:
            out.extend(CallRummy(seat, top, index, _new_face(meld, r)) for r in found)
    return [a for a in out if _can(state, a)]


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """Every legal action of ``seat`` now, in a stable order (draw phase: draw, takes,
    calls; play phase: melds, lay-offs, discards; between deals: ``next``)."""
    if state.phase is Phase.GAME_OVER:
        return []
    if state.phase is Phase.HAND_OVER:
        return [NextDeal(seat)]
    out: list[Action] = []
    if seat == state.current:
        if state.phase is Phase.DRAW:
            out.extend(draw_actions(state, seat))
        else:
            out.extend(play_actions(state, seat))
    out.extend(cast(list[Action], call_actions(state, seat)))
    return out


def quick_actions(state: GameState, seat: int) -> list[Action]:
    """Cheap candidates (:func:`engine.game.quick_action`): draw; with a pile card still
    to play, the melds of that card with related cards of the hand
    (:func:`engine.variants.rummy500.pile.melds_with`) and its lay-offs; then the
    discards."""
    out = shared_quick_actions(state, seat)
    owed = obligation(state)
    if state.phase is Phase.PLAY and owed is not None:
        card = owed.must_play
        rules = meld_rules(state)
        hand = state.hands[seat]
        first: list[Action] = [MeldCards(seat, (g,)) for g in melds_with(card, hand, rules)]
        for index, found in layoff_readings(card, state.melds, seat, rules):
            if card.is_joker and len(found) > 1:
                first += [LayOff(seat, (CardSpec(card, _new_face(state.melds[index], r)),),
                                 index) for r in found]
            else:
                first.append(LayOff(seat, (CardSpec(card),), index))
        out = first + out
    return out
