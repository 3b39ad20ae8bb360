"""Benchmarks of the rules engine and the bot: ``rummy-bot bench``.

Each section module (:mod:`.search`, :mod:`.playouts`, :mod:`.ai`, ``service_load``,
``startup``) has ``run(config: BenchConfig) -> Section`` (or a list of sections);
:mod:`.runner` runs the chosen ones, describes the machine (:mod:`.machine`) and prints
one table per section (:func:`.report.format_report`). The peers (rummikub-solver,
RLCard) come from the optional ``bench`` extra: ``pip install -e '.[bench]'``.
"""

from __future__ import annotations

from bot.bench.report import BenchConfig, Row, Section, format_report, median, percentile

__all__ = ["BenchConfig", "Row", "Section", "format_report", "median", "percentile"]
