"""The adapter's pieces that every handler needs, built once by the adapter on start."""

from __future__ import annotations

from dataclasses import dataclass

from bot.ports.entry import Entry
from bot.ports.message_store import TelegramMessageStore
from bot.ports.model import TableInfo
from bot.telegram_bot.hand_messages import HandMessages
from bot.telegram_bot.messaging import Messenger
from bot.telegram_bot.notifier import TelegramNotifier
from bot.telegram_bot.table_messages import TableMessages


@dataclass(frozen=True)
class Parts:
    """The service's entry point, the adapter's store, the messenger, the table and hand
    messages, the notifier and the bot's ``@username`` (for deep links and
    ``/cmd@bot``)."""

    entry: Entry
    store: TelegramMessageStore
    messenger: Messenger
    tables: TableMessages
    hands: HandMessages
    notifier: TelegramNotifier
    bot_username: str

    async def waiting(self, info: TableInfo, user_id: int, name: str) -> None:
        """Show ``user_id`` on the table message as someone who must press Start first
        (the table drawn again, from the service when this process has not drawn it)."""
        if not self.notifier.waiting(info, user_id, name):
            await self.redraw(info.id)

    async def redraw(self, table_id: int) -> None:
        """Draw the table message again from the service's current screen (after a chat
        upgrade, or a waiting list this process has not drawn yet)."""
        found = await self.entry.screens(table_id, None)
        if found is not None:
            self.notifier.show_table(found.table)
