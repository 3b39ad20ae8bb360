"""Telegram Mini App sign-in: :func:`validate_init_data` checks ``initData`` exactly as
Telegram specifies ("Validating data received via the Mini App"), and
:class:`TelegramMembers` asks the Bot API whether a person is in a group (a spectator may
watch the group's table).

The check, in Telegram's words: the data-check-string is "a chain of all received fields,
sorted alphabetically, in the format key=<value> with a line feed character ('\\n', 0x0A)
used as separator" (every field but ``hash``); the secret key is "the HMAC-SHA-256
signature of the bot's token with the constant string WebAppData used as a key"; the data
is genuine when "hex(HMAC_SHA256(data_check_string, secret_key))" equals ``hash``. The
comparison is constant-time (:func:`hmac.compare_digest`), and ``auth_date`` must not be
older than the ``max_age`` setting (``WEB_AUTH_MAX_AGE``) nor lie in the future.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from urllib.parse import parse_qsl

import aiohttp

from bot.ports.clean import clean_text
from bot.ports.model import UserRef
from bot.web.auth import AuthRefused

__all__ = [
    "FUTURE_SKEW",
    "TelegramLogin",
    "TelegramMembers",
    "sign_init_data",
    "validate_init_data",
]

FUTURE_SKEW = 60
"""Seconds an ``auth_date`` may lie ahead of this server's clock (clocks drift)."""

MAX_INIT_DATA = 8192
"""Characters of ``initData`` accepted at most (Telegram's are a few hundred)."""


@dataclass(frozen=True, slots=True)
class TelegramLogin:
    """A validated ``initData``: the person, the Mini App's ``start_param`` (``t12``
    from a ``t.me/<bot>?startapp=t12`` link; ``None`` from a ``web_app`` button) and when
    Telegram signed it (``auth_date``, seconds since the epoch)."""

    user: UserRef
    start_param: str | None
    auth_date: int


def _secret(bot_token: str) -> bytes:
    return hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()


def _check_string(fields: dict[str, str]) -> str:
    return "\n".join(f"{key}={fields[key]}" for key in sorted(fields) if key != "hash")


def validate_init_data(
    init_data: str, bot_token: str, max_age: float, now: float | None = None
) -> TelegramLogin:
    """The person and start parameter of a Mini App's ``initData`` (the query string
    ``window.Telegram.WebApp.initData``). Raises :class:`AuthRefused`: ``malformed``
    (not a query string, a field twice, no user), ``forged`` (the hash does not match),
    ``expired`` (``auth_date`` older than ``max_age`` seconds or in the future)."""
    fields = _signed_fields(init_data, bot_token)
    auth_date = _auth_date(fields, max_age, now)
    return TelegramLogin(_user(fields), fields.get("start_param") or None, auth_date)


def _signed_fields(init_data: str, bot_token: str) -> dict[str, str]:
    """The fields of ``init_data`` once its hash is checked with ``bot_token``. Raises
    :class:`AuthRefused`: ``malformed`` (empty or too long, not a query string, a field
    twice), ``forged`` (the hash does not match)."""
    if not init_data or len(init_data) > MAX_INIT_DATA:
        raise AuthRefused("malformed", "size")
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise AuthRefused("malformed", "query") from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise AuthRefused("malformed", "a field twice")
    given = fields.get("hash", "")
    expected = hmac.new(
        _secret(bot_token), _check_string(fields).encode(), hashlib.sha256
    ).hexdigest()
    if not hmac.compare_digest(expected.encode(), given.encode()):
        raise AuthRefused("forged")
    return fields


def _auth_date(fields: dict[str, str], max_age: float, now: float | None) -> int:
    """The ``auth_date`` of the signed ``fields`` (Unix seconds). Raises
    :class:`AuthRefused`: ``malformed`` (not a number), ``expired`` (older than
    ``max_age`` seconds at ``now``, or in the future)."""
    try:
        auth_date = int(fields.get("auth_date", ""))
    except ValueError:
        raise AuthRefused("malformed", "auth_date") from None
    now = time.time() if now is None else now
    if now - auth_date > max_age or auth_date - now > FUTURE_SKEW:
        raise AuthRefused("expired")
    return auth_date


def _user(fields: dict[str, str]) -> UserRef:
    """The person of the signed ``fields`` (its ``user`` JSON); raises
    :class:`AuthRefused` ``malformed`` when there is none or it has no id."""
    try:
        data = json.loads(fields.get("user", ""))
        user_id = int(data["id"])
        name = clean_text(str(data.get("first_name") or data.get("username") or user_id)[:64])
        language = data.get("language_code")
    except (ValueError, KeyError, TypeError):
        raise AuthRefused("malformed", "user") from None
    return UserRef("telegram", str(user_id), name, language if isinstance(language, str) else None)


def sign_init_data(fields: dict[str, str], bot_token: str) -> str:
    """``fields`` as Telegram would send them: the query string with their ``hash``
    (for tests and the benchmark, which play Telegram's part)."""
    from urllib.parse import urlencode

    signed = dict(fields)
    signed["hash"] = hmac.new(
        _secret(bot_token), _check_string(fields).encode(), hashlib.sha256
    ).hexdigest()
    return urlencode(signed)


def _number(text: str) -> int | str:
    """A numeric id as a number (as the Bot API takes it), anything else as given."""
    return int(text) if text.lstrip("-").isdigit() else text


MEMBER_STATUSES = frozenset({"creator", "administrator", "member"})


class TelegramMembers:
    """Whether a person is in a Telegram group: the Bot API's ``getChatMember`` with the
    bot's token (``api_base``: Telegram's server, or a fake one in tests)."""

    def __init__(
        self, bot_token: str, api_base: str = "https://api.telegram.org", timeout: float = 10.0
    ) -> None:
        self._url = f"{api_base.rstrip('/')}/bot{bot_token}/getChatMember"
        self._timeout = aiohttp.ClientTimeout(total=timeout)

    async def is_member(self, chat_id: str, user_id: str) -> bool:
        """True when ``user_id`` is in ``chat_id`` now; raises :class:`AuthRefused`
        (``unavailable``) when Telegram cannot be asked."""
        try:
            async with (
                aiohttp.ClientSession(timeout=self._timeout) as session,
                session.post(
                    self._url, json={"chat_id": _number(chat_id), "user_id": _number(user_id)}
                ) as response,
            ):
                data = await response.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            raise AuthRefused("unavailable", str(error)) from None
        if not isinstance(data, dict) or not data.get("ok"):
            return False
        member = data.get("result") or {}
        status = member.get("status")
        return status in MEMBER_STATUSES or (
            status == "restricted" and bool(member.get("is_member"))
        )
