"""The legal actions of the shared turn flow (see :func:`engine.game.legal_actions`)."""

from __future__ import annotations

from engine.actions import (
    Action,
    Discard,
    Draw,
    LayOff,
    MeldCards,
    NextDeal,
    SwapJoker,
    TakeDiscard,
)
from engine.candidates import candidate_melds
from engine.cards import Card
from engine.game import can
from engine.melds import CardSpec, extend_readings, joker_swap_target
from engine.search import going_out_partitions
from engine.state import GameState, Phase


def standard_legal_actions(state: GameState, seat: int) -> list[Action]:
    """Legal actions of ``seat`` under the shared flow: ``next`` between deals, draw or
    take at the start of a turn, then melds, lay-offs, joker swaps and discards."""
    if state.phase is Phase.GAME_OVER:
        return []
    if state.phase is Phase.HAND_OVER:
        return [NextDeal(seat)]
    if seat != state.current:
        return []
    if state.phase is Phase.DRAW:
        out: list[Action] = [Draw(seat)]
        if state.discard:
            out.append(TakeDiscard(seat))
        return [a for a in out if _can(state, a)]
    return play_actions(state, seat)


def _can(state: GameState, action: Action) -> bool:
    return can(state, action)


def play_actions(state: GameState, seat: int) -> list[Action]:
    """The legal meld, lay-off, swap and discard actions in the play phase."""
    rules = state.rules
    var = rules.var
    mrules = var.meld_rules(rules)
    hand = state.hands[seat]
    cards = sorted(set(hand), key=lambda c: c.sort_key)
    out: list[Action] = []
    if var.all_at_once(rules, state.deal_number):
        for groups in going_out_partitions(hand, mrules):
            out.append(MeldCards(seat, groups))
    else:
        for group in candidate_melds(hand, mrules):
            out.append(MeldCards(seat, (group,)))
        for card in cards:
            for index, spec in layoff_specs(card, state):
                out.append(LayOff(seat, (spec,), index))
    if var.joker_swap(rules):
        for index, meld in enumerate(state.melds):
            for card in cards:
                if joker_swap_target(meld, card) >= 0:
                    out.append(SwapJoker(seat, card, index))
    for card in cards:
        out.append(Discard(seat, card))
    return [a for a in out if _can(state, a)]


def layoff_specs(card: Card, state: GameState) -> list[tuple[int, CardSpec]]:
    """Single-card lay-offs of ``card``: one per meld, or per joker face when a joker fits
    more than one place (e.g. either end of a run)."""
    mrules = state.rules.var.meld_rules(state.rules)
    out: list[tuple[int, CardSpec]] = []
    for index, meld in enumerate(state.melds):
        found = extend_readings(meld, (CardSpec(card),), state.current, mrules)
        if len(found) == 1:
            out.append((index, CardSpec(card)))
        elif card.is_joker:
            old = list(meld.faces)
            for reading in found:
                new = list(reading.faces)
                for face in old:
                    new.remove(face)
                out.append((index, CardSpec(card, new[0])))
    return out
