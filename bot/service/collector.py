"""Garbage collection of the engine workers (between calls, never inside one) and of the
bot's own process (its start-up heap frozen).

Python's cyclic collector starts on its own when enough objects were allocated, which
is inside an engine call, and a full collection then walks every object the call holds
alive: a legal-move list for a Romanian rack of 60-70 tiles holds hundreds of thousands
(its meld lists, the going-out planner's items and memo), and the collection paused
that call for 20-50 ms on top of its own 30 ms. What the engine throws away is almost
all freed by reference counting at once; the worst of those calls leaves 2,000-4,000
objects in reference cycles (measured), for the collector.

So a worker (:func:`bot.service.compute._worker_main`) switches the automatic
collector off (:meth:`BetweenCalls.start`) and collects after each call, once the reply
is sent (:meth:`BetweenCalls.after_call`): the youngest generation after every call
(what the call left, microseconds), the middle one every :data:`MIDDLE_EVERY` calls,
everything every :data:`FULL_EVERY` calls (the caches alive beside the frozen start-up
heap: a few milliseconds, up to 33 ms measured while the caches held the melds of
Romanian racks of 60-70 tiles). A call's objects are dead by then, so no collection
walks them. The bench's timed parts do the same (:func:`benchmarks.heap.worker_heap`).
"""

from __future__ import annotations

import gc

__all__ = ["FULL_EVERY", "MIDDLE_EVERY", "BetweenCalls", "freeze_start_up"]

MIDDLE_EVERY = 16
"""Calls between collections of the two young generations."""

FULL_EVERY = 256
"""Calls between full collections."""


class BetweenCalls:
    """The collection schedule of one worker process (see the module docs); ``calls``:
    calls finished so far."""

    def __init__(self) -> None:
        self.calls = 0

    def start(self) -> None:
        """Switch the automatic collector off for this process."""
        gc.disable()

    def after_call(self) -> int:
        """Collect after a finished call; returns the generation collected (0, 1 or 2:
        a collection of generation ``n`` also collects the younger ones)."""
        self.calls += 1
        if self.calls % FULL_EVERY == 0:
            generation = 2
        elif self.calls % MIDDLE_EVERY == 0:
            generation = 1
        else:
            generation = 0
        gc.collect(generation)
        return generation


def freeze_start_up() -> int:
    """The bot's own process (its event loop serves every chat): collect once and freeze
    what start-up built (imported modules, the platform libraries, settings, the pool and
    service objects), so that the automatic collections of the running bot walk only
    what it builds afterwards. Its full collections stalled the event loop: the loop's
    longest lag under load equalled the process's longest collection (18.6 and 75 ms in
    the stall bench's runs). Returns the objects frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
