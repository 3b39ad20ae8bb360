"""``rummy-bot migrate``, ``export-db`` and ``import-db``: a SQLite installation moves to
PostgreSQL without losing a game, a log line or a seen update, and play goes on there."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest

from bot.cli import main
from bot.ports.model import Status
from bot.storage.database import latest_schema
from devsupport.pg_server import PgServer
from tests.bot.service.support import ANA, BEN, CHAT, make_harness


def _env(monkeypatch: pytest.MonkeyPatch, path: Path | None = None, url: str | None = None) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("DATABASE_PATH", raising=False)
    monkeypatch.chdir(path.parent if path else Path.cwd())
    if path is not None:
        monkeypatch.setenv("DATABASE_PATH", str(path))
    if url is not None:
        monkeypatch.setenv("DATABASE_URL", url)


async def _play_on_sqlite(path: Path) -> tuple[int, int, int]:
    """Two games in one chat each: one finished, one running; returns (running table id,
    its version, log lines)."""
    h = await make_harness(path)
    s = h.people
    await s.new_table(CHAT, ANA, options={"deals": "1"})
    await s.join(CHAT, BEN, "update-1")
    await s.start(CHAT, ANA)
    await s.cancel(CHAT, ANA)
    await s.new_table(CHAT, ANA, options={"deals": "1"})
    await s.join(CHAT, BEN)
    info = await s.start(CHAT, ANA)
    for _ in range(6):
        current = await s.table_info(CHAT)
        assert current is not None
        _info, view = await s.table_view(CHAT)
        assert view is not None and view.current is not None
        user = ANA if view.current == 0 else BEN
        facts = await s.hand_facts(CHAT, user)
        assert facts.suggestion is not None
        await s.act(CHAT, user, facts.suggestion)  # type: ignore[arg-type]
    final = await s.table_info(CHAT)
    assert final is not None
    log = await s.repo.action_log(info.id)
    await h.db.close()
    return info.id, final.version, len(log)


def test_a_sqlite_installation_moves_to_postgresql(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    pg_server: PgServer,
) -> None:
    path = tmp_path / "rummy.sqlite3"
    table_id, version, log_lines = asyncio.run(_play_on_sqlite(path))
    dump = tmp_path / "export.jsonl"

    _env(monkeypatch, path)
    assert main(["export-db", str(dump)]) == 0
    head = json.loads(dump.read_text(encoding="utf-8").splitlines()[0])
    assert head == {"format": 1, "schema": latest_schema()}

    url = pg_server.create("moved")
    _env(monkeypatch, path, url)
    assert main(["migrate", "--status"]) == 0
    assert f"schema 0 of {latest_schema()}" in capsys.readouterr().out
    assert main(["migrate"]) == 0
    assert f"schema {latest_schema()} of {latest_schema()}" in capsys.readouterr().out
    assert main(["import-db", str(dump)]) == 0
    assert "Imported" in capsys.readouterr().out
    assert main(["import-db", str(dump)]) == 2  # not into a database that holds games
    assert "not empty" in capsys.readouterr().err

    async def go_on() -> None:
        h = await make_harness(tmp_path / "unused.sqlite3", url=url)
        s = h.people
        try:
            info = await s.table_info(CHAT)
            assert info is not None and info.id == table_id and info.version == version
            assert info.status is Status.PLAYING
            assert len(await s.repo.action_log(table_id)) == log_lines
            assert await s.repo.seen_update("update-1")
            assert await s.repo.count_tables() == 2
            _info, view = await s.table_view(CHAT)
            assert view is not None and view.current is not None
            user = ANA if view.current == 0 else BEN
            facts = await s.hand_facts(CHAT, user)
            assert facts.suggestion is not None
            after = await s.act(CHAT, user, facts.suggestion)  # type: ignore[arg-type]
            assert after.version == version + 1
            # ids go on after the imported ones
            await s.cancel(CHAT, ANA)
            created = await s.new_table(CHAT, ANA)
            assert created.id == 3
        finally:
            await h.db.close()

    asyncio.run(go_on())


def test_migrate_status_of_a_new_sqlite_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "new.sqlite3"
    _env(monkeypatch, path)
    assert main(["migrate", "--status"]) == 0
    assert f"schema 0 of {latest_schema()}" in capsys.readouterr().out
    assert not path.exists()  # --status changes nothing
    assert main(["migrate"]) == 0
    assert main(["migrate", "--status"]) == 0
    assert f"schema {latest_schema()} of {latest_schema()}" in capsys.readouterr().out


def test_a_file_that_is_no_export_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"hello": 1}\n', encoding="utf-8")
    _env(monkeypatch, tmp_path / "target.sqlite3")
    assert main(["import-db", str(bad)]) == 2
    assert "not an export" in capsys.readouterr().err
    assert main(["import-db", str(tmp_path / "missing.jsonl")]) == 2


async def _finished_game(path: Path) -> dict[str, object]:
    """A game with an AI seat played to its end on ``path``; Ana's stored ratings and
    the chat's board."""
    from tests.bot.service.test_games import play_out

    h = await make_harness(path)
    s = h.people
    await s.new_table(CHAT, ANA, options={"deals": "1"})
    await s.join(CHAT, BEN)
    await s.add_ai(CHAT, ANA)
    await s.start(CHAT, ANA)
    await play_out(h, {ANA.key: ANA, BEN.key: BEN})
    rows = await s.repo.ratings_of(ANA.key)
    board = await s.repo.rating_board("basic", 1, 1, 10, str(CHAT))
    await h.db.close()
    return {"rows": rows, "board": board}


def test_ratings_rebuild_recomputes_the_stored_ratings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The game's final commit rated Ana once, on the global board and on the chat's;
    `ratings rebuild` gives the same rows, run twice; a database it cannot use is one line
    and exit code 2."""
    path = tmp_path / "rummy.sqlite3"
    before = asyncio.run(_finished_game(path))
    rows = before["rows"]
    assert isinstance(rows, list) and [r["games"] for r in rows] == [1]
    _env(monkeypatch, path)
    for _ in range(2):
        assert main(["ratings", "rebuild"]) == 0
        assert capsys.readouterr().out.strip() == (
            f"Ratings of {path} rebuilt from 1 finished games."
        )

    async def stored() -> object:
        h = await make_harness(path)
        try:
            return (
                await h.people.repo.ratings_of(ANA.key),
                await h.people.repo.rating_board("basic", 1, 1, 10, str(CHAT)),
            )
        finally:
            await h.db.close()

    board = before["board"]
    assert isinstance(board, list) and [r["games"] for r in board] == [1, 1]  # the chat's
    assert asyncio.run(stored()) == (rows, board)
    (tmp_path / "folder").mkdir()
    _env(monkeypatch, tmp_path / "folder")
    assert main(["ratings", "rebuild"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_season_new_starts_the_global_boards_next_season(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`season new` starts the global board's next season (2, then 3); the stored
    ratings of season 1 stay; a database it cannot use is one line and exit code 2."""
    path = tmp_path / "rummy.sqlite3"
    rows = asyncio.run(_finished_game(path))["rows"]
    _env(monkeypatch, path)
    for number in (2, 3):
        assert main(["season", "new"]) == 0
        assert capsys.readouterr().out.strip() == (
            f"Season {number} of the global board of {path} begins now."
        )

    async def stored() -> tuple[object, int]:
        h = await make_harness(path)
        try:
            return (
                await h.people.repo.ratings_of(ANA.key),
                await h.people.repo.current_season(time.time()),
            )
        finally:
            await h.db.close()

    assert asyncio.run(stored()) == (rows, 3)
    assert main(["season", "old"]) == 2
    (tmp_path / "folder").mkdir()
    _env(monkeypatch, tmp_path / "folder")
    capsys.readouterr()
    assert main(["season", "new"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
