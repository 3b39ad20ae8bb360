"""Compact ``callback_data`` for inline buttons: what a button does, encoded in at most
64 bytes (Telegram's limit), and the typed errors of reading it back.

Shape: ``<kind><action><sort>.<table>.<version>.<mask>.<arg>``, numbers in base 36::

    hs0.c.2f.bn.    hand button "toggle": table 12, version 87, cards 0 1 5 7 8 selected
    ha0.c.2f.bn.3   hand button "offer": the 4th move the hand model offers for that
                    selection (:attr:`bot.interaction.hand.HandModel.offers`)
    gj0.c.5..       group button "join" of table 12 (drawn at version 5)

``kind`` is ``g`` (the group's table message) or ``h`` (a private hand message);
``action`` one letter (:data:`GROUP_ACTIONS`, :data:`HAND_ACTIONS`); ``sort`` the hand
order (0 by suit, 1 by rank, 2 melds first); ``mask`` the selected cards as a bit set
over the hand in that order (bit ``i`` = the ``i``-th card); ``arg`` a short
argument (an offer number, a verb number).

The selection travels in the buttons themselves, so a restart loses nothing and
the server keeps no per-user state for it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_BYTES = 64
"""Telegram's limit for ``callback_data`` (UTF-8 bytes)."""

GROUP = "g"
HAND = "h"

GROUP_ACTIONS: dict[str, str] = {
    "j": "join",
    "l": "leave",
    "a": "add_ai",
    "s": "start",
    "y": "my_hand",
    "n": "next_deal",
    "v": "verb",
}
"""Actions of the buttons under the group's table message."""

HAND_ACTIONS: dict[str, str] = {
    "s": "toggle",
    "c": "clear",
    "r": "sort",
    "h": "hint",
    "a": "offer",
    "k": "pile",
    "b": "back",
}
"""Actions of the buttons under a private hand message."""

SORT_MODES = 3
"""Hand orders: 0 by suit, 1 by rank, 2 melds first."""

_ARG = re.compile(r"[A-Za-z0-9=,_-]{0,40}")
_NUMBER = re.compile(r"[0-9a-z]{1,13}")
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


class CallbackError(Exception):
    """A button press that cannot be carried out. ``code``: a stable id for the alert text
    (:mod:`bot.telegram_bot.texts`)."""

    code = "callback"


class MalformedCallback(CallbackError):
    """``callback_data`` that this bot never wrote (cut, forged, or from an old release)."""

    code = "malformed"


class StaleCallback(CallbackError):
    """A button of a keyboard that has since been replaced, or of a game that has ended."""

    code = "stale"


class GameEnded(StaleCallback):
    """A button of a table that is no longer the chat's game (over or cancelled)."""

    code = "ended"


class ForeignCallback(CallbackError):
    """A button that belongs to another table, message or user than the one it was pressed
    on or by."""

    code = "foreign"


def to_base36(number: int) -> str:
    """``number`` (>= 0) in base 36, lower case."""
    if number < 0:
        raise ValueError("only numbers >= 0 are encoded")
    if number == 0:
        return "0"
    out = []
    while number:
        number, digit = divmod(number, 36)
        out.append(_DIGITS[digit])
    return "".join(reversed(out))


def _from_base36(text: str) -> int:
    if not _NUMBER.fullmatch(text):
        raise MalformedCallback(text)
    return int(text, 36)


@dataclass(frozen=True, slots=True)
class Callback:
    """One button's meaning. ``table_id``: the service's table id; ``version``: the version
    of the message's content when the button was drawn (checked for moves)."""

    kind: str
    action: str
    table_id: int
    version: int
    mask: int = 0
    sort: int = 0
    arg: str = ""

    @property
    def name(self) -> str:
        """The action's long name (``join``, ``toggle``, ...)."""
        actions = GROUP_ACTIONS if self.kind == GROUP else HAND_ACTIONS
        return actions[self.action]

    def encode(self) -> str:
        """The ``callback_data`` string; raises ``ValueError`` when a field is out of range
        or the result exceeds 64 bytes."""
        actions = GROUP_ACTIONS if self.kind == GROUP else HAND_ACTIONS
        if self.kind not in (GROUP, HAND) or self.action not in actions:
            raise ValueError(f"unknown button {self.kind}{self.action}")
        if not 0 <= self.sort < SORT_MODES or not _ARG.fullmatch(self.arg):
            raise ValueError(f"bad sort or argument: {self.sort} {self.arg!r}")
        mask = to_base36(self.mask) if self.mask else ""
        data = (f"{self.kind}{self.action}{self.sort}.{to_base36(self.table_id)}."
                f"{to_base36(self.version)}.{mask}.{self.arg}")
        if len(data.encode("utf-8")) > MAX_BYTES:
            raise ValueError(f"callback_data over {MAX_BYTES} bytes: {data!r}")
        return data

    def with_(self, action: str | None = None, mask: int | None = None,
              sort: int | None = None, arg: str | None = None) -> Callback:
        """A copy with some fields replaced."""
        return Callback(self.kind, self.action if action is None else action, self.table_id,
                        self.version, self.mask if mask is None else mask,
                        self.sort if sort is None else sort, self.arg if arg is None else arg)


def decode(data: str | None) -> Callback:
    """Read ``callback_data`` back; raises :class:`MalformedCallback` for anything
    :meth:`Callback.encode` cannot have written."""
    # encode() writes ASCII only; this also keeps "²" (str.isdigit, but not int) out of the
    # sort digit and lone surrogates (no UTF-8) out of the byte count.
    if not data or not data.isascii() or len(data) > MAX_BYTES:
        raise MalformedCallback(data)
    parts = data.split(".")
    if len(parts) != 5 or len(parts[0]) != 3:
        raise MalformedCallback(data)
    head, table, version, mask, arg = parts
    kind, action, sort = head[0], head[1], head[2]
    actions = GROUP_ACTIONS if kind == GROUP else HAND_ACTIONS if kind == HAND else {}
    if action not in actions or not sort.isdigit() or int(sort) >= SORT_MODES:
        raise MalformedCallback(data)
    if not _ARG.fullmatch(arg):
        raise MalformedCallback(data)
    return Callback(kind, action, _from_base36(table), _from_base36(version),
                    _from_base36(mask) if mask else 0, int(sort), arg)
