"""The command line's answers when something is wrong: one line, the documented exit code,
never a traceback (bot/cli.py: "Exit codes: 0 ok, ... 2 ... 141 the output pipe was
closed")."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main

REPO = Path(__file__).resolve().parents[2]


def _database(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("DATABASE_PATH", str(path))
    monkeypatch.setenv("LANG", "C.UTF-8")


def _one_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, text
    assert "Traceback" not in text
    return lines[0]


def test_migrate_status_of_a_directory_is_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _database(monkeypatch, tmp_path)
    assert main(["migrate", "--status"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    line = _one_line(captured.err)
    assert str(tmp_path) in line and "directory" in line


def test_migrate_status_of_a_file_that_is_no_database_is_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not a database at all, " * 100, encoding="utf-8")
    _database(monkeypatch, path)
    assert main(["migrate", "--status"]) == 2
    line = _one_line(capsys.readouterr().err)
    assert str(path) in line and "not a database" in line
    assert path.read_text(encoding="utf-8").startswith("not a database")  # untouched


def test_migrate_status_of_a_new_file_creates_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "rummy.sqlite3"
    _database(monkeypatch, path)
    assert main(["migrate", "--status"]) == 0
    assert "schema 0 of" in capsys.readouterr().out
    assert not path.exists()


def test_faults_clear_of_a_table_without_fault_is_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _database(monkeypatch, tmp_path / "rummy.sqlite3")
    assert main(["faults", "--clear", "99"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "99" in _one_line(captured.err)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert main(["faults", "--clear", "99"]) == 2
    assert _one_line(capsys.readouterr().err).startswith("Tisch 99 hat keinen Fehler")


def test_faults_clear_of_a_failing_table_clears_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio

    from bot.storage import open_database
    from bot.storage.repository import SqliteRepository

    path = tmp_path / "rummy.sqlite3"

    async def fail_table() -> None:
        db = await open_database(path)
        repo = SqliteRepository(db)
        await repo.record_fault(7, "backoff", 3, "boom", None)
        await db.close()

    asyncio.run(fail_table())
    _database(monkeypatch, path)
    assert main(["faults"]) == 0
    assert "table 7" in capsys.readouterr().out
    assert main(["faults", "--clear", "7"]) == 0
    out = capsys.readouterr().out
    assert "table 7" not in out and "No table is failing." in out


def test_play_into_a_closed_pipe_says_one_line_and_exits_141(tmp_path: Path) -> None:
    """``rummy-bot play | head -1``: the reader leaves after one line."""
    env = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL", "LANGUAGE")}
    env.update(XDG_DATA_HOME=str(tmp_path), PYTHONIOENCODING="utf-8")
    game = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bot",
            "play",
            "--players",
            "2",
            "--seed",
            "3",
            "--delay",
            "0",
            "--name",
            "Zoe",
        ],
        cwd=REPO,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert game.stdout is not None and game.stdin is not None
    first = game.stdout.readline()
    assert first
    game.stdout.close()  # the reader has gone
    _out, err = game.communicate(b"help\nrules\nhint\nquit\n", timeout=120)
    text = err.decode("utf-8")
    assert game.returncode == 141, text
    assert _one_line(text) == (
        "The output was closed; the game is saved and rummy-bot play continues it."
    )


def test_argparse_frame_speaks_german(capsys: pytest.CaptureFixture[str]) -> None:
    """issue 37: "argparse's frame translated (`--lang de --help`)"."""
    assert main(["--lang", "de", "play", "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Aufruf: rummy-bot play ")
    assert "\nOptionen:\n" in out and "diese Hilfe zeigen und beenden" in out
    assert "usage:" not in out and "options:" not in out
    assert main(["--lang", "de", "play", "--bogus"]) == 2
    assert (
        capsys.readouterr().err.splitlines()[-1]
        == "rummy-bot: Fehler: unbekannte Argumente: --bogus"
    )
    assert main(["--lang", "en", "play", "--bogus"]) == 2
    assert (
        capsys.readouterr().err.splitlines()[-1]
        == "rummy-bot: error: unrecognized arguments: --bogus"
    )
