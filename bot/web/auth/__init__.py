"""Who opened a page: Telegram's signed Mini App data (:mod:`.telegram`), Discord's OAuth2
sign-in of an Activity (:mod:`.discord`), and the page session the server signs for the
WebSocket afterwards (:mod:`.session`). Every refusal is an :class:`AuthRefused` with a
stable ``code``."""

from __future__ import annotations

__all__ = ["AuthRefused"]


class AuthRefused(Exception):
    """A sign-in or session that is not accepted. ``code``: ``forged`` (a signature that
    does not match), ``expired``, ``malformed``, ``not_at_table`` (neither seated nor
    allowed to watch), ``no_table``, ``unavailable`` (the platform could not be asked)."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail
