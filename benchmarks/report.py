"""The figures a benchmark section reports, and the table they are printed as.

Every benchmark module of :mod:`benchmarks` has a ``run(config) -> Section``
function; :mod:`benchmarks.runner` calls them and prints the sections with
:func:`format_report`. A :class:`Row` holds one measured figure with its unit
and, where the project set one, its target; the verdict ("ok", "MISSED by ...")
is computed from the two, never typed in.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

Better = Literal["lower", "higher"]


@dataclass(frozen=True, slots=True)
class BenchConfig:
    """How long the benchmarks run.

    ``quick``: a short run (seconds; the test suite's smoke test and a first look);
    the full run takes a few minutes. ``peers``: compare with the peer libraries of
    the ``bench`` extra when they are installed. ``seed``: the seed of every
    generated position and game, so two runs measure the same work.
    """

    quick: bool = False
    peers: bool = True
    seed: int = 2026


@dataclass(frozen=True, slots=True)
class Row:
    """One figure: ``value`` in ``unit``, with an optional ``target`` in the same unit.

    ``better``: whether lower or higher values are better (decides the verdict).
    ``note``: a short explanation printed beside the figure (how it was measured).
    """

    name: str
    value: float | None
    unit: str
    target: float | None = None
    better: Better = "lower"
    note: str = ""

    @property
    def met(self) -> bool | None:
        """True/False against the target, ``None`` without target or value."""
        if self.target is None or self.value is None:
            return None
        if self.better == "lower":
            return self.value <= self.target
        return self.value >= self.target

    @property
    def verdict(self) -> str:
        """ "ok", "MISSED (x1.7)" or "" (no target): how far the figure is from its target."""
        met = self.met
        if met is None:
            return ""
        if met:
            return "ok"
        assert self.value is not None and self.target is not None
        if self.better == "lower":
            factor = self.value / self.target if self.target else math.inf
        else:
            factor = self.target / self.value if self.value else math.inf
        return f"MISSED (x{factor:.2f})"


@dataclass(slots=True)
class Section:
    """The rows of one benchmark, with free-text notes (peer versions, skipped peers)."""

    title: str
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, row: Row) -> Row:
        """Append ``row`` and return it."""
        self.rows.append(row)
        return row


def percentile(samples: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) of ``samples`` by linear interpolation.

    Raises ``ValueError`` for an empty sequence.
    """
    if not samples:
        raise ValueError("no samples")
    ordered = sorted(samples)
    if len(ordered) == 1:
        return ordered[0]
    pos = (len(ordered) - 1) * q / 100.0
    low = math.floor(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def median(samples: Sequence[float]) -> float:
    """The median of ``samples`` (``ValueError`` when empty)."""
    if not samples:
        raise ValueError("no samples")
    return statistics.median(samples)


def _fmt(value: float | None) -> str:
    if value is None:
        return "-"
    if value == 0:
        return "0"
    if isinstance(value, int):  # a count: no decimals
        return f"{value:,}"
    magnitude = abs(value)
    if magnitude >= 1000:
        return f"{value:,.0f}"
    if magnitude >= 100:
        return f"{value:.0f}"
    if magnitude >= 10:
        return f"{value:.1f}"
    if magnitude >= 1:
        return f"{value:.2f}"
    return f"{value:.3g}"


def format_report(header: Sequence[str], sections: Sequence[Section]) -> str:
    """The plain-text report: ``header`` lines (the machine), then one table per section.

    Columns: figure, value, unit, target (with < or > for the better side), verdict, note.
    """
    lines = list(header)
    for section in sections:
        lines.append("")
        lines.append(f"== {section.title} ==")
        table = [("figure", "value", "unit", "target", "verdict", "note")]
        for row in section.rows:
            target = ""
            if row.target is not None:
                target = ("<= " if row.better == "lower" else ">= ") + _fmt(row.target)
            table.append((row.name, _fmt(row.value), row.unit, target, row.verdict, row.note))
        widths = [max(len(r[i]) for r in table) for i in range(5)]
        for r in table:
            cells = [
                r[0].ljust(widths[0]),
                r[1].rjust(widths[1]),
                r[2].ljust(widths[2]),
                r[3].ljust(widths[3]),
                r[4].ljust(widths[4]),
                r[5],
            ]
            lines.append("  ".join(cells).rstrip())
        lines.extend(f"  * {note}" for note in section.notes)
    return "\n".join(lines) + "\n"


def skipped_without_postgres(section: Section) -> bool:
    """True (and a note in ``section``) when this machine has no PostgreSQL server
    binaries, so a section that needs a throwaway server cannot run."""
    from devsupport.pg_server import find_binaries

    if find_binaries() is not None:
        return False
    section.notes.append(
        "PostgreSQL server binaries not found (install the Debian package "
        "postgresql or set PG_BIN): section skipped"
    )
    return True
