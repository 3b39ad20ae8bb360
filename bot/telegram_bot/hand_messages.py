"""The private hand message of each player at each table: drawn from the player's view,
edited in place (or sent anew when it is gone, or moved to the bottom of the chat after
a typed command), its message id, version and hand kept in the store."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from telegram import InlineKeyboardMarkup

from bot.i18n import _, use_locale
from bot.interaction.hand import hand_melds, valid_mask
from bot.service.message_store import TelegramHandMessage, TelegramMessageStore
from bot.service.model import Status, TableInfo, UserRef
from bot.service.service import GameService
from bot.telegram_bot import texts
from bot.telegram_bot.hand import closed_text, hand_text, ordered, signature
from bot.telegram_bot.identity import PLATFORM, chat_id_of
from bot.telegram_bot.keyboards import HandScreen, hand_keyboard
from bot.telegram_bot.messaging import Messenger
from engine.cards import Card
from engine.views import PlayerView

if TYPE_CHECKING:
    from engine.search import Partition


@dataclass(frozen=True)
class Screen:
    """What to draw besides the view: selection, order, a picker screen and a note."""

    mask: int = 0
    sort: int | None = None
    screen: str = "main"
    readings: tuple[tuple[Card, ...], ...] = field(default_factory=tuple)
    labels: tuple[str, ...] = field(default_factory=tuple)
    target: str = "m"
    verb: int = 0
    note: str = ""


class HandMessages:
    """Shows hands in private chats (see the module docstring)."""

    def __init__(self, messenger: Messenger, store: TelegramMessageStore,
                 service: GameService | None = None) -> None:
        self.messenger = messenger
        self.store = store
        self.service = service  # finds the best melds of a hand sorted "melds first"
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
        there is none, or anew at the bottom when ``repost``). Returns False when the
        user cannot be written to."""
        screen = screen or Screen()
        async with self._locks.setdefault((user_id, info.id), asyncio.Lock()):
            row = await self.store.hand_message(user_id, info.id)
            sort = screen.sort if screen.sort is not None else (row.sort_mode if row else 0)
            title = await self.title(info)
            melds = None
            if sort == 2 and self.service is not None:
                melds = await hand_melds(self.service, info.key, await self.user_ref(user_id),
                                         True)
            with use_locale(locale):
                text, markup = _draw(info, view, title, sort, screen, melds)
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


def _draw(info: TableInfo, view: PlayerView, title: str, sort: int, screen: Screen,
          melds: Partition | None = None) -> tuple[str, InlineKeyboardMarkup | None]:
    """The hand message's text and keyboard (no keyboard once the table is closed);
    ``melds``: the hand's best melds for the "melds first" order."""
    if info.status is Status.CANCELLED:
        return closed_text(title, _("The game was cancelled.")), None
    order = ordered(view.hand, sort, melds)
    mask = screen.mask if valid_mask(order, screen.mask) else 0
    text = hand_text(view, title, order, mask, sort, screen.note, melds)
    if info.status is not Status.PLAYING:
        return text, None
    drawn = HandScreen(info.id, view.table.version, view, order, mask, sort, screen.screen,
                       screen.readings, screen.labels, screen.target, screen.verb)
    return text, hand_keyboard(drawn)
