"""The engine workers collect garbage between calls, never inside one
(bot/service/collector.py)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from bot.service.collector import FULL_EVERY, MIDDLE_EVERY, BetweenCalls


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


@pytest.fixture()
def collector() -> Iterator[BetweenCalls]:
    was = gc.isenabled()
    between = BetweenCalls()
    between.start()
    try:
        yield between
    finally:
        if was:
            gc.enable()


def test_the_automatic_collector_is_off_and_a_calls_cycles_go_after_it(
    collector: BetweenCalls,
) -> None:
    """A reference cycle a call left behind survives until the call is over (no
    collection inside it), and the collection after the call frees it."""
    assert not gc.isenabled()
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    alive = weakref.ref(a)
    del a, b
    for _ in range(3):  # allocations that would start an automatic collection
        [_Node() for _ in range(5_000)]
    assert alive() is not None
    collector.after_call()
    assert alive() is None


def test_the_schedule_collects_young_after_each_call_and_everything_now_and_then(
    collector: BetweenCalls,
) -> None:
    generations = [collector.after_call() for _ in range(FULL_EVERY)]
    assert generations[-1] == 2
    assert generations.count(1) == FULL_EVERY // MIDDLE_EVERY - 1
    assert all(g == 0 for n, g in enumerate(generations, 1) if n % MIDDLE_EVERY)
    assert collector.calls == FULL_EVERY
