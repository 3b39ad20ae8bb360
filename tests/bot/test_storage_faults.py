"""Storage hygiene: database paths that cannot be used end every subcommand that opens the
database (``play``, ``run``, ``faults``, ``migrate``, ``migrate --status``, ``export-db``,
``import-db``) with exit code 2 and one clear line naming the path, never a traceback (run
as subprocesses with a timeout: none may hang, a FIFO included); a locked, full or
read-only database is answered with a localized "try again", changes nothing, and the
process keeps going."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage import DatabaseUnusable, open_database
from bot.storage.database import latest_schema, migrations, statements
from tests.bot.people import say

from .service.support import ANA, BEN, CHAT, make_harness

ROOT = Path(__file__).resolve().parents[2]


def _bot_database(path: Path) -> Path:
    """A database of this release's schema (its own migrations) with a few hundred rows,
    made without an event loop (the async tests build their paths too)."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute(
            "CREATE TABLE schema_migrations "
            "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL)"
        )
        for number, name, sql in migrations():
            for statement in statements(sql):
                conn.execute(statement)
            conn.execute("INSERT INTO schema_migrations VALUES (?, ?, 0)", (number, name))
        conn.executemany(
            "INSERT INTO users (platform, user_id, display_name, created_at) "
            "VALUES ('telegram', ?, ?, 0)",
            [(str(n), f"Player {n}") for n in range(300)],
        )
        conn.commit()
    return path


def _bad_path(tmp_path: Path, kind: str) -> Path:
    if kind == "unopenable":  # its folder is a file
        (tmp_path / "file").write_text("x", encoding="utf-8")
        return tmp_path / "file" / "games.sqlite3"
    if kind == "not-a-database":
        path = tmp_path / "notes.sqlite3"
        path.write_bytes(b"these are my notes, not a database\n" * 200)
        return path
    if kind == "corrupt":
        path = tmp_path / "corrupt.sqlite3"
        conn = sqlite3.connect(path)
        conn.execute("CREATE TABLE t (x TEXT)")
        conn.executemany("INSERT INTO t VALUES (?)", [("x" * 500,)] * 400)
        conn.execute("CREATE INDEX t_x ON t (x)")
        conn.commit()
        conn.close()
        data = bytearray(path.read_bytes())
        for offset in range(4096 * 3, len(data), 4096):  # scribble over later pages
            data[offset : offset + 64] = b"\xff" * 64
        path.write_bytes(bytes(data))
        return path
    if kind == "damaged-schema-page":
        # the case: a page of the schema altered so that SQLite's own complaint
        # carries a byte that is not UTF-8 (Python's sqlite3 raised UnicodeDecodeError)
        path = _bot_database(tmp_path / "damaged.sqlite3")
        data = bytearray(path.read_bytes())
        table = data.find(b"CREATE TABLE users")
        comma = data.find(b"NOT NULL,", table) + len(b"NOT NULL")
        data[comma] = 0x9C
        path.write_bytes(bytes(data))
        return path
    if kind == "renamed-column":  # a table rewritten: a column this release uses is gone
        path = _bot_database(tmp_path / "renamed.sqlite3")
        data = bytearray(path.read_bytes())
        table = data.find(b"CREATE TABLE users")
        column = data.find(b"display_name", table)
        data[column + 7] = ord("X")  # display_name -> displayXname
        path.write_bytes(bytes(data))
        return path
    if kind == "newer-schema":
        path = tmp_path / "newer.sqlite3"
        conn = sqlite3.connect(path)
        conn.execute(
            "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, "
            "name TEXT NOT NULL, applied_at REAL)"
        )
        conn.execute(
            "INSERT INTO schema_migrations VALUES (?, 'from_the_future', 0)", (latest_schema() + 1,)
        )
        conn.commit()
        conn.close()
        return path
    if kind == "fifo":
        path = tmp_path / "fifo.sqlite3"
        os.mkfifo(path)
        return path
    assert kind == "directory"
    path = tmp_path / "folder.sqlite3"
    path.mkdir()
    return path


KINDS = [
    "unopenable",
    "not-a-database",
    "corrupt",
    "damaged-schema-page",
    "renamed-column",
    "newer-schema",
    "fifo",
    "directory",
]
COMMANDS = ["play", "run", "faults", "migrate", "migrate --status", "export-db", "import-db"]


@pytest.mark.parametrize("kind", KINDS)
async def test_open_database_refuses_and_leaves_nothing_open(tmp_path: Path, kind: str) -> None:
    path = _bad_path(tmp_path, kind)
    with pytest.raises(DatabaseUnusable) as raised:
        await open_database(path)
    assert raised.value.path == str(path) and raised.value.reason
    if kind == "newer-schema":
        assert "newer release" in raised.value.reason


def _cli(tmp_path: Path, kind: str, command: str, lang: str) -> tuple[Path, str]:
    """Run ``rummy-bot COMMAND`` on a database of ``kind`` (a subprocess with a timeout:
    a FIFO must not block it); assert exit code 2 and one line on stderr naming the path,
    no traceback, nothing on stdout; return the path and that line."""
    path = _bad_path(tmp_path, kind)
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISCORD_TOKEN", "TELEGRAM_TOKEN", "DATABASE_PATH", "DATABASE_URL", "LANG")
    }
    if command == "play":
        argv = ["play", "--db", str(path)]
    else:  # run: the database is opened before any platform is contacted
        export = tmp_path / "export.jsonl"
        export.write_text('{"format": "rummy-bot export", "schema": 1}\n', encoding="utf-8")
        argv = [*command.split(), *([str(export)] if command.endswith("-db") else [])]
        env.update(TELEGRAM_TOKEN="123:not-a-real-token", DATABASE_PATH=str(path))
    done = subprocess.run(
        [sys.executable, "-m", "bot", *argv, "--lang", lang],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1, done.stderr
    assert str(path) in lines[0] and "Traceback" not in done.stderr
    assert done.stdout == ""
    return path, lines[0]


@pytest.mark.once
@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("kind", KINDS)
def test_the_cli_exits_2_with_one_line(tmp_path: Path, kind: str, command: str) -> None:
    _path, line = _cli(tmp_path, kind, command, "en")
    expected = {
        "damaged-schema-page": "damaged",
        "renamed-column": "lacks the column",
        "newer-schema": "newer release",
        "fifo": "FIFO",
        "directory": "directory",
        "corrupt": "damaged",
        "not-a-database": "not a database",
    }
    assert expected.get(kind, "") in line


@pytest.mark.once
@pytest.mark.parametrize(
    ("kind", "command", "words"),
    [
        ("fifo", "faults", "ist ein FIFO, keine Datenbankdatei"),
        ("directory", "migrate", "ist ein Verzeichnis"),
        ("newer-schema", "export-db", "von einer neueren Version migriert (Schema"),
        ("damaged-schema-page", "play", "beschädigt (SQLites Meldung"),
        ("renamed-column", "migrate --status", "fehlt die Spalte display_name"),
        ("corrupt", "run", "beschädigt (quick_check:"),
    ],
)
def test_the_cli_line_is_german_with_lang_de(
    tmp_path: Path, kind: str, command: str, words: str
) -> None:
    _path, line = _cli(tmp_path, kind, command, "de")
    assert line.startswith("Die Datenbank ") or line.startswith("Die Spieldatei"), line
    assert words in line


async def test_a_locked_database_is_answered_localized_and_nothing_is_lost(tmp_path: Path) -> None:
    h = await make_harness(tmp_path / "db.sqlite3")
    s = h.people
    await s.new_table(CHAT, ANA)
    await h.db.conn.execute("PRAGMA busy_timeout=100")
    other = sqlite3.connect(h.path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another program holds the write lock
    try:
        reply = await say(s, CHAT, BEN, "join", update_key="u1")
        assert not reply.ok and reply.private
        assert reply.text is not None and "noch einmal" in reply.text  # Ben reads German
        info = await s.table_info(CHAT)
        assert info is not None and [seat.name for seat in info.seats] == ["ana"]
    finally:
        other.execute("ROLLBACK")
        other.close()
    reply = await say(s, CHAT, BEN, "join", update_key="u1")  # sent again: works
    assert reply.ok
    info = await s.table_info(CHAT)
    assert info is not None and [seat.name for seat in info.seats] == ["ana", "ben"]
    await h.db.close()


async def test_a_full_disk_is_answered_localized_and_the_process_keeps_going(
    tmp_path: Path,
) -> None:
    h = await make_harness(tmp_path / "db.sqlite3")
    s = h.people
    await s.new_table(CHAT, ANA)
    pages = (await (await h.db.conn.execute("PRAGMA page_count")).fetchone())[0]
    await h.db.conn.execute(f"PRAGMA max_page_count={pages}")
    refused = None
    for n in range(300):  # fill the free space of the last pages until the disk is full
        reply = await say(
            s, CHAT, ANA, f"set timer={'2m' if n % 2 else '10m'}", update_key=f"k{n}-" + "x" * 400
        )
        if not reply.ok:
            refused = reply
            break
    assert refused is not None and refused.text is not None
    assert "try again" in refused.text
    before = await s.table_info(CHAT)
    await h.db.conn.execute(f"PRAGMA max_page_count={pages * 100}")
    reply = await say(s, CHAT, BEN, "join")
    assert reply.ok
    after = await s.table_info(CHAT)
    assert before is not None and after is not None and after.version == before.version + 1
    await h.db.close()


async def test_a_read_only_database_is_answered_localized(tmp_path: Path) -> None:
    h = await make_harness(tmp_path / "db.sqlite3")
    s = h.people
    await s.new_table(CHAT, ANA)
    await h.db.conn.execute("PRAGMA query_only=ON")
    reply = await say(s, CHAT, BEN, "join")
    assert not reply.ok and reply.text is not None and "noch einmal" in reply.text
    await h.db.conn.execute("PRAGMA query_only=OFF")
    assert (await say(s, CHAT, BEN, "join")).ok
    await h.db.close()


async def test_the_faults_command_lists_and_clears(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio

    from bot.cli import main

    h = await make_harness(tmp_path / "db.sqlite3")
    info = await h.people.new_table(CHAT, ANA)
    await h.service.repo.record_fault(info.id, "quarantined", 1, "TypeError: new_field", None)
    await h.service.repo.heartbeat(1_700_000_000.0)
    await h.db.close()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "db.sqlite3"))
    monkeypatch.setenv("LANG", "C.UTF-8")

    def run(*argv: str) -> tuple[int, str]:
        code = main(list(argv))
        return code, capsys.readouterr().out

    code, out = await asyncio.to_thread(run, "faults")
    assert code == 0
    assert f"table {info.id} (test:chat1:): quarantined, 1 failures" in out
    assert "TypeError: new_field" in out and "Last heartbeat: 2023-11-" in out
    code, out = await asyncio.to_thread(run, "faults", "--clear", str(info.id))
    assert code == 0 and "No table is failing." in out
