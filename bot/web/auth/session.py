"""Page sessions: after a sign-in the server hands the page a signed token naming the
person and the table (:class:`SessionSigner`); the page opens its WebSocket with it.
Tokens are stateless (HMAC-SHA256 over the JSON payload, compared in constant time), so a
page may connect to any worker of several that share the secret; a token names one table
and one person, so it cannot act for anyone else or elsewhere."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from dataclasses import dataclass

from bot.ports.model import UserRef
from bot.web.auth import AuthRefused

__all__ = ["SESSION_SECONDS", "PageSession", "SessionSigner", "derive_secret"]

SESSION_SECONDS = 12 * 3600
"""How long a page session lasts (a page open longer signs in again)."""


@dataclass(frozen=True, slots=True)
class PageSession:
    """Who (``user``) may look at which table (``table_id``) until ``expires`` (seconds
    since the epoch)."""

    user: UserRef
    table_id: int
    expires: float


def derive_secret(*parts: str | None) -> bytes:
    """A session key from the bot's secrets (the tokens every worker has): the same on
    every worker, never one of the secrets itself."""
    material = "\0".join(part or "" for part in parts)
    return hmac.new(b"rummy-web-session", material.encode(), hashlib.sha256).digest()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class SessionSigner:
    """Issues and reads page session tokens with the key ``secret``."""

    def __init__(self, secret: bytes, seconds: float = SESSION_SECONDS) -> None:
        self._secret = secret
        self.seconds = seconds

    def _mac(self, payload: str) -> str:
        return _b64(hmac.new(self._secret, payload.encode(), hashlib.sha256).digest())

    def issue(self, user: UserRef, table_id: int, now: float | None = None) -> str:
        """A token for ``user`` at table ``table_id``."""
        expires = (time.time() if now is None else now) + self.seconds
        payload = _b64(
            json.dumps(
                [user.platform, user.user_id, user.name, user.locale, table_id, expires],
                separators=(",", ":"),
            ).encode()
        )
        return f"{payload}.{self._mac(payload)}"

    def read(self, token: str, now: float | None = None) -> PageSession:
        """The session of ``token``; raises :class:`AuthRefused` (``forged``,
        ``expired``, ``malformed``)."""
        payload, _, mac = token.partition(".")
        if not payload or not mac or len(token) > 1024:
            raise AuthRefused("malformed", "token")
        if not hmac.compare_digest(self._mac(payload).encode(), mac.encode()):
            raise AuthRefused("forged", "session")
        try:
            platform, user_id, name, locale, table_id, expires = json.loads(_unb64(payload))
        except ValueError:
            raise AuthRefused("malformed", "session") from None
        if (time.time() if now is None else now) > expires:
            raise AuthRefused("expired", "session")
        return PageSession(UserRef(platform, user_id, name, locale), int(table_id), float(expires))
