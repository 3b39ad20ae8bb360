"""Reading Bot API call parameters from any of the encodings Telegram accepts.

Telegram takes parameters from the URL query string, ``application/json``,
``application/x-www-form-urlencoded`` and ``multipart/form-data`` bodies.
telegram-bot-api turns every top-level value into a string first (JSON strings
as they are, other JSON values re-encoded) and then parses each parameter by
the type the method expects; ``read_raw_params`` + ``decode_params`` do the
same, so a ``reply_markup`` given as a JSON object and one given as a
JSON-encoded form field end up identical.

PTB 22 (HTTPXRequest) sends form-encoded bodies: strings as they are, every
other value JSON-encoded (``chat_id=-100123``, ``reply_markup={"inline_keyboard":
...}``); multipart only when a file is uploaded.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from aiohttp import web

from .errors import bad_request

# Parameters whose value is a JSON object or array, with the noun Telegram uses in
# "can't parse <noun> JSON object".
JSON_PARAMS: dict[str, str] = {
    "reply_markup": "reply keyboard markup",
    "entities": "entities",
    "caption_entities": "caption entities",
    "allowed_updates": "allowed updates",
    "commands": "commands",
    "scope": "bot command scope",
    "link_preview_options": "link preview options",
    "reply_parameters": "reply parameters",
}
INT_PARAMS = frozenset(
    {
        "message_id",
        "message_thread_id",
        "offset",
        "limit",
        "timeout",
        "user_id",
        "cache_time",
        "max_connections",
        "reply_to_message_id",
    }
)
BOOL_PARAMS = frozenset(
    {
        "show_alert",
        "drop_pending_updates",
        "disable_notification",
        "protect_content",
        "disable_web_page_preview",
        "allow_sending_without_reply",
        "allow_paid_broadcast",
    }
)


def _to_raw(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


async def read_raw_params(request: web.Request) -> tuple[dict[str, str], str]:
    """All parameters of ``request`` as strings, plus the body's content type.

    Query-string parameters come first; body parameters override them. Uploaded
    files are kept as ``"<file name>"`` placeholders (the fake stores no files).
    Raises ``ApiError`` (400) for a JSON body that is not a JSON object.
    """
    raw: dict[str, str] = dict(request.query)
    content_type = request.content_type if request.body_exists else ""
    if content_type == "application/json":
        try:
            body = json.loads(await request.read() or b"{}")
        except ValueError as exc:
            raise bad_request("can't parse JSON encoded request") from exc
        if not isinstance(body, dict):
            raise bad_request("can't parse JSON encoded request")
        for key, value in body.items():
            text = _to_raw(value)
            if text is not None:
                raw[str(key)] = text
    elif content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
        form = await request.post()
        for key, value in form.items():
            if isinstance(value, str):
                raw[key] = value
            elif isinstance(value, web.FileField):
                raw[key] = f"<file {value.filename}>"
            else:
                raw[key] = bytes(value).decode("utf-8", "replace")
    return raw, content_type


def _to_int(text: str) -> int | str:
    try:
        return int(text)
    except ValueError:
        return text


def decode_params(raw: Mapping[str, str]) -> dict[str, Any]:
    """Typed parameters: ints, bools and JSON values decoded by parameter name.

    ``chat_id`` becomes an int when it is one and stays a string (``"@name"``)
    otherwise; an int parameter that is not a number stays a string (methods
    treat it as missing, like Telegram's ``to_integer`` giving 0); unknown
    parameters stay strings. Raises ``ApiError`` "can't parse ... JSON object"
    for malformed JSON values.
    """
    params: dict[str, Any] = {}
    for name, text in raw.items():
        if name in JSON_PARAMS:
            try:
                params[name] = json.loads(text)
            except ValueError as exc:
                raise bad_request(f"can't parse {JSON_PARAMS[name]} JSON object") from exc
        elif name in INT_PARAMS or name == "chat_id":
            params[name] = _to_int(text.strip())
        elif name in BOOL_PARAMS:
            params[name] = text.strip().lower() in ("true", "1")
        else:
            params[name] = text
    return params
