"""Benchmarks of the rules engine and the bot: ``rummy-bot bench``.

A top-level package of the checkout, beside the product (``engine``, ``bot``) and outside
its wheel: it imports the bot and the engine, which never import it (the import contracts
in pyproject.toml); ``rummy-bot bench`` (:mod:`bot.cli`) loads :mod:`.runner` by name
where the package is installed. Its throwaway PostgreSQL server and the engine build come
from :mod:`devsupport`, which the tests share.

Each section module (:mod:`.search`, :mod:`.playouts`, :mod:`.ai`, ``service_load``,
``startup``) has ``run(config: BenchConfig) -> Section`` (or a list of sections);
:mod:`.runner` runs the chosen ones, describes the machine (:mod:`.machine`) and prints
one table per section (:func:`.report.format_report`). The peers (rummikub-solver,
RLCard) come from the optional ``bench`` extra: ``pip install -e '.[bench]'``.
"""

from __future__ import annotations

from benchmarks.report import BenchConfig, Row, Section, format_report, median, percentile

__all__ = ["BenchConfig", "Row", "Section", "format_report", "median", "percentile"]
