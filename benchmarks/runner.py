"""Runs the benchmark sections and prints (and optionally saves) the report.

The sections live in one place, :data:`SECTIONS` (name -> module). Each module is
imported only when its section runs, and must have ``run(config: BenchConfig)``
returning a :class:`~benchmarks.report.Section` or a list of them. A module that is
missing or raises is reported as a section with a note; the other sections still run.

``rummy-bot bench`` (:mod:`bot.cli`) calls :func:`run_bench`; progress lines go to
stderr, the report to stdout, and ``--json FILE`` writes every figure as JSON.
"""

from __future__ import annotations

import importlib
import json
import math
import sys
import time
import traceback
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from benchmarks.machine import describe, header_lines
from benchmarks.report import BenchConfig, Row, Section, format_report

__all__ = ["SECTIONS", "collect", "parse_only", "report_json", "run_bench"]

#: Every benchmark section, in report order: name -> module with ``run(config)``.
SECTIONS: Mapping[str, str] = {
    "search": "benchmarks.search",
    "playouts": "benchmarks.playouts",
    "legal": "benchmarks.legal",
    "ai": "benchmarks.ai",
    "strength": "benchmarks.strength",
    "coach": "benchmarks.coach",
    "service_load": "benchmarks.service_load",
    "startup": "benchmarks.startup",
    "stall": "benchmarks.stall",
    "workers": "benchmarks.workers",
    "ai_workers": "benchmarks.ai_workers",
    "chat_owner": "benchmarks.chat_owner",
    "web": "benchmarks.web",
    "web_load": "benchmarks.web_load",
}


def parse_only(text: str | None, registry: Mapping[str, str] = SECTIONS) -> list[str]:
    """The section names of ``--only NAME[,NAME]`` in report order (all when ``None``).

    ``-`` and ``_`` are interchangeable. Raises ``ValueError`` naming an unknown section.
    """
    if text is None or not text.strip():
        return list(registry)
    wanted = {part.strip().lower().replace("-", "_") for part in text.split(",") if part.strip()}
    unknown = sorted(wanted - set(registry))
    if unknown:
        raise ValueError(", ".join(unknown))
    return [name for name in registry if name in wanted]


def _failure(name: str, error: Exception, missing: bool) -> Section:
    if missing:
        return Section(name, notes=[f"not run: the module is not available ({error})"])
    frames = traceback.extract_tb(error.__traceback__)
    where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    return Section(name, notes=[f"failed: {type(error).__name__}: {error}{where}"])


def _run_one(name: str, module_name: str, config: BenchConfig) -> list[Section]:
    """The sections of one module; a missing module or an exception becomes a note."""
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        return [
            _failure(
                name, error, missing=error.name is not None and module_name.startswith(error.name)
            )
        ]
    except Exception as error:  # reported in the table
        return [_failure(name, error, missing=False)]
    try:
        result = module.run(config)
    except Exception as error:  # reported in the table
        return [_failure(name, error, missing=False)]
    if isinstance(result, Section):
        sections = [result]
    else:
        sections = list(result) if isinstance(result, list | tuple) else []
    if not sections or not all(isinstance(s, Section) for s in sections):
        return [
            Section(
                name,
                notes=[
                    f"failed: run() returned {type(result).__name__}, not Section or list[Section]"
                ],
            )
        ]
    return sections


def collect(
    config: BenchConfig,
    names: Sequence[str],
    registry: Mapping[str, str] = SECTIONS,
    progress: TextIO | None = None,
) -> list[tuple[str, float, list[Section]]]:
    """Run the sections ``names`` of ``registry``: (name, seconds, sections) per name.

    ``progress``: where a line per section is written as it starts and ends.
    """
    out: list[tuple[str, float, list[Section]]] = []
    for name in names:
        if progress is not None:
            print(f"bench: {name} ...", file=progress, flush=True)
        start = time.perf_counter()
        sections = _run_one(name, registry[name], config)
        seconds = time.perf_counter() - start
        sections[-1].notes.append(f"section time: {seconds:.1f} s")
        if progress is not None:
            print(f"bench: {name} done in {seconds:.1f} s", file=progress, flush=True)
        out.append((name, seconds, sections))
    return out


def _number(value: float | None) -> float | None:
    if value is None or not math.isfinite(value):
        return None
    return value


def _row_json(row: Row) -> dict[str, Any]:
    return {
        "name": row.name,
        "value": _number(row.value),
        "unit": row.unit,
        "target": _number(row.target),
        "better": row.better,
        "met": row.met,
        "verdict": row.verdict,
        "note": row.note,
    }


def report_json(
    machine: Mapping[str, str],
    config: BenchConfig,
    results: Sequence[tuple[str, float, list[Section]]],
    seconds: float,
) -> dict[str, Any]:
    """Every figure of a run as a JSON-ready dict.

    Shape: ``{"machine": {label: text}, "config": {...}, "seconds": total,
    "sections": [{"name", "title", "seconds", "rows": [{"name", "value", "unit",
    "target", "better", "met", "verdict", "note"}], "notes": [...]}], "missed":
    ["title: row name", ...]}``; values that are not finite numbers are ``null``.
    """
    sections: list[dict[str, Any]] = []
    missed: list[str] = []
    for name, spent, group in results:
        for section in group:
            sections.append(
                {
                    "name": name,
                    "title": section.title,
                    "seconds": spent,
                    "rows": [_row_json(r) for r in section.rows],
                    "notes": list(section.notes),
                }
            )
            missed.extend(
                f"{section.title}: {r.name.strip()}" for r in section.rows if r.met is False
            )
    return {
        "machine": dict(machine),
        "config": {
            "quick": config.quick,
            "peers": config.peers,
            "seed": config.seed,
            "sections": [name for name, _, _ in results],
        },
        "seconds": seconds,
        "sections": sections,
        "missed": missed,
    }


def _footer(results: Sequence[tuple[str, float, list[Section]]], seconds: float) -> list[str]:
    missed = [
        (s.title, r) for _, _, group in results for s in group for r in s.rows if r.met is False
    ]
    lines = ["", f"Total time: {seconds:.1f} s."]
    if missed:
        lines.append(f"Targets missed: {len(missed)}")
        lines.extend(f"  - {title}: {row.name.strip()}: {row.verdict}" for title, row in missed)
    else:
        lines.append("Targets missed: none")
    return lines


def run_bench(
    config: BenchConfig,
    names: Sequence[str] | None = None,
    json_path: str | Path | None = None,
    out: TextIO | None = None,
    progress: TextIO | None = None,
    registry: Mapping[str, str] = SECTIONS,
) -> int:
    """Run the sections ``names`` (default all), print the report to ``out`` (stdout) and
    write the JSON report to ``json_path`` when given. Returns 0: missed targets and
    failed sections are reported, not errors. Raises ``OSError`` when the JSON file
    cannot be written."""
    out = sys.stdout if out is None else out
    progress = sys.stderr if progress is None else progress
    start = time.perf_counter()
    machine = describe()
    chosen = list(registry) if names is None else list(names)
    results = collect(config, chosen, registry, progress)
    seconds = time.perf_counter() - start
    mode = "quick" if config.quick else "full"
    header = [
        *header_lines(machine),
        f"  run      {mode}, seed {config.seed}, peers {'on' if config.peers else 'off'}, "
        f"sections: {', '.join(chosen)}",
    ]
    sections = [s for _, _, group in results for s in group]
    text = format_report(header, sections) + "\n".join(_footer(results, seconds)) + "\n"
    out.write(text)
    out.flush()
    if json_path is not None:
        data = report_json(machine, config, results, seconds)
        Path(json_path).write_text(
            json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n", encoding="utf-8"
        )
    return 0
