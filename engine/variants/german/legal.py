"""The legal actions of German Rommé (see :func:`engine.game.legal_actions`), built from
the conditions of the variant's moves.

Complete for draw, take, discard, single-card lay-offs, take back, done, buy-back
decisions; melds as every single meld of the hand (several melds of a first meld are
made one after the other, or typed as one ``meld A | B``); joker exchanges as every new
meld of the hand and the freed joker(s) that :func:`engine.candidates.candidate_melds`
lists.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.actions import Action, Discard, LayOff, MeldCards, discards
from engine.candidates import candidate_melds, one_reading_groups
from engine.cards import CARD_SUITS, JOKER, SORT_KEY, Card, distinct_cards, shared_card
from engine.flow import shared_quick_actions
from engine.game import can
from engine.legal import checked_legal_actions as checked_standard
from engine.legal import not_in_turn, standard_legal_actions
from engine.melds import Meld, MeldKind, MeldRules, joker_swap_target, readings
from engine.memo import reuse_last_tuple
from engine.moves import Leftover
from engine.options import RuleSet
from engine.search import layoff_options
from engine.state import GameState, Phase
from engine.variants.german.actions import (
    BuyBack,
    DeclineBuyBack,
    EndLayOffs,
    ExchangeJoker,
    TakeBack,
)
from engine.variants.german.exchange import cards_from_hand, missing_cards
from engine.variants.german.melds import meld_rules
from engine.variants.german.moves import is_rummy, may_play_on_table
from engine.variants.german.state import game_extra, turn_extra


def _can(state: GameState, action: Any) -> bool:
    return can(state, action)


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """The legal actions of ``seat`` now, in a stable order (empty when it may not act),
    built from the conditions of the variant's moves (:mod:`.moves`, :mod:`.exchange`,
    :mod:`.closing`, :mod:`.buyback`), never by verifying a candidate; the candidates +
    verify path stays as the oracle (:func:`checked_legal_actions`)."""
    closed = not_in_turn(state, seat)
    if closed is not None:
        return closed
    extra = game_extra(state)
    if extra.buyback:
        ok = state.phase is Phase.PLAY and extra.buyback[0] == seat
        decisions: list[Any] = [DeclineBuyBack(seat), BuyBack(seat)] if ok else []
        return decisions
    if extra.closing is not None:
        if state.phase is not Phase.PLAY:
            return []
        out: list[Any] = [EndLayOffs(seat)]
        if state.has_melded[seat]:
            out += _layoffs(state, seat)
        return out
    if state.phase is Phase.DRAW:
        return standard_legal_actions(state, seat)
    if turn_extra(state).dealer_discard:
        return discards(seat, distinct_cards(state.hands[seat]))
    return _play(state, seat)


def checked_legal_actions(state: GameState, seat: int) -> list[Action]:
    """The candidates that :func:`engine.game.can` accepts: the old way of listing, the
    oracle of :func:`legal_actions` (a property test holds them equal as sets)."""
    closed = not_in_turn(state, seat)
    if closed is not None:
        return closed
    extra = game_extra(state)
    out: list[Any] = []
    if extra.buyback:
        out = [DeclineBuyBack(seat), BuyBack(seat)]
    elif extra.closing is not None:
        out = [EndLayOffs(seat), *_layoffs(state, seat)]
    elif state.phase is Phase.DRAW:
        return checked_standard(state, seat)
    elif turn_extra(state).dealer_discard:
        out = [Discard(seat, c) for c in distinct_cards(state.hands[seat])]
    else:
        hand = state.hands[seat]
        out = [
            MeldCards(seat, (group,)) for group in candidate_melds(hand, meld_rules(state.rules))
        ]
        out += _layoffs(state, seat)
        out += exchanges(state, seat)
        out.append(TakeBack(seat))
        out += [Discard(seat, c) for c in distinct_cards(hand)]
    return [a for a in out if _can(state, a)]


def _layoffs(state: GameState, seat: int) -> list[Any]:
    return [
        LayOff(seat, (spec,), index)
        for spec, index in layoff_options(state.hands[seat], state.melds, state.rules, seat)
    ]


def _play(state: GameState, seat: int) -> list[Any]:
    """A normal turn's play phase, from the moves' conditions: a meld has one reading and
    keeps a card for the discard, not only copies of the card taken from the pile, and
    with ``no_rummy_first_turn`` no single last card when that discard would be hand rummy
    in the first turn; lay-offs (one a turn with ``one_layoff``) and joker exchanges once
    the seat may play on the table, with the same card kept; take back while the first meld
    is provisional; a discard of any card but the taken one, and while the first meld is
    provisional only the last card. In that order."""
    rules = state.rules
    mrules = meld_rules(rules)
    taken = state.turn.taken
    turn = turn_extra(state)
    no_last = rules.flag("no_rummy_first_turn") and turn.first and is_rummy(state)
    left = Leftover(state.hands[seat], taken, True)  # a card always stays for the discard

    out = _melds(state, seat, mrules, left, no_last)
    if may_play_on_table(state, seat):
        if not (rules.flag("one_layoff") and turn.laid_off >= 1):
            out += [
                a for a in _layoffs(state, seat) if left.ok(1, 1 if a.cards[0].card != taken else 0)
            ]
        out += _exchanges_kept(state, seat, mrules, left)
    if turn.provisional:
        out.append(TakeBack(seat))
    out += _discards(state, seat, bool(turn.provisional), no_last)
    return out


def _melds(
    state: GameState, seat: int, mrules: MeldRules, left: Leftover, no_last: bool
) -> list[Any]:
    """A new meld of one reading that keeps what ``left`` asks for; with ``no_last`` (the
    last card's discard would be hand rummy in the first turn) none that keeps one card."""
    hand = state.hands[seat]
    size = len(hand)
    return [
        MeldCards(seat, (group,))
        for group in one_reading_groups(hand, mrules)
        if not (no_last and size - len(group) == 1) and left.ok_group(group)
    ]


def _exchanges_kept(
    state: GameState, seat: int, mrules: MeldRules, left: Leftover
) -> list[ExchangeJoker]:
    """The candidate exchanges (:func:`exchanges`) whose card takes a joker's place (with
    ``set_swap_four`` a set's joker for all its missing cards), whose new meld has one
    reading, and which keep what ``left`` asks for."""
    taken = state.turn.taken
    four = state.rules.flag("set_swap_four")
    out: list[ExchangeJoker] = []
    for action in exchanges(state, seat):
        meld = state.melds[action.meld]
        if (
            not (four and meld.kind is MeldKind.SET)
            and joker_swap_target(meld, action.cards[0]) < 0
        ):
            continue
        cards = cards_from_hand(action, _freed(action, state))
        if (
            left.ok(len(cards), sum(1 for c in cards if c != taken))
            and len(readings(action.group, seat, mrules)) == 1
        ):
            out.append(action)
    return out


def _discards(state: GameState, seat: int, provisional: bool, no_last: bool) -> list[Any]:
    """A discard of any card but the one taken this turn; while the first meld is
    ``provisional`` only of the last card, and with ``no_last`` not of that one."""
    hand = state.hands[seat]
    taken = state.turn.taken
    if len(hand) == 1:
        return discards(seat, hand) if hand[0] != taken and not no_last else []
    return [] if provisional else discards(seat, distinct_cards(hand), taken)


def _freed(action: ExchangeJoker, state: GameState) -> int:
    """Jokers an exchange frees from the table (they are in ``action.group`` but not taken
    from the hand)."""
    meld = state.melds[action.meld]
    if state.rules.flag("set_swap_four") and meld.kind is MeldKind.SET:
        return sum(1 for p in meld.cards if p.card.is_joker)
    return 1


def exchanges(state: GameState, seat: int) -> list[ExchangeJoker]:
    """Candidate joker exchanges (not yet verified): for each meld with a joker and each
    natural card (or, ``set_swap_four``, the set's missing cards) of the hand, every
    candidate meld of the rest of the hand with the freed joker(s) in it."""
    targets = _joker_melds(state.melds, state.rules)
    if not targets:
        return []
    hand = state.hands[seat]
    held = set(hand)
    found: list[tuple[int, tuple[Card, ...], int]] = []  # (meld, cards given, jokers freed)
    for index, jokers, wanted, each in targets:
        if not each:
            if held.issuperset(wanted):  # the missing cards are of distinct suits
                found.append((index, wanted, jokers))
        else:
            found += [(index, (card,), 1) for card in wanted if card in held]
    if not found:
        return []
    mrules = meld_rules(state.rules)
    have = Counter(hand)
    out: list[ExchangeJoker] = []
    for index, cards, freed in found:
        rest = list((have - Counter(cards)).elements()) + [JOKER] * freed
        for group in candidate_melds(rest, mrules):
            if sum(1 for s in group if s.card.is_joker) >= freed:
                out.append(ExchangeJoker(seat, cards, index, group))
    return out


@reuse_last_tuple
def _joker_melds(
    melds: Sequence[Meld], rules: RuleSet
) -> tuple[tuple[int, int, tuple[Card, ...], bool], ...]:
    """The table melds with jokers, as (index, jokers, cards, each): with ``set_swap_four``
    a set's missing cards, given all together (``each`` False); else the cards that free
    one joker, each alone (``each`` True; a set's rank in every suit, a run's jokers'
    faces), in card order. Read once per table (:func:`engine.memo.reuse_last_tuple`: the
    table changes only with a meld or a lay-off)."""
    four = rules.flag("set_swap_four")
    out: list[tuple[int, int, tuple[Card, ...], bool]] = []
    for index, meld in enumerate(melds):
        jokers = sum(1 for p in meld.cards if p.card.is_joker)
        if not jokers:
            continue
        if four and meld.kind is MeldKind.SET:
            out.append((index, jokers, missing_cards(meld), False))
        elif meld.kind is MeldKind.SET:
            out.append((index, jokers, tuple(shared_card(meld.rank, s) for s in CARD_SUITS), True))
        else:
            # a run's jokers stand for named cards: the hand's copies of those faces
            faces = {p.face for p in meld.cards if p.card.is_joker}
            out.append((index, jokers, tuple(sorted(faces, key=SORT_KEY)), True))
    return tuple(out)


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
