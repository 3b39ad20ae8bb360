"""The bench section "workers" runs end to end (quick): SQLite x1 and PostgreSQL x1, x2,
x4 worker processes, every action committed, figures for each."""

from __future__ import annotations

from benchmarks import workers
from benchmarks.report import BenchConfig
from devsupport.pg_server import find_binaries


def test_the_workers_section_measures_every_configuration() -> None:
    section = workers.run(BenchConfig(quick=True))
    if find_binaries() is None:
        assert section.rows == [] and "not found" in section.notes[0]
        return
    names = [row.name for row in section.rows]
    for config in ("SQLite x1", "PostgreSQL x1", "PostgreSQL x2", "PostgreSQL x4"):
        assert f"{config}: committed actions/s" in names
    rates = [row for row in section.rows if row.unit == "actions/s"]
    assert all(row.value and row.value > 0 for row in rates)
    assert all("errors 0" in row.note for row in rates)
