"""Time for the game service, injectable so tests can move it."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """Wall-clock seconds (Unix time)."""

    def now(self) -> float:
        """The current time in seconds."""


class SystemClock:
    """The real clock."""

    def now(self) -> float:
        """``time.time()``."""
        return time.time()


class ManualClock:
    """A clock that only moves when told: ``advance(seconds)``."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start

    def now(self) -> float:
        """The frozen current time."""
        return self._now

    def advance(self, seconds: float) -> None:
        """Move time forward by ``seconds`` (>= 0)."""
        if seconds < 0:
            raise ValueError("time only moves forward")
        self._now += seconds
