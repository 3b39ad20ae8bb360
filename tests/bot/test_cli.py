"""Tests for bot.cli: the rummy-bot subcommands, called through main([...])."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.cli import build_parser, main

HANDS = {
    "ana": ["ac", "2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "10c"],
    "ben": ["ad", "2d", "3d", "4d", "5d", "6d", "7d", "8d", "9d", "10d"],
}


def _record(actions: list[str]) -> dict[str, Any]:
    """A two-player record with an explicit deal; ana (seat 0) moves first."""
    return {
        "variant": "basic",
        "players": ["ana", "ben"],
        "dealer": "ben",
        "deal": {"hands": HANDS, "upcard": "ks", "stock": ["qs", "js", "10s"]},
        "actions": actions,
    }


def _write(tmp_path: Path, name: str, data: Any) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _english_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "C.UTF-8")


# --- replay -----------------------------------------------------------------------------------


def test_replay_of_a_good_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "good.json", _record(["ana: draw", "ana: discard qs", "ben: take"]))
    assert main(["replay", str(path)]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["ok"] is True
    assert report["applied"] == 3
    assert report["error"] is None
    assert captured.err == ""
    assert '\n  "ok": true' in captured.out  # indent 2


def test_replay_of_a_record_with_an_illegal_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "bad.json", _record(["ana: draw", "ana: discard 7x"]))
    assert main(["replay", str(path)]) == 1
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["ok"] is False
    assert report["applied"] == 1
    assert report["error"]["code"] == "bad_card"
    assert "Traceback" not in captured.err
    assert "error" in captured.err


def test_replay_of_a_file_that_is_no_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    for path in (broken, tmp_path / "missing.json"):
        assert main(["replay", str(path)]) == 1
        report = json.loads(capsys.readouterr().out)
        assert report["ok"] is False
        assert report["error"]["code"] == "bad_record"
        assert report["state"] is None


def test_replay_keeps_non_ascii_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _record(["ana: draw"])
    record["players"] = ["Jürgen", "ben"]
    record["deal"]["hands"] = {"Jürgen": HANDS["ana"], "ben": HANDS["ben"]}
    record["actions"] = ["Jürgen: draw"]
    path = _write(tmp_path, "umlaut.json", record)
    assert main(["replay", str(path)]) == 0
    assert "Jürgen" in capsys.readouterr().out


# --- simulate ---------------------------------------------------------------------------------


def test_simulate_prints_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "3", "--option", "deals=1", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    print(out)  # the speed figures, for the log
    assert "Playing to 100 points or 1 deal.\n" in out
    for label in (
        "games: 3",
        "players: 2",
        "seconds: ",
        "games per second: ",
        "mean actions per game: ",
        "win share per seat:",
        "  seat 1 (greedy): ",
        "  seat 2 (greedy): ",
        "unfinished: ",
    ):
        assert label in out


def test_simulate_with_mixed_ais_in_german(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "simulate",
                "--games",
                "2",
                "--players",
                "2",
                "--ai",
                "greedy,random",
                "--option",
                "deals=1",
                "--lang",
                "de",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "Partien: 2" in out
    assert "  Platz 2 (random): " in out


def test_simulate_expert_against_hard(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "simulate",
                "--games",
                "1",
                "--variant",
                "german",
                "--ai",
                "expert,hard",
                "--option",
                "deals=1",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "  seat 1 (expert): " in out and "  seat 2 (hard): " in out
    assert "unfinished: 0" in out


@pytest.mark.parametrize(
    "args",
    [
        ["--games", "0"],
        ["--games", "2", "--ai", "clever"],
        ["--games", "2", "--players", "3", "--ai", "greedy,random"],
    ],
)
def test_simulate_refuses_bad_arguments(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", *args]) == 2
    assert capsys.readouterr().err


# --- options ----------------------------------------------------------------------------------


def test_options_lists_variants_presets_and_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["options", "--variant", "basic"]) == 0
    out = capsys.readouterr().out
    assert "Variants:\n  basic: Basic Rummy, 2-6 players" in out
    assert "  wrotham: Wrotham Rummy" in out
    assert "Rules: Basic Rummy (basic), preset standard" in out
    assert "  joker_swap = off" in out


def test_options_in_german_with_a_preset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["options", "--preset", "wrotham", "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert "Voreinstellungen von Einfaches Rommé:" in out
    assert "* joker_swap = on (Standard off; Voreinstellung wrotham)" in out


def test_language_comes_from_lang(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert main(["options"]) == 0
    assert "Varianten:" in capsys.readouterr().out


# --- bad options --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["options", "--variant", "poker"], "Unknown variant 'poker'. Variants: basic"),
        (["play", "--option", "colour=red"], "Unknown option 'colour'."),
        (["play", "--option", "deals"], "Option deals needs the form name=value"),
        (
            ["simulate", "--games", "1", "--option", "ace=middle"],
            "Option ace: 'middle' is not allowed; expected one of low, high_or_low, around.",
        ),
        (["play", "--players", "9"], "This game is for 2-6 players, not 9."),
    ],
)
def test_option_errors_exit_2_with_a_message(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(message)
    assert "Traceback" not in captured.err


def test_option_error_in_german(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--lang", "de", "--option", "target=0"]) == 2
    assert capsys.readouterr().err.startswith(
        "Option target: '0' ist nicht erlaubt; erwartet: eine ganze Zahl von 1 bis 10000 oder none."
    )


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert main(["simulate", "--games", "many"]) == 2
    assert "usage:" in capsys.readouterr().err


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "de", "play", "--help"]) == 0
    assert "Plätze, du eingeschlossen" in capsys.readouterr().out


# --- play ---------------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _private_data_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``play`` keeps its game under XDG_DATA_HOME: never in the real home."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def test_play_reads_stdin(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("hand\nquit\n"))
    assert main(["play", "--seed", "3", "--players", "2", "--name", "Zoe"]) == 0
    out = capsys.readouterr().out
    assert "You are Zoe." in out
    assert "Your game is saved; rummy-bot play continues it." in out
    assert out.rstrip().endswith("Goodbye.")
    assert (tmp_path / "data" / "rummy-bot" / "terminal.sqlite3").is_file()


def test_play_resumes_and_new_starts_over(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "games.sqlite3")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--db", db, "--seed", "3", "--players", "2", "--name", "Zoe"]) == 0
    first = capsys.readouterr().out
    assert first.startswith("Basic Rummy, preset standard. You are Zoe.")

    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--db", db, "--lang", "de"]) == 0
    resumed = capsys.readouterr().out
    assert resumed.startswith("Dein Spiel vom ")
    assert "Du bist Zoe." in resumed

    monkeypatch.setattr("sys.stdin", io.StringIO("new\nquit\n"))  # --new asks first
    assert main(["play", "--db", db, "--new", "--name", "Max"]) == 0
    fresh = capsys.readouterr().out
    assert fresh.startswith("A game of Basic Rummy is stored. Type new to end it")
    assert "The game was cancelled.\nBasic Rummy, preset standard. You are Max." in fresh
    assert not (tmp_path / "data").exists()  # --db was used every time


def test_play_with_an_unusable_database_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    assert main(["play", "--db", str(tmp_path / "file" / "games.sqlite3")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("Cannot open the game file ")
    assert "Traceback" not in err


def test_bad_play_options_store_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--players", "1", "--db", str(tmp_path / "x.sqlite3")]) == 2
    assert "This game is for 2-6 players, not 1." in capsys.readouterr().err
    assert not (tmp_path / "x.sqlite3").exists()


# --- run ----------------------------------------------------------------------------------------


def _clear_tokens(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("DISCORD_TOKEN", "TELEGRAM_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no .env of the working copy can leak in


def test_run_without_tokens_points_to_play(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _clear_tokens(monkeypatch, tmp_path)
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN or TELEGRAM_TOKEN" in err
    assert "rummy-bot play" in err


def test_run_without_tokens_in_german(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _clear_tokens(monkeypatch, tmp_path)
    assert main(["run", "--lang", "de"]) == 2
    assert "Keine Chat-Plattform eingerichtet" in capsys.readouterr().err


def test_run_with_bad_settings(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _clear_tokens(monkeypatch, tmp_path)
    monkeypatch.setenv("DEFAULT_TIMER", "forever")
    assert main(["run"]) == 2
    assert "DEFAULT_TIMER" in capsys.readouterr().err


# --- bench where the benchmarks are not installed ----------------------------------------------


def _without_benchmarks(monkeypatch: pytest.MonkeyPatch) -> None:
    """As after `pip install rummy-bot` from the wheel, which carries only engine and bot:
    importing the benchmarks fails."""
    for name in ("benchmarks", "benchmarks.runner", "benchmarks.report"):
        monkeypatch.setitem(sys.modules, name, None)


def test_bench_without_the_benchmarks_says_so_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _without_benchmarks(monkeypatch)
    assert main(["bench", "--quick"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        "The benchmarks are not installed: rummy-bot bench runs in a checkout of rummy-bot "
        "(pip install -e '.[bench]')."
    ]
    assert main(["bench", "--lang", "de"]) == 2
    assert capsys.readouterr().err.startswith("Die Benchmarks sind nicht installiert:")


def test_the_other_commands_and_the_help_run_without_the_benchmarks(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _without_benchmarks(monkeypatch)
    assert main(["options"]) == 0
    assert main(["bench", "--help"]) == 0
    help_text = " ".join(capsys.readouterr().out.split())  # argparse wraps the lines
    assert "run only these sections (listed where the benchmarks are installed)" in help_text


# --- verify -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fair_record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The record `simulate --record` writes of a two-deal Basic Rummy game."""
    path = tmp_path_factory.mktemp("fair") / "game.json"
    assert (
        main(
            [
                "simulate",
                "--games",
                "2",
                "--players",
                "3",
                "--seed",
                "4",
                "--option",
                "deals=2",
                "--record",
                str(path),
            ]
        )
        == 0
    )
    record: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return record


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line]


def test_verify_of_a_simulated_game_holds(
    tmp_path: Path, fair_record: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert fair_record["format"] == 2 and len(fair_record["deals"]) == 2
    path = _write(tmp_path, "game.json", fair_record)
    capsys.readouterr()
    assert main(["verify", str(path)]) == 0
    captured = capsys.readouterr()
    assert _lines(captured.out) == [
        "All 2 deals hold: each deck is the one its revealed secret deals, each commitment "
        "matches, every action replays."
    ]
    assert captured.err == ""


def test_verify_names_an_altered_stock_card(
    tmp_path: Path, fair_record: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads(json.dumps(fair_record))
    deck = record["deals"][1]["deal"]["deck"]
    deck[-1], deck[-2] = deck[-2], deck[-1]
    path = _write(tmp_path, "stock.json", record)
    assert main(["verify", str(path)]) == 1
    out = _lines(capsys.readouterr().out)
    assert out == [
        f"Deal 2, card {len(deck) - 1} of the deck: the record lists "
        f"{deck[-2]}, the secret deals {deck[-1]}."
    ]


def test_verify_names_an_altered_secret_in_german(
    tmp_path: Path, fair_record: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads(json.dumps(fair_record))
    secret = record["deals"][0]["deal"]["secret"]
    record["deals"][0]["deal"]["secret"] = secret[::-1]
    path = _write(tmp_path, "secret.json", record)
    assert main(["--lang", "de", "verify", str(path)]) == 1
    assert _lines(capsys.readouterr().out) == [
        "Runde 1: Die Zusage ist nicht der SHA-256 des Kartenstapels, den ihr offengelegtes "
        "Geheimnis gibt, und dieses Geheimnisses."
    ]


def test_verify_names_a_changed_action(
    tmp_path: Path, fair_record: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads(json.dumps(fair_record))
    actions = record["deals"][0]["actions"]
    player = actions[0].split(":")[0]
    actions[0] = f"{player}: meld 2c 3c 4c"
    path = _write(tmp_path, "action.json", record)
    assert main(["verify", str(path)]) == 1
    out = _lines(capsys.readouterr().out)
    assert len(out) == 1 and out[0].startswith(f"Deal 1, action 1 ({player}: meld 2c 3c 4c): ")


def test_verify_of_an_old_record_says_it_has_no_commitments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "old.json", _record(["ana: draw"]))
    assert main(["verify", str(path)]) == 1
    assert _lines(capsys.readouterr().out) == [
        "The record carries no commitments (it was written before fair dealing): there is "
        "nothing to verify."
    ]


@pytest.mark.parametrize("content", ["{not json", "[]", '{"variant": "basic"}'])
def test_verify_of_an_unreadable_file_is_one_line(
    tmp_path: Path, content: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    assert main(["verify", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(_lines(captured.err)) == 1 and "Traceback" not in captured.err
    assert main(["verify", str(tmp_path / "missing.json")]) == 2
    assert len(_lines(capsys.readouterr().err)) == 1


def test_simulate_record_to_a_folder_that_does_not_exist(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "no" / "game.json"
    assert main(["simulate", "--games", "1", "--option", "deals=1", "--record", str(target)]) == 2
    err = _lines(capsys.readouterr().err)
    assert len(err) == 1 and err[0].startswith(f"Cannot write the record to {target}: ")


@pytest.mark.parametrize(
    ("word", "level"),
    [("expert", "expert"), ("schwer", "hard"), ("greedy", "normal"), ("Leicht", "easy")],
)
def test_play_ai_takes_the_levels_of_the_chats(word: str, level: str) -> None:
    """Issue 46: "`expert` as an AI level wherever a level is chosen (the chat commands and
    buttons, the terminal's `--ai`, ...)": the terminal takes the chats' level words."""
    assert build_parser().parse_args(["play", "--ai", word]).ai == level
    assert build_parser().parse_args(["play"]).ai == "normal"


def test_play_refuses_an_unknown_ai_level_in_german(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "de", "play", "--ai", "clever"]) == 2
    err = capsys.readouterr().err
    assert "ungültige Wahl: 'clever'" in err and "'expert'" in err
