"""The private chat with the bot: ``/start`` (with a deep-link payload ``t<table>`` it
completes a join that waited for this chat) and typed commands for the user's table
(``draw``, ``/meld 7h 8h 9h``, ``hand``, ``lang de``).

Which table: ``#12 draw`` picks table 12; otherwise the user's newest running game
(else their newest lobby), named in the answer when they sit at several tables. After a
typed move the hand message is sent again below it, with its buttons.
"""

from __future__ import annotations

from collections.abc import Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message, User, WebAppInfo

from bot.i18n import use_locale
from bot.interaction.commands import TABLE_VERBS, parse
from bot.ports.intents import (
    AtTable,
    Intent,
    Join,
    Mine,
    Move,
    Outcome,
    ReplayGame,
    Request,
    ShowHand,
)
from bot.ports.model import Status, TableInfo, UserRef
from bot.ports.screens import TablesOf
from bot.ports.web_links import replay_app_url, replay_button_text, replay_without_web
from bot.telegram_bot import texts
from bot.telegram_bot.identity import user_ref
from bot.telegram_bot.parts import Parts

#: Verbs that only make sense in a group (they act on the group's table).
GROUP_ONLY = frozenset(
    {"new", "join", "addbot", "removebot", "set", "start", "cancel", "top", "season"}
)


def verb_of(text: str) -> str | None:
    """The table verb a line starts with (``/join@Bot`` -> ``join``), or ``None``."""
    words = text.split()
    if not words:
        return None
    return TABLE_VERBS.get(words[0].lstrip("/!").split("@")[0].lower())


def split_table(text: str) -> tuple[int | None, str]:
    """``#12 draw`` -> (12, ``draw``); a line without a table number -> (None, line);
    ``#12`` alone means ``hand``."""
    body = text.strip()
    words = body.split()
    if (
        words
        and words[0].startswith("#")
        and words[0][1:].isascii()
        and words[0][1:].isdigit()
        and len(words[0]) <= 19
    ):
        return int(words[0][1:]), " ".join(words[1:]) or "hand"
    return None, body


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
        line = message.text or ""
        words = line.split()
        if words and words[0].split("@")[0] == "/start":
            await self._start(message, user, words[1] if len(words) > 1 else "", update_key)
            return
        table_id, body = split_table(line)
        verb = verb_of(body)
        if verb in GROUP_ONLY:
            with use_locale(await parts.entry.locale_of(user)):
                await message.reply_text(texts.private_only_in_groups())
            return
        request = parse(body)
        intent = Intent(request, user, Mine(table_id), update_key=update_key)
        async with parts.entry.answer_first():
            outcome = await parts.entry.handle(intent)
            await self._answer(message, request, outcome, user_id)

    async def _answer(
        self, message: Message, request: Request, outcome: Outcome, user_id: int
    ) -> None:
        """Answer a typed line: the reply (naming the table when the user sits at
        several), and after a move or ``hand`` the hand message again at the bottom of
        the chat, below the command (the notifier then leaves it: it shows this version
        already)."""
        with use_locale(outcome.locale):
            note = await self._note(outcome)
        text = outcome.reply.text
        if note and (text or outcome.ok):
            text = f"{note}\n{text}" if text else note
        if isinstance(request, ReplayGame) and outcome.ok and outcome.info is not None:
            await self._offer_replay(message, text or "", outcome)
            return
        shows_hand = isinstance(request, Move | ShowHand)
        if (
            text
            and (not isinstance(request, ShowHand) or not outcome.ok)
            and not outcome.reply.quiet
        ):
            await message.reply_text(text[:4096])
        info, hand = outcome.info, outcome.hand
        if shows_hand and hand is not None and info is not None:
            await self.parts.hands.show(info, user_id, hand.view, outcome.locale, hand, repost=True)

    async def _offer_replay(self, message: Message, text: str, outcome: Outcome) -> None:
        """``replay``: the answer with a button that opens the table's replay in the web
        table (a ``web_app`` button); without a web table, how to replay its record."""
        assert outcome.info is not None
        url = replay_app_url(self.parts.tables.web, outcome.info.id)
        with use_locale(outcome.locale):
            if url is None:
                await message.reply_text(f"{text}\n{replay_without_web()}")
                return
            button = InlineKeyboardButton(replay_button_text(), web_app=WebAppInfo(url))
            await message.reply_text(text, reply_markup=InlineKeyboardMarkup([[button]]))

    async def _note(self, outcome: Outcome) -> str:
        """Names the table a command was for when the user sits at several."""
        info = outcome.info
        if info is None or outcome.among <= 1:
            return ""
        title = await self.parts.hands.title(info)
        with use_locale(outcome.locale):
            return texts.chosen_table(title)

    async def _start(self, message: Message, user: UserRef, payload: str, update_key: str) -> None:
        """/start: complete a waiting join (payload ``t<table>``) or greet; then bring the
        hand messages of the user's running games."""
        parts = self.parts
        target = await self._payload_table(payload)
        mine = await parts.entry.tables_of(user)
        if target is not None and target.status is Status.LOBBY:
            if target.seat_of(user.key) is None:
                joined = await self._join_waiting(message, user, target, update_key)
                mine = TablesOf(mine.tables, joined)
            title = await parts.hands.title(target)
            with use_locale(mine.locale):
                await message.reply_text(texts.joined_privately(title))
        elif target is None:
            with use_locale(mine.locale):
                await message.reply_text(texts.welcome())
        await self._repost_hands(user, mine.tables)

    async def _join_waiting(
        self, message: Message, user: UserRef, target: TableInfo, update_key: str
    ) -> str:
        """Seat ``user`` at the lobby ``target`` (a refusal is replied); returns the
        user's language after it."""
        outcome = await self.parts.entry.handle(
            Intent(Join(), user, AtTable(target.id), update_key=update_key)
        )
        if not outcome.ok and outcome.reply.text:
            await message.reply_text(outcome.reply.text)
        return outcome.locale

    async def _repost_hands(self, user: UserRef, tables: Sequence[TableInfo]) -> None:
        """Send the hand messages of the user's running games anew (at the bottom)."""
        for info in tables:
            if info.status is Status.PLAYING and info.seat_of(user.key) is not None:
                found = await self.parts.entry.screens(info.id, user)
                if found is not None and found.own is not None:
                    await self.parts.notifier.show_hand(found.own, repost=True)

    async def _payload_table(self, payload: str) -> TableInfo | None:
        """The active table a deep-link payload ``t<table id in base 36>`` names."""
        if not payload.startswith("t"):
            return None
        try:
            table_id = int(payload[1:], 36)
        except ValueError:
            return None
        return await self.parts.entry.table_by_id(table_id)
