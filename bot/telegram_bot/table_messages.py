"""The group side of a table: one message per game, edited in place on every change
(lobby, table, score sheet, with the last moves and announcements), the turn pings, and
the "Start me" note for players the bot cannot write to yet.

Every group message goes through the :class:`bot.telegram_bot.outbox.Outbox`, so a fast
game edits the table message at the pace Telegram allows, showing the newest state.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Sequence

from telegram import InlineKeyboardMarkup

from bot.i18n import use_locale
from bot.ports.keyed_sends import KeyedSends
from bot.ports.message_store import TelegramMessageStore, TelegramTableMessage
from bot.ports.model import Status, TableInfo
from bot.ports.screens import Notice, TableScreen
from bot.ports.web_links import WebLinks, mini_app_link, replay_link
from bot.render.events import event_line
from bot.render.lobby import render_lobby
from bot.render.notices import render_notice
from bot.render.text import render_hand_end, render_table
from bot.telegram_bot import texts
from bot.telegram_bot.callbacks import to_base36
from bot.telegram_bot.identity import chat_id_of, deep_link, thread_id_of
from bot.telegram_bot.keyboards import lobby_keyboard, table_keyboard
from bot.telegram_bot.messaging import Messenger
from bot.telegram_bot.outbox import Outbox
from engine.events import Event
from engine.state import Phase
from engine.views import PublicView

log = logging.getLogger(__name__)

MAX_TEXT = 4096
MID_TURN_DELAY = 8.0
"""Seconds a change inside a turn (a draw, a meld) waits before the table message shows
it: the end of the turn usually comes first and one edit shows both, so a turn costs the
group one edit and at most one ping (Telegram allows about 20 calls a minute in a
group)."""
LOG_LINES = 8
"""How many recent moves and announcements the table message keeps."""


def change_lines(
    events: Sequence[Event], notices: Sequence[Notice], view: PublicView | None
) -> list[str]:
    """The recent lines of one change in the current locale: its events (named with the
    seats of ``view``; none without a view) and its notices."""
    lines = [] if view is None else [event_line(e, view) for e in events]
    return lines + [render_notice(n) for n in notices]


def table_payload(table_id: int) -> str:
    """The deep-link payload that brings a user to table ``table_id`` (join or hand)."""
    return "t" + to_base36(table_id)


def render_group_text(
    info: TableInfo, view: PublicView | None, log: Sequence[str], waiting: Sequence[str]
) -> str:
    """The table message text (in the current locale), at most 4096 characters: the lobby
    or the table or the score sheet, then the recent lines, then who must press Start.
    The oldest recent lines go first when it is too long."""
    if view is None:
        head = render_lobby(info)
    elif view.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
        head = render_hand_end(view)
    else:
        head = render_table(view)
    tail = [texts.start_me_line(", ".join(waiting))] if waiting else []
    lines = list(log)
    while True:
        parts = [head]
        if lines:
            parts.append("\n".join(lines))
        parts.extend(tail)
        text = "\n\n".join(parts)
        if len(text) <= MAX_TEXT or not lines:
            return text[:MAX_TEXT]
        lines.pop(0)


class TableMessages:
    """Table messages, pings and the waiting list of each table (see the module docstring).

    ``bot_username`` builds the deep links; ``mid_turn_delay``: see
    :data:`MID_TURN_DELAY`.
    """

    def __init__(
        self,
        messenger: Messenger,
        store: TelegramMessageStore,
        outbox: Outbox,
        bot_username: str,
        mid_turn_delay: float = MID_TURN_DELAY,
        web: WebLinks | None = None,
    ) -> None:
        self.messenger = messenger
        self.store = store
        self.outbox = outbox
        self.bot_username = bot_username
        self.web = web
        self._log: dict[int, deque[str]] = {}
        self._last: dict[int, tuple[TableInfo, PublicView | None, str]] = {}
        self._turn: dict[int, tuple[int, int]] = {}
        self._pinged_person: dict[int, tuple[int, str]] = {}
        self._deferred: dict[int, asyncio.TimerHandle] = {}
        self.mid_turn_delay = mid_turn_delay
        self.waiting: dict[int, dict[int, str]] = {}
        self.keyed = KeyedSends(store.begin_send)

    def start_link(self, table_id: int) -> str:
        """The "Start me" deep link of a table."""
        return deep_link(self.bot_username, table_payload(table_id))

    def changed(self, table: TableScreen) -> None:
        """A change of the table (its computed screen): note its lines, track the turn,
        queue the edit."""
        info, view, events, notices = table.info, table.view, table.events, table.notices
        locale = table.locale
        with use_locale(locale):
            if table.history:  # the stored changes: the same lines whichever worker draws
                lines = [
                    line
                    for past in table.history
                    for line in change_lines(past.events, past.notices, view)
                ]
                self._log[info.id] = deque(lines[-LOG_LINES:], maxlen=LOG_LINES)
            else:
                self._log.setdefault(info.id, deque(maxlen=LOG_LINES)).extend(
                    change_lines(events, notices, view)
                )
        mid_turn = self._mid_turn(info, view, notices)
        if view is not None and view.current is not None:
            self._turn[info.id] = (view.deal_number, view.current)
        closed = info.status not in (Status.LOBBY, Status.PLAYING)
        if closed:
            self.waiting.pop(info.id, None)
        self._last[info.id] = (info, view, locale)
        if mid_turn:
            self._defer(info.id)
        else:
            self._cancel_deferred(info.id)
            self._queue(info, view, locale)
        if closed:
            self._pinged_person.pop(info.id, None)

    def _mid_turn(
        self, info: TableInfo, view: PublicView | None, notices: Sequence[Notice]
    ) -> bool:
        """True for a change inside a turn that the group may see a little later (the
        draw before the discard, a person's or an AI seat's): the same seat of the same
        deal moves on, with nothing announced."""
        if view is None or view.current is None or notices or info.status is not Status.PLAYING:
            return False
        return self._turn.get(info.id) == (view.deal_number, view.current)

    def _defer(self, table_id: int) -> None:
        if table_id in self._deferred:
            return  # the edit already waiting will show this change too
        loop = asyncio.get_running_loop()
        self._deferred[table_id] = loop.call_later(self.mid_turn_delay, self._flush, table_id)

    def _cancel_deferred(self, table_id: int) -> None:
        handle = self._deferred.pop(table_id, None)
        if handle is not None:
            handle.cancel()

    def _flush(self, table_id: int) -> None:
        self._deferred.pop(table_id, None)
        self.refresh(table_id)

    def flush_deferred(self) -> None:
        """Queue every edit still waiting (the adapter is stopping)."""
        for table_id in list(self._deferred):
            self._cancel_deferred(table_id)
            self.refresh(table_id)

    def refresh(self, table_id: int) -> bool:
        """Draw the table message again (the waiting list changed); False when this
        process has not shown the table yet."""
        last = self._last.get(table_id)
        if last is None:
            return False
        self._queue(*last)
        return True

    def unwait(self, user_id: int) -> list[int]:
        """Take the user off every waiting list; returns the tables whose list changed."""
        changed = []
        for table_id, waiting in self.waiting.items():
            if waiting.pop(user_id, None) is not None:
                changed.append(table_id)
        return changed

    def _queue(self, info: TableInfo, view: PublicView | None, locale: str) -> None:
        waiting = self.waiting.get(info.id, {})
        link = self.start_link(info.id) if waiting else None
        with use_locale(locale):
            text = render_group_text(
                info, view, list(self._log.get(info.id, ())), list(waiting.values())
            )
            markup: InlineKeyboardMarkup | None
            if info.status is Status.LOBBY:
                markup = lobby_keyboard(info, link)
            elif view is not None:
                markup = table_keyboard(
                    info,
                    view,
                    link,
                    mini_app_link(self.web, self.bot_username, info.id),
                    replay_link(self.web, self.bot_username, info.id),
                )
            else:
                markup = None

        async def job() -> None:
            await self._put(info, text, markup)

        self.outbox.put(chat_id_of(info.key), f"table:{info.id}", job, first=True)

    async def _put(self, info: TableInfo, text: str, markup: InlineKeyboardMarkup | None) -> None:
        row = await self.store.table_message(info.id)
        if row is not None and row.version > info.version:
            return
        if row is not None and await self.messenger.edit(row.chat_id, row.message_id, text, markup):
            await self.store.save_table_message(
                TelegramTableMessage(
                    info.id, str(info.key), row.chat_id, row.thread_id, row.message_id, info.version
                )
            )
            return
        thread = thread_id_of(info.key)
        # the send that replaces message N (0: the first one) is keyed by N
        key = f"telegram:table:{info.id}:{0 if row is None else row.message_id}"
        if not await self.keyed.may_send(key):
            return
        sent = await self.messenger.send(chat_id_of(info.key), text, markup, thread)
        if sent is not None:
            await self.store.save_table_message(
                TelegramTableMessage(
                    info.id, str(info.key), sent.chat_id, thread, sent.message_id, info.version
                )
            )
            await self.store.end_send(key)

    # --- pings -----------------------------------------------------------------------------

    def person_changed(self, table_id: int, user_key: str, deal: int = 0) -> bool:
        """True when ``user_key`` is not the person this table last pinged for a turn in
        deal ``deal`` (and note them): a player whose turns follow each other with only AI
        seats in between is pinged once a deal, not at every turn; their hand message gets
        the buttons. A new deal pings its first person again (the score sheet came
        between)."""
        if self._pinged_person.get(table_id) == (deal, user_key):
            return False
        self._pinged_person[table_id] = (deal, user_key)
        return True

    def ping(
        self, info: TableInfo, html: str, turn_only: bool = False, key: str | None = None
    ) -> None:
        """Post a short HTML note (a turn ping, a timer warning) in the table's chat.
        Earlier notes stay: deleting one would cost a call of the group's 20 a minute.
        ``turn_only``: a turn ping, dropped when that turn is over before the group's
        limit lets it out (the player has moved: nothing to tell); ``key``: the send's key
        (a turn's ping is sent once, whichever worker shows the turn)."""
        turn = self._turn.get(info.id)

        async def job() -> None:
            if turn_only and self._turn.get(info.id) != turn:
                return
            if key is not None and not await self.keyed.may_send(key):
                return
            sent = await self.messenger.send(
                chat_id_of(info.key), html, thread_id=thread_id_of(info.key), html=True
            )
            if key is not None and sent is not None:
                await self.store.end_send(key)

        self.outbox.put(chat_id_of(info.key), f"ping:{info.id}", job)
