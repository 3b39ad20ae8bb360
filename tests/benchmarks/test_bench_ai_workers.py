"""The bench section "ai_workers" runs end to end (quick): all-AI tables worked by SQLite
x1 and PostgreSQL x1, x2, x4 worker processes, with committed actions and statements
counted for each."""

from __future__ import annotations

import math

import pytest

from benchmarks import ai_workers
from benchmarks.report import BenchConfig
from devsupport.pg_server import find_binaries


@pytest.mark.once
def test_the_ai_workers_section_measures_every_configuration(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("RUMMY_BENCH_BEFORE", raising=False)
    section = ai_workers.run(BenchConfig(quick=True))
    if find_binaries() is None:
        assert section.rows == [] and "not found" in section.notes[0]
        return
    rows = {row.name: row for row in section.rows}
    for config in ("SQLite x1", "PostgreSQL x1", "PostgreSQL x2", "PostgreSQL x4"):
        rate = rows[f"A {config}: committed actions/s"]
        assert rate.value is not None and rate.value > 0
        statements = rows[f"A {config}: statements per action"]
        # a claim (shared), the commit's transaction, the screens' one read
        assert statements.value is not None and math.isfinite(statements.value)
        assert 3.0 <= statements.value <= 12.0
