"""The update handlers, registered in one place (:meth:`Handlers.register`). Each is
thin: it hands the update to the part that knows what to do —
:class:`bot.telegram_bot.group_chat.GroupChat` for group commands,
:class:`bot.telegram_bot.private_chat.PrivateChat` for the private chat,
:class:`bot.telegram_bot.buttons.Buttons` for button presses — and answers.

Every intent carries ``update_key=telegram:<update id>`` (buttons:
``telegram:cb:<callback query id>``), so an update Telegram delivers twice changes nothing
twice. Flow control is the entry point's: a refusal for sending too fast comes back as an
outcome like any other. Updates reach the handlers read and checked
(:mod:`bot.telegram_bot.updates`); a handler that fails all the same is logged once per
kind of failure and interval, and the update is not retried.
"""

from __future__ import annotations

import logging
from typing import Any

from telegram import Update
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot.dropped_inputs import DroppedInputs, error_kind
from bot.i18n import use_locale
from bot.telegram_bot import texts
from bot.telegram_bot.buttons import Buttons, Press
from bot.telegram_bot.callbacks import MalformedCallback, UnverifiedCallback, decode
from bot.telegram_bot.group_chat import GroupChat
from bot.telegram_bot.identity import chat_key, user_ref
from bot.telegram_bot.parts import Parts
from bot.telegram_bot.private_chat import PrivateChat

log = logging.getLogger(__name__)

App = Application[Any, Any, Any, Any, Any, Any]


class Handlers:
    """The bot's update handlers (see the module docstring). ``last_update_id``: the last
    update fully handled (tests wait for it); ``failures``: the handlers' failures, logged
    once per kind and interval."""

    def __init__(self, parts: Parts, failures: DroppedInputs | None = None) -> None:
        self.parts = parts
        self.failures = failures or DroppedInputs(
            log, "telegram", says="handling an update failed", level=logging.ERROR
        )
        self.buttons = Buttons(parts)
        self.group_chat = GroupChat(parts)
        self.private_chat = PrivateChat(parts)
        self.last_update_id = 0
        self._known: dict[int, tuple[str, str | None, str | None]] = {}

    def register(self, app: App) -> None:
        """Add every handler to ``app`` (handler groups: -1 remembers the user, 0 handles
        the update, 1 counts it as handled)."""
        app.add_handler(TypeHandler(Update, self.remember), group=-1)
        app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self.migrated))
        app.add_handler(CallbackQueryHandler(self.button))
        app.add_handler(ChatMemberHandler(self.member, ChatMemberHandler.MY_CHAT_MEMBER))
        app.add_handler(MessageHandler(filters.ChatType.PRIVATE & filters.TEXT, self.private))
        app.add_handler(MessageHandler(filters.ChatType.GROUPS & filters.COMMAND, self.group))
        app.add_handler(TypeHandler(Update, self.done), group=1)
        app.add_error_handler(self.error)

    # --- bookkeeping -------------------------------------------------------------------------

    async def remember(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Keep each user's name, username and app language (for pings and locales)."""
        user = update.effective_user
        if user is None or user.is_bot:
            return
        known = (user.first_name, user.username, user.language_code)
        if self._known.get(user.id) != known:
            await self.parts.store.remember_user(user.id, *known)
            self._known[user.id] = known

    async def done(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Note the update as handled."""
        self.last_update_id = max(self.last_update_id, update.update_id)

    async def error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Log a handler's failure once per kind and interval, its traceback with the
        kind's first line (the update is not retried)."""
        error = context.error
        if error is None:
            return
        self.failures.drop(
            error_kind(type(update).__name__, error),
            f"update {getattr(update, 'update_id', '?')}",
            error,
        )

    # --- the handlers ------------------------------------------------------------------------

    async def button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A button press: one intent; the presser is answered first (an alert when
        refused)."""
        query = update.callback_query
        assert query is not None
        user = user_ref(query.from_user)
        message = query.message
        try:
            if message is None:
                raise MalformedCallback(query.data)
            data = decode(query.data)
        except UnverifiedCallback as unverified:
            assert message is not None
            await self.buttons.unverified(
                query,
                Press(
                    unverified.claimed,
                    message.chat.id,
                    message.message_id,
                    user,
                    f"telegram:cb:{query.id}",
                ),
            )
            return
        except MalformedCallback:
            with use_locale(await self.parts.entry.locale_of(user)):
                await query.answer(texts.alert("malformed"), show_alert=True)
            return
        await self.buttons.press(
            query, Press(data, message.chat.id, message.message_id, user, f"telegram:cb:{query.id}")
        )

    async def group(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A command in a group or forum topic (not from anonymous admins or channels)."""
        message, sender = update.effective_message, update.effective_user
        if message is None or message.text is None or sender is None or sender.is_bot:
            return
        await self.group_chat.command(message, sender, f"telegram:{update.update_id}")

    async def private(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Text in the private chat."""
        message, sender = update.effective_message, update.effective_user
        if message is None or message.text is None or sender is None:
            return
        await self.private_chat.text(message, sender, f"telegram:{update.update_id}")

    async def migrated(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A basic group became a supergroup: the table stays, its message moves."""
        message = update.effective_message
        if message is None:
            return
        if message.migrate_to_chat_id:
            old, new = message.chat.id, message.migrate_to_chat_id
        elif message.migrate_from_chat_id:
            old, new = message.migrate_from_chat_id, message.chat.id
        else:
            return
        store = self.parts.store
        if await store.current_chat(await store.canonical_chat(old)) == new:
            return  # the other of the two service messages
        await store.migrate_chat(old, new)
        info = await self.parts.entry.table_info(chat_key(await store.canonical_chat(new), None))
        if info is not None:
            await self.parts.redraw(info.id)

    async def member(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The user blocked (or unblocked) the bot in the private chat."""
        change = update.my_chat_member
        if change is None or change.chat.type != "private":
            return
        blocked = change.new_chat_member.status in ("kicked", "left")
        await self.parts.store.set_reachable(change.chat.id, not blocked)
