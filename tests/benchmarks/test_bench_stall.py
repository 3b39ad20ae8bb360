"""The "stall" bench section runs every load and reports its figures (behaviour only,
never timings: the figures are printed by ``rummy-bot bench --only stall``)."""

from __future__ import annotations

from benchmarks import runner, stall
from benchmarks.report import BenchConfig


def test_the_stall_section_runs_every_load_and_reports() -> None:
    assert runner.parse_only("stall") == ["stall"]
    section = stall.run(BenchConfig(quick=True, seed=5))
    names = [row.name for row in section.rows]
    for label in stall.LABELS.values():
        assert f"{label}: loop lag max" in names
    assert all(row.value is not None for row in section.rows)
    targets = [row for row in section.rows if row.target is not None]
    assert len(targets) == 9  # lag max, other tables' p99 and max for (a), (b), (c)
    assert {row.target for row in targets} == {
        stall.LAG_TARGET_MS,
        stall.ACTION_P99_TARGET_MS,
        stall.ACTION_MAX_TARGET_MS,
    }
    lags = [row for row in section.rows if row.name.endswith("loop lag max")]
    assert all("objects tracked" in (row.note or "") for row in lags)  # the heap, printed
    notes = " ".join(section.notes)
    assert "Romanian tables" in notes and "refused by flow control" in notes
    assert "hints asked" in notes and "load average" in notes
