"""The heap a timed benchmark starts from, and its collections: as in the bot's engine
workers.

A worker process freezes its heap after its warm-up (:func:`gc.freeze` in
:func:`bot.service.engine_work.warm_up`), so the cyclic garbage collector walks only
what the engine builds afterwards (its caches and the objects of the calls), and it
collects between calls, never inside one (:mod:`bot.service.collector`). The bench
process holds far more than a worker (the peer libraries, numpy and scipy among them,
and the earlier sections' objects). :func:`worker_heap` gives a timed part the worker's
situation: the heap alive at its start is collected and frozen, the automatic collector
is off, and the part calls :meth:`WorkerHeap.after_call` after each timed call, as the
worker does after each reply; at its end the heap is thawed and the collector restored.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Any

from bot.service.collector import BetweenCalls

__all__ = ["FROZEN_NOTE", "NOTE", "Collections", "WorkerHeap", "frozen_heap", "worker_heap"]

NOTE = (
    "The heap alive before the timed calls (imports, peer libraries, earlier sections, "
    "the warm-up) is frozen first (gc.freeze), as an engine worker freezes its heap "
    "after its warm-up, and the collector runs between the timed calls, never inside "
    "one, as a worker collects after each reply (bot.service.collector)."
)


FROZEN_NOTE = (
    "The heap alive before the timed rounds (imports, the peers' libraries and "
    "set-up, earlier sections) is frozen first (gc.freeze), as the bot freezes its "
    "start-up heap (bot.service.collector): the collector, left on, walks what the "
    "games of both sides build."
)


@contextmanager
def frozen_heap() -> Iterator[int]:
    """Collect and freeze the heap for the ``with`` block (the automatic collector stays
    as it is); yields the objects frozen. At the end the heap is thawed."""
    gc.collect()
    gc.freeze()
    try:
        yield gc.get_freeze_count()
    finally:
        gc.unfreeze()


class WorkerHeap(BetweenCalls):
    """The collection schedule of a timed part; ``frozen``: the objects frozen at its
    start."""

    def __init__(self, frozen: int) -> None:
        super().__init__()
        self.frozen = frozen


@contextmanager
def worker_heap() -> Iterator[WorkerHeap]:
    """Collect and freeze the heap and switch the automatic collector off for the
    ``with`` block; call ``after_call()`` of what it yields after each timed call. At the
    end: unfreeze, and the collector as it was."""
    was_enabled = gc.isenabled()
    gc.collect()
    gc.freeze()
    heap = WorkerHeap(gc.get_freeze_count())
    heap.start()
    try:
        yield heap
    finally:
        gc.unfreeze()
        if was_enabled:
            gc.enable()


class Collections:
    """The garbage collections of this process while the ``with`` block runs (a
    :data:`gc.callbacks` entry): the longest in ms (``longest_ms``) and how many started
    while ``timing`` was set (``inside``: a timed part sets it around each timed call)."""

    def __init__(self) -> None:
        self.longest_ms = 0.0
        self.inside = 0
        self.timing = False
        self._began: float | None = None

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
            self.inside += self.timing
        elif self._began is not None:
            self.longest_ms = max(self.longest_ms, (time.perf_counter() - self._began) * 1000)

    def __enter__(self) -> Collections:
        gc.callbacks.append(self)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        gc.callbacks.remove(self)
