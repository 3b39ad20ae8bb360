"""Simulated users: setting up users, groups and topics, and acting as a user.

Setup (``add_user``, ``add_group``, ``add_topic``) creates no updates. Actions
(``send_text``, ``start_private``, ``press_button``, ``migrate_group``,
``block_bot``) queue the updates Telegram would send. Mistakes in a test (a user
writing somewhere they cannot, pressing a button that is not on the message's
current keyboard) raise ``ValueError`` / ``LookupError`` in the test itself.

Privacy mode (Telegram's default for bots): in groups the bot only receives
commands (``/cmd`` or ``/cmd@ThisBot``, not ``/cmd@OtherBot``), replies to its own
messages and service messages, unless it is an administrator.
"""

from __future__ import annotations

import re
from typing import Any

from .formatting import MAX_TEXT_LENGTH, find_bot_commands
from .models import GROUP_ANONYMOUS_BOT_ID, CallbackQuery, FakeChat, FakeMessage, FakeUser
from .state import World

SUPERGROUP_ID_LIMIT = -1_000_000_000_000
TOPIC_ICON_COLOR = 7322096
_DEEP_LINK_PAYLOAD = re.compile(r"[A-Za-z0-9_-]{1,64}")
_QUERY_ID_BASE = 4_000_000_000_000_000_000

UserRef = FakeUser | int
ChatRef = FakeChat | int
MessageRef = FakeMessage | tuple[int, int]


def _user(world: World, user: UserRef) -> FakeUser:
    user_id = user.id if isinstance(user, FakeUser) else user
    found = world.users.get(user_id)
    if found is None or found.is_bot:
        raise ValueError(f"unknown user {user_id}: call add_user() first")
    return found


def _chat(world: World, chat: ChatRef) -> FakeChat:
    chat_id = chat.id if isinstance(chat, FakeChat) else chat
    found = world.chats.get(chat_id)
    if found is None:
        raise ValueError(f"unknown chat {chat_id}: call add_group() or add_user() first")
    return found


def _message_key(message: MessageRef) -> tuple[int, int]:
    if isinstance(message, FakeMessage):
        return message.chat_id, message.message_id
    return message


def _chat_instance(chat_id: int) -> str:
    return str(-(abs(chat_id) * 2_654_435_761 % 9_000_000_000_000_000_000) - 1)


def add_user(
    world: World,
    user_id: int,
    first_name: str,
    username: str | None = None,
    language_code: str | None = "en",
    last_name: str | None = None,
) -> FakeUser:
    """Register a user (and their private chat with the bot, not yet started)."""
    if user_id <= 0 or user_id in world.users:
        raise ValueError(f"user id {user_id} must be positive and new")
    user = FakeUser(user_id, first_name, username, language_code, last_name)
    world.users[user_id] = user
    world.chats[user_id] = FakeChat(
        user_id,
        "private",
        username=username,
        first_name=first_name,
        last_name=last_name,
        members={user_id},
    )
    return user


def add_group(
    world: World,
    chat_id: int,
    title: str,
    forum: bool = False,
    *,
    username: str | None = None,
    admins: tuple[int, ...] = (),
    bot_is_admin: bool = False,
) -> FakeChat:
    """Register a group the bot is in: basic group for ids above -10**12, else supergroup.

    ``forum=True`` makes a topic-enabled supergroup (its id must be ``-100...``).
    """
    if chat_id >= 0 or chat_id in world.chats:
        raise ValueError(f"group id {chat_id} must be negative and new")
    supergroup = chat_id <= SUPERGROUP_ID_LIMIT
    if forum and not supergroup:
        raise ValueError("forums are supergroups: use an id like -100xxxxxxxxxx")
    for admin in admins:
        _user(world, admin)
    chat = FakeChat(
        chat_id,
        "supergroup" if supergroup else "group",
        title=title,
        username=username,
        is_forum=forum,
        members=set(admins),
        admins=set(admins),
        bot_is_admin=bot_is_admin,
    )
    world.chats[chat_id] = chat
    return chat


def add_topic(world: World, chat: ChatRef, name: str) -> int:
    """Create a forum topic; returns its ``message_thread_id``.

    As on Telegram the thread id is the id of the ``forum_topic_created`` service
    message (sent here by an anonymous admin; no update is queued).
    """
    forum = _chat(world, chat)
    if not forum.is_forum:
        raise ValueError(f"chat {forum.id} is not a forum")
    thread_id = world.next_message_id(forum.id)
    world.store(
        FakeMessage(
            chat_id=forum.id,
            message_id=thread_id,
            sender_id=GROUP_ANONYMOUS_BOT_ID,
            sender_chat_id=forum.id,
            date=world.now(),
            thread_id=thread_id,
            is_topic_message=True,
            service={"forum_topic_created": {"name": name, "icon_color": TOPIC_ICON_COLOR}},
        )
    )
    forum.topics[thread_id] = name
    return thread_id


def _command_text(text: str, entity: dict[str, Any]) -> str:
    units = text.encode("utf-16-le", "surrogatepass")
    start, end = 2 * entity["offset"], 2 * (entity["offset"] + entity["length"])
    return units[start:end].decode("utf-16-le", "surrogatepass")


def _bot_sees(
    world: World, chat: FakeChat, message: FakeMessage, replied: FakeMessage | None
) -> bool:
    if chat.type == "private" or not world.privacy_mode or chat.bot_is_admin:
        return True
    if replied is not None and replied.from_bot:
        return True
    bot_name = (world.bot.username or "").lower()
    for entity in message.entities:
        if entity["type"] == "bot_command":
            _, _, addressee = _command_text(message.text or "", entity).partition("@")
            if not addressee or addressee.lower() == bot_name:
                return True
    return False


def send_text(
    world: World,
    user: UserRef,
    chat: ChatRef,
    text: str,
    thread_id: int | None = None,
    reply_to: MessageRef | None = None,
) -> FakeMessage:
    """``user`` writes ``text`` in ``chat`` (a group, or their started private chat).

    Commands get ``bot_command`` entities like on Telegram (``/new@BotName args``).
    ``thread_id`` posts into a forum topic. The update is queued unless privacy
    mode hides the message from the bot; ``message.update_id`` tells which.
    """
    sender = _user(world, user)
    target = _chat(world, chat)
    if target.migrated_to is not None:
        raise ValueError(f"group {target.id} was upgraded to {target.migrated_to}")
    if target.type == "private":
        if target.id != sender.id:
            raise ValueError("users can only write in their own private chat with the bot")
        if not sender.started or sender.blocked:
            raise ValueError(f"user {sender.id} has not started the bot: call start_private()")
    else:
        target.members.add(sender.id)
    if thread_id is not None and (not target.is_forum or thread_id not in target.topics):
        raise ValueError(f"chat {target.id} has no forum topic {thread_id}")
    if not text.strip() or len(text) > MAX_TEXT_LENGTH:
        raise ValueError("a user's message text must have 1..4096 characters")
    replied: FakeMessage | None = None
    if reply_to is not None:
        key = _message_key(reply_to)
        replied = world.find_message(*key)
        if replied is None or replied.chat_id != target.id:
            raise ValueError(f"no message {key} to reply to in chat {target.id}")
    reply_id = replied.message_id if replied is not None else thread_id
    message = world.store(
        FakeMessage(
            chat_id=target.id,
            message_id=world.next_message_id(target.id),
            sender_id=sender.id,
            date=world.now(),
            text=text,
            entities=find_bot_commands(text),
            thread_id=thread_id,
            is_topic_message=thread_id is not None,
            reply_to_id=reply_id,
        )
    )
    if _bot_sees(world, target, message, replied):
        message.update_id = world.updates.push("message", world.message_json(message))
    return message


def _my_chat_member(world: World, user: FakeUser, old: str, new: str) -> None:
    bot = world.bot.to_api()

    def member(status: str) -> dict[str, Any]:
        return {"user": bot, "status": status, **({"until_date": 0} if status == "kicked" else {})}

    world.updates.push(
        "my_chat_member",
        {
            "chat": world.chats[user.id].to_api(),
            "from": user.to_api(),
            "date": world.now(),
            "old_chat_member": member(old),
            "new_chat_member": member(new),
        },
    )


def start_private(world: World, user: UserRef, payload: str | None = None) -> FakeMessage:
    """The user opens the bot's private chat and presses Start (``/start [payload]``).

    ``payload`` is a deep-link parameter (``t.me/Bot?start=payload``: 1..64 of
    ``[A-Za-z0-9_-]``). Afterwards the bot may write to the user. Restarting a
    blocked bot also queues the ``my_chat_member`` (kicked -> member) update.
    """
    sender = _user(world, user)
    if payload is not None and not _DEEP_LINK_PAYLOAD.fullmatch(payload):
        raise ValueError("a deep-link payload has 1..64 characters of [A-Za-z0-9_-]")
    if sender.blocked:
        sender.blocked = False
        _my_chat_member(world, sender, "kicked", "member")
    sender.started = True
    text = "/start" if payload is None else f"/start {payload}"
    message = world.store(
        FakeMessage(
            chat_id=sender.id,
            message_id=world.next_message_id(sender.id),
            sender_id=sender.id,
            date=world.now(),
            text=text,
            entities=[{"type": "bot_command", "offset": 0, "length": 6}],
        )
    )
    message.update_id = world.updates.push("message", world.message_json(message))
    return message


def block_bot(world: World, user: UserRef) -> None:
    """The user blocks the bot: ``my_chat_member`` (member -> kicked); sends now get 403."""
    blocker = _user(world, user)
    if blocker.blocked:
        raise ValueError(f"user {blocker.id} already blocked the bot")
    blocker.blocked = True
    _my_chat_member(world, blocker, "member", "kicked")


def press_button(world: World, user: UserRef, message: MessageRef, callback_data: str) -> str:
    """``user`` presses the inline button carrying ``callback_data``; returns the query id.

    Only buttons on the message's *current* keyboard can be pressed (``LookupError``
    otherwise). The ``callback_query`` update carries the message as it is now.
    """
    presser = _user(world, user)
    key = _message_key(message)
    current = world.find_message(*key)
    if current is None:
        raise LookupError(f"message {key} does not exist (deleted?)")
    chat = world.chats[current.chat_id]
    if chat.type == "private" and chat.id != presser.id:
        raise ValueError(f"user {presser.id} cannot see private chat {chat.id}")
    if chat.migrated_to is not None:
        raise ValueError(f"group {chat.id} was upgraded to {chat.migrated_to}")
    if callback_data not in current.callback_data:
        raise LookupError(
            f"no button with callback_data {callback_data!r} on message {key}; "
            f"current buttons: {current.callback_data}"
        )
    if chat.is_group:
        chat.members.add(presser.id)
    query_id = str(_QUERY_ID_BASE + len(world.queries) + 1)
    world.queries[query_id] = CallbackQuery(
        query_id, presser.id, chat.id, current.message_id, callback_data, world.clock()
    )
    world.updates.push(
        "callback_query",
        {
            "id": query_id,
            "from": presser.to_api(),
            "message": world.message_json(current),
            "chat_instance": _chat_instance(chat.id),
            "data": callback_data,
        },
    )
    return query_id


def migrate_group(world: World, old_id: int, new_id: int, by: UserRef | None = None) -> FakeChat:
    """Upgrade a basic group to a supergroup, as Telegram does.

    Queues the service messages ``migrate_to_chat_id`` (in the old group, from
    ``by`` or an admin) and ``migrate_from_chat_id`` (in the new supergroup, from
    GroupAnonymousBot). Afterwards the old id answers 400 with
    ``migrate_to_chat_id`` (PTB: ``ChatMigrated``).
    """
    old = _chat(world, old_id)
    if old.type != "group" or old.migrated_to is not None:
        raise ValueError(f"chat {old_id} is not a basic group that can be upgraded")
    if new_id in world.chats or new_id > SUPERGROUP_ID_LIMIT:
        raise ValueError(f"{new_id} must be a new supergroup id (-100xxxxxxxxxx)")
    actor_id = _user(world, by).id if by is not None else min(old.admins | old.members, default=0)
    new = FakeChat(
        new_id,
        "supergroup",
        title=old.title,
        members=set(old.members),
        admins=set(old.admins),
        bot_is_member=old.bot_is_member,
        bot_is_admin=old.bot_is_admin,
    )
    world.chats[new_id] = new
    old.migrated_to = new_id
    farewell = world.store(
        FakeMessage(
            chat_id=old.id,
            message_id=world.next_message_id(old.id),
            sender_id=actor_id or GROUP_ANONYMOUS_BOT_ID,
            date=world.now(),
            service={"migrate_to_chat_id": new_id},
        )
    )
    farewell.update_id = world.updates.push("message", world.message_json(farewell))
    welcome = world.store(
        FakeMessage(
            chat_id=new.id,
            message_id=world.next_message_id(new.id),
            sender_id=GROUP_ANONYMOUS_BOT_ID,
            sender_chat_id=new.id,
            date=world.now(),
            service={"migrate_from_chat_id": old.id},
        )
    )
    welcome.update_id = world.updates.push("message", world.message_json(welcome))
    return new
