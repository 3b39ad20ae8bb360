""":class:`TelegramNotifier`: the game service's :class:`bot.service.notifier.Notifier` on
Telegram. Table changes edit the group's table message, hand changes the player's private
hand message; the first table change of a human's turn pings them in the group when
another person moved before (at most two group calls a turn: the edit and that ping), and
``turn_started`` brings the move buttons to their hand message; a running-out timer warns
them in the group.

Until the adapter has started (and after it stopped) notifications are dropped: the
service commits before it notifies, so nothing is lost, and the next change redraws.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n import use_locale
from bot.ports.model import ChatKey, TableInfo
from bot.service.notifier import Notice
from bot.service.service import GameService
from bot.telegram_bot import texts
from bot.telegram_bot.hand_messages import HandMessages, Screen
from bot.telegram_bot.identity import user_id_of
from bot.telegram_bot.outbox import Outbox
from bot.telegram_bot.table_messages import TableMessages
from engine.events import Event
from engine.views import PlayerView, PublicView


@dataclass
class _Parts:
    service: GameService
    tables: TableMessages
    hands: HandMessages
    outbox: Outbox


class TelegramNotifier:
    """Telegram side of the service's notifications (see the module docstring)."""

    def __init__(self) -> None:
        self._parts: _Parts | None = None

    def attach(self, service: GameService, tables: TableMessages, hands: HandMessages,
               outbox: Outbox) -> None:
        """Start delivering (called by the adapter once the bot is connected)."""
        self._parts = _Parts(service, tables, hands, outbox)

    def detach(self) -> None:
        """Stop delivering (the adapter is stopping)."""
        self._parts = None

    async def idle(self) -> None:
        """Wait until every queued group message is sent."""
        if self._parts is not None:
            await self._parts.outbox.idle()

    # --- the Notifier protocol ------------------------------------------------------------

    async def table_changed(self, info: TableInfo, view: PublicView | None,
                            events: Sequence[Event], notices: Sequence[Notice]) -> None:
        """Queue the edit of the table message (lobby, table or score sheet)."""
        parts = self._parts
        if parts is None:
            return
        locale = await parts.service.table_locale(info)
        parts.tables.changed(info, view, events, notices, locale)
        if view is not None and view.current is not None and parts.tables.new_turn(info.id):
            seat = info.seats[view.current]
            if seat.user is not None and not seat.automated \
                    and parts.tables.person_changed(info.id, seat.user):
                with use_locale(locale):
                    parts.tables.ping(info, texts.turn_ping(user_id_of(seat.user), seat.name),
                                      turn_only=True)

    async def hand_changed(self, info: TableInfo, seat: int, user_key: str,
                           view: PlayerView) -> None:
        """Edit the player's private hand message; note them as unreachable when the bot
        may not write to them."""
        parts = self._parts
        if parts is None:
            return
        user_id = user_id_of(user_key)
        user = await parts.hands.user_ref(user_id)
        locale = await parts.service.locale_of(user)
        if not await parts.hands.show(info, user_id, view, locale):
            await self.waiting(info, user_id, info.seats[seat].name)

    async def turn_started(self, info: TableInfo, seat: int, user_key: str) -> None:
        """Put the move buttons on the player's hand message when it does not show the
        current state yet (the turn ping went out with the table change)."""
        parts = self._parts
        if parts is None:
            return
        user_id = user_id_of(user_key)
        user = await parts.hands.user_ref(user_id)
        current, view = await parts.service.player_view(info.key, user)
        row = await parts.hands.store.hand_message(user_id, info.id)
        if row is None or row.version != view.table.version:
            locale = await parts.service.locale_of(user)
            if not await parts.hands.show(current, user_id, view, locale, Screen()):
                await self.waiting(current, user_id, info.seats[seat].name)

    async def timer_warning(self, info: TableInfo, seat: int, user_key: str,
                            seconds_left: float) -> None:
        """Warn the player in the group that their turn time runs out."""
        parts = self._parts
        if parts is None:
            return
        user_id = user_id_of(user_key)
        with use_locale(await parts.service.table_locale(info)):
            parts.tables.ping(info, texts.timer_ping(user_id, info.seats[seat].name,
                                                     max(1, round(seconds_left))))

    # --- used by the handlers ---------------------------------------------------------------

    async def redraw(self, key: ChatKey) -> None:
        """Draw the chat's table message again from the service (after a chat upgrade or a
        change of the waiting list)."""
        parts = self._parts
        if parts is None:
            return
        info = await parts.service.table_info(key)
        if info is None:
            return
        info, view = await parts.service.table_view(key)
        await self.table_changed(info, view, (), ())

    async def waiting(self, info: TableInfo, user_id: int, name: str) -> None:
        """The bot cannot write to ``user_id``: show them the "Start me" link."""
        parts = self._parts
        if parts is None:
            return
        waiting = parts.tables.waiting.setdefault(info.id, {})
        if user_id not in waiting:
            waiting[user_id] = name
            await self.redraw(info.key)

    def reached(self, user_id: int) -> None:
        """The user's private chat works now: drop them from every waiting list."""
        parts = self._parts
        if parts is None:
            return
        for table_id in parts.tables.unwait(user_id):
            parts.tables.refresh(table_id)
