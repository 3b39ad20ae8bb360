"""Words of the hand screen that every front end shows the same: the phase line (what the
seat may do now) and the label of each offered move (:mod:`bot.interaction.hand`).

Built from the seat's :class:`engine.views.PlayerView` and the engine's legal actions
only; a variant's own moves and lines come from its module in :mod:`bot.render.variants`
(``action_label``, ``phase_line``). Call inside ``use_locale``.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import N_, _
from bot.ports.hand import HandModel, SortMode
from bot.render.cards import card_text, cards_text, meld_text, spec_text
from bot.render.text import render_hand
from bot.render.variants import ActionLabel, variant_action_label, variant_phase_line
from engine.actions import Discard, Draw, LayOff, MeldCards, NextDeal, SwapJoker, TakeDiscard
from engine.cards import Card
from engine.state import Phase
from engine.views import PlayerView

SORT_NAMES: tuple[str, ...] = (N_("by suit"), N_("by rank"), N_("melds first"))
"""The hand orders, by :class:`bot.interaction.hand.SortMode` value."""
BY_COLOUR = N_("by colour")
"""The first order's name for tiles (they have colours, not suits)."""


def sort_name(mode: int, tiles: bool = False) -> str:
    """The localised name of hand order ``mode`` (0 by suit, or by colour for ``tiles``;
    1 by rank, 2 melds first)."""
    if tiles and mode == 0:
        return _(BY_COLOUR)
    return _(SORT_NAMES[mode])


def phase_line(view: PlayerView, legal: Sequence[object]) -> str:
    """What the seat may do now, from its point of view: "Your turn: draw from the stock or
    take the upcard.", "Your turn: discard a card." (when every legal move is a discard:
    the first player's forced discard), "ben to play.", or the variant's own line (Romanian
    pre-play). Empty between deals."""
    table = view.table
    own = variant_phase_line(view)
    if own is not None:
        return own
    if table.phase is Phase.HAND_OVER:
        return _("The deal is over; the next deal can start.")
    if table.phase is Phase.GAME_OVER:
        return _("The game is over.")
    if table.current is None:
        return ""
    if table.current != view.seat:
        return _("{name} to play.").format(name=table.players[table.current])
    if table.phase is Phase.DRAW:
        return _draw_line(view, legal)
    return _play_line(view, legal)


def _draw_line(view: PlayerView, legal: Sequence[object]) -> str:
    """The seat's own draw step: from the stock (or the wall), and whether it may take the
    upcard (or from the discard row); with no ``legal`` moves given, it may."""
    may_take = any(isinstance(a, TakeDiscard) for a in legal) if legal else True
    if view.table.rules.var.uses_tiles:
        return (
            _("Your turn: draw from the wall or take from the discard row.")
            if may_take
            else _("Your turn: draw from the wall.")
        )
    if not may_take:
        return _("Your turn: draw from the stock.")
    return _("Your turn: draw from the stock or take the upcard.")


def _play_line(view: PlayerView, legal: Sequence[object]) -> str:
    """The seat's own play step: meld, lay off or discard; only a discard when every
    legal move is one (the first player's forced discard)."""
    if legal and all(isinstance(a, Discard) for a in legal):
        if view.table.rules.var.uses_tiles:
            return _("Your turn: discard a tile.")
        return _("Your turn: discard a card.")
    return _("Your turn: meld, lay off or discard.")


def offer_label(action: object, view: PlayerView) -> ActionLabel:
    """A button's words and tone for a legal ``action`` of the seat: "Draw", "Take 7♥",
    "Meld 7♥ 8♥ 🃏=9♥", "Lay off on 2: 7♥ 8♥ 9♥", "Swap for the joker of 1", "Discard K♠",
    "Next deal", or the variant module's words (Romanian pre-play, "Rommé!")."""
    label = _turn_label(action, view)
    if label is None:
        label = _meld_label(action, view)
    if label is None:
        label = variant_action_label(action)
    if label is not None:
        return label
    return type(action).__name__, "plain"


def _turn_label(action: object, view: PlayerView) -> ActionLabel | None:
    """The words of drawing, taking the upcard (or a named card), discarding and starting
    the next deal; ``None`` for any other action."""
    match action:
        case Draw():
            return _("Draw"), "plain"
        case TakeDiscard(card=None):
            upcard = view.table.upcard
            return _("Take {card}").format(card=card_text(upcard) if upcard else ""), "plain"
        case TakeDiscard(card=card) if card is not None:
            return _("Take {card}").format(card=card_text(card)), "plain"
        case Discard(card=card):
            return _("Discard {card}").format(card=card_text(card)), "stop"
        case NextDeal():
            return _("Next deal"), "go"
    return None


def _meld_label(action: object, view: PlayerView) -> ActionLabel | None:
    """The words of melding, laying off and swapping for a joker; ``None`` for any other
    action."""
    melds = view.table.melds
    match action:
        case MeldCards(groups=groups):
            text = " | ".join(" ".join(spec_text(s) for s in g) for g in groups)
            return _("Meld {cards}").format(cards=text), "go"
        case LayOff(cards=cards, meld=index):
            target = meld_text(melds[index]) if index < len(melds) else ""
            return _("Lay off {cards} on {number}: {meld}").format(
                cards=" ".join(spec_text(s) for s in cards), number=index + 1, meld=target
            ), "plain"
        case SwapJoker(card=card, meld=index):
            return _("Swap {card} for the joker of {number}").format(
                card=card_text(card), number=index + 1
            ), "plain"
    return None


def hint_text(action: object, view: PlayerView) -> str:
    """The suggestion as a sentence: "Hint: Meld 7♥ 8♥ 9♥"."""
    return _("Hint: {move}").format(move=offer_label(action, view)[0])


def selection_text(cards: Sequence[Card]) -> str:
    """The selected cards line ("Selected: 7♥ 8♥")."""
    return _("Selected: {cards}").format(cards=cards_text(cards))


def hand_in_order(model: HandModel) -> str:
    """The seat's hand as text in the order it chose (:attr:`HandModel.sort`): by suit or
    colour, by rank, or its best melds first (:func:`bot.render.text.render_hand`)."""
    melds = model.melds if model.sort is SortMode.MELDS else None
    return render_hand(model.view, melds, by_rank=model.sort is SortMode.RANK)
