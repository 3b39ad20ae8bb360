"""Commands in a group (or a forum topic): each is one intent of the chat command language
(:func:`bot.interaction.commands.parse`) for the table of that chat and topic, through
the service's entry point. A few need Telegram:

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
from bot.interaction.commands import parse
from bot.ports.intents import (
    Cancel,
    Configure,
    Export,
    InChat,
    Intent,
    Join,
    NewSeason,
    OpenTable,
    Outcome,
    ReplayGame,
    Reply,
    Request,
    ShowHand,
)
from bot.ports.model import ChatKey, TableInfo, UserRef
from bot.ports.web_links import replay_button_text, replay_link, replay_without_web
from bot.telegram_bot import texts
from bot.telegram_bot.identity import chat_key, thread_of, user_ref
from bot.telegram_bot.parts import Parts

TOO_FAST = "too_fast"
"""The refusal code of an intent over the flow limits (:class:`bot.service.flow.TooFast`)."""

#: Requests whose private answer must never fall back to the group (it shows hidden cards).
SECRET = (ShowHand, Export)


class GroupChat:
    """Handles one group command at a time (see the module docstring)."""

    def __init__(self, parts: Parts) -> None:
        self.parts = parts
        self._titles: dict[int, str | None] = {}

    async def command(self, message: Message, sender: User, update_key: str) -> None:
        """Run the command in ``message`` (sent by ``sender``) on the chat's table."""
        parts = self.parts
        text = message.text or ""
        if self._for_another_bot(text):
            return
        user = user_ref(sender)
        user_id = int(user.user_id)
        canonical = await parts.store.canonical_chat(message.chat.id)
        await self._remember_title(canonical, message.chat.title)
        key = chat_key(canonical, thread_of(message))
        request = parse(text)
        if request == Configure():
            await self._show_settings(message, key, user)
            return
        if isinstance(request, Join) and not await parts.messenger.reachable(user_id):
            await self.write_me_first(message, key, user)
            return
        is_admin = isinstance(request, (Cancel, NewSeason)) and await self._is_admin(
            message, user_id
        )
        intent = Intent(
            request,
            user,
            InChat(key),
            update_key=update_key,
            is_admin=is_admin,
        )
        async with parts.entry.answer_first():
            outcome = await parts.entry.handle(intent)
            with use_locale(outcome.locale):
                await self._answer(message, user, request, outcome)
        if isinstance(request, OpenTable):
            await self._wait_for_private_chat(outcome, user)

    def _for_another_bot(self, text: str) -> bool:
        """Whether the command ``text`` (``/verb@bot ...``) is addressed to another bot."""
        _head, _sep, addressee = text.split()[0][1:].partition("@")
        return bool(addressee) and addressee.lower() != self.parts.bot_username.lower()

    async def _wait_for_private_chat(self, outcome: Outcome, user: UserRef) -> None:
        """After opening a table: when the bot cannot write to its opener yet, note them as
        waiting (seated once they start the private chat)."""
        user_id = int(user.user_id)
        if (
            outcome.ok
            and outcome.info is not None
            and not await self.parts.messenger.reachable(user_id)
        ):
            await self.parts.waiting(outcome.info, user_id, user.name)

    async def _answer(
        self, message: Message, user: UserRef, request: Request, outcome: Outcome
    ) -> None:
        """Answer a typed command in the group: a hand privately, a refusal or reply
        where it belongs (a new lobby: the table message shows it)."""
        hand = isinstance(request, ShowHand)
        if hand and outcome.ok:
            await self._hand_privately(message, outcome, user)
        elif (
            hand
            and outcome.reply.text
            and not outcome.reply.quiet
            and outcome.reply.code != TOO_FAST
        ):
            await message.reply_text(outcome.reply.text)  # no table, not seated: why
        elif isinstance(request, ReplayGame) and outcome.ok and outcome.info is not None:
            await self._offer_replay(message, outcome.reply.text or "", outcome.info)
        elif not isinstance(request, OpenTable) or not outcome.ok:
            await self._deliver(message, user, outcome.reply, request, outcome.info)

    async def _offer_replay(self, message: Message, text: str, info: TableInfo) -> None:
        """``replay``: the answer in the group with a Replay button that opens the table's
        replay in the Main Mini App (docs/replay.md); without a web table, how to replay
        its record instead. Call inside ``use_locale``."""
        link = replay_link(self.parts.tables.web, self.parts.bot_username, info.id)
        if link is None:
            await message.reply_text(f"{text}\n{replay_without_web()}")
            return
        button = InlineKeyboardButton(replay_button_text(), url=link)
        await message.reply_text(text, reply_markup=InlineKeyboardMarkup([[button]]))

    async def _remember_title(self, chat_id: int, title: str | None) -> None:
        """Store the group's title when it is new or changed (hand messages name it)."""
        if self._titles.get(chat_id) != title:
            await self.parts.store.remember_chat(chat_id, title)
            self.parts.hands.forget_title(chat_id)
            self._titles[chat_id] = title

    async def _deliver(
        self,
        message: Message,
        user: UserRef,
        reply: Reply,
        request: Request | None,
        info: TableInfo | None = None,
    ) -> None:
        """Answer in the group, or privately when the reply is private (falling back to the
        group unless it shows hidden cards). A refusal said to this person here a moment
        ago (``reply.quiet``) is not repeated, and a refusal to someone who does not play
        at this table goes to them privately, never to the group (``info``: the table the
        refusal was about, when the outcome named one; else the chat's is looked up)."""
        if reply.text is None or reply.code == TOO_FAST:
            return  # over the flow limits: nothing, the group's own limit is the scarce thing
        text = reply.text[:4096]
        if not reply.ok and await self._refusal_kept_from_group(message, user, reply, info, text):
            return
        if not reply.private:
            await message.reply_text(text)
            return
        if await self.parts.messenger.send_private(int(user.user_id), text) is not None:
            if reply.ok:
                await message.reply_text(texts.sent_privately())
            return
        if isinstance(request, SECRET):
            await self.write_me_first(message, None, user)
        else:
            await message.reply_text(text)

    async def _refusal_kept_from_group(
        self, message: Message, user: UserRef, reply: Reply, info: TableInfo | None, text: str
    ) -> bool:
        """Whether a refusal is not for the group: said a moment ago (``reply.quiet``:
        nothing), or to someone who does not play at the table (``info``, else the
        chat's): then ``text`` goes to them privately (when the bot may not write to them
        there, it is for the group after all)."""
        if reply.quiet:
            return True
        seated = (
            info.seat_of(user.key) is not None
            if info is not None
            else await self._plays_here(message, user)
        )
        if not seated:  # privately, unless the bot may not write to them: then here
            return await self.parts.messenger.send_private(int(user.user_id), text) is not None
        return False

    async def _plays_here(self, message: Message, user: UserRef) -> bool:
        canonical = await self.parts.store.canonical_chat(message.chat.id)
        info = await self.parts.entry.table_info(chat_key(canonical, thread_of(message)))
        return info is not None and info.seat_of(user.key) is not None

    async def _hand_privately(self, message: Message, outcome: Outcome, user: UserRef) -> None:
        """``/hand``: the player's hand message again, privately, at the bottom."""
        info, hand = outcome.info, outcome.hand
        if info is None or hand is None:
            return
        if not await self.parts.hands.show(
            info, int(user.user_id), hand.view, outcome.locale, hand, repost=True
        ):
            await self.write_me_first(message, info.key, user)

    async def _show_settings(self, message: Message, key: ChatKey, user: UserRef) -> None:
        """``/settings`` alone: the table's settings and how to change them (a refusal
        when there is no table), from one call."""
        outcome = await self.parts.entry.handle(Intent(Configure(), user, InChat(key)))
        text = outcome.reply.text
        if not text:
            return
        with use_locale(outcome.locale):
            await message.reply_text(text + "\n\n" + texts.settings_usage() if outcome.ok else text)

    async def write_me_first(self, message: Message, key: ChatKey | None, user: UserRef) -> None:
        """Tell the user in the group to open the private chat (with a Start me button);
        with ``key``, the table message shows them as waiting too."""
        parts = self.parts
        info = None if key is None else await parts.entry.table_info(key)
        if info is not None:
            link = parts.tables.start_link(info.id)
            await parts.waiting(info, int(user.user_id), user.name)
        else:
            link = f"https://t.me/{parts.bot_username}"
        with use_locale(await parts.entry.locale_of(user)):
            markup = InlineKeyboardMarkup(
                [[InlineKeyboardButton(texts.label("start_me"), url=link)]]
            )
            await message.reply_text(texts.write_me_first(user.name), reply_markup=markup)

    async def _is_admin(self, message: Message, user_id: int) -> bool:
        try:
            member = await message.chat.get_member(user_id)
        except TelegramError:
            return False
        return member.status in ("administrator", "creator")
