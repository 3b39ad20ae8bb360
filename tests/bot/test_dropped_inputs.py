"""The log of inputs dropped at a front end's edge: one line per kind and interval with
the count of the drops in between, bounded memory whatever the kinds are called."""

from __future__ import annotations

import logging

import pytest

from bot.dropped_inputs import KIND_LIMIT, KINDS_KEPT, DroppedInputs, error_kind


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_one_line_per_kind_and_interval(caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    dropped = DroppedInputs(logging.getLogger("test.dropped"), "telegram", every=60.0, clock=clock)
    caplog.set_level(logging.WARNING, "test.dropped")
    for _ in range(1000):
        dropped.drop("message: KeyError 'date'", "update 7")
    dropped.drop("callback_query: TypeError no from")
    assert [r.getMessage() for r in caplog.records] == [
        "telegram: dropped an input it cannot read: message: KeyError 'date' (update 7)",
        "telegram: dropped an input it cannot read: callback_query: TypeError no from",
    ]
    clock.now = 61.0
    dropped.drop("message: KeyError 'date'")
    assert (
        caplog.records[-1]
        .getMessage()
        .endswith("message: KeyError 'date'; 999 more of this kind since the last line")
    )
    assert dropped.counts["message: KeyError 'date'"] == 1001 and dropped.total == 1002


def test_kinds_are_bounded_in_length_and_number() -> None:
    dropped = DroppedInputs(logging.getLogger("test.dropped"), "discord")
    for n in range(KINDS_KEPT + 50):
        dropped.drop(f"INTERACTION_CREATE: KeyError '{n}'" + "x" * 500)
    assert len(dropped.counts) == KINDS_KEPT + 1
    assert dropped.counts["other"] == 50
    assert all(len(kind) <= KIND_LIMIT for kind in dropped.counts)


def test_a_failure_carries_its_traceback_on_its_first_line_only(
    caplog: pytest.LogCaptureFixture,
) -> None:
    failures = DroppedInputs(
        logging.getLogger("test.dropped"),
        "telegram",
        says="handling an update failed",
        level=logging.ERROR,
    )
    caplog.set_level(logging.ERROR, "test.dropped")
    error = ValueError("boom")
    kind = error_kind("Update", error)
    assert kind == "Update: ValueError boom"
    failures.drop(kind, error=error)
    failures.drop(kind, error=error)
    assert len(caplog.records) == 1 and caplog.records[0].exc_info is not None
    assert caplog.records[0].levelno == logging.ERROR
