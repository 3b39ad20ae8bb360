"""Telegram adapter (python-telegram-bot 22): group tables with inline buttons, hands in
the private chat. Named ``telegram_bot`` so it cannot shadow the ``telegram`` library.

``create_adapter(settings)`` is what ``rummy-bot run`` calls (:mod:`bot.runner`).
"""

from bot.telegram_bot.adapter import TelegramAdapter, create_adapter

__all__ = ["TelegramAdapter", "create_adapter"]
