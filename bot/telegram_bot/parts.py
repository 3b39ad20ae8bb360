"""The adapter's pieces that every handler needs, built once by the adapter on start."""

from __future__ import annotations

from dataclasses import dataclass

from bot.ports.message_store import TelegramMessageStore
from bot.service.service import GameService
from bot.telegram_bot.hand_messages import HandMessages
from bot.telegram_bot.messaging import Messenger
from bot.telegram_bot.notifier import TelegramNotifier
from bot.telegram_bot.table_messages import TableMessages


@dataclass(frozen=True)
class Parts:
    """The service, the adapter's store, the messenger, the table and hand messages, the
    notifier and the bot's ``@username`` (for deep links and ``/cmd@bot``)."""

    service: GameService
    store: TelegramMessageStore
    messenger: Messenger
    tables: TableMessages
    hands: HandMessages
    notifier: TelegramNotifier
    bot_username: str
