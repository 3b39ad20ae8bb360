"""The private hand message of each player at each table: drawn from the player's view,
edited in place (or sent anew when it is gone, or moved to the bottom of the chat after
a typed command), its message id, version and hand kept in the store."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from telegram import InlineKeyboardMarkup

from bot.i18n import _, use_locale
from bot.interaction.hand import HandModel, SortMode, hand_model
from bot.ports.message_store import TelegramHandMessage, TelegramMessageStore
from bot.ports.model import Status, TableInfo, UserRef
from bot.service.errors import NoTable, NotPlaying, NotSeated
from bot.service.service import GameService
from bot.telegram_bot import texts
from bot.telegram_bot.hand import closed_text, ended_text, hand_text, signature
from bot.telegram_bot.identity import PLATFORM, chat_id_of
from bot.telegram_bot.keyboards import HandScreen, hand_keyboard
from bot.telegram_bot.messaging import Messenger
from engine.views import PlayerView


@dataclass(frozen=True)
class Screen:
    """What to draw besides the game: the selection, the order (``None``: the one the
    message had), the ``main`` or ``pile`` screen and a note under the hand."""

    mask: int = 0
    sort: int | None = None
    screen: str = "main"
    note: str = ""


class HandMessages:
    """Shows hands in private chats (see the module docstring)."""

    def __init__(self, messenger: Messenger, store: TelegramMessageStore,
                 service: GameService) -> None:
        self.messenger = messenger
        self.store = store
        self.service = service  # builds the hand model (its engine work runs in the pool)
        self._locks: dict[tuple[int, int], asyncio.Lock] = {}

    async def title(self, info: TableInfo) -> str:
        """How private messages name the table (group title and table number)."""
        return texts.table_title(await self.store.chat_title(chat_id_of(info.key)), info.id)

    async def user_ref(self, user_id: int) -> UserRef:
        """The service's user for a known Telegram user (name and app language)."""
        known = await self.store.user(user_id)
        if known is None:
            return UserRef(PLATFORM, str(user_id), str(user_id))
        return UserRef(PLATFORM, str(user_id), known.first_name, known.language_code)

    async def show(self, info: TableInfo, user_id: int, view: PlayerView, locale: str,
                   screen: Screen | None = None, repost: bool = False) -> bool:
        """Draw the user's hand message for ``info`` and edit it in place (send it when
        there is none, or anew at the bottom when ``repost``). A running game is drawn
        from the service's current hand model (``view`` then only stands in when the game
        ended meanwhile). Returns False when the user cannot be written to."""
        screen = screen or Screen()
        async with self._locks.setdefault((user_id, info.id), asyncio.Lock()):
            row = await self.store.hand_message(user_id, info.id)
            sort = screen.sort if screen.sort is not None else (row.sort_mode if row else 0)
            title = await self.title(info)
            model = None
            if info.status is Status.PLAYING:
                user = await self.user_ref(user_id)
                with use_locale(locale):
                    try:
                        model = await hand_model(self.service, info.key, user,
                                                 mask=screen.mask, sort=SortMode(sort))
                    except (NoTable, NotSeated, NotPlaying):
                        model = None
            if model is not None:
                info, view = model.info, model.view
            with use_locale(locale):
                text, markup = _draw(info, view, title, screen, model)
            message_id = None
            if row is not None and not repost and await self.messenger.edit_private(
                    user_id, row.message_id, text, markup):
                message_id = row.message_id
            if message_id is None:
                if row is not None and repost:
                    await self.messenger.delete(user_id, row.message_id)
                sent = await self.messenger.send_private(user_id, text, markup)
                if sent is None:
                    return False
                message_id = sent.message_id
            await self.store.save_hand_message(TelegramHandMessage(
                user_id, info.id, str(info.key), message_id, view.table.version,
                signature(view.hand), sort))
            return True


def _draw(info: TableInfo, view: PlayerView, title: str, screen: Screen,
          model: HandModel | None) -> tuple[str, InlineKeyboardMarkup | None]:
    """The hand message's text and keyboard (no keyboard once the game is not running)."""
    if info.status is Status.CANCELLED:
        return closed_text(title, _("The game was cancelled.")), None
    if model is None:
        return ended_text(view, title), None
    text = hand_text(model, title, screen.note)
    drawn = HandScreen(info.id, view.table.version, model, screen.screen)
    return text, hand_keyboard(drawn)
