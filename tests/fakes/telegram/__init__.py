"""A fake Telegram Bot API server for driving the real python-telegram-bot stack in tests.

See README.md in this folder. Typical use::

    from tests.fakes.telegram import running_fake_telegram

    async with running_fake_telegram() as tg:
        tg.add_group(-100123, "Rummy night")
        ...
"""

from .errors import ApiError
from .models import (
    ApiCall,
    CallbackAnswer,
    ChatAction,
    FakeChat,
    FakeMessage,
    FakeUser,
    MessageVersion,
)
from .server import DEFAULT_TOKEN, FakeTelegram, running_fake_telegram

__all__ = [
    "DEFAULT_TOKEN",
    "ApiCall",
    "ApiError",
    "CallbackAnswer",
    "ChatAction",
    "FakeChat",
    "FakeMessage",
    "FakeTelegram",
    "FakeUser",
    "MessageVersion",
    "running_fake_telegram",
]
