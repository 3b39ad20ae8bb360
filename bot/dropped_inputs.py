"""What a front end's edge does with a platform payload it cannot read: drop it and say so
in the log, once per kind and interval (:class:`DroppedInputs`).

A platform (or anyone who can reach the bot's webhook or forge a gateway payload) may send
updates and interactions that do not parse: a field missing, an object where a number
belongs, a forged id. Each is dropped at the edge and never ends or blocks the platform's
client task; the operator sees one log line per kind of payload (``message: KeyError
'date'``) and interval, with the count of the same kind dropped since the last line, so
a flood of them cannot fill the log either.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable

__all__ = ["KINDS_KEPT", "KIND_LIMIT", "LOG_EVERY", "DroppedInputs", "error_kind"]

LOG_EVERY = 60.0
"""Seconds between two log lines of the same kind of dropped input."""

KIND_LIMIT = 80
"""Characters of a kind's name kept (a forged payload chooses the names in its errors)."""

KINDS_KEPT = 256
"""Kinds remembered at most; further kinds are counted as ``other`` (bounded memory
whatever a flood of forged payloads names)."""


class DroppedInputs:
    """Counts and logs the inputs a front end dropped (see the module docstring).

    ``logger``: where the lines go (the front end's); ``platform``: its name at the start
    of every line; ``says``: what the line says happened (by default that an input was
    dropped; a front end's failures while handling an input use the same limits) at
    ``level``; ``every``: seconds between two lines of one kind; ``clock``: monotonic seconds
    (tests move it). ``counts``: every drop so far, per kind."""

    def __init__(
        self,
        logger: logging.Logger,
        platform: str,
        every: float = LOG_EVERY,
        clock: Callable[[], float] = time.monotonic,
        says: str = "dropped an input it cannot read",
        level: int = logging.WARNING,
    ) -> None:
        self.logger = logger
        self.platform = platform
        self.says = says
        self.level = level
        self.every = every
        self.clock = clock
        self.counts: Counter[str] = Counter()
        self._logged_at: dict[str, float] = {}
        self._unlogged: Counter[str] = Counter()

    def drop(self, kind: str, detail: str = "", error: BaseException | None = None) -> None:
        """Count one dropped input of ``kind`` (a short name: the payload's part and the
        error, e.g. ``INTERACTION_CREATE: KeyError 'type'``) and log it when its kind was
        not logged in the last :attr:`every` seconds. ``detail``: what else identifies
        it in the log (an update id); both are cut to one short line. ``error``: its
        traceback goes with the kind's first line (a failure worth a bug report), never
        with the later ones."""
        kind = _one_line(kind)[:KIND_LIMIT] or "unknown"
        if kind not in self.counts and len(self.counts) >= KINDS_KEPT:
            kind = "other"
        self.counts[kind] += 1
        now = self.clock()
        last = self._logged_at.get(kind)
        if last is not None and now - last < self.every:
            self._unlogged[kind] += 1
            return
        self._logged_at[kind] = now
        since = self._unlogged.pop(kind, 0)
        more = f"; {since} more of this kind since the last line" if since else ""
        extra = f" ({_one_line(detail)[:200]})" if detail else ""
        self.logger.log(
            self.level,
            "%s: %s: %s%s%s",
            self.platform,
            self.says,
            kind,
            extra,
            more,
            exc_info=error if last is None else None,
        )

    @property
    def total(self) -> int:
        """Inputs dropped so far."""
        return sum(self.counts.values())


def error_kind(part: str, error: BaseException) -> str:
    """A kind's name for an input whose ``part`` (an update's type, a gateway event) raised
    ``error``: ``message: KeyError 'date'``."""
    detail = str(error)
    return f"{part}: {type(error).__name__} {detail}".strip()


def _one_line(text: str) -> str:
    return " ".join(text.split()).encode("utf-8", "replace").decode("utf-8")
