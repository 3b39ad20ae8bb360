"""Sending, editing and deleting messages with Telegram's failure cases sorted out:

- an edit that changes nothing ("message is not modified") counts as done;
- a message that is gone or can no longer be edited -> the caller sends a new one;
- a group upgraded to a supergroup (``ChatMigrated``) -> remembered in the store, and the
  message goes to the new chat;
- a user who never pressed Start or blocked the bot (``Forbidden``) -> remembered as
  unreachable, nothing sent.
"""

from __future__ import annotations

import logging

from telegram import Bot, InlineKeyboardMarkup, LinkPreviewOptions, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden

from bot.ports.message_store import TelegramMessageStore

log = logging.getLogger(__name__)

_NO_PREVIEW = LinkPreviewOptions(is_disabled=True)


class Messenger:
    """The adapter's way to send: PTB's :class:`telegram.Bot` (with its rate limiter) plus
    the store for chat migrations and reachability."""

    def __init__(self, bot: Bot, store: TelegramMessageStore) -> None:
        self.bot = bot
        self.store = store

    async def send(
        self,
        chat_id: int,
        text: str,
        markup: InlineKeyboardMarkup | None = None,
        thread_id: int | None = None,
        html: bool = False,
    ) -> Message | None:
        """Post to the group keyed ``chat_id`` (canonical id; follows an upgrade). Returns
        the message, or ``None`` when the bot may not post there (left, kicked)."""
        target = await self.store.current_chat(chat_id)
        for _attempt in range(2):
            try:
                return await self.bot.send_message(
                    target,
                    text,
                    reply_markup=markup,
                    message_thread_id=thread_id,
                    parse_mode=ParseMode.HTML if html else None,
                    link_preview_options=_NO_PREVIEW,
                )
            except ChatMigrated as moved:
                await self.store.migrate_chat(target, moved.new_chat_id)
                target = moved.new_chat_id
            except Forbidden:
                log.warning("cannot post to chat %s", target)
                return None
        return None

    async def edit(
        self, chat_id: int, message_id: int, text: str, markup: InlineKeyboardMarkup | None
    ) -> bool:
        """Edit a message in place (``chat_id``: where it is). False when it is gone, cannot
        be edited or its chat moved: then send a new one."""
        try:
            await self._edit_text(chat_id, message_id, text, markup)
        except ChatMigrated as moved:
            await self.store.migrate_chat(chat_id, moved.new_chat_id)
            return False
        except BadRequest as error:
            if "not modified" in error.message.lower():
                return True
            log.info("cannot edit message %s in %s: %s", message_id, chat_id, error.message)
            return False
        except Forbidden:
            return False
        return True

    async def send_private(
        self, user_id: int, text: str, markup: InlineKeyboardMarkup | None = None
    ) -> Message | None:
        """Write to the user's private chat; ``None`` (and the user marked unreachable)
        when they never started the bot or blocked it."""
        try:
            message = await self.bot.send_message(
                user_id, text, reply_markup=markup, link_preview_options=_NO_PREVIEW
            )
        except Forbidden:
            await self.store.set_reachable(user_id, False)
            return None
        return message

    async def edit_private(
        self, user_id: int, message_id: int, text: str, markup: InlineKeyboardMarkup | None
    ) -> bool:
        """Edit a private message; False when it is gone (send a new one)."""
        try:
            await self._edit_text(user_id, message_id, text, markup)
        except BadRequest as error:
            return "not modified" in error.message.lower()
        except Forbidden:
            await self.store.set_reachable(user_id, False)
            return False
        return True

    async def _edit_text(
        self, chat_id: int, message_id: int, text: str, markup: InlineKeyboardMarkup | None
    ) -> None:
        await self.bot.edit_message_text(
            text,
            chat_id=chat_id,
            message_id=message_id,
            reply_markup=markup,
            link_preview_options=_NO_PREVIEW,
        )

    async def delete(self, chat_id: int, message_id: int) -> None:
        """Delete a message if possible (a replaced private hand message); failures are
        ignored."""
        try:
            await self.bot.delete_message(chat_id, message_id)
        except (BadRequest, Forbidden, ChatMigrated):
            log.debug("could not delete message %s in %s", message_id, chat_id)

    async def reachable(self, user_id: int) -> bool:
        """Whether the bot may write to the user privately: what the store knows, else a
        probe (a "typing" chat action, which fails like a message would)."""
        known = await self.store.user(user_id)
        if known is not None and known.reachable is not None:
            return known.reachable
        try:
            await self.bot.send_chat_action(user_id, "typing")
        except (Forbidden, BadRequest):
            await self.store.set_reachable(user_id, False)
            return False
        await self.store.set_reachable(user_id, True)
        return True
