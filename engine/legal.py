"""The legal actions of the shared turn flow (see :func:`engine.game.legal_actions`)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import (
    Action,
    Discard,
    Draw,
    LayOff,
    MeldCards,
    NextDeal,
    SwapJoker,
    TakeDiscard,
    discards,
)
from engine.candidates import candidate_melds, one_reading_groups
from engine.cards import SORT_KEY, Card, distinct_cards
from engine.game import can
from engine.melds import (
    CardSpec,
    Meld,
    MeldRules,
    joker_swap_target,
    layoff_choices,
    layoff_index,
    readings,
)
from engine.moves import Leftover
from engine.search import going_out_partitions
from engine.state import GameState, Phase


def standard_legal_actions(state: GameState, seat: int) -> list[Action]:
    """Legal actions of ``seat`` under the shared flow: ``next`` between deals, draw or
    take at the start of a turn, then melds, lay-offs, joker swaps and discards.

    Generated: each candidate is kept by the conditions the moves check
    (:mod:`engine.moves`), computed once for the position, never by verifying it; the
    same list as :func:`checked_legal_actions` (a property test holds them equal)."""
    closed = not_in_turn(state, seat)
    if closed is not None:
        return closed
    if state.phase is Phase.DRAW:
        out: list[Action] = [Draw(seat)]
        upcard = state.upcard
        if upcard is not None and any(c != upcard for c in state.hands[seat]):
            out.append(TakeDiscard(seat))
        return out
    return play_actions(state, seat)


def not_in_turn(state: GameState, seat: int) -> list[Action] | None:
    """The legal list of a seat outside its turn: none after the match, ``next`` between
    deals (anyone may say it), none for a seat that is not the one to move; ``None``
    while ``seat`` is the one to move (its list depends on the variant)."""
    if state.phase is Phase.GAME_OVER:
        return []
    if state.phase is Phase.HAND_OVER:
        return [NextDeal(seat)]
    if seat != state.current:
        return []
    return None


def checked_legal_actions(state: GameState, seat: int) -> list[Action]:
    """The candidates of the shared flow that :func:`engine.game.can` accepts: the old way
    of listing the legal actions, kept as the oracle of :func:`standard_legal_actions`."""
    closed = not_in_turn(state, seat)
    if closed is not None:
        return closed
    return [a for a in standard_candidates(state, seat) if can(state, a)]


def standard_candidates(state: GameState, seat: int) -> list[Action]:
    """Every action the shared flow might allow ``seat`` now, in the stable order of the
    legal list, unchecked."""
    if state.phase is Phase.DRAW:
        out: list[Action] = [Draw(seat)]
        if state.discard:
            out.append(TakeDiscard(seat))
        return out
    rules = state.rules
    var = rules.var
    mrules = var.meld_rules(rules)
    hand = state.hands[seat]
    cards = sorted(set(hand), key=SORT_KEY)
    out = []
    if var.all_at_once(rules, state.deal_number):
        out += [MeldCards(seat, groups) for groups in going_out_partitions(hand, mrules)]
    else:
        out += [MeldCards(seat, (group,)) for group in candidate_melds(hand, mrules)]
        out += [
            LayOff(seat, (spec,), index)
            for card in cards
            for index, spec in layoff_specs(card, state)
        ]
    if var.joker_swap(rules):
        out += [
            SwapJoker(seat, card, index)
            for index, meld in enumerate(state.melds)
            for card in cards
            if joker_swap_target(meld, card) >= 0
        ]
    out += [Discard(seat, card) for card in cards]
    return out


def play_actions(state: GameState, seat: int) -> list[Action]:
    """The legal meld, lay-off, swap and discard actions in the play phase, generated from
    the conditions of :mod:`engine.moves`: a meld has one reading, stays within the melds
    allowed this turn (all at once in such deals) and leaves a card to discard when one is
    needed, and not only copies of the card taken from the pile; a lay-off has one reading
    and needs an own meld first under ``layoff_after_meld``; a joker swap needs the card a
    joker stands for and, as the joker comes to the hand, must not leave only copies of
    the taken card; any card but the taken one may be discarded."""
    rules = state.rules
    var = rules.var
    mrules = var.meld_rules(rules)
    hand = state.hands[seat]
    turn = state.turn
    taken = turn.taken
    size = len(hand)
    left = Leftover(hand, taken, var.final_discard_required(rules))
    others = left.others

    cards = distinct_cards(hand)
    out: list[Action] = []
    if var.all_at_once(rules, state.deal_number):
        if not turn.played:
            for groups in going_out_partitions(hand, mrules):
                used = [s.card for g in groups for s in g]
                if (
                    size - len(used) <= 1
                    and left.ok(len(used), sum(1 for c in used if c != taken))
                    and all(len(readings(g, seat, mrules)) == 1 for g in groups)
                ):
                    out.append(MeldCards(seat, groups))
    else:
        limit = var.max_melds_per_turn(rules)
        if limit is None or turn.melds + 1 <= limit:
            for group in one_reading_groups(hand, mrules):
                if left.ok_group(group):
                    out.append(MeldCards(seat, (group,)))
        own_first = var.layoff_needs_own_meld(rules) and not state.has_melded[seat]
        melds = state.melds
        where = layoff_index(melds, mrules)
        for card in cards if melds else ():
            targets = where.targets(card)
            if not targets or not left.ok(1, 1 if card != taken else 0):
                continue
            for index, spec in _specs_on(card, melds, targets, seat, mrules):
                if not (own_first and melds[index].owner != seat):
                    out.append(LayOff(seat, (spec,), index))
    if var.joker_swap(rules):
        # the joker comes to the hand: not only copies of the taken card may stay
        joker_other = 0 if taken is not None and taken.is_joker else 1
        for index, meld in enumerate(state.melds):
            for card in cards:
                if joker_swap_target(meld, card) >= 0 and (
                    taken is None or others - (card != taken) + joker_other > 0
                ):
                    out.append(SwapJoker(seat, card, index))
    out += discards(seat, cards, taken)
    return out


def layoff_specs(card: Card, state: GameState) -> list[tuple[int, CardSpec]]:
    """Single-card lay-offs of ``card``: one per meld, or per joker face when a joker fits
    more than one place (e.g. either end of a run): :func:`engine.melds.layoff_choices`,
    tried on the melds whose open ends take the card (:class:`engine.melds.LayoffIndex`)."""
    mrules = state.rules.var.meld_rules(state.rules)
    melds = state.melds
    return _specs_on(card, melds, layoff_index(melds, mrules).targets(card), state.current, mrules)


def _specs_on(
    card: Card, melds: Sequence[Meld], targets: Sequence[int], seat: int, mrules: MeldRules
) -> list[tuple[int, CardSpec]]:
    """:func:`layoff_specs` on the melds ``targets`` (from the table's lay-off index)."""
    return [
        (index, spec)
        for index in targets
        for spec, _ in layoff_choices(melds[index], card, seat, mrules)
    ]
