"""The platform-neutral hand model: what one seat's hand screen shows and offers for its
current selection, built only from the seat's screen (its view and the engine's facts:
:class:`bot.ports.screens.SeatScreen`). Pure functions: nothing here asks the service or
the engine for anything.

Which moves are offered: every legal action of the seat (:func:`engine.game.legal_actions`,
computed in the service's worker pool) and nothing else. An action that puts hand cards
down (meld, lay-off, joker swap, discard, a variant's exchange: :func:`hand_cards`) is
offered when the selection holds exactly its cards; the others are *controls*, offered
whatever is selected (draw, take the upcard, next deal, "Rommé!", Romanian pre-play,
German take-back / done / buy-back); deep takes from a spread discard pile are the
``pile`` controls. So every legal move is reachable by selecting its cards, and the first
player's forced discard offers only the discards. The hint is the engine AI's choice among
the same legal actions, so it is always one of them; its cards come pre-selected.

:func:`offer_actions` gives the offers' actions in the order of
:attr:`bot.ports.hand.HandModel.offers` without any words, so the service's worker can
resolve a pressed offer number to its action exactly as the screen numbered it.

Front ends lay the model out (an inline keyboard, Discord components, terminal lines, a
web page); the words come from :mod:`bot.render.hand`.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from bot.ports.hand import Group, HandModel, Offer, SortMode, selected_cards
from bot.ports.model import TableInfo
from bot.ports.screens import SeatScreen
from bot.render.guide import guide_line
from bot.render.hand import offer_label, phase_line
from bot.render.variants import variant_hand_cards
from engine.actions import Discard, LayOff, MeldCards, SwapJoker, TakeDiscard
from engine.cards import Card, sort_cards
from engine.views import PlayerView

if TYPE_CHECKING:
    from engine.search import Partition

__all__ = [
    "Group",
    "HandModel",
    "Offer",
    "SortMode",
    "build_hand_model",
    "hand_cards",
    "hand_digest",
    "mask_of",
    "model_of",
    "offer_actions",
    "order_cards",
    "selected_cards",
    "valid_mask",
]


def hand_digest(hand: Iterable[Card]) -> str:
    """Four hex digits identifying the hand's cards (order does not matter): a control
    drawn for a hand carries it, so a press on a hand that changed since is caught."""
    text = " ".join(str(card) for card in sort_cards(hand))
    return hashlib.sha1(text.encode()).hexdigest()[:4]


def hand_cards(action: object) -> tuple[Card, ...] | None:
    """The hand cards ``action`` puts down, or ``None`` for an action that needs no
    selection (a control): all cards of the melds, the laid-off cards, the card swapped
    for a joker, the discard, a variant exchange's cards (``hand_cards`` of its module in
    :mod:`bot.render.variants`)."""
    match action:
        case MeldCards(groups=groups):
            return tuple(spec.card for group in groups for spec in group)
        case LayOff(cards=cards):
            return tuple(spec.card for spec in cards)
        case SwapJoker(card=card) | Discard(card=card):
            return (card,)
    return variant_hand_cards(action)


def order_cards(
    hand: Sequence[Card], sort: SortMode, melds: Partition | None = None
) -> tuple[Card, ...]:
    """The hand in display order: by suit (:func:`engine.cards.sort_cards`), by rank, or
    the cards of ``melds`` first (by suit when no partition is given)."""
    by_suit = sort_cards(hand)
    if sort is SortMode.RANK:
        return tuple(sorted(by_suit, key=lambda c: (c.is_joker, c.rank, c.sort_key)))
    if sort is SortMode.MELDS and melds is not None:
        first = [spec.card for group in melds.melds for spec in group]
        rest = list(by_suit)
        for card in first:
            rest.remove(card)
        return (*first, *rest)
    return by_suit


def mask_of(order: Sequence[Card], cards: Sequence[Card]) -> int:
    """The bit set selecting ``cards`` (each copy once) in ``order``; cards not in the
    hand are left out."""
    mask = 0
    for card in cards:
        for index, candidate in enumerate(order):
            if candidate == card and not mask >> index & 1:
                mask |= 1 << index
                break
    return mask


def valid_mask(order: Sequence[Card], mask: int) -> bool:
    """True when ``mask`` selects only cards of the hand."""
    return 0 <= mask < (1 << len(order))


def _group_of(action: object, used: tuple[Card, ...] | None) -> Group:
    if used:
        return Group.MOVE
    if isinstance(action, TakeDiscard) and action.card is not None:
        return Group.PILE
    return Group.CONTROL


def offer_actions(
    order: Sequence[Card], mask: int, legal: Sequence[object]
) -> list[tuple[object, tuple[Card, ...], Group]]:
    """The offers for the selection ``mask`` over ``order``, as (action, hand cards,
    group), in the order of :attr:`bot.ports.hand.HandModel.offers`: the moves that put
    down exactly the selected cards, then the controls, then the pile's deep takes, each
    in the engine's order of ``legal``."""
    chosen = Counter(selected_cards(tuple(order), mask))
    moves: list[tuple[object, tuple[Card, ...], Group]] = []
    controls: list[tuple[object, tuple[Card, ...], Group]] = []
    pile: list[tuple[object, tuple[Card, ...], Group]] = []
    for action in legal:
        used = hand_cards(action)
        group = _group_of(action, used)
        if group is Group.MOVE:
            assert used is not None
            if Counter(used) == chosen:
                moves.append((action, used, group))
        elif group is Group.PILE:
            pile.append((action, (), group))
        else:
            controls.append((action, (), group))
    return [*moves, *controls, *pile]


def build_hand_model(
    screen: SeatScreen, *, mask: int = 0, sort: SortMode = SortMode.SUIT
) -> HandModel:
    """The hand model of ``screen``'s seat for the selection ``mask`` over the hand in
    ``sort`` order. Call inside ``use_locale`` (the labels are localised). A mask with
    bits beyond the hand is cut to the hand. In the person's first game of the variant
    (``screen.guided``) the phase line also says what to type for each kind of move."""
    return model_of(
        screen.info,
        screen.view,
        screen.facts.legal,
        screen.facts.suggestion,
        mask=mask,
        sort=sort,
        melds=screen.facts.melds,
        complete=screen.facts.complete,
        guided=screen.guided,
    )


def _hint(
    view: PlayerView, cards: Sequence[Card], suggestion: object | None
) -> tuple[Offer | None, int]:
    """The ``suggestion`` as an offer and the mask of its cards over the ordered hand
    ``cards``; ``(None, 0)`` without a suggestion."""
    if suggestion is None:
        return None, 0
    used = hand_cards(suggestion)
    hint = Offer(
        suggestion, used or (), _group_of(suggestion, used), *offer_label(suggestion, view)
    )
    return hint, mask_of(cards, used or ())


def _phase_text(
    view: PlayerView, legal: Sequence[object], suggestion: object | None, guided: bool
) -> str:
    """The phase line; ``guided`` (and something to do): followed by the line saying what
    to type for each kind of move."""
    line = phase_line(view, legal)
    guide = guide_line(view, legal, suggestion) if guided and legal and line else None
    if guide:
        line = f"{line}\n{guide}"
    return line


def model_of(
    info: TableInfo,
    view: PlayerView,
    legal: Sequence[object],
    suggestion: object | None,
    *,
    mask: int = 0,
    sort: SortMode = SortMode.SUIT,
    melds: Partition | None = None,
    complete: bool = True,
    guided: bool = False,
) -> HandModel:
    """:func:`build_hand_model` from its parts: the table ``info``, the seat's ``view``,
    its ``legal`` actions and the ``suggestion`` (one of them, or ``None``); ``guided``:
    the phase line also says what to type for each kind of move
    (:func:`bot.render.guide.guide_line`)."""
    cards = order_cards(view.hand, sort, melds)
    mask &= (1 << len(cards)) - 1
    offers = [
        Offer(action, used, group, *offer_label(action, view))
        for action, used, group in offer_actions(cards, mask, legal)
    ]
    hint, hint_mask = _hint(view, cards, suggestion)
    line = _phase_text(view, legal, suggestion, guided)
    return HandModel(
        info,
        view,
        sort,
        cards,
        mask,
        line,
        tuple(o for o in offers if o.group is Group.MOVE),
        tuple(o for o in offers if o.group is Group.CONTROL),
        tuple(o for o in offers if o.group is Group.PILE),
        hint,
        hint_mask,
        melds,
        complete,
        hand_digest(view.hand),
    )
