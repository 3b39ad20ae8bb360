"""The bench section "chat_owner" runs end to end (quick): two worker processes on one
PostgreSQL, the moves made by one and shown by the other, the chats' owner; every change
it was told of is shown."""

from __future__ import annotations

import pytest

from benchmarks import chat_owner
from benchmarks.report import BenchConfig
from devsupport.pg_server import find_binaries


@pytest.mark.once
def test_the_chat_owner_section_times_every_move_and_misses_none() -> None:
    section = chat_owner.run(BenchConfig(quick=True))
    if find_binaries() is None:
        assert section.rows == [] and "not found" in section.notes[0]
        return
    rows = {row.name: row for row in section.rows}
    assert rows["changes never shown"].value == 0
    p50 = rows["commit to shown by the owner, p50"].value
    worst = rows["commit to shown by the owner, max"].value
    assert p50 is not None and worst is not None and 0 < p50 <= worst
    assert "table" in rows["commit to shown by the owner, max"].note
