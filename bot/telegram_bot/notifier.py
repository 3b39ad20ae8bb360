""":class:`TelegramNotifier`: the :class:`bot.ports.notifier.Notifier` on Telegram. It lays
out the computed screens of a published :class:`bot.ports.screens.TableUpdate` and never
calls the service: the table screen edits the group's table message, each changed seat
screen the player's private hand message (in that player's language, in the order their
message shows), and the person whose turn began is pinged in the group when another
person moved before (at most two group calls a turn: the edit and that ping); a
running-out timer warns them in the group; a table that cannot be loaded any more is
said once in its group.

Until the adapter has started (and after it stopped) updates are dropped: the service
commits before it publishes, so nothing is lost, and the next change redraws.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import use_locale
from bot.interaction.hand import build_hand_model
from bot.interaction.kept_screens import KeptScreens
from bot.ports.hand import HandModel, SortMode
from bot.ports.model import Status, TableInfo
from bot.ports.screens import (
    CoachAdvice,
    SeatScreen,
    TableFault,
    TableScreen,
    TableUpdate,
    TimerWarning,
)
from bot.render.notices import render_fault
from bot.telegram_bot import texts
from bot.telegram_bot.hand_messages import HandMessages
from bot.telegram_bot.identity import chat_id_of, thread_id_of, user_id_of
from bot.telegram_bot.outbox import Outbox
from bot.telegram_bot.table_messages import TableMessages

__all__ = ["TelegramNotifier"]

MESSAGE_LIMIT = 4096
"""Telegram's limit of a message's text (characters)."""


@dataclass
class _Parts:
    tables: TableMessages
    hands: HandMessages
    outbox: Outbox


class TelegramNotifier:
    """Telegram side of the service's notifications (see the module docstring)."""

    def __init__(self) -> None:
        self._parts: _Parts | None = None
        #: The seat screens this process was shown, for hand steps the adapter carries
        #: out itself without a table load.
        self.screens = KeptScreens()

    def attach(self, tables: TableMessages, hands: HandMessages, outbox: Outbox) -> None:
        """Start delivering (called by the adapter once the bot is connected)."""
        self._parts = _Parts(tables, hands, outbox)

    def detach(self) -> None:
        """Stop delivering (the adapter is stopping)."""
        self._parts = None

    async def idle(self) -> None:
        """Wait until every queued group message is sent."""
        if self._parts is not None:
            await self._parts.outbox.idle()

    # --- the Notifier protocol ------------------------------------------------------------

    async def publish(self, update: TableUpdate) -> None:
        """Queue the table message's edit, ping the person whose turn began, redraw the
        hand messages whose hand changed (the presser's first; one that shows this
        version already, drawn by the presser's own answer, stays)."""
        parts = self._parts
        if parts is None:
            return
        self.screens.keep(update)
        self.show_table(update.table)
        info = update.info
        if update.turn is not None:
            seat = info.seats[update.turn]
            view = update.table.view
            deal = 0 if view is None else view.deal_number
            if seat.user is not None and parts.tables.person_changed(info.id, seat.user, deal):
                with use_locale(update.table.locale):
                    parts.tables.ping(
                        info,
                        texts.turn_ping(user_id_of(seat.user), seat.name),
                        turn_only=True,
                        key=f"telegram:ping:{info.id}:{update.turn_started}",
                    )
        for screen in update.seats_actor_first:
            if update.hand_changed(screen.seat):
                await self.show_hand(screen, newer_only=True)

    async def warn(self, warning: TimerWarning) -> None:
        """Warn the player in the group that their turn time runs out."""
        parts = self._parts
        if parts is None:
            return
        with use_locale(warning.locale):
            parts.tables.ping(
                warning.info,
                texts.timer_ping(
                    user_id_of(warning.user_key),
                    warning.info.seats[warning.seat].name,
                    max(1, round(warning.seconds_left)),
                ),
            )

    async def coach(self, advice: CoachAdvice) -> None:
        """The coach's notes, as a message of their own in the person's private chat (at
        most three notes: within Telegram's 4,096 characters)."""
        parts = self._parts
        if parts is not None:
            user_id = user_id_of(advice.user_key)
            await parts.hands.messenger.send_private(user_id, advice.text[:MESSAGE_LIMIT])

    async def fault(self, fault: TableFault) -> None:
        """Say in the table's group (or topic) that the table cannot be loaded."""
        parts = self._parts
        if parts is None:
            return
        with use_locale(fault.locale):
            text = render_fault(fault)
        chat, thread = chat_id_of(fault.key), thread_id_of(fault.key)
        messenger = parts.tables.messenger

        async def job() -> None:
            await messenger.send(chat, text, thread_id=thread)

        parts.outbox.put(chat, f"fault:{fault.table_id}", job)

    # --- drawing ----------------------------------------------------------------------------

    def show_table(self, table: TableScreen) -> None:
        """Queue the edit of the group's table message (lobby, table or score sheet)."""
        if self._parts is not None:
            self._parts.tables.changed(table)

    async def show_hand(
        self, screen: SeatScreen, repost: bool = False, newer_only: bool = False
    ) -> None:
        """Redraw one player's private hand message from their seat screen (their order
        kept, nothing selected; ``repost``: anew at the bottom of the chat; ``newer_only``:
        not when it shows this version already); note them as waiting when the bot may
        not write to them."""
        parts = self._parts
        if parts is None:
            return
        user_id = user_id_of(screen.user_key)
        info = screen.info

        def in_order(sort: SortMode) -> HandModel:
            with use_locale(screen.locale):
                return build_hand_model(screen, sort=sort)

        if not await parts.hands.show(
            info,
            user_id,
            screen.view,
            screen.locale,
            repost=repost,
            newer_only=newer_only,
            in_order=in_order if info.status is Status.PLAYING else None,
        ):
            self.waiting(info, user_id, info.seats[screen.seat].name)

    def waiting(self, info: TableInfo, user_id: int, name: str) -> bool:
        """The bot cannot write to ``user_id``: the table message shows them with the
        "Start me" link, redrawn from the last screen this process drew; False when it drew
        none yet (the caller then shows the table's screen)."""
        parts = self._parts
        if parts is None:
            return True
        waiting = parts.tables.waiting.setdefault(info.id, {})
        if user_id in waiting:
            return True
        waiting[user_id] = name
        return parts.tables.refresh(info.id)

    def reached(self, user_id: int) -> None:
        """The user's private chat works now: drop them from every waiting list."""
        parts = self._parts
        if parts is None:
            return
        for table_id in parts.tables.unwait(user_id):
            parts.tables.refresh(table_id)
