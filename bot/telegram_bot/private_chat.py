"""The private chat with the bot: ``/start`` (with a deep-link payload ``t<table>`` it
completes a join that waited for this chat) and typed commands for the user's table
(``draw``, ``/meld 7h 8h 9h``, ``hand``, ``lang de``).

Which table: ``#12 draw`` picks table 12; otherwise the user's newest running game
(else their newest lobby), named in the answer when they sit at several tables. After a
typed move the hand message is sent again below it, with its buttons.
"""

from __future__ import annotations

from telegram import Message, User

from bot.i18n import use_locale
from bot.i18n.errors import localize_error
from bot.interaction.commands import TABLE_VERBS, handle_text
from bot.ports.model import ChatKey, Status, TableInfo, UserRef
from bot.service.errors import NotYourTable
from bot.telegram_bot import texts
from bot.telegram_bot.identity import PLATFORM, user_ref
from bot.telegram_bot.parts import Parts
from engine.errors import EngineError

#: Verbs that only make sense in a group (they act on the group's table).
GROUP_ONLY = frozenset({"new", "join", "addbot", "removebot", "set", "start", "cancel", "top"})


def verb_of(text: str) -> str | None:
    """The table verb a line starts with (``/join@Bot`` -> ``join``), or ``None``."""
    words = text.split()
    if not words:
        return None
    return TABLE_VERBS.get(words[0].lstrip("/!").split("@")[0].lower())


class PrivateChat:
    """Handles text in the private chat (see the module docstring)."""

    def __init__(self, parts: Parts) -> None:
        self.parts = parts

    async def text(self, message: Message, sender: User, update_key: str) -> None:
        """One line from the user."""
        parts = self.parts
        user = user_ref(sender)
        user_id = int(user.user_id)
        await parts.store.set_reachable(user_id, True)
        parts.notifier.reached(user_id)
        locale = await parts.service.locale_of(user)
        line = message.text or ""
        words = line.split()
        if words and words[0].split("@")[0] == "/start":
            await self._start(message, user, words[1] if len(words) > 1 else "", update_key,
                              locale)
            return
        try:
            info, body, note = await self._choose_table(user, line, locale)
        except NotYourTable as error:  # "#12 draw" for a table the user does not play at
            with use_locale(locale):
                await message.reply_text(localize_error(error))
            return
        verb = verb_of(body)
        if verb in GROUP_ONLY:
            with use_locale(locale):
                await message.reply_text(texts.private_only_in_groups())
            return
        playing = info is not None and info.status is Status.PLAYING
        key = info.key if info is not None else ChatKey(PLATFORM, str(user_id))
        if verb == "hand" and playing:
            await self._show_hand(key, user, locale)
            return
        reply = await handle_text(parts.service, key, user, body, update_key)
        answer = reply.text
        if note and (answer or reply.ok):
            answer = f"{note}\n{answer}" if answer else note
        if answer:
            await message.reply_text(answer[:4096])
        if verb is None and reply.ok and playing:
            await self._show_hand(key, user, locale)

    async def _show_hand(self, key: ChatKey, user: UserRef, locale: str) -> None:
        """Send the hand message again at the bottom of the chat."""
        try:
            info, view = await self.parts.service.player_view(key, user)
        except EngineError:  # the move ended the game: the hand message shows the end
            return
        await self.parts.hands.show(info, int(user.user_id), view, locale, repost=True)

    async def _choose_table(self, user: UserRef, text: str, locale: str
                            ) -> tuple[TableInfo | None, str, str]:
        """The table a private command is for, the command without a ``#<table>`` prefix,
        and a note naming the table when the user sits at several. ``#<id>`` must name a
        table the user sits at (:meth:`GameService.choose_table` raises
        :class:`NotYourTable`), never another one of theirs."""
        body = text.strip()
        words = body.split()
        wanted: int | None = None
        if words and words[0].startswith("#") and words[0][1:].isascii() \
                and words[0][1:].isdigit() and len(words[0]) <= 19:
            wanted = int(words[0][1:])
            body = " ".join(words[1:]) or "hand"
        chosen = await self.parts.service.choose_table(user, wanted)
        if chosen is None:
            return None, body, ""
        tables = await self.parts.service.tables_of(user)
        if len(tables) == 1:
            return chosen, body, ""
        title = await self.parts.hands.title(chosen)
        with use_locale(locale):
            return chosen, body, texts.chosen_table(title)

    async def _start(self, message: Message, user: UserRef, payload: str, update_key: str,
                     locale: str) -> None:
        """/start: complete a waiting join (payload ``t<table>``) or greet; then bring the
        hand messages of the user's running games."""
        parts = self.parts
        target = await self._payload_table(payload)
        if target is not None and target.status is Status.LOBBY \
                and target.seat_of(user.key) is None:
            reply = await handle_text(parts.service, target.key, user, "join", update_key)
            if not reply.ok and reply.text:
                await message.reply_text(reply.text)
        if target is not None and target.status is Status.LOBBY:
            title = await parts.hands.title(target)
            with use_locale(locale):
                await message.reply_text(texts.joined_privately(title))
        elif target is None:
            with use_locale(locale):
                await message.reply_text(texts.welcome())
        for info in await parts.service.tables_of(user):
            if info.status is Status.PLAYING:
                await self._show_hand(info.key, user, locale)

    async def _payload_table(self, payload: str) -> TableInfo | None:
        """The active table a deep-link payload ``t<table id in base 36>`` names."""
        if not payload.startswith("t"):
            return None
        try:
            table_id = int(payload[1:], 36)
        except ValueError:
            return None
        row = await self.parts.store.table_message(table_id)
        if row is None:
            return None
        info = await self.parts.service.table_info(ChatKey.parse(row.chat_key))
        return info if info is not None and info.id == table_id else None
