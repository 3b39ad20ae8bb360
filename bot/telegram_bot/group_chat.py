"""Commands in a group (or a forum topic): they act on the table of that chat and topic,
mostly through :func:`bot.interaction.commands.handle_text`. A few need Telegram:

- ``/join`` first checks that the bot may write to the player privately, else it answers
  with a "Start me" link and the join completes after ``/start`` in the private chat;
- ``/hand`` (re)sends the player's hand message privately, never in the group;
- ``/cancel`` asks Telegram whether the user administers the group;
- ``/settings`` without arguments shows the settings;

Private answers (help, rules, errors) go to the private chat; when that does not work
they are said in the group, except those that show cards.
"""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message, User
from telegram.error import TelegramError

from bot.i18n import use_locale
from bot.i18n.errors import localize_error
from bot.interaction.commands import TABLE_VERBS, Reply, handle_text
from bot.ports.model import ChatKey, UserRef
from bot.render.lobby import render_lobby
from bot.service.errors import NoTable
from bot.telegram_bot import texts
from bot.telegram_bot.identity import chat_key, thread_of, user_ref
from bot.telegram_bot.parts import Parts
from engine.errors import EngineError

#: Verbs whose private answer must never fall back to the group (it shows hidden cards).
SECRET = frozenset({"hand", "export"})


class GroupChat:
    """Handles one group command at a time (see the module docstring)."""

    def __init__(self, parts: Parts) -> None:
        self.parts = parts

    async def command(self, message: Message, sender: User, update_key: str) -> None:
        """Run the command in ``message`` (sent by ``sender``) on the chat's table."""
        parts = self.parts
        text = message.text or ""
        command, _sep, addressee = text.split()[0][1:].partition("@")
        if addressee and addressee.lower() != parts.bot_username.lower():
            return  # addressed to another bot
        user = user_ref(sender)
        user_id = int(user.user_id)
        canonical = await parts.store.canonical_chat(message.chat.id)
        await parts.store.remember_chat(canonical, message.chat.title)
        key = chat_key(canonical, thread_of(message))
        verb = TABLE_VERBS.get(command.lower())
        locale = await parts.service.locale_of(user)
        if verb == "hand":
            await self._hand_privately(message, key, user, locale)
            return
        if verb == "set" and len(text.split()) == 1:
            await self._show_settings(message, key, locale)
            return
        if verb == "join" and not await parts.messenger.reachable(user_id):
            await self.write_me_first(message, key, user, locale)
            return
        is_admin = verb == "cancel" and await self._is_admin(message, user_id)
        reply = await handle_text(parts.service, key, user, text, update_key, is_admin)
        if verb == "new" and reply.ok:  # the table message shows the new lobby
            info = await parts.service.table_info(key)
            if info is not None and not await parts.messenger.reachable(user_id):
                await parts.notifier.waiting(info, user_id, user.name)
            return
        await self._deliver(message, user, reply, verb, locale)

    async def _deliver(self, message: Message, user: UserRef, reply: Reply, verb: str | None,
                       locale: str) -> None:
        """Answer in the group, or privately when the reply is private (falling back to the
        group unless it shows hidden cards). A refusal is said once per
        :data:`bot.service.flow.COALESCE_SECONDS` (the same text to the same person here),
        and to someone who does not play at this table only privately, never in the
        group."""
        if reply.text is None:
            return
        text = reply.text[:4096]
        if not reply.ok:
            key = str(message.chat.id)
            if not self.parts.service.flow.first_time(user.key, key, text):
                return
            if not await self._plays_here(message, user):
                await self.parts.messenger.send_private(int(user.user_id), text)
                return
        if not reply.private:
            await message.reply_text(text)
            return
        if await self.parts.messenger.send_private(int(user.user_id), text) is not None:
            if reply.ok:
                with use_locale(locale):
                    await message.reply_text(texts.sent_privately())
            return
        if verb in SECRET:
            await self.write_me_first(message, None, user, locale)
        else:
            await message.reply_text(text)

    async def _plays_here(self, message: Message, user: UserRef) -> bool:
        canonical = await self.parts.store.canonical_chat(message.chat.id)
        info = await self.parts.service.table_info(chat_key(canonical, thread_of(message)))
        return info is not None and info.seat_of(user.key) is not None

    async def _hand_privately(self, message: Message, key: ChatKey, user: UserRef,
                              locale: str) -> None:
        try:
            info, view = await self.parts.service.player_view(key, user)
        except EngineError as error:  # no table, not seated, not started: say why
            with use_locale(locale):
                await message.reply_text(localize_error(error))
            return
        if not await self.parts.hands.show(info, int(user.user_id), view, locale, repost=True):
            await self.write_me_first(message, key, user, locale)

    async def _show_settings(self, message: Message, key: ChatKey, locale: str) -> None:
        info = await self.parts.service.table_info(key)
        if info is None:
            with use_locale(locale):
                await message.reply_text(localize_error(NoTable()))
            return
        with use_locale(await self.parts.service.table_locale(info)):
            await message.reply_text(render_lobby(info) + "\n\n" + texts.settings_usage())

    async def write_me_first(self, message: Message, key: ChatKey | None, user: UserRef,
                             locale: str) -> None:
        """Tell the user in the group to open the private chat (with a Start me button);
        with ``key``, the table message shows them as waiting too."""
        parts = self.parts
        info = None if key is None else await parts.service.table_info(key)
        if info is not None:
            link = parts.tables.start_link(info.id)
            await parts.notifier.waiting(info, int(user.user_id), user.name)
        else:
            link = f"https://t.me/{parts.bot_username}"
        with use_locale(locale):
            markup = InlineKeyboardMarkup([[InlineKeyboardButton(texts.label("start_me"),
                                                                 url=link)]])
            await message.reply_text(texts.write_me_first(user.name), reply_markup=markup)

    async def _is_admin(self, message: Message, user_id: int) -> bool:
        try:
            member = await message.chat.get_member(user_id)
        except TelegramError:
            return False
        return member.status in ("administrator", "creator")
