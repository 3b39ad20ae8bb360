"""The platform-neutral hand model: what one seat's hand screen shows and offers for its
current selection, built only from the seat's view and the engine's legal actions.

A selection is a bit set over the hand *in display order* (bit ``i`` = the ``i``-th card
shown) and the order a function of the hand and the :class:`SortMode`, so a button that
carries (table, version, sort, mask, offer number) means the same move after a restart.

Which moves are offered: every legal action of the seat (:func:`engine.game.legal_actions`,
computed in the service's worker pool) and nothing else. An action that puts hand cards
down (meld, lay-off, joker swap, discard, a variant's exchange: :func:`hand_cards`) is
offered when the selection holds exactly its cards; the others are *controls*, offered
whatever is selected (draw, take the upcard, next deal, "Rommé!", Romanian pre-play,
German take-back / done / buy-back); deep takes from a spread discard pile are the
``pile`` controls. So every legal move is reachable by selecting its cards, and the first
player's forced discard offers only the discards. The hint is the engine AI's choice among
the same legal actions (:meth:`bot.service.service.GameService.hand_facts`), so it is
always one of them; its cards come pre-selected.

Adapters lay the model out (an inline keyboard, Discord components, terminal lines); the
words come from :mod:`bot.render.hand`.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.ports.model import ChatKey, TableInfo, UserRef
from bot.render.guide import guide_line
from bot.render.hand import offer_label, phase_line
from bot.render.variants import Tone, variant_hand_cards
from bot.service.service import GameService
from engine.actions import Discard, LayOff, MeldCards, SwapJoker, TakeDiscard
from engine.cards import Card, sort_cards
from engine.errors import EngineError
from engine.views import PlayerView

if TYPE_CHECKING:
    from engine.search import Partition


class SortMode(enum.IntEnum):
    """The hand's display order."""

    SUIT = 0
    RANK = 1
    MELDS = 2

    def next(self) -> SortMode:
        """The order the Sort button switches to."""
        return SortMode((self.value + 1) % len(SortMode))


class Group(enum.Enum):
    """Where an offer belongs on the screen: ``MOVE`` needs the selection, ``CONTROL`` does
    not, ``PILE`` picks a card deeper in a spread discard pile."""

    MOVE = "move"
    CONTROL = "control"
    PILE = "pile"


@dataclass(frozen=True, slots=True)
class Offer:
    """One offered move: the engine ``action`` (the seat's own), the hand ``cards`` it puts
    down (empty for a control), its ``group``, and the button's localised ``label`` and
    ``tone`` (``go`` / ``stop`` / ``plain``)."""

    action: object
    cards: tuple[Card, ...]
    group: Group
    label: str
    tone: Tone


@dataclass(frozen=True)
class HandModel:
    """One seat's hand screen (see the module docstring).

    ``cards``: the hand in display order; ``mask``: the selection over ``cards``;
    ``phase_line``: what the seat may do now; ``moves``: the offers for exactly this
    selection, ``controls`` / ``pile``: offers that need none; ``hint``: the suggested
    offer and ``hint_mask`` its cards in display order; ``melds``: the best melds when
    sorted melds first; ``complete``: False when the engine gave no legal list in time
    (nothing is offered; typed commands still work)."""

    info: TableInfo
    view: PlayerView
    sort: SortMode
    cards: tuple[Card, ...]
    mask: int
    phase_line: str
    moves: tuple[Offer, ...]
    controls: tuple[Offer, ...]
    pile: tuple[Offer, ...]
    hint: Offer | None
    hint_mask: int
    melds: Partition | None
    complete: bool = True

    @property
    def selected(self) -> tuple[Card, ...]:
        """The selected cards in display order."""
        return selected_cards(self.cards, self.mask)

    @property
    def offers(self) -> tuple[Offer, ...]:
        """Every offer of this screen: moves, controls, pile, in that order (the numbers
        a button carries)."""
        return (*self.moves, *self.controls, *self.pile)

    @property
    def my_turn(self) -> bool:
        """True when the seat is to move (draw or play)."""
        return self.view.table.current == self.view.seat


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


def order_cards(hand: Sequence[Card], sort: SortMode, melds: Partition | None = None
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


def selected_cards(order: Sequence[Card], mask: int) -> tuple[Card, ...]:
    """The cards whose bits are set in ``mask``, in display order."""
    return tuple(card for index, card in enumerate(order) if mask >> index & 1)


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


def build_hand_model(info: TableInfo, view: PlayerView, legal: Sequence[object],
                     suggestion: object | None, *, mask: int = 0,
                     sort: SortMode = SortMode.SUIT, melds: Partition | None = None,
                     complete: bool = True, guided: bool = False) -> HandModel:
    """The hand model of ``view.seat`` for the selection ``mask`` over the hand in ``sort``
    order, from its ``legal`` actions and the ``suggestion`` (one of them, or ``None``).
    Call inside ``use_locale`` (the labels are localised). A mask with bits beyond the
    hand is cut to the hand. ``guided`` (the person's first game of the variant): the phase
    line also says what to type for each kind of move (:func:`bot.render.guide.guide_line`).
    """
    cards = order_cards(view.hand, sort, melds)
    mask &= (1 << len(cards)) - 1
    chosen = Counter(selected_cards(cards, mask))
    moves: list[Offer] = []
    controls: list[Offer] = []
    pile: list[Offer] = []
    for action in legal:
        used = hand_cards(action)
        if used:
            if Counter(used) == chosen:
                moves.append(_offer(action, used, Group.MOVE, view))
        elif isinstance(action, TakeDiscard) and action.card is not None:
            pile.append(_offer(action, (), Group.PILE, view))
        else:
            controls.append(_offer(action, (), Group.CONTROL, view))
    hint = None
    hint_mask = 0
    if suggestion is not None:
        used = hand_cards(suggestion) or ()
        group = Group.MOVE if used else Group.PILE if isinstance(suggestion, TakeDiscard) \
            and suggestion.card is not None else Group.CONTROL
        hint = _offer(suggestion, used, group, view)
        hint_mask = mask_of(cards, used)
    line = phase_line(view, legal)
    guide = guide_line(view, legal, suggestion) if guided and line else None
    if guide:
        line = f"{line}\n{guide}"
    return HandModel(info, view, sort, cards, mask, line, tuple(moves),
                     tuple(controls), tuple(pile), hint, hint_mask, melds, complete)


def _offer(action: object, cards: tuple[Card, ...], group: Group, view: PlayerView) -> Offer:
    label, tone = offer_label(action, view)
    return Offer(action, cards, group, label, tone)


async def hand_model(service: GameService, key: ChatKey, user: UserRef, *, mask: int = 0,
                     sort: SortMode = SortMode.SUIT) -> HandModel:
    """The user's hand model at the chat's running game (the engine work runs in the
    service's pool: :meth:`~bot.service.service.GameService.hand_facts`). Raises
    ``NotSeated`` / ``NotPlaying`` / ``NoTable``. Call inside ``use_locale``."""
    facts = await service.hand_facts(key, user, melds=sort is SortMode.MELDS)
    guided = bool(facts.legal) and await service.first_game(user, facts.info.variant)
    return build_hand_model(facts.info, facts.view, facts.legal, facts.suggestion, mask=mask,
                            sort=sort, melds=facts.melds, complete=facts.complete,
                            guided=guided)


async def hand_melds(service: GameService, key: ChatKey, user: UserRef, grouped: bool
                     ) -> Partition | None:
    """The best melds of the user's hand when ``grouped`` (the "melds first" order), found
    by the service's engine workers within their budget (:meth:`GameService.hand_facts`,
    remembered per table version); ``None`` when not grouped, not in time, or the game is
    gone (the hand is then shown sorted by suit)."""
    if not grouped:
        return None
    try:
        return (await service.hand_facts(key, user, melds=True)).melds
    except EngineError:
        return None
