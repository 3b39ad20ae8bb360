"""Time for the game service, injectable so tests can move it."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """Wall-clock seconds (Unix time), and a monotonic clock for pacing."""

    def now(self) -> float:
        """The current time in seconds."""

    def monotonic(self) -> float:
        """Seconds of a clock that never jumps (only differences mean something)."""


class SystemClock:
    """The real clock."""

    def now(self) -> float:
        """``time.time()``."""
        return time.time()

    def monotonic(self) -> float:
        """``time.monotonic()``."""
        return time.monotonic()


class ManualClock:
    """A clock that only moves when told: ``advance(seconds)``."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start
        self._mono = 0.0

    def now(self) -> float:
        """The frozen current time."""
        return self._now

    def monotonic(self) -> float:
        """The frozen monotonic time (moved by :meth:`advance` only)."""
        return self._mono

    def advance(self, seconds: float) -> None:
        """Move time forward by ``seconds`` (>= 0)."""
        if seconds < 0:
            raise ValueError("time only moves forward")
        self._now += seconds
        self._mono += seconds

    def step(self, seconds: float) -> None:
        """Set the wall clock by ``seconds`` (may be negative) without time passing, as
        an operator or NTP stepping the system clock does."""
        self._now += seconds
