"""The heap a timed benchmark starts from: frozen, as in the bot's engine workers.

A worker process freezes its heap after its warm-up (:func:`gc.freeze` in
:func:`bot.service.engine_work.warm_up`), so the cyclic garbage collector walks only
what the engine builds afterwards (its caches and the objects of the calls). The bench
process holds far more than a worker (the peer libraries, numpy and scipy among them,
and the earlier sections' objects), and a full collection inside a timed call would
walk all of it. :func:`worker_heap` gives a timed part the worker's situation: the heap
alive at its start is collected and frozen, and thawed again at its end.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["NOTE", "worker_heap"]

NOTE = ("The heap alive before the timed calls (imports, peer libraries, earlier sections, "
        "the warm-up) is frozen first (gc.freeze), as an engine worker freezes its heap "
        "after its warm-up; the collector walks only what the timed calls build.")


@contextmanager
def worker_heap() -> Iterator[int]:
    """Collect and freeze the heap for the ``with`` block (yields the objects frozen);
    unfreeze at its end."""
    gc.collect()
    gc.freeze()
    try:
        yield gc.get_freeze_count()
    finally:
        gc.unfreeze()
