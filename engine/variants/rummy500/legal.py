"""The legal actions of Rummy 500 (see :func:`engine.game.legal_actions`).

The seat to play: ``draw``, ``take`` (the top card) and ``take CARD`` for every deeper
card that could be played this turn; then every single meld of the hand, every
single-card lay-off (a joker once per card it could stand for) and the discards, built
from the conditions of this variant's moves (not by verifying each candidate; the
candidates + verify path stays as the oracle, :func:`checked_legal_actions`). During
the call window every seat but the discarder also gets its calls (``call CARD``, or
``call CARD N`` per meld with ``calling=last_layoff``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from engine import actions
from engine.candidates import MeldReach, candidate_melds
from engine.cards import SORT_KEY, Card, distinct_cards
from engine.errors import AmbiguousJoker
from engine.flow import shared_quick_actions
from engine.game import can
from engine.melds import CardSpec, Meld, extend_readings, layoff_index, new_face, readings
from engine.moves import Leftover, remove_cards
from engine.state import GameState, Phase
from engine.variants.rummy500.actions import CallRummy
from engine.variants.rummy500.calls import callable_for
from engine.variants.rummy500.melds import one_reading
from engine.variants.rummy500.moves import (
    game_extra,
    keep_one,
    meld_rules,
    obligation,
    out_window,
    pays_owed,
    top_card_owed,
)
from engine.variants.rummy500.pile import can_play, layoff_readings, melds_with


def _can(state: GameState, action: object) -> bool:
    return can(state, cast(actions.Action, action))


def _obliged_take_ok(state: GameState, seat: int, index: int, taken: Card | None) -> bool:
    """The condition of :func:`engine.variants.rummy500.moves.plan_take` for a take that
    obliges: the bottom card taken can be played this turn with the cards taken."""
    pile = state.discard
    return can_play(
        pile[index],
        (*state.hands[seat], *pile[index:]),
        state.melds,
        meld_rules(state),
        seat,
        new_meld_only=state.rules.flag("take_new_meld"),
        keep_one=keep_one(state),
        taken=taken,
    )


def draw_actions(state: GameState, seat: int) -> list[actions.Action]:
    """Draw, take the top card, take each deeper card (the topmost copy of each), built
    from the conditions of :func:`engine.variants.rummy500.moves.plan_take`: the top card
    freely unless it is owed (:func:`engine.variants.rummy500.moves.top_card_owed`) or
    the hand holds only copies of it; a deeper card
    when it can be played this turn with the cards above it."""
    out: list[actions.Action] = [actions.Draw(seat)]
    pile = state.discard
    if not pile or out_window(state) is not None:  # a last card to call: call it or draw
        return out
    top = pile[-1]
    last = len(pile) - 1
    if not (
        top_card_owed(state.rules) or all(c == top for c in state.hands[seat])
    ) or _obliged_take_ok(state, seat, last, top):
        out.append(actions.TakeDiscard(seat))
    if last == 0:
        return out
    seen: set[Card] = {top}
    # A card that can neither go into a new meld with the hand and the cards above it
    # (MeldReach: may_meld_with, counted as the pile is read downwards) nor be laid off
    # on the table cannot be played: the full check runs only for the others.
    reach = MeldReach((*state.hands[seat], top), meld_rules(state))
    may_lay_off = not state.rules.flag("take_new_meld")
    where = layoff_index(state.melds, meld_rules(state))
    for index in range(last - 1, -1, -1):
        card = pile[index]
        reach.add(card)
        if card in seen:
            continue
        seen.add(card)
        if not (reach.may_meld(card) or (may_lay_off and where.targets(card))):
            continue
        if _obliged_take_ok(state, seat, index, None):
            out.append(actions.TakeDiscard(seat, card))
    return out


def _reading(found: Sequence[Meld], specs: Sequence[CardSpec]) -> Meld | None:
    """:func:`engine.variants.rummy500.melds.one_reading`, ``None`` where it refuses."""
    if not found:
        return None
    try:
        return one_reading(found, specs)
    except AmbiguousJoker:
        return None


def _layoffs(card: Card, meld: Meld, found: Sequence[Meld]) -> list[tuple[CardSpec, Meld]]:
    """The lay-offs of ``card`` on ``meld`` given its readings ``found``, as the spec a
    move names and the meld it makes (:func:`one_reading` decides between readings): a
    joker that fits several places once per face that leaves one choice."""
    if not (card.is_joker and len(found) > 1):
        meld_after = _reading(found, (CardSpec(card),))
        return [] if meld_after is None else [(CardSpec(card), meld_after)]
    by_face: dict[Card, list[Meld]] = {}
    for reading in found:
        by_face.setdefault(new_face(meld, reading), []).append(reading)
    out = []
    for face, readings_of_face in by_face.items():
        spec = CardSpec(card, face)
        meld_after = _reading(readings_of_face, (spec,))
        if meld_after is not None:
            out.append((spec, meld_after))
    return out


def play_actions(state: GameState, seat: int) -> list[actions.Action]:
    """Melds, single-card lay-offs and discards of the seat to play that are legal now,
    built from the conditions of :mod:`engine.variants.rummy500.moves` computed once for
    the position: a meld or lay-off has one reading (:func:`one_reading`), leaves a card
    to discard with ``going_out=discard`` and not only copies of the top card taken, and
    keeps the card owed from the pile playable unless it plays it; a discard is no card
    taken alone from the top, not while a card is owed, and with ``going_out=unplayable``
    no last card that could be laid off."""
    rules = meld_rules(state)
    hand = state.hands[seat]
    size = len(hand)
    taken = state.turn.taken
    final = keep_one(state)
    owed = obligation(state)
    left = Leftover(hand, taken, final)
    melds = state.melds

    def owed_ok(used: Sequence[Card], table: Sequence[Meld], as_meld: bool) -> bool:
        """obligation_after of the moves: the owed card is played, or stays playable."""
        if owed is None or pays_owed(owed, used, as_meld):
            return True
        return can_play(
            owed.must_play,
            remove_cards(hand, used),
            table,
            rules,
            seat,
            new_meld_only=owed.new_meld,
            keep_one=final,
            taken=taken,
        )

    out: list[actions.Action] = []
    for group in candidate_melds(hand, rules):
        if not left.ok_group(group):
            continue
        used = [s.card for s in group]
        meld = _reading(readings(group, seat, rules), group)
        # a list: a trial table must not take the place of the state's table in the
        # lay-off index memo (engine.memo.reuse_last_tuple answers tuples only)
        if meld is not None and owed_ok(used, [*melds, meld], True):
            out.append(actions.MeldCards(seat, (group,)))
    cards = distinct_cards(hand)
    where = layoff_index(melds, rules)
    for card in cards:
        if not where.targets(card) or not left.ok(1, 1 if card != taken else 0):
            continue
        for index, found in layoff_readings(card, melds, seat, rules):
            for spec, meld in _layoffs(card, melds[index], found):
                table = list(melds)
                table[index] = meld
                if owed_ok([card], table, False):
                    out.append(actions.LayOff(seat, (spec,), index))
    if owed is None:
        if size == 1 and state.rules.text("going_out") == "unplayable":
            cards = [
                c
                for c in cards
                if not (where.targets(c) and layoff_readings(c, melds, seat, rules))
            ]
        out += actions.discards(seat, cards, taken)
    return out


def call_actions(state: GameState, seat: int) -> list[object]:
    """The calls ``seat`` may make now (none outside the window, for the discarder, or with
    ``calling=off``), built from the conditions of
    :func:`engine.variants.rummy500.calls.plan_call`: with ``calling=any`` each card
    :func:`callable_for` the seat once (its topmost callable place); with
    ``calling=last_layoff`` the last discard onto each meld it extends, a joker once per
    face, when the lay-off has one reading."""
    window = game_extra(state).call_window
    mode = state.rules.text("calling")
    if state.phase is not Phase.DRAW or window is None or seat == window.discarder or mode == "off":
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
        out += [
            CallRummy(seat, top, index, spec.face if top.is_joker else None)
            for spec, _ in _layoffs(top, meld, found)
        ]
    return out


def legal_actions(state: GameState, seat: int) -> list[actions.Action]:
    """Every legal action of ``seat`` now, in a stable order (draw phase: draw, takes,
    calls; play phase: melds, lay-offs, discards; between deals: ``next``)."""
    if state.phase is Phase.GAME_OVER:
        return []
    if state.phase is Phase.HAND_OVER:
        return [actions.NextDeal(seat)]
    out: list[actions.Action] = []
    if seat == state.current:
        if state.phase is Phase.DRAW:
            out.extend(draw_actions(state, seat))
        else:
            out.extend(play_actions(state, seat))
    out.extend(cast(list[actions.Action], call_actions(state, seat)))
    return out


def candidate_actions(state: GameState, seat: int) -> list[actions.Action]:
    """Every action this variant might allow ``seat`` now, unchecked, in the order of
    :func:`legal_actions`: the old way of listing, kept for :func:`checked_legal_actions`.
    The turn's own actions (for the seat to play), then the calls (for any seat)."""
    if state.phase is Phase.GAME_OVER:
        return []
    if state.phase is Phase.HAND_OVER:
        return [actions.NextDeal(seat)]
    out: list[actions.Action] = []
    if seat == state.current and state.phase is Phase.DRAW:
        out += _draw_candidates(state, seat)
    elif seat == state.current:
        out += _play_candidates(state, seat)
    if state.phase is Phase.DRAW and state.discard:
        out += _call_candidates(state, seat)
    return out


def _draw_candidates(state: GameState, seat: int) -> list[actions.Action]:
    """Draw; take the upcard; take down to each other distinct card of the pile, from the
    top down."""
    out: list[actions.Action] = [actions.Draw(seat)]
    pile = state.discard
    if pile:
        out.append(actions.TakeDiscard(seat))
        seen: set[Card] = {pile[-1]}
        for index in range(len(pile) - 2, -1, -1):
            if pile[index] not in seen:
                seen.add(pile[index])
                out.append(actions.TakeDiscard(seat, pile[index]))
    return out


def _play_candidates(state: GameState, seat: int) -> list[actions.Action]:
    """The candidate melds of the hand, each distinct card laid off on each meld it
    extends (a joker once per face where it could stand for several), each discard."""
    rules = meld_rules(state)
    hand = state.hands[seat]
    cards = sorted(set(hand), key=SORT_KEY)
    out: list[actions.Action] = [
        actions.MeldCards(seat, (g,)) for g in candidate_melds(hand, rules)
    ]
    for card in cards:
        for index, meld in enumerate(state.melds):
            found = extend_readings(meld, (CardSpec(card),), seat, rules)
            if card.is_joker and len(found) > 1:
                out += [
                    actions.LayOff(seat, (CardSpec(card, new_face(meld, r)),), index) for r in found
                ]
            elif found:
                out.append(actions.LayOff(seat, (CardSpec(card),), index))
    out += [actions.Discard(seat, card) for card in cards]
    return out


def _call_candidates(state: GameState, seat: int) -> list[actions.Action]:
    """The calls of the draw phase by ``calling``: ``any``, each distinct card of the pile
    from the top down; ``last_layoff``, the top card on each meld (a joker once per face
    where it must name one); none otherwise."""
    pile = state.discard
    mode = state.rules.text("calling")
    out: list[actions.Action] = []
    if mode == "any":
        seen_calls: set[Card] = set()
        for card in reversed(pile):
            if card not in seen_calls:
                seen_calls.add(card)
                out.append(cast(actions.Action, CallRummy(seat, card)))
    elif mode == "last_layoff":
        top = pile[-1]
        for index, meld in enumerate(state.melds):
            found = extend_readings(meld, (CardSpec(top),), seat, meld_rules(state))
            if top.is_joker and len(found) > 1:  # a joker names its face where it must
                out += [
                    cast(actions.Action, CallRummy(seat, top, index, new_face(meld, r)))
                    for r in found
                ]
            else:
                out.append(cast(actions.Action, CallRummy(seat, top, index)))
    return out


def checked_legal_actions(state: GameState, seat: int) -> list[actions.Action]:
    """The candidates that :func:`engine.game.can` accepts: the oracle of
    :func:`legal_actions` (a property test holds them equal as sets)."""
    return [a for a in candidate_actions(state, seat) if _can(state, a)]


def quick_actions(state: GameState, seat: int) -> list[actions.Action]:
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
        first: list[actions.Action] = [
            actions.MeldCards(seat, (g,)) for g in melds_with(card, hand, rules)
        ]
        for index, found in layoff_readings(card, state.melds, seat, rules):
            if card.is_joker and len(found) > 1:
                first += [
                    actions.LayOff(seat, (CardSpec(card, new_face(state.melds[index], r)),), index)
                    for r in found
                ]
            else:
                first.append(actions.LayOff(seat, (CardSpec(card),), index))
        out = first + out
    return out
