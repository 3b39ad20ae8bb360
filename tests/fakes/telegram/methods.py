"""The Bot API methods the fake implements, keyed by lower-case method name.

Telegram matches method names case-insensitively (telegram-bot-api keys its
method table by the lower-cased name). Every handler takes the ``World`` and the
decoded parameters and returns the ``result`` JSON or raises ``ApiError``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .commands import check_commands, check_language_code, scope_key
from .errors import (
    CALLBACK_TEXT_TOO_LONG,
    CANT_DELETE,
    CANT_EDIT,
    DELETE_NOT_FOUND,
    EDIT_NOT_FOUND,
    NO_MESSAGE_ID,
    NO_TEXT_TO_EDIT,
    NOT_MODIFIED,
    QUERY_INVALID,
    REPLY_NOT_FOUND,
    USER_NOT_FOUND,
    WEBHOOK_ACTIVE,
    bad_request,
    conflict,
)
from .formatting import format_text
from .keyboards import check_reply_markup
from .models import CallbackAnswer, ChatAction, FakeChat, FakeMessage
from .state import World

Params = dict[str, Any]
Handler = Callable[[World, Params], Any]  # a result, or an awaitable of one

MAX_CALLBACK_ANSWER_LENGTH = 200
CHAT_ACTIONS = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)


def _message_id(params: Params) -> int:
    value = params.get("message_id")
    if not isinstance(value, int) or value <= 0:
        raise bad_request(NO_MESSAGE_ID)
    return value


def _reply_to(world: World, chat: FakeChat, params: Params) -> int | None:
    reply = params.get("reply_parameters")
    if isinstance(reply, dict):
        target, lenient = reply.get("message_id"), bool(reply.get("allow_sending_without_reply"))
    else:
        target = params.get("reply_to_message_id")
        lenient = bool(params.get("allow_sending_without_reply"))
    if not isinstance(target, int) or target <= 0:
        return None
    if world.find_message(chat.id, target) is None:
        if lenient:
            return None
        raise bad_request(REPLY_NOT_FOUND)
    return target


def get_me(world: World, params: Params) -> dict[str, Any]:
    """``getMe``: the bot's ``User`` with the bot-only flags."""
    data = world.bot.to_api()
    data.update(
        can_join_groups=True,
        can_read_all_group_messages=not world.privacy_mode,
        supports_inline_queries=False,
        can_connect_to_business=False,
        has_main_web_app=False,
    )
    return data


async def get_updates(world: World, params: Params) -> list[dict[str, Any]]:
    """``getUpdates`` long polling (see updates.py); 409 while a webhook is set."""
    if world.webhook.url:
        raise conflict(WEBHOOK_ACTIVE)
    allowed = params.get("allowed_updates")
    offset, limit, timeout = (params.get(name) for name in ("offset", "limit", "timeout"))
    return await world.updates.get(
        offset=offset if isinstance(offset, int) else 0,
        limit=limit if isinstance(limit, int) else 100,
        timeout=float(timeout) if isinstance(timeout, int) else 0.0,
        allowed_updates=[str(a) for a in allowed] if isinstance(allowed, list) else None,
    )


def set_webhook(world: World, params: Params) -> bool:
    """``setWebhook``: only recorded. An empty URL removes the webhook."""
    url = str(params.get("url") or "")
    if url and not url.lower().startswith("https://"):
        raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
    world.webhook.url = url
    allowed = params.get("allowed_updates")
    world.webhook.allowed_updates = allowed if isinstance(allowed, list) else None
    max_connections = params.get("max_connections")
    world.webhook.max_connections = max_connections if isinstance(max_connections, int) else None
    if params.get("drop_pending_updates"):
        world.updates.clear()
    return True


def delete_webhook(world: World, params: Params) -> bool:
    """``deleteWebhook``: forget the webhook; ``drop_pending_updates`` empties the queue."""
    world.webhook.url = ""
    if params.get("drop_pending_updates"):
        world.updates.clear()
    return True


def get_webhook_info(world: World, params: Params) -> dict[str, Any]:
    """``getWebhookInfo`` for the recorded webhook."""
    info: dict[str, Any] = {
        "url": world.webhook.url,
        "has_custom_certificate": False,
        "pending_update_count": len(world.updates.pending),
    }
    if world.webhook.url and world.webhook.allowed_updates is not None:
        info["allowed_updates"] = world.webhook.allowed_updates
    if world.webhook.url and world.webhook.max_connections is not None:
        info["max_connections"] = world.webhook.max_connections
    return info


def send_message(world: World, params: Params) -> dict[str, Any]:
    """``sendMessage`` with Telegram's text, keyboard, thread and reply checks."""
    chat = world.writable_chat(params.get("chat_id"))
    text, entities = format_text(
        params.get("text"), params.get("parse_mode"), params.get("entities"), world.user_json
    )
    markup = check_reply_markup(params.get("reply_markup"))
    thread_id = world.check_thread(chat, params.get("message_thread_id"))
    reply_to = _reply_to(world, chat, params)
    if reply_to is None and thread_id is not None:
        reply_to = thread_id  # topic messages reply to the topic's creation message
    message = FakeMessage(
        chat_id=chat.id,
        message_id=world.next_message_id(chat.id),
        sender_id=world.bot.id,
        date=world.now(),
        text=text,
        entities=entities,
        reply_markup=markup,
        thread_id=thread_id,
        is_topic_message=thread_id is not None,
        reply_to_id=reply_to,
        from_bot=True,
    )
    world.store(message)
    return world.message_json(message)


def _editable(world: World, params: Params) -> FakeMessage:
    if params.get("inline_message_id"):
        raise bad_request("MESSAGE_ID_INVALID")
    chat = world.writable_chat(params.get("chat_id"))
    message = world.find_message(chat.id, _message_id(params))
    if message is None:
        raise bad_request(EDIT_NOT_FOUND)
    if not message.from_bot:
        raise bad_request(CANT_EDIT)
    return message


def _same(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> bool:
    def key(entity: dict[str, Any]) -> str:
        return repr(sorted(entity.items()))

    return sorted(map(key, a)) == sorted(map(key, b))


def edit_message_text(world: World, params: Params) -> dict[str, Any]:
    """``editMessageText``; omitting ``reply_markup`` removes the inline keyboard."""
    message = _editable(world, params)
    if message.text is None:
        raise bad_request(NO_TEXT_TO_EDIT)
    text, entities = format_text(
        params.get("text"), params.get("parse_mode"), params.get("entities"), world.user_json
    )
    markup = check_reply_markup(params.get("reply_markup"))
    unchanged_text = text == message.text and _same(entities, message.entities)
    if unchanged_text and markup == message.reply_markup:
        raise bad_request(NOT_MODIFIED)
    message.edit(text, entities, markup, world.now())
    return world.message_json(message)


def edit_message_reply_markup(world: World, params: Params) -> dict[str, Any]:
    """``editMessageReplyMarkup``; no ``reply_markup`` removes the inline keyboard."""
    message = _editable(world, params)
    markup = check_reply_markup(params.get("reply_markup"))
    if markup == message.reply_markup:
        raise bad_request(NOT_MODIFIED)
    message.edit(message.text, message.entities, markup, world.now())
    return world.message_json(message)


def delete_message(world: World, params: Params) -> bool:
    """``deleteMessage``: own messages, private-chat messages, or any if the bot is admin."""
    chat = world.known_chat(params.get("chat_id"))
    message = world.find_message(chat.id, _message_id(params))
    if message is None:
        raise bad_request(DELETE_NOT_FOUND)
    if not (message.from_bot or chat.type == "private" or chat.bot_is_admin):
        raise bad_request(CANT_DELETE)
    message.deleted = True
    return True


def answer_callback_query(world: World, params: Params) -> bool:
    """``answerCallbackQuery``: once per query, within ``callback_timeout``, text <= 200."""
    text = params.get("text")
    if isinstance(text, str) and len(text) > MAX_CALLBACK_ANSWER_LENGTH:
        raise bad_request(CALLBACK_TEXT_TOO_LONG)
    query = world.queries.get(str(params.get("callback_query_id") or ""))
    if query is None or query.answered or world.clock() - query.created > world.callback_timeout:
        raise bad_request(QUERY_INVALID)
    query.answered = True
    cache_time = params.get("cache_time")
    world.callback_answers.append(
        CallbackAnswer(
            query_id=query.id,
            user_id=query.user_id,
            chat_id=query.chat_id,
            message_id=query.message_id,
            data=query.data,
            text=text if isinstance(text, str) and text else None,
            show_alert=bool(params.get("show_alert")),
            url=params.get("url") or None,
            cache_time=cache_time if isinstance(cache_time, int) else None,
        )
    )
    return True


def send_chat_action(world: World, params: Params) -> bool:
    """``sendChatAction`` ("typing", ...): recorded in ``chat_actions``."""
    chat = world.writable_chat(params.get("chat_id"))
    action = params.get("action")
    if action not in CHAT_ACTIONS:
        raise bad_request("wrong parameter action in request")
    thread_id = world.check_thread(chat, params.get("message_thread_id"))
    world.chat_actions.append(ChatAction(chat.id, str(action), thread_id))
    return True


def get_chat(world: World, params: Params) -> dict[str, Any]:
    """``getChat``: ``ChatFullInfo`` of a known chat."""
    return world.known_chat(params.get("chat_id")).to_full_api()


_ADMIN_RIGHTS = {
    "can_be_edited": False,
    "is_anonymous": False,
    "can_manage_chat": True,
    "can_delete_messages": True,
    "can_manage_video_chats": True,
    "can_restrict_members": True,
    "can_promote_members": False,
    "can_change_info": True,
    "can_invite_users": True,
    "can_post_stories": False,
    "can_edit_stories": False,
    "can_delete_stories": False,
    "can_pin_messages": True,
}


def get_chat_member(world: World, params: Params) -> dict[str, Any]:
    """``getChatMember``: administrator / member / left as the fake knows them."""
    chat = world.known_chat(params.get("chat_id"))
    user_id = params.get("user_id")
    user = world.users.get(user_id) if isinstance(user_id, int) else None
    if user is None:
        raise bad_request(USER_NOT_FOUND)
    member: dict[str, Any] = {"user": user.to_api()}
    if chat.type == "private":
        member["status"] = "member" if user.id in (chat.id, world.bot.id) else "left"
    elif world.is_admin(chat, user.id):
        member.update(status="administrator", **_ADMIN_RIGHTS)
    elif user.id in chat.members or (user.id == world.bot.id and chat.bot_is_member):
        member["status"] = "member"
    else:
        member["status"] = "left"
    return member


def set_my_commands(world: World, params: Params) -> bool:
    """``setMyCommands`` for a scope and language."""
    commands = check_commands(params.get("commands"))
    scope = scope_key(params.get("scope"))
    language = check_language_code(params.get("language_code"))
    if isinstance(scope[1], int):
        world.known_chat(scope[1])
    world.commands.set(scope, language, commands)
    return True


def get_my_commands(world: World, params: Params) -> list[dict[str, str]]:
    """``getMyCommands``: exactly the list of that scope and language (no fallback)."""
    scope = scope_key(params.get("scope"))
    return world.commands.get(scope, check_language_code(params.get("language_code")))


def delete_my_commands(world: World, params: Params) -> bool:
    """``deleteMyCommands`` for a scope and language."""
    scope = scope_key(params.get("scope"))
    world.commands.delete(scope, check_language_code(params.get("language_code")))
    return True


def close(world: World, params: Params) -> bool:
    """``close``: nothing to close in the fake."""
    return True


def log_out(world: World, params: Params) -> bool:
    """``logOut``: nothing to log out of in the fake."""
    return True


METHODS: dict[str, Handler] = {
    "getme": get_me,
    "getupdates": get_updates,
    "setwebhook": set_webhook,
    "deletewebhook": delete_webhook,
    "getwebhookinfo": get_webhook_info,
    "sendmessage": send_message,
    "editmessagetext": edit_message_text,
    "editmessagereplymarkup": edit_message_reply_markup,
    "deletemessage": delete_message,
    "answercallbackquery": answer_callback_query,
    "sendchataction": send_chat_action,
    "getchat": get_chat,
    "getchatmember": get_chat_member,
    "setmycommands": set_my_commands,
    "getmycommands": get_my_commands,
    "deletemycommands": delete_my_commands,
    "close": close,
    "logout": log_out,
}
