"""What the fake Telegram knows: users, chats, messages, callback queries, API calls.

These are the test-side records; ``World`` (state.py) turns them into Bot API
JSON. Chat ids follow Telegram: a private chat has the user's id, basic groups
are negative, supergroups (and forums) are ``-100...``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .keyboards import inline_buttons

# Telegram's placeholder sender of anonymous admin / migration messages.
GROUP_ANONYMOUS_BOT_ID = 1087968824


@dataclass
class FakeUser:
    """A Telegram account; ``started`` once it opened the bot's private chat (/start)."""

    id: int
    first_name: str
    username: str | None = None
    language_code: str | None = "en"
    last_name: str | None = None
    is_bot: bool = False
    started: bool = False
    blocked: bool = False

    def to_api(self) -> dict[str, Any]:
        """Bot API ``User`` JSON."""
        data: dict[str, Any] = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.username:
            data["username"] = self.username
        if self.language_code and not self.is_bot:
            data["language_code"] = self.language_code
        return data


@dataclass
class FakeChat:
    """A private chat, basic group or supergroup (``is_forum`` for topic-enabled groups).

    ``members`` are user ids seen in the chat, ``admins`` the administrators,
    ``topics`` maps forum thread ids to topic names, ``migrated_to`` is set once a
    basic group was upgraded to a supergroup.
    """

    id: int
    type: str
    title: str | None = None
    username: str | None = None
    first_name: str | None = None
    last_name: str | None = None
    is_forum: bool = False
    members: set[int] = field(default_factory=set)
    admins: set[int] = field(default_factory=set)
    topics: dict[int, str] = field(default_factory=dict)
    migrated_to: int | None = None
    bot_is_member: bool = True
    bot_is_admin: bool = False

    @property
    def is_group(self) -> bool:
        """True for basic groups and supergroups."""
        return self.type in ("group", "supergroup")

    def to_api(self) -> dict[str, Any]:
        """Bot API ``Chat`` JSON (as embedded in messages)."""
        data: dict[str, Any] = {"id": self.id, "type": self.type}
        for name in ("title", "username", "first_name", "last_name"):
            value = getattr(self, name)
            if value:
                data[name] = value
        if self.is_forum:
            data["is_forum"] = True
        return data

    def to_full_api(self) -> dict[str, Any]:
        """Bot API ``ChatFullInfo`` JSON (``getChat``) with the fields PTB 22 requires."""
        data = self.to_api()
        data.update(
            accent_color_id=0,
            max_reaction_count=11,
            accepted_gift_types={
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        )
        return data


@dataclass(frozen=True)
class MessageVersion:
    """One earlier state of an edited message."""

    text: str | None
    entities: tuple[dict[str, Any], ...]
    reply_markup: dict[str, Any] | None
    edit_date: int | None


@dataclass
class FakeMessage:
    """A message in a chat, sent by the bot (``from_bot``) or by a simulated user.

    ``history`` holds the earlier versions of an edited message, oldest first;
    ``update_id`` is the update that delivered a user's message to the bot (None
    when privacy mode kept it from the bot); ``service`` holds service fields such
    as ``migrate_to_chat_id`` or ``forum_topic_created``.
    """

    chat_id: int
    message_id: int
    sender_id: int | None
    date: int
    text: str | None = None
    entities: list[dict[str, Any]] = field(default_factory=list)
    reply_markup: dict[str, Any] | None = None
    thread_id: int | None = None
    is_topic_message: bool = False
    reply_to_id: int | None = None
    sender_chat_id: int | None = None
    from_bot: bool = False
    edit_date: int | None = None
    history: list[MessageVersion] = field(default_factory=list)
    deleted: bool = False
    service: dict[str, Any] = field(default_factory=dict)
    update_id: int | None = None

    def edit(
        self,
        text: str | None,
        entities: list[dict[str, Any]],
        reply_markup: dict[str, Any] | None,
        when: int,
    ) -> None:
        """Replace the content, keeping the old version in ``history``."""
        self.history.append(
            MessageVersion(self.text, tuple(self.entities), self.reply_markup, self.edit_date)
        )
        self.text = text
        self.entities = list(entities)
        self.reply_markup = reply_markup
        self.edit_date = when

    @property
    def texts(self) -> list[str | None]:
        """Every text this message has shown, oldest first, current last."""
        return [version.text for version in self.history] + [self.text]

    @property
    def buttons(self) -> list[dict[str, Any]]:
        """The current inline keyboard's buttons, row by row."""
        return inline_buttons(self.reply_markup)

    @property
    def callback_data(self) -> list[str]:
        """``callback_data`` of the current inline keyboard's buttons."""
        return [b["callback_data"] for b in self.buttons if "callback_data" in b]

    @property
    def button_texts(self) -> list[str]:
        """Labels of the current inline keyboard's buttons."""
        return [b["text"] for b in self.buttons]


@dataclass
class CallbackQuery:
    """A button press the bot has to answer (``answerCallbackQuery``)."""

    id: str
    user_id: int
    chat_id: int
    message_id: int
    data: str
    created: float
    answered: bool = False


@dataclass(frozen=True)
class CallbackAnswer:
    """An ``answerCallbackQuery`` call the fake accepted."""

    query_id: str
    user_id: int
    chat_id: int
    message_id: int
    data: str
    text: str | None
    show_alert: bool
    url: str | None
    cache_time: int | None


@dataclass(frozen=True)
class ChatAction:
    """A ``sendChatAction`` call the fake accepted."""

    chat_id: int
    action: str
    thread_id: int | None


@dataclass(frozen=True)
class ApiCall:
    """One HTTP call to the Bot API: decoded parameters and the answer given.

    ``content_type`` is the request body's type ("" for none) so tests can see
    how the client encodes parameters; ``response`` is the JSON body sent back;
    ``worker`` tells which client made it when clients use ``worker_base_url``.
    """

    method: str
    params: dict[str, Any]
    content_type: str
    status: int
    response: dict[str, Any]
    worker: str = ""  # the client's tag (``worker_base_url``), "" on the plain base URL
    began: float = 0.0  # ``time.monotonic()`` when the request arrived
    ended: float = 0.0  # ... and when its answer was ready (before any hold)

    @property
    def ok(self) -> bool:
        """True when Telegram would have answered ``"ok": true``."""
        return bool(self.response.get("ok"))

    @property
    def result(self) -> Any:
        """The ``result`` of a successful call (None for failures)."""
        return self.response.get("result")

    @property
    def description(self) -> str | None:
        """The error description of a failed call."""
        return self.response.get("description")
