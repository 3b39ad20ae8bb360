"""Discord's JSON error responses, raised inside the fake and turned into HTTP replies.

Shapes follow https://discord.com/developers/docs/reference#error-messages: a numeric
``code``, a ``message`` and, for 50035 "Invalid Form Body", a nested ``errors`` object
whose leaves are ``{"_errors": [{"code": ..., "message": ...}]}``. discord.py flattens
that into ``HTTPException.text`` ("In content: Must be 2000 or fewer in length.").
"""

from __future__ import annotations

from typing import Any

from .entities import Json

# JSON error codes used by the fake.
UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004
UNKNOWN_MESSAGE = 10008
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_APPLICATION_COMMAND = 10063
UNKNOWN_INTERACTION = 10062
MISSING_ACCESS = 50001
CANNOT_EDIT_OTHERS_MESSAGE = 50005
EMPTY_MESSAGE = 50006
MISSING_PERMISSIONS = 50013
INVALID_WEBHOOK_TOKEN = 50027
INVALID_FORM_BODY = 50035
ALREADY_ACKNOWLEDGED = 40060
REQUEST_TOO_LARGE = 40005


class DiscordAPIError(Exception):
    """An error reply: HTTP ``status`` plus Discord's JSON ``code``/``message``/``errors``."""

    def __init__(self, status: int, code: int, message: str, errors: Json | None = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def to_json(self) -> Json:
        """The response body Discord would send."""
        body: Json = {"message": self.message, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


def not_found(code: int, what: str) -> DiscordAPIError:
    """A 404 with ``code`` and the message "Unknown <what>"."""
    return DiscordAPIError(404, code, f"Unknown {what}")


class FormErrors:
    """Collects field errors for a 50035 "Invalid Form Body" reply."""

    def __init__(self) -> None:
        self.tree: Json = {}

    def add(self, path: tuple[str | int, ...], code: str, message: str) -> None:
        """Record error ``code``/``message`` at ``path``, e.g. ``("components", 0, "label")``."""
        node = self.tree
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def max_length(self, path: tuple[str | int, ...], limit: int) -> None:
        """Record Discord's "Must be N or fewer in length." error at ``path``."""
        self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def length_between(self, path: tuple[str | int, ...], low: int, high: int) -> None:
        """Record Discord's "Must be between A and B in length." error at ``path``."""
        self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")

    def check_length(
        self, path: tuple[str | int, ...], value: Any, high: int, *, low: int = 0
    ) -> None:
        """Check a string or list length against ``low``..``high`` (None counts as absent)."""
        if value is None:
            return
        if low and not low <= len(value) <= high:
            self.length_between(path, low, high)
        elif len(value) > high:
            self.max_length(path, high)

    def raise_if_any(self) -> None:
        """Raise the 400 / 50035 error when anything was recorded."""
        if self.tree:
            raise DiscordAPIError(400, INVALID_FORM_BODY, "Invalid Form Body", self.tree)
