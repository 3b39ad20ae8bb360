"""Inline keyboards: the lobby and table buttons under the group message and the hand
keyboard under a player's private hand message.

The hand keyboard is drawn from the :class:`engine.views.PlayerView` and the variant:
the cards as toggle buttons (the selection shown with ✓), then the moves that fit the
phase (draw / take, meld, lay off, swap, discard, next deal), the variant's own verbs
(:func:`variant_verbs`, from :func:`engine.commands.command_table`), and sort / hint.
A screen picks further arguments: the meld to lay off on or swap with, a joker's
reading, a card of the discard pile.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.render.cards import card_text, cards_text, meld_text
from bot.service.model import Status, TableInfo
from bot.telegram_bot import texts
from bot.telegram_bot.callbacks import GROUP, HAND, Callback
from bot.telegram_bot.hand import faces_arg, my_turn, selected
from engine.cards import Card
from engine.commands import COMMANDS, CommandHelp, command_table
from engine.state import Phase
from engine.variants import get_variant
from engine.views import PlayerView, PublicView

CARDS_PER_ROW = 6
ACTIONS_PER_ROW = 3
MAX_PILE_BUTTONS = 60
"""Telegram allows 100 buttons per keyboard; the pile picker shows the top 60 cards."""

VERB_ARGUMENTS: dict[str, str] = {}
"""Variant verb -> what its button on the hand keyboard sends with the verb: ``cards``
(the selected cards) or ``pile`` (a card picked from the visible discard pile). A verb
not listed: ``cards`` when its syntax has a required argument (``exchange 8h 3``), else
it has no hand button. Independently, a verb whose arguments are all optional
(``call [kh] [2]``, Rummy 500's "Rommé!") gets a button under the group's table message
that sends the bare verb for whoever presses it (anyone seated, also out of turn)."""


def variant_verbs(variant: str) -> list[CommandHelp]:
    """The verbs only this variant has, in the order of its command table."""
    shared = {c.verb for c in COMMANDS}
    return [c for c in command_table(variant) if c.verb not in shared]


def _required(help_entry: CommandHelp) -> list[str]:
    return [w for w in help_entry.syntax.split()[1:] if not w.startswith("[")]


def bare_verb(help_entry: CommandHelp) -> bool:
    """True when the verb works without arguments (a table-message button)."""
    return not _required(help_entry)


def verb_argument(help_entry: CommandHelp) -> str | None:
    """What the verb's hand button adds: ``cards``, ``pile`` or ``None`` (no hand button);
    see :data:`VERB_ARGUMENTS`."""
    if help_entry.verb in VERB_ARGUMENTS:
        return VERB_ARGUMENTS[help_entry.verb]
    return "cards" if _required(help_entry) else None


def deep_take(view: PlayerView) -> bool:
    """True when the seat may pick a card deeper in the discard pile (with every card
    above it): its draw phase, in a variant that spreads the pile, with more than one card
    there (Rummy 500)."""
    table = view.table
    return (my_turn(view) and table.phase is Phase.DRAW and len(table.discard) > 1
            and get_variant(table.rules.variant).discard_pile_public(table.rules))


def _button(text: str, data: Callback) -> InlineKeyboardButton:
    return InlineKeyboardButton(text, callback_data=data.encode())


def _rows(buttons: Sequence[InlineKeyboardButton], width: int) -> list[list[InlineKeyboardButton]]:
    return [list(buttons[i:i + width]) for i in range(0, len(buttons), width)]


# --- the group message ----------------------------------------------------------------------


def lobby_keyboard(info: TableInfo, start_link: str | None) -> InlineKeyboardMarkup:
    """Join, Leave, Add AI, Start; plus a "Start me" link while someone cannot be reached."""
    base = Callback(GROUP, "j", info.id, info.version)
    buttons = [_button(texts.label("join"), base),
               _button(texts.label("leave"), base.with_(action="l")),
               _button(texts.label("add_ai"), base.with_(action="a")),
               _button(texts.label("start"), base.with_(action="s"))]
    rows = _rows(buttons, 2)
    if start_link:
        rows.append([InlineKeyboardButton(texts.label("start_me"), url=start_link)])
    return InlineKeyboardMarkup(rows)


def table_keyboard(info: TableInfo, view: PublicView, start_link: str | None
                   ) -> InlineKeyboardMarkup | None:
    """During the game: My hand, Next deal between deals, the variant's verbs that anyone
    may call without cards; ``None`` once the table is closed."""
    if info.status is not Status.PLAYING:
        return None
    base = Callback(GROUP, "y", info.id, info.version)
    buttons = [_button(texts.label("my_hand"), base)]
    if view.phase is Phase.HAND_OVER:
        buttons.append(_button(texts.label("next_deal"), base.with_(action="n")))
    elif view.phase in (Phase.DRAW, Phase.PLAY):
        for index, verb in enumerate(variant_verbs(info.variant)):
            if bare_verb(verb):
                buttons.append(_button(texts.verb_label(verb.verb),
                                       base.with_(action="v", arg=str(index))))
    rows = _rows(buttons, ACTIONS_PER_ROW)
    if start_link:
        rows.append([InlineKeyboardButton(texts.label("start_me"), url=start_link)])
    return InlineKeyboardMarkup(rows)


# --- the hand keyboard ----------------------------------------------------------------------


@dataclass(frozen=True)
class HandScreen:
    """What the hand keyboard shows.

    ``order``: the hand in display order; ``mask``: the selection; ``screen``: ``main``,
    ``layoff`` / ``swap`` (pick a meld), ``joker`` (pick a reading: ``readings`` holds the
    joker faces of each, ``target`` ``m`` for a meld or the meld index of a lay-off),
    ``pile`` (pick a discard-pile card for variant verb number ``verb``, or for a deep
    take when ``verb`` is -1).
    """

    table_id: int
    version: int
    view: PlayerView
    order: tuple[Card, ...]
    mask: int = 0
    sort: int = 0
    screen: str = "main"
    readings: tuple[tuple[Card, ...], ...] = field(default_factory=tuple)
    labels: tuple[str, ...] = field(default_factory=tuple)
    target: str = "m"
    verb: int = 0

    def callback(self, action: str, mask: int | None = None, arg: str = "") -> Callback:
        """A hand button of this screen."""
        return Callback(HAND, action, self.table_id, self.version,
                        self.mask if mask is None else mask, self.sort, arg)


def hand_keyboard(screen: HandScreen) -> InlineKeyboardMarkup | None:
    """The keyboard under the hand message; ``None`` between games (nothing to press)."""
    view = screen.view
    if view.table.phase is Phase.GAME_OVER:
        return None
    rows = _card_rows(screen)
    if screen.screen == "layoff":
        rows += _meld_rows(screen, "L", range(len(view.table.melds)))
    elif screen.screen == "swap":
        with_jokers = [i for i, m in enumerate(view.table.melds)
                       if any(p.card.is_joker for p in m.cards)]
        rows += _meld_rows(screen, "W", with_jokers)
    elif screen.screen == "joker":
        rows += _reading_rows(screen)
    elif screen.screen == "pile":
        rows += _pile_rows(screen)
    else:
        rows += _rows(_main_actions(screen), ACTIONS_PER_ROW)
    return InlineKeyboardMarkup(rows) if rows else None


def _card_rows(screen: HandScreen) -> list[list[InlineKeyboardButton]]:
    buttons = []
    for index, card in enumerate(screen.order):
        chosen = bool(screen.mask >> index & 1)
        text = ("✓" if chosen else "") + card_text(card)
        buttons.append(_button(text, screen.callback("s", screen.mask ^ (1 << index))))
    return _rows(buttons, CARDS_PER_ROW)


def _main_actions(screen: HandScreen) -> list[InlineKeyboardButton]:
    view = screen.view
    table = view.table
    chosen = selected(screen.order, screen.mask)
    out: list[InlineKeyboardButton] = []
    if table.phase is Phase.HAND_OVER:
        out.append(_button(texts.label("next_deal"), screen.callback("n")))
    elif my_turn(view) and table.phase is Phase.DRAW:
        out.append(_button(texts.label("draw"), screen.callback("d")))
        if table.upcard is not None:
            out.append(_button(texts.label("take", card=card_text(table.upcard)),
                               screen.callback("t")))
    elif my_turn(view) and table.phase is Phase.PLAY:
        rules = table.rules
        var = get_variant(rules.variant)
        if len(chosen) >= var.meld_rules(rules).min_cards:
            out.append(_button(texts.label("meld"), screen.callback("m")))
        if chosen and table.melds and not var.all_at_once(rules, table.deal_number):
            out.append(_button(texts.label("layoff_pick"), screen.callback("o")))
        if (len(chosen) == 1 and var.joker_swap(rules)
                and any(p.card.is_joker for m in table.melds for p in m.cards)):
            out.append(_button(texts.label("swap_pick"), screen.callback("w")))
        if len(chosen) == 1:
            out.append(_button(f"{texts.label('discard')} {card_text(chosen[0])}",
                               screen.callback("x")))
    if deep_take(view):
        out.append(_button(texts.label("take_deeper"), screen.callback("k")))
    if table.phase in (Phase.DRAW, Phase.PLAY):
        for index, verb in enumerate(variant_verbs(table.rules.variant)):
            kind = verb_argument(verb)
            if kind is not None:
                out.append(_button(texts.verb_label(verb.verb),
                                   screen.callback("p" if kind == "pile" else "v",
                                                   arg=str(index))))
    out.append(_button(texts.label("sort"), screen.callback("r")))
    out.append(_button(texts.label("hint"), screen.callback("h")))
    if screen.mask:
        out.append(_button(texts.label("clear"), screen.callback("c", mask=0)))
    return out


def _back(screen: HandScreen) -> list[InlineKeyboardButton]:
    return [_button(texts.label("back"), screen.callback("b"))]


def _meld_rows(screen: HandScreen, action: str, indexes: Sequence[int] | range
               ) -> list[list[InlineKeyboardButton]]:
    table = screen.view.table
    rows = []
    for index in indexes:
        text = f"{index + 1}. {meld_text(table.melds[index])}"
        rows.append([_button(text[:60], screen.callback(action, arg=str(index)))])
    return [*rows, _back(screen)]


def _reading_rows(screen: HandScreen) -> list[list[InlineKeyboardButton]]:
    rows = []
    for faces, text in zip(screen.readings, screen.labels, strict=True):
        arg = f"{screen.target}_{faces_arg(faces)}"
        rows.append([_button(text[:60], screen.callback("J", arg=arg))])
    return [*rows, _back(screen)]


def _pile_rows(screen: HandScreen) -> list[list[InlineKeyboardButton]]:
    """The discard pile from the top down: for a deep take (``verb`` -1, the top card is
    the plain Take) or for variant verb number ``verb``."""
    pile = list(reversed(screen.view.table.discard))
    if screen.verb < 0:
        buttons = [_button(card_text(card), screen.callback("K", arg=str(card)))
                   for card in pile[1:MAX_PILE_BUTTONS + 1]]
    else:
        buttons = [_button(card_text(card), screen.callback("P", arg=f"{screen.verb}_{card}"))
                   for card in pile[:MAX_PILE_BUTTONS]]
    return [*_rows(buttons, CARDS_PER_ROW), _back(screen)]


def reading_label(faces: Sequence[Card]) -> str:
    """A joker reading's button: ``🃏 = 7♥`` (several jokers: ``🃏 = 7♥, 8♥``)."""
    return "🃏 = " + cards_text(faces).replace(" ", ", ")
