"""Text from a platform made safe to store and show: lone surrogates replaced, length
bounded (:func:`bounded_text`), and the bounds of each stored platform name.

A lone surrogate (half of a UTF-16 pair) cannot be encoded as UTF-8: SQLite, PostgreSQL
and every platform API refuse it. JSON may carry one as an escape (``"\\ud800"``), which a
forged update or a buggy client can send; it is replaced by U+FFFD at the edge, before
anything stores or echoes the text. Platform names are bounded by the platforms' own
limits, so a forged 10 kB name is cut to what a real one can be.
"""

from __future__ import annotations

import re

__all__ = [
    "CHAT_TITLE",
    "DISPLAY_NAME",
    "LANGUAGE_TAG",
    "USERNAME",
    "bounded_text",
    "without_surrogates",
]

DISPLAY_NAME = 64
"""Characters of a person's name (Telegram's first name: 1-64; Discord's display name:
at most 32)."""

USERNAME = 32
"""Characters of a username (Telegram: 5-32; Discord: 2-32)."""

CHAT_TITLE = 128
"""Characters of a group's title (Telegram: 1-128; Discord's channel names: at most 100)."""

LANGUAGE_TAG = 35
"""Characters of a language tag (an IETF tag such as ``de-DE``; 35 covers every
registered form)."""

_SURROGATE = re.compile("[\ud800-\udfff]")


def without_surrogates(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD (valid pairs never reach a
    Python ``str`` as two code points: the JSON reader joins them)."""
    return _SURROGATE.sub("\ufffd", text)


def bounded_text(text: str, limit: int) -> str:
    """``text`` without lone surrogates and cut to ``limit`` characters."""
    return without_surrogates(text[:limit])
