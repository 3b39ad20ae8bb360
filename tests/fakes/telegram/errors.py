"""Bot API failures, worded the way Telegram words them.

Telegram answers a failed call with HTTP status = ``error_code`` and the body
``{"ok": false, "error_code": N, "description": "...", "parameters": {...}}``.
The description is "<Status phrase>: <reason>". telegram-bot-api
(``Client::fail_query_with_error``) keeps upper-case server codes such as
``BUTTON_DATA_INVALID`` as they are and lower-cases the first letter of a
sentence ("Can't parse entities: ..." -> "can't parse entities: ..."); ``_reason``
applies the same rule so reasons can be written as TDLib writes them.
"""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """A failed Bot API call: HTTP status ``error_code`` and Telegram's ``description``."""

    def __init__(
        self, error_code: int, description: str, parameters: dict[str, Any] | None = None
    ) -> None:
        super().__init__(description)
        self.error_code = error_code
        self.description = description
        self.parameters = parameters

    def to_json(self) -> dict[str, Any]:
        """The response body Telegram sends for this error."""
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.error_code,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def _reason(prefix: str, reason: str) -> str:
    if len(reason) >= 2 and (reason[1] == "_" or "A" <= reason[1] <= "Z"):
        return f"{prefix}: {reason}"
    return f"{prefix}: {reason[:1].lower()}{reason[1:]}"


def bad_request(reason: str, parameters: dict[str, Any] | None = None) -> ApiError:
    """HTTP 400 "Bad Request: <reason>"."""
    return ApiError(400, _reason("Bad Request", reason), parameters)


def forbidden(reason: str) -> ApiError:
    """HTTP 403 "Forbidden: <reason>"."""
    return ApiError(403, _reason("Forbidden", reason))


def conflict(reason: str) -> ApiError:
    """HTTP 409 "Conflict: <reason>" (two pollers, or polling while a webhook is set)."""
    return ApiError(409, f"Conflict: {reason}")


def not_found() -> ApiError:
    """HTTP 404 "Not Found": unknown method or a malformed token."""
    return ApiError(404, "Not Found")


def unauthorized() -> ApiError:
    """HTTP 401 "Unauthorized": a well-formed token that is not this bot's."""
    return ApiError(401, "Unauthorized")


# Reasons used in several places (Telegram's exact words).
MESSAGE_TOO_LONG = "message is too long"
TEXT_EMPTY = "message text is empty"
NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)
EDIT_NOT_FOUND = "message to edit not found"
DELETE_NOT_FOUND = "message to delete not found"
REPLY_NOT_FOUND = "message to be replied not found"
CANT_EDIT = "message can't be edited"
CANT_DELETE = "message can't be deleted"
NO_TEXT_TO_EDIT = "there is no text in the message to edit"
NO_MESSAGE_ID = "message identifier is not specified"
CHAT_NOT_FOUND = "chat not found"
CHAT_ID_EMPTY = "chat_id is empty"
USER_NOT_FOUND = "user not found"
THREAD_NOT_FOUND = "message thread not found"
BUTTON_DATA_INVALID = "BUTTON_DATA_INVALID"
QUERY_INVALID = "query is too old and response timeout expired or query ID is invalid"
CALLBACK_TEXT_TOO_LONG = "MESSAGE_TOO_LONG"
CANT_INITIATE = "bot can't initiate conversation with a user"
BLOCKED = "bot was blocked by the user"
GROUP_UPGRADED = "group chat was upgraded to a supergroup chat"
TERMINATED_BY_OTHER_POLL = (
    "terminated by other getUpdates request; make sure that only one bot instance is running"
)
WEBHOOK_ACTIVE = (
    "can't use getUpdates method while webhook is active; use deleteWebhook to delete the "
    "webhook first"
)
