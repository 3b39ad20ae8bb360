"""The legal actions of German Rommé (see :func:`engine.game.legal_actions`).

Complete for draw, take, discard, single-card lay-offs, take back, done, buy-back
decisions; melds as every single meld of the hand (several melds of a first meld are
made one after the other, or typed as one ``meld A | B``); joker exchanges as every new
meld of the hand and the freed joker(s) that :func:`engine.candidates.candidate_melds`
lists.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.actions import Action, Discard, LayOff, MeldCards, NextDeal
from engine.candidates import candidate_melds
from engine.cards import JOKER, Card
from engine.flow import shared_quick_actions
from engine.game import can
from engine.legal import standard_legal_actions
from engine.melds import MeldKind
from engine.search import layoff_options
from engine.state import GameState, Phase
from engine.variants.german.actions import (
    BuyBack,
    DeclineBuyBack,
    EndLayOffs,
    ExchangeJoker,
    TakeBack,
)
from engine.variants.german.exchange import missing_cards
from engine.variants.german.melds import meld_rules
from engine.variants.german.moves import may_play_on_table
from engine.variants.german.state import game_extra, turn_extra


def _can(state: GameState, action: Any) -> bool:
    return can(state, action)


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """The legal actions of ``seat`` now, in a stable order (empty when it may not act)."""
    if state.phase is Phase.GAME_OVER:
        return []
    if state.phase is Phase.HAND_OVER:
        return [NextDeal(seat)]
    if seat != state.current:
        return []
    extra = game_extra(state)
    out: list[Any] = []
    if extra.buyback:
        out = [DeclineBuyBack(seat), BuyBack(seat)]
    elif extra.closing is not None:
        out = [EndLayOffs(seat), *_layoffs(state, seat)]
    elif state.phase is Phase.DRAW:
        return standard_legal_actions(state, seat)
    elif turn_extra(state).dealer_discard:
        out = [Discard(seat, c) for c in _distinct(state.hands[seat])]
    else:
        out = _play(state, seat)
    return [a for a in out if _can(state, a)]


def _distinct(hand: tuple[Card, ...]) -> list[Card]:
    return sorted(set(hand), key=lambda c: c.sort_key)


def _layoffs(state: GameState, seat: int) -> list[Any]:
    return [LayOff(seat, (spec,), index)
            for spec, index in layoff_options(state.hands[seat], state.melds, state.rules, seat)]


def _play(state: GameState, seat: int) -> list[Any]:
    hand = state.hands[seat]
    out: list[Any] = [MeldCards(seat, (group,))
                         for group in candidate_melds(hand, meld_rules(state.rules))]
    if may_play_on_table(state, seat):
        out.extend(_layoffs(state, seat))
        out.extend(exchanges(state, seat))
    if turn_extra(state).provisional:
        out.append(TakeBack(seat))
    out.extend(Discard(seat, c) for c in _distinct(hand))
    return out


def exchanges(state: GameState, seat: int) -> list[ExchangeJoker]:
    """Candidate joker exchanges (not yet verified): for each meld with a joker and each
    natural card (or, ``set_swap_four``, the set's missing cards) of the hand, every
    candidate meld of the rest of the hand with the freed joker(s) in it."""
    hand = state.hands[seat]
    mrules = meld_rules(state.rules)
    four = state.rules.flag("set_swap_four")
    have = Counter(hand)
    out: list[ExchangeJoker] = []
    for index, meld in enumerate(state.melds):
        jokers = sum(1 for p in meld.cards if p.card.is_joker)
        if not jokers:
            continue
        options: list[tuple[tuple[Card, ...], int]] = []
        if four and meld.kind is MeldKind.SET:
            want = missing_cards(meld)
            if not Counter(want) - have:
                options.append((want, jokers))
        else:
            faces = {p.face for p in meld.cards if p.card.is_joker}
            for card in _distinct(hand):
                if card.is_joker:
                    continue
                if card in faces or (meld.kind is MeldKind.SET and card.rank == meld.rank):
                    options.append(((card,), 1))
        for cards, freed in options:
            rest = list((have - Counter(cards)).elements()) + [JOKER] * freed
            for group in candidate_melds(rest, mrules):
                if sum(1 for s in group if s.card.is_joker) >= freed:
                    out.append(ExchangeJoker(seat, cards, index, group))
    return out


def quick_actions(state: GameState, seat: int) -> list[Action]:
    """Cheap candidates (:func:`engine.game.quick_action`): decline a buy-back, end the
    closing lay-offs, take back an unfinished first meld, then the shared draw or
    discards."""
    extra = game_extra(state)
    out: list[Any] = []
    if extra.buyback:
        out.append(DeclineBuyBack(seat))
    if extra.closing is not None:
        out.append(EndLayOffs(seat))
    if turn_extra(state).provisional:
        out.append(TakeBack(seat))
    return out + shared_quick_actions(state, seat)
