"""Compact ``callback_data`` for inline buttons: what a button does, encoded in at most
64 bytes (Telegram's limit) and signed, and the typed errors of reading it back.

Shape: ``<kind><action><sort>.<table>.<version>.<mask>.<arg>.<mac>``, numbers in base 36::

    hs0.c.2f.bn..<mac>    hand button "toggle": table 12, version 87, cards 0 1 5 7 8
                          selected
    ha0.c.2f.bn.3.<mac>   hand button "offer": the 4th move the hand model offers for that
                          selection (:attr:`bot.interaction.hand.HandModel.offers`)
    gj0.c.5...<mac>       group button "join" of table 12 (drawn at version 5)

``kind`` is ``g`` (the group's table message) or ``h`` (a private hand message);
``action`` one letter (:data:`GROUP_ACTIONS`, :data:`HAND_ACTIONS`); ``sort`` the hand
order (0 by suit, 1 by rank, 2 melds first); ``mask`` the selected cards as a bit set
over the hand in that order (bit ``i`` = the ``i``-th card); ``arg`` a short
argument (an offer number, a verb number).

The selection travels in the buttons themselves, so a restart loses nothing and
the server keeps no per-user state for it.

``<mac>`` signs the rest: 8 characters of base64url, the first 48 bits of an HMAC-SHA256
with a key derived from the bot's token (:func:`sign_with`; the same for every worker and
after every restart, so old keyboards keep working). Telegram does not check that the
data of a callback query is a button of the message it names: a modified client can send
any text. Only data this bot drew passes :func:`decode`; anything else, a changed digit,
swapped fields, another table or version, a cut or a keyboard of a release before the
signature, is :class:`UnverifiedCallback` (when it still reads as a button: the adapter
then redraws the message it was pressed on, if that message shows the table it names) or
:class:`MalformedCallback`.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
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
_MAC = re.compile(r"[A-Za-z0-9_-]{8}")
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"

MAC_BYTES = 6
"""Bytes of the HMAC kept (48 bits: 8 characters of base64url)."""

_key: bytes = secrets.token_bytes(32)  # until sign_with(token): this process's own key


def sign_with(token: str) -> None:
    """Sign and check every button from now on with a key derived from the bot ``token``
    (the adapter calls this when it is created): every worker of the bot, and the bot
    after a restart, reads the buttons the others drew."""
    global _key
    _key = hashlib.sha256(b"rummy-callback:" + token.encode("utf-8")).digest()


def _mac(text: str) -> str:
    digest = hmac.new(_key, text.encode("ascii"), hashlib.sha256).digest()[:MAC_BYTES]
    return base64.urlsafe_b64encode(digest).decode("ascii")


class CallbackError(Exception):
    """A button press that cannot be carried out. ``code``: a stable id for the alert text
    (:mod:`bot.telegram_bot.texts`)."""

    code = "callback"


class MalformedCallback(CallbackError):
    """``callback_data`` that this bot never wrote (cut, forged, or from an old release)."""

    code = "malformed"


class UnverifiedCallback(MalformedCallback):
    """``callback_data`` that reads as a button but was not drawn by this bot (its
    signature is missing or does not match). ``claimed``: the button it pretends to be;
    trusted for nothing but finding the message to redraw."""

    def __init__(self, data: str, claimed: Callback) -> None:
        super().__init__(data)
        self.claimed = claimed


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
        """The signed ``callback_data`` string; raises ``ValueError`` when a field is out
        of range or the result exceeds 64 bytes."""
        actions = GROUP_ACTIONS if self.kind == GROUP else HAND_ACTIONS
        if self.kind not in (GROUP, HAND) or self.action not in actions:
            raise ValueError(f"unknown button {self.kind}{self.action}")
        if not 0 <= self.sort < SORT_MODES or not _ARG.fullmatch(self.arg):
            raise ValueError(f"bad sort or argument: {self.sort} {self.arg!r}")
        mask = to_base36(self.mask) if self.mask else ""
        data = (
            f"{self.kind}{self.action}{self.sort}.{to_base36(self.table_id)}."
            f"{to_base36(self.version)}.{mask}.{self.arg}"
        )
        data = f"{data}.{_mac(data)}"
        if len(data.encode("utf-8")) > MAX_BYTES:
            raise ValueError(f"callback_data over {MAX_BYTES} bytes: {data!r}")
        return data

    def with_(
        self,
        action: str | None = None,
        mask: int | None = None,
        sort: int | None = None,
        arg: str | None = None,
    ) -> Callback:
        """A copy with some fields replaced."""
        return Callback(
            self.kind,
            self.action if action is None else action,
            self.table_id,
            self.version,
            self.mask if mask is None else mask,
            self.sort if sort is None else sort,
            self.arg if arg is None else arg,
        )


def decode(data: str | None) -> Callback:
    """Read ``callback_data`` back; raises :class:`UnverifiedCallback` for a button this
    bot did not sign (see the module docstring) and :class:`MalformedCallback` for
    anything else :meth:`Callback.encode` cannot have written."""
    # encode() writes ASCII only; this also keeps "²" (str.isdigit, but not int) out of the
    # sort digit and lone surrogates (no UTF-8) out of the byte count.
    if not data or not data.isascii() or len(data) > MAX_BYTES:
        raise MalformedCallback(data)
    body, _dot, mac = data.rpartition(".")
    if body.count(".") == 4 and _MAC.fullmatch(mac):
        claimed = _read(body)
        if hmac.compare_digest(mac, _mac(body)):
            return claimed
        raise UnverifiedCallback(data, claimed)
    raise UnverifiedCallback(data, _read(data))  # no signature: an old keyboard, or forged


def _read(data: str) -> Callback:
    """The button ``<head>.<table>.<version>.<mask>.<arg>`` says it is."""
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
    return Callback(
        kind,
        action,
        _from_base36(table),
        _from_base36(version),
        _from_base36(mask) if mask else 0,
        int(sort),
        arg,
    )
