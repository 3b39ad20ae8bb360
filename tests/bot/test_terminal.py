"""Tests for bot.terminal: the terminal table loop, driven through its text commands."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

import bot
from bot.i18n import use_locale
from bot.terminal.setup import (
    PlayConfig,
    build_table,
    default_name,
    parse_option_pairs,
    seat_names,
)
from bot.terminal.table import LineReader, TerminalTable, stream_reader
from engine.ai import make_ai
from engine.commands import format_action
from engine.dealing import DealSpec, new_game
from engine.errors import RuleOptionError
from engine.game import current_player, is_over, legal_actions
from engine.rules import make_rules
from engine.state import GameState, Phase
from engine.views import view_for

REPO = Path(bot.__file__).resolve().parent.parent


def lines(items: Iterable[str]) -> LineReader:
    """A reader that returns ``items`` one by one, then ``None`` (end of input)."""
    it = iter(items)
    return lambda: next(it, None)


# --- setup ------------------------------------------------------------------------------------


def test_default_name_comes_from_the_login() -> None:
    assert default_name({"USER": "zoe"}) == "zoe"
    assert default_name({"USERNAME": "Zoe Z"}) == "Zoe Z"
    assert default_name({"USER": "a:b"}) == "Player"
    assert default_name({}) == "Player"


def test_seat_names_skip_the_human_name() -> None:
    assert seat_names("Bo", 3) == ("Bo", "Ada", "Cleo")
    assert seat_names("Player", 2) == ("Player", "Ada")
    assert len(set(seat_names("ai 7", 9))) == 9


def test_parse_option_pairs() -> None:
    assert parse_option_pairs(["deals=1", " ace = high_or_low "]) == {
        "deals": "1", "ace": "high_or_low"}
    with pytest.raises(RuleOptionError) as caught:
        parse_option_pairs(["deals"])
    assert caught.value.params["option"] == "option"


def test_build_table_refuses_bad_rules() -> None:
    with pytest.raises(RuleOptionError):
        build_table(PlayConfig(players=7), lines([]), io.StringIO())
    with pytest.raises(RuleOptionError):
        build_table(PlayConfig(options={"colour": "red"}), lines([]), io.StringIO())


# --- a whole match through the text commands ----------------------------------------------


class GreedyTypist:
    """Types for the human seat what the greedy AI would do, as text commands.

    Before its first move it tries every UI command once; between deals it
    presses Enter. After ``limit`` lines it types ``quit`` (a loop guard).
    """

    UI = ("help", "help meld", "hint", "sort", "hand", "sort", "rules", "score", "table",
          "back", "")

    def __init__(self, limit: int = 3000, ui: Iterable[str] = UI) -> None:
        self.ui = list(ui)
        self.table: TerminalTable | None = None
        self.ai = make_ai("greedy", seed=99)
        self.typed: list[str] = []
        self.limit = limit

    def __call__(self) -> str | None:
        assert self.table is not None
        state = self.table.state
        if len(self.typed) >= self.limit:
            line = "quit"
        elif self.ui and current_player(state) == self.table.human:
            line = self.ui.pop(0)
        elif current_player(state) is None:
            line = ""
        else:
            seat = self.table.human
            action = self.ai.decide(view_for(state, seat), legal_actions(state, seat))
            line = format_action(action)
        self.typed.append(line)
        return line


@pytest.mark.parametrize("locale", ["en", "de"])
def test_a_full_match_played_through_text_commands(locale: str) -> None:
    typist = GreedyTypist()
    out = io.StringIO()
    config = PlayConfig(players=3, options={"deals": "2", "target": "none"}, seed=5,
                        name="Zoe")
    table = build_table(config, typist, out)
    typist.table = table
    with use_locale(locale):
        code = table.run()
    text = out.getvalue()
    assert code == 0
    assert is_over(table.state)
    assert len(table.state.results) == 2
    assert "quit" not in typist.typed
    assert "" in typist.typed[len(GreedyTypist.UI):]  # Enter between the deals
    if locale == "en":
        assert "Commands (cards are written like 7h 10d qs ac jk):" in text
        assert "Your hand (" in text and "grouped:" in text
        assert "Suggestion: " in text
        assert "Rules: Basic Rummy (basic), preset standard" in text
        assert "Deal 2: " in text
        assert "Game over. The winner" in text
        assert text.rstrip().splitlines()[-1].startswith("Totals: Zoe ")
    else:
        assert "Befehle (Karten schreibt man so: 7h 10d qs ac jk):" in text
        assert "Vorschlag: " in text
        assert "Die Partie ist vorbei. Es gewinn" in text
        assert text.rstrip().splitlines()[-1].startswith("Gesamt: Zoe ")


def test_ai_moves_are_printed_with_the_delay() -> None:
    slept: list[float] = []
    typist = GreedyTypist(ui=())
    table = build_table(PlayConfig(players=2, options={"deals": "1"}, seed=2, delay=0.4),
                        typist, io.StringIO(), sleep=slept.append)
    typist.table = table
    assert table.run() == 0
    assert slept and set(slept) == {0.4}


# --- bad input -----------------------------------------------------------------------------


def _stacked(hands: list[str], upcard: str, stock: str) -> GameState:
    rules = make_rules("basic")
    return new_game(rules, ["ana", "ben"], seed=1, dealer=1,
                    deal=DealSpec.parse(hands, upcard, stock))


def test_bad_input_is_explained_and_changes_nothing() -> None:
    state = _stacked(["2c 3d 9h 7h 8h", "4h 4d 4s 5c 6c"], "kd", "9s 8s 7s 6s")
    seen: list[GameState] = []
    script = iter(["draw", "discard 7x", "meld 2c 3d 9h", "layoff 7h 9", "fly", "draw", "",
                   "quit"])

    def read() -> str | None:
        seen.append(table.state)
        return next(script, None)

    out = io.StringIO()
    table = TerminalTable(state, human=0, ais={1: make_ai("greedy", seed=1)},
                          read_line=read, out=out)
    with use_locale("de"):
        assert table.run() == 0
    text = out.getvalue()
    assert "'7x' ist keine Karte (Beispiele: 7h 10d qs ac jk)." in text
    assert "2c 3d 9h ist keine gültige Meldung: Die Karten haben weder denselben Rang" in text
    assert "Auf dem Tisch liegt keine Meldung 9." in text
    assert "Unbekannter Befehl 'fly'" in text
    assert "Du kannst jetzt nicht ziehen: Du hast schon gezogen" in text
    assert "Du hast 9♠ gezogen." in text
    # After the draw, every bad line left the state exactly as it was.
    after_draw = seen[1]
    assert after_draw.phase is Phase.PLAY
    assert all(s is after_draw for s in seen[1:])
    assert text.rstrip().endswith("Auf Wiedersehen.")


def test_english_errors_and_end_of_input() -> None:
    state = _stacked(["2c 3d 9h 7h 8h", "4h 4d 4s 5c 6c"], "kd", "9s 8s 7s 6s")
    out = io.StringIO()
    table = TerminalTable(state, human=0, ais={1: make_ai("random", seed=1)},
                          read_line=lines(["discard 2c", "take", "discard kd"]), out=out)
    with use_locale("en"):
        assert table.run() == 0
    text = out.getvalue()
    assert "You cannot discard now: draw a card or take the upcard first." in text
    assert "You cannot discard kd: you took it from the discard pile this turn." in text
    assert "Goodbye." in text
    assert table.state.phase is Phase.PLAY  # input ended in the middle of the turn


def test_a_table_needs_an_ai_for_every_other_seat() -> None:
    state = _stacked(["2c", "4h"], "kd", "9s")
    with pytest.raises(ValueError):
        TerminalTable(state, human=0, ais={}, read_line=lines([]), out=io.StringIO())


def test_stream_reader() -> None:
    read = stream_reader(io.StringIO("draw\r\n\nquit"))
    assert [read(), read(), read(), read()] == ["draw", "", "quit", None]


# --- the real command as a subprocess -----------------------------------------------------


def _run_play(command: list[str], stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LANG", "USER", "USERNAME")}
    return subprocess.run(
        [*command, "play", "--seed", "1", "--players", "2", *args],
        input=stdin, capture_output=True, text=True, timeout=120, cwd=REPO, env=env,
        check=False,
    )


def test_rummy_bot_play_as_a_subprocess() -> None:
    # The console script that `pip install -e .` puts next to the interpreter.
    script = Path(sys.executable).with_name("rummy-bot")
    assert script.is_file()
    done = _run_play([str(script)], "help\nhint\nhand\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "Basic Rummy, preset standard. You are Player." in done.stdout
    assert "Your hand (" in done.stdout
    assert "Commands (cards are written like" in done.stdout
    assert done.stdout.rstrip().endswith("Goodbye.")
    assert done.stderr == ""


def test_rummy_bot_play_in_german_as_a_subprocess() -> None:
    done = _run_play([sys.executable, "-m", "bot"], "draw\nquit\n", "--lang", "de",
                     "--name", "Zoe")
    assert done.returncode == 0, done.stderr
    assert "Du bist Zoe." in done.stdout
    assert done.stdout.rstrip().endswith("Auf Wiedersehen.")
