"""The fake Telegram's world: users, chats, messages and the rules for reaching them.

``World`` is shared by the Bot API methods (methods.py) and the simulated user
actions (actions.py). It decides whether the bot may write to a chat, with
Telegram's answers:

- unknown chat -> 400 "chat not found";
- private chat of a user who never pressed Start -> 403 "bot can't initiate
  conversation with a user"; blocked -> 403 "bot was blocked by the user";
- a basic group that was upgraded -> 400 "group chat was upgraded to a supergroup
  chat" with ``parameters.migrate_to_chat_id`` (PTB raises ``ChatMigrated``);
- a forum thread that does not exist -> 400 "message thread not found".
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .commands import CommandRegistry
from .errors import (
    BLOCKED,
    CANT_INITIATE,
    CHAT_ID_EMPTY,
    CHAT_NOT_FOUND,
    GROUP_UPGRADED,
    THREAD_NOT_FOUND,
    bad_request,
    forbidden,
)
from .models import (
    GROUP_ANONYMOUS_BOT_ID,
    CallbackAnswer,
    CallbackQuery,
    ChatAction,
    FakeChat,
    FakeMessage,
    FakeUser,
)
from .updates import UpdateQueue


@dataclass
class WebhookState:
    """What ``setWebhook`` recorded (the fake never calls the URL)."""

    url: str = ""
    allowed_updates: list[str] | None = None
    max_connections: int | None = None


class World:
    """Everything the fake Telegram knows, plus lookups that raise Telegram's errors."""

    def __init__(
        self,
        bot: FakeUser,
        *,
        privacy_mode: bool = True,
        callback_timeout: float = 15.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.bot = bot
        self.privacy_mode = privacy_mode
        self.callback_timeout = callback_timeout
        self.clock = clock
        anonymous = FakeUser(
            GROUP_ANONYMOUS_BOT_ID,
            "Group",
            username="GroupAnonymousBot",
            language_code=None,
            is_bot=True,
        )
        self.users: dict[int, FakeUser] = {bot.id: bot, anonymous.id: anonymous}
        self.chats: dict[int, FakeChat] = {}
        self.messages: dict[tuple[int, int], FakeMessage] = {}
        self._last_message_id: dict[int, int] = {}
        self.queries: dict[str, CallbackQuery] = {}
        self.callback_answers: list[CallbackAnswer] = []
        self.chat_actions: list[ChatAction] = []
        self.updates = UpdateQueue()
        self.commands = CommandRegistry()
        self.webhook = WebhookState()

    def now(self) -> int:
        """Unix time in whole seconds (message ``date``)."""
        return int(self.clock())

    def next_message_id(self, chat_id: int) -> int:
        """The next message id in a chat (ids count up per chat, from 1)."""
        self._last_message_id[chat_id] = self._last_message_id.get(chat_id, 0) + 1
        return self._last_message_id[chat_id]

    def store(self, message: FakeMessage) -> FakeMessage:
        """Remember a message under (chat id, message id)."""
        self.messages[(message.chat_id, message.message_id)] = message
        return message

    def find_message(self, chat_id: int, message_id: int) -> FakeMessage | None:
        """A message that exists and was not deleted."""
        message = self.messages.get((chat_id, message_id))
        return None if message is None or message.deleted else message

    def user_json(self, user_id: int) -> dict[str, Any] | None:
        """``User`` JSON of a known user (for ``text_mention`` entities)."""
        user = self.users.get(user_id)
        return None if user is None else user.to_api()

    def is_admin(self, chat: FakeChat, user_id: int) -> bool:
        """Whether ``user_id`` administers ``chat`` (the bot per ``bot_is_admin``)."""
        if user_id == self.bot.id:
            return chat.bot_is_admin
        return user_id in chat.admins

    # -- resolving chats for Bot API calls -------------------------------------------------

    def known_chat(self, chat_ref: Any) -> FakeChat:
        """The chat a ``chat_id`` parameter names (int id or "@username")."""
        if chat_ref is None or chat_ref == "":
            raise bad_request(CHAT_ID_EMPTY)
        if isinstance(chat_ref, str):
            for chat in self.chats.values():
                if chat.username and f"@{chat.username}".lower() == chat_ref.lower():
                    return chat
            raise bad_request(CHAT_NOT_FOUND)
        found = self.chats.get(chat_ref)
        if found is None:
            raise bad_request(CHAT_NOT_FOUND)
        return found

    def writable_chat(self, chat_ref: Any) -> FakeChat:
        """A chat the bot may post to or edit in; raises Telegram's 400/403 otherwise."""
        chat = self.known_chat(chat_ref)
        if chat.migrated_to is not None:
            raise bad_request(GROUP_UPGRADED, {"migrate_to_chat_id": chat.migrated_to})
        if chat.type == "private":
            user = self.users[chat.id]
            if user.blocked:
                raise forbidden(BLOCKED)
            if not user.started:
                raise forbidden(CANT_INITIATE)
        elif not chat.bot_is_member:
            raise forbidden(f"bot is not a member of the {chat.type} chat")
        return chat

    def check_thread(self, chat: FakeChat, thread_id: Any) -> int | None:
        """A valid ``message_thread_id`` for ``chat`` (None = no thread / General topic)."""
        if thread_id is None or thread_id == 0:
            return None
        if not isinstance(thread_id, int) or not chat.is_forum or thread_id not in chat.topics:
            raise bad_request(THREAD_NOT_FOUND)
        return thread_id

    # -- JSON --------------------------------------------------------------------------------

    def message_json(self, message: FakeMessage, *, nested: bool = False) -> dict[str, Any]:
        """Bot API ``Message`` JSON of the message's current state."""
        chat = self.chats[message.chat_id]
        data: dict[str, Any] = {"message_id": message.message_id}
        if message.sender_id is not None:
            data["from"] = self.users[message.sender_id].to_api()
        if message.sender_chat_id is not None:
            data["sender_chat"] = self.chats[message.sender_chat_id].to_api()
        data["chat"] = chat.to_api()
        data["date"] = message.date
        if message.thread_id is not None:
            data["message_thread_id"] = message.thread_id
        if message.is_topic_message:
            data["is_topic_message"] = True
        if message.reply_to_id is not None and not nested:
            replied = self.messages.get((message.chat_id, message.reply_to_id))
            if replied is not None and not replied.deleted:
                data["reply_to_message"] = self.message_json(replied, nested=True)
        if message.edit_date is not None:
            data["edit_date"] = message.edit_date
        if message.text is not None:
            data["text"] = message.text
            if message.entities:
                data["entities"] = [dict(e) for e in message.entities]
        if message.reply_markup:
            data["reply_markup"] = message.reply_markup
        data.update(message.service)
        return data

    # -- inspection ----------------------------------------------------------------------------

    def chat_messages(
        self,
        chat_id: int,
        thread_id: int | None = None,
        *,
        include_users: bool = False,
        include_deleted: bool = False,
    ) -> list[FakeMessage]:
        """Messages of a chat in id order (bot messages only unless ``include_users``)."""
        found = [
            message
            for (cid, _), message in self.messages.items()
            if cid == chat_id
            and (include_users or message.from_bot)
            and (include_deleted or not message.deleted)
            and (thread_id is None or message.thread_id == thread_id)
        ]
        return sorted(found, key=lambda m: m.message_id)
