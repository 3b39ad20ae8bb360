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


QUICK = (
    # the rules of every variant
    "tests/engine/test_basic_",
    "tests/engine/test_rule_records.py",
    "tests/engine/german/test_german_deal.py",
    "tests/engine/german/test_german_exchange.py",
    "tests/engine/german/test_german_melds.py",
    "tests/engine/german/test_german_opening.py",
    "tests/engine/rummy500/test_calls.py",
    "tests/engine/rummy500/test_deal_and_scoring.py",
    "tests/engine/rummy500/test_going_out.py",
    "tests/engine/rummy500/test_melds.py",
    "tests/engine/rummy500/test_pile.py",
    "tests/engine/romanian/test_jolys.py",
    "tests/engine/romanian/test_melds.py",
    "tests/engine/romanian/test_opening.py",
    "tests/engine/romanian/test_scoring.py",
    "tests/engine/romanian/test_tiles.py",
    "tests/engine/romanian/test_turns.py",
    "tests/engine/romanian/test_wall.py",
    # the service and the interaction model
    "tests/bot/service/",
    "tests/bot/interaction/",
    # one game per front end
    "tests/bot/telegram/test_full_game.py::test_two_people_and_an_ai_play_a_game_to_the_end"
    "[sqlite-deals=1]",
    "tests/bot/discord/test_full_game.py::test_two_people_and_an_ai_play_a_game_to_the_end[sqlite]",
    "tests/bot/test_terminal.py::test_a_full_match_played_through_text_commands",
    "tests/bot/web/test_auth_and_protocol.py",
)
"""Node id prefixes of the fast subset (``pytest -m quick``, about a minute on two cores):
the rules of every variant, the service, one game per front end (the web table's
protocol without a browser). The whole suite runs in CI."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests of :data:`QUICK` ``quick``."""
    for item in items:
        if item.nodeid.startswith(QUICK):
            item.add_marker(pytest.mark.quick)


def pytest_report_header() -> str:
    """Which engine build the tests run: pure Python or compiled (docs/performance.md, "Compiled
    engine")."""
    return f"engine: {engine_build()}"


def pytest_sessionstart(session: pytest.Session) -> None:
    """Refuse to test a compiled module older than its source: the extension would run
    instead of the edited code."""
    stale = engine_build().stale
    if stale:
        pytest.exit(
            f"compiled engine modules older than their source: {', '.join(stale)}; "
            "rebuild (HATCH_BUILD_HOOK_ENABLE_MYPYC=true pip install -e .) or delete "
            'the .so files (docs/performance.md, "Compiled engine")',
            returncode=4,
        )


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """A PostgreSQL server for the whole test session (:mod:`devsupport.pg_server`). Where
    this machine has no PostgreSQL server binary the test is skipped, saying why, on a
    developer's machine, and fails under CI (``CI`` set), which installs them."""
    if find_binaries() is None:
        why = (
            "no PostgreSQL server binaries (initdb, postgres): install the Debian "
            "package postgresql (bash devsupport/install-system-packages.sh) or set PG_BIN"
        )
        if os.environ.get("CI"):
            pytest.fail(why)  # CI installs them: a PostgreSQL test must run there, not skip
        pytest.skip(why)
    with running_server() as server:
        yield server
