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
    the taken card; any card but the taken one may be discarded. In that order: melds,
    lay-offs, swaps, discards."""
    rules = state.rules
    var = rules.var
    mrules = var.meld_rules(rules)
    hand = state.hands[seat]
    taken = state.turn.taken
    left = Leftover(hand, taken, var.final_discard_required(rules))
    cards = distinct_cards(hand)
    if var.all_at_once(rules, state.deal_number):
        out = _melds_at_once(state, seat, mrules, left)
    else:
        out = _new_melds(state, seat, mrules, left)
        out += _layoffs(state, seat, cards, mrules, left)
    if var.joker_swap(rules):
        out += _joker_swaps(state, seat, cards, left.others)
    out += discards(seat, cards, taken)
    return out


def _melds_at_once(state: GameState, seat: int, mrules: MeldRules, left: Leftover) -> list[Action]:
    """In a deal played all at once (Wrotham deals 4-6), the one meld action of a turn that
    has played nothing yet: the whole hand, or all but the card to discard, in melds of one
    reading each (:func:`engine.search.going_out_partitions`)."""
    if state.turn.played:
        return []
    hand = state.hands[seat]
    taken = state.turn.taken
    out: list[Action] = []
    for groups in going_out_partitions(hand, mrules):
        used = [s.card for g in groups for s in g]
        if (
            len(hand) - len(used) <= 1
            and left.ok(len(used), sum(1 for c in used if c != taken))
            and all(len(readings(g, seat, mrules)) == 1 for g in groups)
        ):
            out.append(MeldCards(seat, groups))
    return out


def _new_melds(state: GameState, seat: int, mrules: MeldRules, left: Leftover) -> list[Action]:
    """One new meld of one reading from the hand, while the turn may still meld
    (:meth:`engine.variant.Variant.max_melds_per_turn`) and the meld leaves what
    :class:`engine.moves.Leftover` asks for."""
    limit = state.rules.var.max_melds_per_turn(state.rules)
    if limit is not None and state.turn.melds + 1 > limit:
        return []
    return [
        MeldCards(seat, (group,))
        for group in one_reading_groups(state.hands[seat], mrules)
        if left.ok_group(group)
    ]


def _layoffs(
    state: GameState, seat: int, cards: Sequence[Card], mrules: MeldRules, left: Leftover
) -> list[Action]:
    """One card of ``cards`` laid off on a meld whose open ends take it, one action per
    reading (:func:`_specs_on`); on the own melds only under ``layoff_after_meld`` before
    the seat has melded."""
    var = state.rules.var
    own_first = var.layoff_needs_own_meld(state.rules) and not state.has_melded[seat]
    melds = state.melds
    where = layoff_index(melds, mrules)
    taken = state.turn.taken
    out: list[Action] = []
    for card in cards if melds else ():
        targets = where.targets(card)
        if not targets or not left.ok(1, 1 if card != taken else 0):
            continue
        for index, spec in _specs_on(card, melds, targets, seat, mrules):
            if not (own_first and melds[index].owner != seat):
                out.append(LayOff(seat, (spec,), index))
    return out


def _joker_swaps(state: GameState, seat: int, cards: Sequence[Card], others: int) -> list[Action]:
    """A card of ``cards`` exchanged for a joker of a table meld that stands for it; the
    joker comes to the hand, so not only copies of the card taken this turn may stay
    (``others``: the hand's cards other than the taken one)."""
    taken = state.turn.taken
    joker_other = 0 if taken is not None and taken.is_joker else 1
    out: list[Action] = []
    for index, meld in enumerate(state.melds):
        for card in cards:
            if joker_swap_target(meld, card) >= 0 and (
                taken is None or others - (card != taken) + joker_other > 0
            ):
                out.append(SwapJoker(seat, card, index))
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
