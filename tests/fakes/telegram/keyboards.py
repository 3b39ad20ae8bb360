"""Validation of ``reply_markup`` with Telegram's limits and error texts.

Inline keyboards are echoed back in ``Message.reply_markup``; reply keyboards,
``remove_keyboard`` and ``force_reply`` are accepted but, as on Telegram, not
echoed. Limits: ``callback_data`` 1..64 *bytes* (UTF-8) -> "BUTTON_DATA_INVALID";
every inline button needs exactly one action besides ``text`` ("Text buttons are
unallowed in the inline keyboard"); at most 100 inline buttons ("reply markup is
too long").
"""

from __future__ import annotations

from typing import Any

from .errors import BUTTON_DATA_INVALID, bad_request

MAX_CALLBACK_DATA_BYTES = 64
MAX_INLINE_BUTTONS = 100
_BUTTON_ACTIONS = (
    "url",
    "callback_data",
    "web_app",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
)
_MARKUP_ERROR = "can't parse reply keyboard markup JSON object"


def _button_error(reason: str) -> Exception:
    return bad_request(f"Can't parse inline keyboard button: {reason}")


def _check_button(button: Any) -> dict[str, Any]:
    if not isinstance(button, dict):
        raise _button_error("InlineKeyboardButton must be an Object")
    text = button.get("text")
    if not isinstance(text, str):
        raise _button_error('Field "text" must be of type String')
    if not text.strip():
        raise bad_request("BUTTON_TEXT_INVALID")
    actions = [name for name in _BUTTON_ACTIONS if button.get(name) is not None]
    if not actions:
        raise _button_error("Text buttons are unallowed in the inline keyboard")
    data = button.get("callback_data")
    if data is not None:
        if not isinstance(data, str):
            raise _button_error('Field "callback_data" must be of type String')
        if not 1 <= len(data.encode("utf-8")) <= MAX_CALLBACK_DATA_BYTES:
            raise bad_request(BUTTON_DATA_INVALID)
    url = button.get("url")
    if url is not None and (not isinstance(url, str) or not url.strip()):
        raise bad_request("BUTTON_URL_INVALID")
    return {key: value for key, value in button.items() if value is not None}


def check_reply_markup(markup: Any) -> dict[str, Any] | None:
    """Validate a decoded ``reply_markup``; return what ``Message.reply_markup`` shows.

    Returns the normalised inline keyboard (``None`` fields dropped), or ``None``
    for no markup and for non-inline markups. Raises ``ApiError`` 400 with
    Telegram's text when a limit is broken.
    """
    if markup is None:
        return None
    if not isinstance(markup, dict):
        raise bad_request(_MARKUP_ERROR)
    if "inline_keyboard" in markup:
        rows = markup["inline_keyboard"]
        if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
            raise bad_request(_MARKUP_ERROR)
        checked = [[_check_button(button) for button in row] for row in rows]
        if sum(len(row) for row in checked) > MAX_INLINE_BUTTONS:
            raise bad_request("reply markup is too long")
        checked = [row for row in checked if row]
        return {"inline_keyboard": checked} if checked else None
    if "keyboard" in markup:
        rows = markup["keyboard"]
        if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
            raise bad_request(_MARKUP_ERROR)
        return None
    if markup.get("remove_keyboard") is True or markup.get("force_reply") is True:
        return None
    raise bad_request(_MARKUP_ERROR)


def inline_buttons(markup: dict[str, Any] | None) -> list[dict[str, Any]]:
    """All buttons of an echoed inline keyboard, row by row."""
    if not markup:
        return []
    return [button for row in markup.get("inline_keyboard", []) for button in row]
