"""Inline keyboards: the lobby and table buttons under the group message and the hand
keyboard under a player's private hand message.

The hand keyboard lays out the platform-neutral hand model
(:class:`bot.interaction.hand.HandModel`): the cards as toggle buttons (the selection
shown with ✓), then the moves the model offers for that selection and its controls
(draw, take, next deal, a variant's own moves), each as an "offer" button carrying its
number in :attr:`~bot.interaction.hand.HandModel.offers`; the deeper cards of a spread
discard pile on a screen of their own; sort, hint and clear. No rule knowledge here: what
is offered is what the engine lists as legal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.interaction.calls import public_calls
from bot.ports.hand import Group, HandModel
from bot.ports.model import Status, TableInfo
from bot.ports.table_rules import AI_LEVELS
from bot.ports.web_links import button_text, replay_button_text
from bot.render.cards import card_text
from bot.render.lobby import ai_level_label
from bot.telegram_bot import texts
from bot.telegram_bot.callbacks import GROUP, HAND, Callback
from engine.state import Phase
from engine.views import PublicView

CARDS_PER_ROW = 6
ACTIONS_PER_ROW = 3
SHORT_LABEL = 16
"""Offer labels up to this many characters share a row; longer ones get a row each."""
MAX_PILE_BUTTONS = 60
"""Telegram allows 100 buttons per keyboard; the pile picker shows the top 60 cards."""


def _button(text: str, data: Callback) -> InlineKeyboardButton:
    return InlineKeyboardButton(text, callback_data=data.encode())


def _rows(buttons: Sequence[InlineKeyboardButton], width: int) -> list[list[InlineKeyboardButton]]:
    return [list(buttons[i : i + width]) for i in range(0, len(buttons), width)]


# --- the group message ----------------------------------------------------------------------


def lobby_keyboard(info: TableInfo, start_link: str | None) -> InlineKeyboardMarkup:
    """Join, Leave; one "add an AI seat" button per level (easy, normal, hard, expert:
    ``addbot <level>``); Start; plus a "Start me" link while someone cannot be reached."""
    base = Callback(GROUP, "j", info.id, info.version)
    rows = [
        [
            _button(texts.label("join"), base),
            _button(texts.label("leave"), base.with_(action="l")),
        ],
        [_button(ai_level_label(level), base.with_(action="a", arg=level)) for level in AI_LEVELS],
        [_button(texts.label("start"), base.with_(action="s"))],
    ]
    if start_link:
        rows.append([InlineKeyboardButton(texts.label("start_me"), url=start_link)])
    return InlineKeyboardMarkup(rows)


def table_keyboard(
    info: TableInfo,
    view: PublicView,
    start_link: str | None,
    web_link: str | None = None,
    replay_link: str | None = None,
) -> InlineKeyboardMarkup | None:
    """During the game: My hand, Next deal between deals and, while the variant's public
    view names seats that may call out of turn (Rummy 500's ``may_call``: "Rommé!"), its
    verbs that need no cards, for whoever of them presses; ``None`` once the table is
    closed. Moves of the player to move (Romanian pre-play too) are on their hand
    message only. ``web_link``: the bot's Mini App on this table (the web table), when
    it is on; ``replay_link``: the Mini App's replay of the table's finished deals (a
    Replay button between deals and under the ended game, docs/replay.md)."""
    if info.status is not Status.PLAYING:
        if replay_link and info.status is Status.FINISHED:
            return InlineKeyboardMarkup(
                [[InlineKeyboardButton(replay_button_text(), url=replay_link)]]
            )
        return None
    base = Callback(GROUP, "y", info.id, view.version)
    buttons = [_button(texts.label("my_hand"), base)]
    if view.phase is Phase.HAND_OVER:
        buttons.append(_button(texts.label("next_deal"), base.with_(action="n")))
    else:
        buttons += [
            _button(call.label, base.with_(action="v", arg=call.verb))
            for call in public_calls(view)
        ]
    rows = _rows(buttons, ACTIONS_PER_ROW)
    if web_link:
        rows.append([InlineKeyboardButton(button_text(), url=web_link)])
    if replay_link and view.phase is Phase.HAND_OVER:
        rows.append([InlineKeyboardButton(replay_button_text(), url=replay_link)])
    if start_link:
        rows.append([InlineKeyboardButton(texts.label("start_me"), url=start_link)])
    return InlineKeyboardMarkup(rows)


# --- the hand keyboard ----------------------------------------------------------------------


@dataclass(frozen=True)
class HandScreen:
    """What the hand keyboard shows: the ``model`` drawn for table ``table_id`` at game
    state ``version`` (:attr:`engine.views.PublicView.version`), on the ``main`` screen or
    the ``pile`` screen (deeper cards of a spread
    discard pile); ``web_app``: the web table's page for a ``web_app`` button (``None``:
    the web table is off)."""

    table_id: int
    version: int
    model: HandModel
    screen: str = "main"
    web_app: str | None = None

    def callback(self, action: str, mask: int | None = None, arg: str = "") -> Callback:
        """A hand button of this screen (the selection kept unless ``mask`` is given)."""
        return Callback(
            HAND,
            action,
            self.table_id,
            self.version,
            self.model.mask if mask is None else mask,
            int(self.model.sort),
            arg,
        )


def hand_keyboard(screen: HandScreen) -> InlineKeyboardMarkup | None:
    """The keyboard under the hand message; ``None`` once the game is over."""
    model = screen.model
    if model.view.table.phase is Phase.GAME_OVER:
        return None
    rows = _card_rows(screen)
    if screen.screen == "pile":
        rows += _pile_rows(screen)
    else:
        rows += _offer_rows(screen)
    return InlineKeyboardMarkup(rows) if rows else None


def _card_rows(screen: HandScreen) -> list[list[InlineKeyboardButton]]:
    model = screen.model
    buttons = []
    for index, card in enumerate(model.cards):
        chosen = bool(model.mask >> index & 1)
        text = ("✓" if chosen else "") + card_text(card)
        buttons.append(_button(text, screen.callback("s", model.mask ^ (1 << index))))
    return _rows(buttons, CARDS_PER_ROW)


def _offer_rows(screen: HandScreen) -> list[list[InlineKeyboardButton]]:
    """The offers for the selection (moves, then controls), a "take deeper" button when the
    pile offers more, then sort / hint / clear."""
    model = screen.model
    rows: list[list[InlineKeyboardButton]] = []
    short: list[InlineKeyboardButton] = []
    for number, offer in enumerate(model.offers):
        if offer.group is Group.PILE:
            continue
        button = _button(offer.label[:64], screen.callback("a", arg=str(number)))
        if len(offer.label) > SHORT_LABEL:
            rows.append([button])
        else:
            short.append(button)
    rows += _rows(short, ACTIONS_PER_ROW)
    tools = []
    if model.pile:
        tools.append(_button(texts.label("take_deeper"), screen.callback("k")))
    tools.append(_button(texts.label("sort"), screen.callback("r")))
    tools.append(_button(texts.label("hint"), screen.callback("h")))
    if model.mask:
        tools.append(_button(texts.label("clear"), screen.callback("c", mask=0)))
    rows += _rows(tools, ACTIONS_PER_ROW)
    if screen.web_app:
        rows.append([InlineKeyboardButton(button_text(), web_app=WebAppInfo(screen.web_app))])
    return rows


def _pile_rows(screen: HandScreen) -> list[list[InlineKeyboardButton]]:
    """The deep takes the model offers (a card of the spread pile with every card above
    it), top first, then Back."""
    model = screen.model
    first_pile = len(model.moves) + len(model.controls)
    buttons = [
        _button(offer.label[:64], screen.callback("a", arg=str(first_pile + i)))
        for i, offer in enumerate(model.pile[:MAX_PILE_BUTTONS])
    ]
    return [*_rows(buttons, ACTIONS_PER_ROW), [_button(texts.label("back"), screen.callback("b"))]]
