"""Shared pytest configuration for all tests (engine and bot).

Hypothesis profiles: "ci" (no deadline, 100 examples) is loaded when the ``CI``
environment variable is set (CI runs ``.ci/run`` with CI=true); otherwise "dev"
(30 examples) keeps local runs fast. Override with ``--hypothesis-profile``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

from devsupport.engine_build import engine_build
from devsupport.pg_server import PgServer, find_binaries, running_server

settings.register_profile("ci", deadline=None, max_examples=100)
settings.register_profile("dev", deadline=None, max_examples=30)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def pytest_report_header() -> str:
    """Which engine build the tests run: pure Python or compiled (docs/performance.md, "Compiled
    engine")."""
    return f"engine: {engine_build()}"


def pytest_sessionstart(session: pytest.Session) -> None:
    """Refuse to test a compiled module older than its source: the extension would run
    instead of the edited code."""
    stale = engine_build().stale
    if stale:
        pytest.exit(f"compiled engine modules older than their source: {', '.join(stale)}; "
                    "rebuild (HATCH_BUILD_HOOK_ENABLE_MYPYC=true pip install -e .) or delete "
                    "the .so files (docs/performance.md, \"Compiled engine\")", returncode=4)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """A PostgreSQL server for the whole test session (:mod:`devsupport.pg_server`); the
    test is skipped, saying why, where this machine has no PostgreSQL server binary."""
    if find_binaries() is None:
        pytest.skip("no PostgreSQL server binaries (initdb, postgres): install the Debian "
                    "package postgresql or set PG_BIN")
    with running_server() as server:
        yield server
