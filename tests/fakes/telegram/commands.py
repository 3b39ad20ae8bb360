"""The bot's command lists (``setMyCommands``/``getMyCommands``/``deleteMyCommands``).

Lists are stored per (scope, language_code). Validation follows TDLib
(td/telegram/BotCommand.cpp: "Command must be non-empty", "Command length must
not exceed 32", "Command description must be non-empty", "Command description
length must not exceed 256", "Invalid language code specified") and the server
("BOT_COMMAND_INVALID" for characters other than ``[a-z0-9_]``,
"BOT_COMMANDS_TOO_MUCH" above 100 commands). ``visible`` implements the Bot API's
"Determining list of commands" order.
"""

from __future__ import annotations

import re
from typing import Any

from .errors import bad_request

ScopeKey = tuple[str, int | str | None, int | None]
DEFAULT_SCOPE: ScopeKey = ("default", None, None)
_SCOPE_FIELDS = {
    "default": (False, False),
    "all_private_chats": (False, False),
    "all_group_chats": (False, False),
    "all_chat_administrators": (False, False),
    "chat": (True, False),
    "chat_administrators": (True, False),
    "chat_member": (True, True),
}
_COMMAND = re.compile(r"[a-z0-9_]+")
MAX_COMMANDS = 100


def scope_key(scope: Any) -> ScopeKey:
    """The storage key of a ``BotCommandScope`` JSON object (None = default scope)."""
    if scope is None:
        return DEFAULT_SCOPE
    if not isinstance(scope, dict) or not isinstance(scope.get("type"), str):
        raise bad_request("can't parse bot command scope JSON object")
    kind = scope["type"]
    if kind not in _SCOPE_FIELDS:
        raise bad_request("unsupported bot command scope type")
    needs_chat, needs_user = _SCOPE_FIELDS[kind]
    chat_id = scope.get("chat_id") if needs_chat else None
    user_id = scope.get("user_id") if needs_user else None
    if needs_chat and not isinstance(chat_id, int | str):
        raise bad_request("chat_id is empty")
    if needs_user and not isinstance(user_id, int):
        raise bad_request("user not found")
    return kind, chat_id, user_id


def check_language_code(language_code: Any) -> str:
    """``""`` or a two-letter ISO 639-1 code; raises "invalid language code specified"."""
    if language_code is None:
        return ""
    if not isinstance(language_code, str) or not (
        language_code == "" or re.fullmatch(r"[a-z]{2}", language_code)
    ):
        raise bad_request("Invalid language code specified")
    return language_code


def check_commands(commands: Any) -> list[dict[str, str]]:
    """Validated, trimmed ``BotCommand`` list (leading "/" removed like TDLib does)."""
    if not isinstance(commands, list):
        raise bad_request("can't parse commands JSON object")
    if len(commands) > MAX_COMMANDS:
        raise bad_request("BOT_COMMANDS_TOO_MUCH")
    result = []
    for item in commands:
        if not isinstance(item, dict):
            raise bad_request("Command must be non-empty")
        command = str(item.get("command") or "").strip()
        command = command.removeprefix("/")
        if not command:
            raise bad_request("Command must be non-empty")
        if len(command) > 32:
            raise bad_request("Command length must not exceed 32")
        description = str(item.get("description") or "").strip()
        if not description:
            raise bad_request("Command description must be non-empty")
        if len(description) > 256:
            raise bad_request("Command description length must not exceed 256")
        if not _COMMAND.fullmatch(command):
            raise bad_request("BOT_COMMAND_INVALID")
        result.append({"command": command, "description": description})
    return result


class CommandRegistry:
    """Command lists per (scope, language code)."""

    def __init__(self) -> None:
        self._lists: dict[tuple[ScopeKey, str], list[dict[str, str]]] = {}

    def set(self, scope: ScopeKey, language_code: str, commands: list[dict[str, str]]) -> None:
        """Store a list (an empty list deletes it, as on Telegram)."""
        if commands:
            self._lists[(scope, language_code)] = list(commands)
        else:
            self._lists.pop((scope, language_code), None)

    def get(self, scope: ScopeKey, language_code: str = "") -> list[dict[str, str]]:
        """The list stored for exactly this scope and language (no fallback)."""
        return list(self._lists.get((scope, language_code), []))

    def delete(self, scope: ScopeKey, language_code: str) -> None:
        """Forget the list of this scope and language."""
        self._lists.pop((scope, language_code), None)

    def visible(
        self,
        user_id: int,
        language_code: str,
        chat_id: int | None = None,
        is_admin: bool = False,
    ) -> list[dict[str, str]]:
        """The menu a user sees: the first non-empty list in the Bot API's lookup order.

        ``chat_id`` None means the user's private chat with the bot.
        """
        scopes: list[ScopeKey]
        if chat_id is None:
            scopes = [("chat", user_id, None), ("all_private_chats", None, None)]
        else:
            scopes = [("chat_member", chat_id, user_id)]
            if is_admin:
                scopes.append(("chat_administrators", chat_id, None))
            scopes.append(("chat", chat_id, None))
            if is_admin:
                scopes.append(("all_chat_administrators", None, None))
            scopes.append(("all_group_chats", None, None))
        scopes.append(DEFAULT_SCOPE)
        for scope in scopes:
            for language in ([language_code] if language_code else []) + [""]:
                found = self._lists.get((scope, language))
                if found:
                    return list(found)
        return []
