"""The private hand message of each player at each table: drawn from the player's hand
model (:class:`bot.ports.hand.HandModel`, built from a computed seat screen), edited in
place (or sent anew when it is gone, or moved to the bottom of the chat after a typed
command), its message id, version, hand digest and order kept in the store. Nothing here
asks the service anything."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from telegram import InlineKeyboardMarkup

from bot.i18n import _, use_locale
from bot.ports.hand import HandModel, SortMode
from bot.ports.keyed_sends import KeyedSends
from bot.ports.message_store import TelegramHandMessage, TelegramMessageStore
from bot.ports.model import Status, TableInfo
from bot.ports.web_links import WebLinks, web_app_url
from bot.telegram_bot import texts
from bot.telegram_bot.hand import closed_text, ended_text, hand_text
from bot.telegram_bot.identity import chat_id_of
from bot.telegram_bot.keyboards import HandScreen, hand_keyboard
from bot.telegram_bot.messaging import Messenger
from engine.views import PlayerView

__all__ = ["HandMessages"]


class HandMessages:
    """Shows hands in private chats (see the module docstring)."""

    def __init__(
        self,
        messenger: Messenger,
        store: TelegramMessageStore,
        web: WebLinks | None = None,
        keyed: KeyedSends | None = None,
    ) -> None:
        self.messenger = messenger
        self.store = store
        self.web = web
        self.keyed = keyed or KeyedSends(store.begin_send)
        self._locks: dict[tuple[int, int], asyncio.Lock] = {}
        self._titles: dict[int, str | None] = {}

    async def title(self, info: TableInfo) -> str:
        """How private messages name the table (group title and table number)."""
        chat = chat_id_of(info.key)
        if chat not in self._titles:
            self._titles[chat] = await self.store.chat_title(chat)
        return texts.table_title(self._titles[chat], info.id)

    def forget_title(self, chat_id: int) -> None:
        """The group's title changed (or the group moved): read it again next time."""
        self._titles.pop(chat_id, None)

    async def show(
        self,
        info: TableInfo,
        user_id: int,
        view: PlayerView,
        locale: str,
        model: HandModel | None = None,
        screen: str = "main",
        note: str = "",
        repost: bool = False,
        newer_only: bool = False,
        in_order: Callable[[SortMode], HandModel] | None = None,
    ) -> bool:
        """Draw the user's hand message for ``info`` from ``model`` (a running game; or,
        with ``in_order``, the model it builds in the order the message shows) or from
        ``view`` (the game ended: its score sheet) and edit it in place; send it when
        there is none, or anew at the bottom when ``repost``. ``screen``: ``main`` or
        ``pile`` (the deeper cards of a spread discard pile). A message that shows a newer
        game version already is left alone (never drawn back), and with ``newer_only`` one
        that shows this version (a change is drawn once: the presser's own answer may
        have drawn it). Returns False when the user cannot be written to."""
        async with self._locks.setdefault((user_id, info.id), asyncio.Lock()):
            row = await self.store.hand_message(user_id, info.id)
            shown = -1 if row is None or repost else row.version
            if shown > view.table.version or (newer_only and shown == view.table.version):
                return True  # a newer hand is shown (drawn by another worker meanwhile)
            if model is None and in_order is not None:
                model = in_order(SortMode(0 if row is None else row.sort_mode))
            title = await self.title(info)
            with use_locale(locale):
                text, markup = _draw(
                    info, view, title, screen, note, model, web_app_url(self.web, info.id)
                )
            message_id = await self._edited(user_id, row, repost, text, markup)
            key = None
            if message_id is None:
                sent = await self._send(info, user_id, row, repost, text, markup)
                if isinstance(sent, bool):
                    return sent
                message_id, key = sent
            await self.store.save_hand_message(_stored(info, user_id, message_id, view, model, row))
            if key is not None:
                await self.store.end_send(key)
            return True

    async def _edited(
        self,
        user_id: int,
        row: TelegramHandMessage | None,
        repost: bool,
        text: str,
        markup: InlineKeyboardMarkup | None,
    ) -> int | None:
        """Edit the shown hand message ``row`` in place (not when ``repost``); its id, or
        ``None`` when there is none or it could not be edited."""
        if (
            row is not None
            and not repost
            and await self.messenger.edit_private(user_id, row.message_id, text, markup)
        ):
            return row.message_id
        return None

    async def _send(
        self,
        info: TableInfo,
        user_id: int,
        row: TelegramHandMessage | None,
        repost: bool,
        text: str,
        markup: InlineKeyboardMarkup | None,
    ) -> tuple[int, str] | bool:
        """Send the hand message as a new message (the old one deleted when ``repost``),
        keyed so a worker that died between sending and storing is noticed. Returns the
        new message's id and the send's key; True when another worker sent and stored it
        meanwhile; False when the user cannot be written to."""
        if row is not None and repost:
            await self.messenger.delete(user_id, row.message_id)
        # the send that replaces message N (0: the first one) is keyed by N
        key = f"telegram:hand:{info.id}:{user_id}:{0 if row is None else row.message_id}"
        if not await self.keyed.may_send(key):
            return True
        sent = await self.messenger.send_private(user_id, text, markup)
        if sent is None:
            return False
        return sent.message_id, key


def _stored(
    info: TableInfo,
    user_id: int,
    message_id: int,
    view: PlayerView,
    model: HandModel | None,
    row: TelegramHandMessage | None,
) -> TelegramHandMessage:
    """The row of the hand message ``message_id`` now showing ``view``: the hand order and
    digest of ``model`` (a running game), else those stored before (none: by suit, no
    hand)."""
    sort = int(model.sort) if model is not None else (row.sort_mode if row else 0)
    digest = model.digest if model is not None else (row.hand if row else "")
    return TelegramHandMessage(
        user_id, info.id, str(info.key), message_id, view.table.version, digest, sort
    )


def _draw(
    info: TableInfo,
    view: PlayerView,
    title: str,
    screen: str,
    note: str,
    model: HandModel | None,
    web_app: str | None = None,
) -> tuple[str, InlineKeyboardMarkup | None]:
    """The hand message's text and keyboard (no keyboard once the game is not running)."""
    if info.status is Status.CANCELLED:
        return closed_text(title, _("The game was cancelled.")), None
    if model is None or info.status is not Status.PLAYING:
        return ended_text(view, title), None
    text = hand_text(model, title, note)
    drawn = HandScreen(info.id, view.table.version, model, screen, web_app)
    return text, hand_keyboard(drawn)
