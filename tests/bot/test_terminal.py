"""Tests for bot.terminal: ``rummy-bot play`` on the game service, driven through its text
commands, with its own SQLite file (quit, resume, --new)."""

from __future__ import annotations

import asyncio
import io
import os
import re
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Iterable, Iterator
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

import bot
from bot.i18n import use_locale
from bot.play import DatabaseUnavailable, play
from bot.ports.model import Seat, SeatKind, Status, TableInfo, TableSettings
from bot.ports.screens import TimerWarning
from bot.service.clock import ManualClock
from bot.service.model import Table
from bot.storage import open_database
from bot.storage.database import Database
from bot.storage.repository import SqliteRepository
from bot.terminal.input import AsyncLineReader, LineReader, stream_reader, threaded_reader
from bot.terminal.notifier import TerminalNotifier
from bot.terminal.setup import (
    TERMINAL_KEY,
    USER_KEY,
    PlayConfig,
    check_config,
    default_db_path,
    default_name,
    parse_option_pairs,
    terminal_settings,
)
from engine.ai import make_ai
from engine.cards import Card
from engine.commands import format_action, parse_command
from engine.errors import RuleOptionError
from engine.game import current_player, legal_actions
from engine.serialize import state_to_dict
from engine.state import Phase
from engine.variants.rummy500.actions import CallRummy
from engine.views import view_for

REPO = Path(bot.__file__).resolve().parent.parent


# --- setup ------------------------------------------------------------------------------------


def test_default_name_comes_from_the_login() -> None:
    assert default_name({"USER": "zoe"}) == "zoe"
    assert default_name({"USERNAME": "Zoe Z"}) == "Zoe Z"
    assert default_name({"USER": "a:b"}) == "Player"
    assert default_name({}) == "Player"
    with use_locale("de"):
        assert default_name({}) == "Spieler"


def test_default_db_path_follows_xdg_data_home(tmp_path: Path) -> None:
    assert (
        default_db_path({"XDG_DATA_HOME": str(tmp_path)})
        == tmp_path / "rummy-bot" / "terminal.sqlite3"
    )
    home = Path.home() / ".local" / "share" / "rummy-bot" / "terminal.sqlite3"
    assert default_db_path({}) == home
    assert default_db_path({"XDG_DATA_HOME": "relative/dir"}) == home


def test_parse_option_pairs() -> None:
    assert parse_option_pairs(["deals=1", " ace = high_or_low "]) == {
        "deals": "1",
        "ace": "high_or_low",
    }
    with pytest.raises(RuleOptionError) as caught:
        parse_option_pairs(["deals"])
    assert caught.value.params["option"] == "option"


def test_check_config_refuses_bad_rules_and_seat_counts() -> None:
    assert check_config(PlayConfig(options={"deals": "1"})).number("deals") == 1
    for config in (
        PlayConfig(players=7),
        PlayConfig(players=1),
        PlayConfig(options={"colour": "red"}),
        PlayConfig(variant="poker"),
    ):
        with pytest.raises(RuleOptionError):
            check_config(config)


def test_terminal_tables_have_no_timer_and_wait_for_their_player() -> None:
    settings = terminal_settings(0.4)
    assert settings.turn_seconds is None
    assert settings.ai_delay == 0.4
    assert settings.idle_days >= 3650
    assert settings.next_deal_delay >= 3650 * 86400
    assert terminal_settings(-1).ai_delay == 0


# --- driving a game in the process ----------------------------------------------------------


class Spy:
    """Reads the stored terminal table through a connection of its own."""

    def __init__(self, db: Database) -> None:
        self.repo = SqliteRepository(db)

    async def table(self) -> Table:
        table = await self.repo.active_table(TERMINAL_KEY)
        assert table is not None and table.state is not None
        return table

    async def last(self) -> Table:
        table = await self.repo.get_table(await self.repo.count_tables())
        assert table is not None
        return table


@pytest.fixture
async def spy(tmp_path: Path) -> AsyncIterator[Spy]:
    db = await open_database(tmp_path / "terminal.sqlite3")
    yield Spy(db)
    await db.close()


def manual_time() -> tuple[ManualClock, list[float], Any]:
    """A manual clock, the list of pauses taken and a ``sleep`` that moves the clock."""
    clock = ManualClock()
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        clock.advance(seconds)

    return clock, slept, sleep


async def run(
    tmp_path: Path,
    config: PlayConfig,
    reader: AsyncLineReader,
    *,
    locale: str = "en",
    new: bool = False,
    db_name: str = "terminal.sqlite3",
    slept: list[float] | None = None,
    lang_chosen: bool = True,
    guide: bool = True,
) -> tuple[int, str]:
    """Play through :func:`play` with a manual clock; returns the exit code and the output."""
    clock, pauses, sleep = manual_time()
    out = io.StringIO()
    with use_locale(locale):
        code = await play(
            config,
            tmp_path / db_name,
            read_line=reader,
            out=out,
            locale=locale,
            new=new,
            clock=clock,
            sleep=sleep,
            lang_chosen=lang_chosen,
            guide=guide,
        )
    if slept is not None:
        slept.extend(pauses)
    return code, out.getvalue()


def after_totals(text: str, totals: str) -> list[str]:
    """The lines after the match's totals (the last line that starts with ``totals``):
    the coach's word on the last deal, printed when its review is done."""
    lines = text.rstrip().splitlines()
    last = max(i for i, line in enumerate(lines) if line.startswith(totals))
    return lines[last + 1 :]


class GreedyTypist:
    """Types for the player what the greedy AI would do, as text commands.

    Before its first move it tries the ``ui`` lines; between deals it presses
    Enter. ``quit_after``: types ``quit`` after that many lines. ``seen`` keeps
    the stored (version, state) at every read.
    """

    UI = (
        "help",
        "help meld",
        "hint",
        "sort",
        "hand",
        "sort",
        "rules",
        "score",
        "table",
        "back",
        "",
    )

    def __init__(
        self, spy: Spy, ui: Iterable[str] = UI, quit_after: int | None = None, limit: int = 3000
    ) -> None:
        self.spy = spy
        self.ui = list(ui)
        self.ai = make_ai("greedy", seed=99)
        self.typed: list[str] = []
        self.seen: list[tuple[int, dict[str, Any]]] = []
        self.quit_after = quit_after
        self.limit = limit

    async def __call__(self) -> str | None:
        table = await self.spy.table()
        state = table.state
        assert state is not None
        self.seen.append((table.version, state_to_dict(state)))
        seat = table.seat_of(USER_KEY)
        assert seat is not None
        if len(self.typed) >= self.limit or len(self.typed) == self.quit_after:
            self.quit_after = None
            return "quit"
        if self.ui and current_player(state) == seat:
            line = self.ui.pop(0)
        elif current_player(state) is None:
            line = ""
        else:
            action = self.ai.decide(view_for(state, seat), legal_actions(state, seat))
            line = format_action(action)
        self.typed.append(line)
        return line


MATCH = PlayConfig(players=3, options={"deals": "2", "target": "none"}, seed=5, name="Zoe")


@pytest.mark.parametrize("locale", ["en", "de"])
async def test_a_full_match_played_through_text_commands(
    tmp_path: Path, spy: Spy, locale: str
) -> None:
    typist = GreedyTypist(spy)
    code, text = await run(tmp_path, MATCH, typist, locale=locale)
    assert code == 0
    final = await spy.last()
    assert final.status is Status.FINISHED and final.ended_reason == "over"
    assert final.state is not None and final.state.phase is Phase.GAME_OVER
    assert len(final.state.results) == 2
    assert [s.kind for s in final.seats] == [SeatKind.HUMAN, SeatKind.AI, SeatKind.AI]
    assert final.seed == 5
    assert "quit" not in typist.typed
    assert "" in typist.typed[len(GreedyTypist.UI) :]  # Enter between the deals
    won = int(0 in final.state.winners)
    assert await spy.repo.user_stats(USER_KEY) == {
        "games": 1,
        "wins": won,
        "against_ai": [{"level": "normal", "games": 1, "wins": won}],  # two normal AI seats
    }
    if locale == "en":
        assert text.startswith("Basic Rummy, preset standard. You are Zoe. Type help for")
        assert "The game has started. Good luck!\nDeal 1: " in text
        assert text.count("Deal 1: ") == 1  # the first deal is announced once
        assert "Commands (cards are written like 7h 10d qs ac jk):" in text
        assert "Your hand (" in text and "grouped:" in text
        assert "Suggestion: " in text
        assert "Rules: Basic Rummy (basic), preset standard" in text
        assert "Ada draws from the stock." in text or "Ada takes " in text
        assert "Deal 2: " in text
        assert "Press Enter or type next for the next deal> " in text
        assert "Game over. The winner" in text
        # the match's totals, then the coach's word on the last deal (the guided terminal
        # coaches: issue 46 "always on in the terminal's --guide mode")
        assert after_totals(text, "Totals: Zoe ")[0].startswith("Deal 2, Zoe: ")
        assert "Deal 1, Zoe: " in text
    else:
        assert "Befehle (Karten schreibt man so: 7he 10ka dpi akr jk):" in text
        assert "Vorschlag: " in text
        assert "Die Partie ist vorbei. Es gewinn" in text
        assert "Gesamt: Zoe " in text and "Runde 1, Zoe: " in text


async def test_the_same_seed_gives_the_same_game(tmp_path: Path, spy: Spy) -> None:
    await run(tmp_path, MATCH, GreedyTypist(spy))
    first = await spy.last()
    db = await open_database(tmp_path / "again.sqlite3")
    try:
        again = Spy(db)
        await run(tmp_path, MATCH, GreedyTypist(again), db_name="again.sqlite3")
        second = await again.last()
    finally:
        await db.close()
    assert first.state is not None and second.state is not None
    assert state_to_dict(first.state) == state_to_dict(second.state)


async def test_ai_moves_wait_for_the_delay(tmp_path: Path, spy: Spy) -> None:
    slept: list[float] = []
    config = PlayConfig(players=2, options={"deals": "1"}, seed=2, delay=0.4)
    code, text = await run(tmp_path, config, GreedyTypist(spy, ui=()), slept=slept)
    assert code == 0
    assert "Game over." in text
    assert slept and set(slept) == {0.4}
    assert (await spy.last()).settings.ai_delay == 0.4


# --- bad input ---------------------------------------------------------------------------------


def _invalid_triple(hand: Iterable[Card]) -> tuple[Card, ...]:
    """Three cards of different ranks and suits: neither a set nor a run."""
    naturals = [c for c in hand if c.rank != 0]
    return next(
        t
        for t in combinations(naturals, 3)
        if len({c.rank for c in t}) == 3 and len({c.suit for c in t}) == 3
    )


class Script:
    """Lines built from the stored table at each read; records (version, state) seen."""

    def __init__(self, spy: Spy, lines: Iterable[str]) -> None:
        self.spy = spy
        self.lines = iter(lines)
        self.seen: list[tuple[int, dict[str, Any]]] = []
        self.hand: tuple[Card, ...] = ()
        self.upcard: Card | None = None

    async def __call__(self) -> str | None:
        table = await self.spy.table()
        assert table.state is not None
        self.seen.append((table.version, state_to_dict(table.state)))
        self.hand = table.state.hands[0]
        # The upcard, or the card this turn took from the discard pile.
        self.upcard = table.state.turn.taken or (
            table.state.discard[-1] if table.state.discard else None
        )
        line = next(self.lines, None)
        if line is None:
            return None
        return line.format(
            triple=" ".join(str(c) for c in _invalid_triple(self.hand)),
            card=str(self.hand[0]),
            upcard=str(self.upcard),
        )


async def test_bad_input_is_explained_and_changes_nothing(tmp_path: Path, spy: Spy) -> None:
    script = Script(
        spy,
        [
            "draw",
            "discard 7x",
            "meld {triple}",
            "layoff {card} 9",
            "fly",
            "draw",
            "",
            "new",
            "quit",
        ],
    )
    code, text = await run(tmp_path, PlayConfig(players=2, seed=1, name="Zoe"), script, locale="de")
    assert code == 0
    assert "Du hast " in text and " gezogen." in text
    assert "'7x' ist keine Karte (Beispiele: 7he 10ka dpi akr jk)." in text
    assert "ist keine gültige Meldung: Die Karten haben weder denselben Rang" in text
    assert "Auf dem Tisch liegt keine Meldung 9." in text
    assert "Unbekannter Befehl 'fly'" in text
    assert "Du kannst jetzt nicht ziehen: Du hast schon gezogen" in text
    # After the draw, every bad line left the stored game exactly as it was.
    after_draw = script.seen[1]
    assert all(seen == after_draw for seen in script.seen[1:])
    assert (await spy.table()).version == after_draw[0]
    assert text.rstrip().endswith("Auf Wiedersehen.")


async def test_english_errors_and_end_of_input(tmp_path: Path, spy: Spy) -> None:
    script = Script(spy, ["discard {card}", "take", "discard {upcard}"])
    code, text = await run(tmp_path, PlayConfig(players=2, seed=1), script)
    assert code == 0
    assert "You cannot discard now: draw a card or take the upcard first." in text
    assert script.upcard is not None
    assert (
        f"You cannot discard {script.upcard.pretty()}: you took it from the discard pile "
        "this turn." in text
    )
    assert "Your game is saved; rummy-bot play continues it." in text
    assert text.rstrip().endswith("Goodbye.")
    stored = await spy.table()  # input ended in the middle of the turn: the game waits
    assert stored.status is Status.PLAYING
    assert stored.state is not None and stored.state.phase is Phase.PLAY


async def test_lang_switches_the_output(tmp_path: Path, spy: Spy) -> None:
    script = Script(spy, ["lang de", "score", "quit"])
    code, text = await run(tmp_path, PlayConfig(players=2, seed=1), script)
    assert code == 0
    assert "Sprache: Deutsch." in text
    assert "Punktestand" in text
    assert text.rstrip().endswith("Auf Wiedersehen.")


async def test_replay_in_the_first_deal_is_refused_and_changes_nothing(
    tmp_path: Path, spy: Spy
) -> None:
    """``replay`` typed in the terminal (docs/replay.md): while no deal is over, the one-line
    refusal in the player's language; the game is untouched."""
    script = Script(spy, ["replay", "wiederholung", "quit"])
    code, text = await run(tmp_path, PlayConfig(players=2, seed=1), script, locale="de")
    assert code == 0
    refusal = "An diesem Tisch ist noch keine Runde vorbei; eine Runde lässt sich wiederholen"
    assert text.count(refusal) == 2
    assert script.seen[0] == script.seen[1]


# --- quit and resume ---------------------------------------------------------------------------


async def test_quit_then_resume_continues_the_same_game(tmp_path: Path, spy: Spy) -> None:
    typist = GreedyTypist(spy, quit_after=len(GreedyTypist.UI) + 6)
    code, first = await run(tmp_path, MATCH, typist)
    assert code == 0
    assert "Your game is saved; rummy-bot play continues it.\nGoodbye." in first
    left = await spy.table()
    assert left.state is not None
    assert left.status is Status.PLAYING and left.id == 1

    # Other options are ignored while a game is stored.
    first_read = len(typist.seen)
    code, second = await run(tmp_path, PlayConfig(players=5, seed=9, name="Max"), typist)
    assert code == 0
    assert second.startswith("Resuming your game from ")
    assert "(rummy-bot play --new starts a new one)." in second
    assert "You are Zoe." in second
    assert second.index("Your hand (") < second.index("Your move> ")
    assert typist.seen[first_read] == (left.version, state_to_dict(left.state))
    resumed = await spy.last()
    assert resumed.id == 1 and resumed.status is Status.FINISHED
    assert await spy.repo.count_tables() == 1

    # The same lines without the break give the same game, move for move.
    db = await open_database(tmp_path / "straight.sqlite3")
    try:
        straight = Spy(db)
        await run(tmp_path, MATCH, GreedyTypist(straight), db_name="straight.sqlite3")
        whole = await straight.last()
        whole_log = await straight.repo.action_log(whole.id)
    finally:
        await db.close()
    assert resumed.state is not None and whole.state is not None
    assert state_to_dict(resumed.state) == state_to_dict(whole.state)
    assert await spy.repo.action_log(1) == whole_log


async def test_new_cancels_the_stored_game_once_confirmed(tmp_path: Path, spy: Spy) -> None:
    """--new with a game in progress asks first (the issue: it threw the game away without
    asking); `new` ends the stored game and starts the new one."""
    await run(tmp_path, MATCH, GreedyTypist(spy, quit_after=0))
    lines = iter(["new", "quit"])

    async def confirm_then_quit() -> str | None:
        return next(lines)

    code, text = await run(
        tmp_path, PlayConfig(players=2, seed=3, name="Zoe"), confirm_then_quit, new=True
    )
    assert code == 0
    assert "Resuming" not in text
    assert text.startswith(
        "A game of Basic Rummy is stored. Type new to end it and start "
        "Basic Rummy, or press Enter to resume it.\nNew game or resume> "
        "The game was cancelled.\nBasic Rummy, preset standard."
    )
    old = await spy.repo.get_table(1)
    assert old is not None and old.status is Status.CANCELLED
    new = await spy.table()
    assert new.id == 2 and len(new.seats) == 2 and new.seed == 3


async def test_cancel_typed_in_the_game_ends_it_once_confirmed(tmp_path: Path, spy: Spy) -> None:
    """`cancel` asks first: Enter plays on, `cancel` again ends the game."""
    code, text = await run(
        tmp_path, PlayConfig(players=2, seed=1), Script(spy, ["cancel", "", "abbrechen", "cancel"])
    )
    assert code == 0
    assert (
        text.count(
            "This ends the game for good. Type cancel again to confirm, or press Enter to play on> "
        )
        == 2
    )
    assert "The game goes on." in text
    assert text.rstrip().endswith("The game was cancelled.")
    assert await spy.repo.active_table(TERMINAL_KEY) is None


async def no_input() -> str | None:
    raise AssertionError("no line should be read")


async def test_a_database_that_cannot_be_opened(tmp_path: Path) -> None:
    (tmp_path / "plain-file").write_text("x", encoding="utf-8")
    with pytest.raises(DatabaseUnavailable):
        await run(tmp_path, PlayConfig(), no_input, db_name="plain-file/terminal.sqlite3")


async def test_bad_rules_are_refused_before_the_file_is_made(tmp_path: Path) -> None:
    with pytest.raises(RuleOptionError):
        await run(tmp_path, PlayConfig(players=9), no_input, db_name="x.db")
    assert not (tmp_path / "x.db").exists()


# --- the notifier and the readers --------------------------------------------------------------


def _info() -> TableInfo:
    seats = (Seat(SeatKind.HUMAN, "Zoe", USER_KEY), Seat(SeatKind.AI, "Ada"))
    return TableInfo(
        1,
        TERMINAL_KEY,
        Status.PLAYING,
        "basic",
        None,
        (),
        USER_KEY,
        seats,
        TableSettings(timer="2m"),
        3,
    )


async def test_the_notifier_warns_only_its_player() -> None:
    out = io.StringIO()
    notifier = TerminalNotifier(out, USER_KEY, "de")
    await notifier.warn(TimerWarning(_info(), 0, USER_KEY, 11.6, "de"))
    await notifier.warn(TimerWarning(_info(), 1, "telegram:7", 5, "de"))
    assert out.getvalue() == "Beeil dich: dein Zug endet in 12 Sekunden.\n"


def lines(items: Iterable[str]) -> LineReader:
    """A reader that returns ``items`` one by one, then ``None`` (end of input)."""
    it: Iterator[str] = iter(items)
    return lambda: next(it, None)


async def test_threaded_reader_plays_a_game(tmp_path: Path) -> None:
    reader = threaded_reader(lines(["hand", "quit"]))
    code, text = await run(tmp_path, PlayConfig(players=2, seed=4), reader)
    assert code == 0
    assert text.count("Your hand (") >= 2
    assert text.rstrip().endswith("Goodbye.")


async def test_threaded_reader_passes_errors_on() -> None:
    def broken() -> str | None:
        raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")

    with pytest.raises(UnicodeDecodeError):
        await threaded_reader(broken)()
    assert await asyncio.wait_for(threaded_reader(lines(["x"]))(), 5) == "x"


async def test_threaded_reader_keeps_the_line_of_a_prompt_that_timed_out() -> None:
    """A prompt with a time limit gives up waiting; the line typed afterwards is not lost
    and no second read competes for it."""
    typed = threading.Event()
    reads: list[int] = []

    def slow() -> str | None:
        reads.append(1)
        typed.wait(10)
        return "call"

    reader = threaded_reader(slow)
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(reader(), 0.05)
    typed.set()
    assert await asyncio.wait_for(reader(), 5) == "call"
    assert reads == [1]


def test_stream_reader() -> None:
    read = stream_reader(io.StringIO("draw\r\n\nquit"))
    assert [read(), read(), read(), read()] == ["draw", "", "quit", None]


# --- the real command as a subprocess ---------------------------------------------------------


def _run_play(
    command: list[str], stdin: str, data: Path, *args: str
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LANG", "USER", "USERNAME")}
    env["XDG_DATA_HOME"] = str(data)
    return subprocess.run(
        [*command, "play", "--seed", "1", "--players", "2", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env=env,
        check=False,
    )


def test_rummy_bot_play_as_a_subprocess_quits_and_resumes(tmp_path: Path) -> None:
    # The console script that `pip install -e .` puts next to the interpreter.
    script = Path(sys.executable).with_name("rummy-bot")
    assert script.is_file()
    done = _run_play([str(script)], "help\nhint\nhand\nquit\n", tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Basic Rummy, preset standard. You are Player.")
    assert "Your hand (" in done.stdout
    assert "Commands (cards are written like" in done.stdout
    assert done.stdout.rstrip().endswith("Goodbye.")
    assert done.stderr == ""
    assert (tmp_path / "rummy-bot" / "terminal.sqlite3").is_file()
    again = _run_play([str(script)], "", tmp_path)
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("Resuming your game from ")


def test_rummy_bot_play_in_german_as_a_subprocess(tmp_path: Path) -> None:
    done = _run_play(
        [sys.executable, "-m", "bot"], "draw\nquit\n", tmp_path, "--lang", "de", "--name", "Zoe"
    )
    assert done.returncode == 0, done.stderr
    assert "Du bist Zoe." in done.stdout
    assert "Du hast " in done.stdout and " gezogen." in done.stdout
    assert done.stdout.rstrip().endswith("Auf Wiedersehen.")


async def test_rummy_bot_play_as_a_subprocess_plays_a_match_to_the_end(
    tmp_path: Path, spy: Spy
) -> None:
    config = PlayConfig(players=2, options={"deals": "1"}, seed=1, name="Zoe")
    typist = GreedyTypist(spy, ui=("hint", "sort"))
    await run(tmp_path, config, typist)
    expected = await spy.last()
    assert expected.state is not None and expected.state.phase is Phase.GAME_OVER

    data = tmp_path / "data"
    done = await asyncio.to_thread(
        _run_play,
        [sys.executable, "-m", "bot"],
        "".join(f"{t}\n" for t in typist.typed),
        data,
        "--option",
        "deals=1",
        "--name",
        "Zoe",
    )
    assert done.returncode == 0, done.stderr
    assert "Game over." in done.stdout
    assert after_totals(done.stdout, "Totals: ")[0].startswith("Deal 1, Zoe: ")
    db = await open_database(data / "rummy-bot" / "terminal.sqlite3")
    try:
        played = await Spy(db).last()
    finally:
        await db.close()
    assert played.status is Status.FINISHED and played.state is not None
    assert state_to_dict(played.state) == state_to_dict(expected.state)


class PassingTypist(GreedyTypist):
    """Like :class:`GreedyTypist`, but lets every out-of-turn call window pass (Enter)."""

    async def __call__(self) -> str | None:
        table = await self.spy.table()
        state = table.state
        assert state is not None
        seat = table.seat_of(USER_KEY)
        if current_player(state) not in (None, seat):
            # asked out of turn only when a call is legal for the human
            assert seat is not None and legal_actions(state, seat), "asked with nothing to call"
            self.typed.append("")
            return ""
        return await super().__call__()


async def test_rummy_500_offers_the_call_out_of_turn(tmp_path: Path, spy: Spy) -> None:
    """rummy-500.de.txt lets every player except the discarder call "Rommé!" before the
    next player draws: the terminal asks the human then (only when a call is legal for
    them: the typist checks every time it is asked), and Enter lets play go on."""
    config = PlayConfig(
        variant="500", players=3, options={"target": "60"}, seed=2, name="Zoe", delay=0.5
    )
    typist = PassingTypist(spy, ui=())
    code, text = await run(tmp_path, config, typist)
    assert code == 0
    final = await spy.last()
    assert final.status is Status.FINISHED
    # issue 37: "the prompt names the cards that can be called (symbols) and what each
    # would meld ... the verb cannot be confused with the hint"
    assert "Rommé! You may call now:\n  call " in text
    assert "Type one of these, or press Enter to play on> " in text
    calls = re.findall(r"\n  (call [^:\n]+): (meld|lay) ([^\n]+)", text)
    assert calls
    for command, _kind, cards in calls:
        assert "♠" in cards or "♥" in cards or "♦" in cards or "♣" in cards or "🃏" in cards
        assert isinstance(parse_command(command, 0), CallRummy)


class AbsentTypist(GreedyTypist):
    """Like :class:`GreedyTypist`, but never answers an out-of-turn call prompt."""

    async def __call__(self) -> str | None:
        table = await self.spy.table()
        assert table.state is not None
        if current_player(table.state) not in (None, table.seat_of(USER_KEY)):
            self.unanswered += 1
            await asyncio.Event().wait()  # the prompt's time limit cancels this
        return await super().__call__()

    unanswered = 0


async def test_the_call_prompt_has_a_time_limit(tmp_path: Path, spy: Spy) -> None:
    """A player who does not answer the out-of-turn call prompt does not stop the game:
    after the prompt's time limit play goes on as if Enter had been pressed."""
    config = PlayConfig(
        variant="500", players=3, options={"target": "60"}, seed=2, name="Zoe", delay=0.5
    )
    typist = AbsentTypist(spy, ui=())
    clock, _, sleep = manual_time()
    out = io.StringIO()
    with use_locale("en"):
        code = await play(
            config,
            tmp_path / "terminal.sqlite3",
            read_line=typist,
            out=out,
            locale="en",
            clock=clock,
            sleep=sleep,
            call_timeout=0.01,
        )
    assert code == 0
    assert (await spy.last()).status is Status.FINISHED
    assert typist.unanswered > 0
    assert out.getvalue().count("No call: the game goes on.") == typist.unanswered


async def test_named_rules_with_a_stored_game_ask_before_anything_is_thrown_away(
    tmp_path: Path, spy: Spy
) -> None:
    """`rummy-bot play --variant german` with a stored Basic Rummy game used to resume the
    stored game silently and drop the flags. Now it asks: Enter resumes, `new` starts the
    game the command line named (the stored one is cancelled); unnamed rules never ask."""
    await run(tmp_path, MATCH, GreedyTypist(spy, quit_after=0))
    german = PlayConfig(variant="german", players=2, seed=3, name="Zoe", chosen=True)

    answers = iter(["", "quit"])

    async def enter_then_quit() -> str | None:
        return next(answers)

    code, text = await run(tmp_path, german, enter_then_quit)
    assert code == 0
    assert text.startswith(
        "A game of Basic Rummy is stored. Type new to end it and start "
        "German Rommé, or press Enter to resume it.\nNew game or resume> "
    )
    assert "Resuming your game from " in text
    assert (await spy.table()).id == 1 and (await spy.table()).variant == "basic"

    answers = iter(["new", "quit"])
    code, text = await run(tmp_path, german, enter_then_quit)
    assert code == 0
    old = await spy.repo.get_table(1)
    assert old is not None and old.status is Status.CANCELLED
    assert (await spy.table()).variant == "german"

    unnamed = iter(["quit"])

    async def just_quit() -> str | None:
        return next(unnamed)

    code, text = await run(tmp_path, PlayConfig(name="Zoe"), just_quit)
    assert "A game of" not in text and "Resuming your game from " in text


async def test_a_language_chosen_in_the_game_is_kept_on_resume(tmp_path: Path) -> None:
    """`lang de` typed in the game is remembered: the next run without --lang (LANG says
    English) resumes in German; --lang en chooses English again."""
    lines = iter(["lang de", "quit"])

    async def switch_then_quit() -> str | None:
        return next(lines)

    await run(tmp_path, PlayConfig(seed=4, name="Zoe"), switch_then_quit)

    async def quit_now() -> str | None:
        return "quit"

    _code, resumed = await run(tmp_path, PlayConfig(name="Zoe"), quit_now, lang_chosen=False)
    assert "Du bist Zoe." in resumed and "You are Zoe." not in resumed
    _code, chosen = await run(tmp_path, PlayConfig(name="Zoe"), quit_now, lang_chosen=True)
    assert "You are Zoe." in chosen


async def test_sort_by_suit_rank_or_melds(tmp_path: Path) -> None:
    """`sort rank`, `sort suit`, `sort melds` choose the order; `sort` alone goes on to the
    next one (the issue: `sort rank` did the same as `sort`)."""
    lines = iter(["sort rank", "sort suit", "sort melds", "sort", "quit"])

    async def typist() -> str | None:
        return next(lines)

    _code, text = await run(tmp_path, PlayConfig(seed=4, name="Zoe"), typist)
    hands = [line.split("> ")[-1] for line in text.splitlines() if "Your hand (" in line]
    by_rank, by_suit, melds, cycled = hands[-4], hands[-3], hands[-2], hands[-1]
    assert by_rank != by_suit and "grouped:" in melds
    assert cycled == by_suit  # after melds first comes by suit again


async def test_an_eliminated_player_watches_the_rest_without_pressing_enter(
    tmp_path: Path, spy: Spy
) -> None:
    """german-romme.de.txt: "ein Spieler welcher mehr Verlustpunkte geschrieben hat scheidet
    aus". A human who only draws and discards is out after the first deal; the two AIs
    play on to the end, and the human is never asked to press Enter between their deals."""
    config = PlayConfig(variant="german", players=3, options={"target": "60"}, seed=2, name="Zoe")

    async def draw_and_discard() -> str | None:
        table = await spy.table()
        state = table.state
        assert state is not None
        seat = table.seat_of(USER_KEY)
        assert seat is not None
        if state.phase is Phase.HAND_OVER:
            assert state.totals[seat] <= 60, "asked although out of the match"
            return ""
        if state.current != seat:
            return ""
        if state.phase is Phase.DRAW:
            return "draw"
        card = next(c for c in state.hands[seat] if c != state.turn.taken)
        return f"discard {card}"

    code, _text = await run(tmp_path, config, draw_and_discard)
    assert code == 0
    final = await spy.last()
    assert final.status is Status.FINISHED and final.state is not None
    assert final.state.deal_number >= 2  # the AIs played on after Zoe was out


async def test_a_first_game_guides_and_explains_the_first_refusal_of_a_kind(
    tmp_path: Path, spy: Spy
) -> None:
    """issue 37: "while a person has finished no game of this variant, the phase line says
    in plain words what they can do now and how ..., and the first refusal of a kind
    explains the rule behind it with an example"; remembering it never changes the
    table."""
    script = Script(spy, ["draw", "meld {triple}", "meld {triple}", "discard {card}"])
    code, text = await run(tmp_path, PlayConfig(players=2, seed=1, name="Zoe"), script, locale="de")
    assert code == 0
    assert "Das kannst du jetzt: Ziehe eine Karte vom Nachziehstapel: `ziehen`" in text
    assert (
        "Das kannst du jetzt: Wirf eine Karte ab, damit endet dein Zug: `abwerfen " in text
        or "Das kannst du jetzt: Lege eine Meldung" in text
    )
    assert text.count("ist keine gültige Meldung") == 2
    assert text.count("Die Regel: Ein Satz sind drei oder vier Karten gleichen Rangs") == 1
    versions = [version for version, _state in script.seen]
    assert versions == sorted(versions)


async def test_no_guide_after_a_finished_game(tmp_path: Path, spy: Spy) -> None:
    """The guide is for a first game only: not once a game of the variant is finished
    (the stored results)."""
    config = PlayConfig(players=2, seed=1, name="Zoe", options={"deals": "1"})
    code, text = await run(tmp_path, config, GreedyTypist(spy, ui=()), locale="de")
    assert code == 0 and "Das kannst du jetzt:" in text
    code, text = await run(tmp_path, config, GreedyTypist(spy, ui=()), locale="de")
    assert code == 0 and "Das kannst du jetzt:" not in text


async def test_the_guide_can_be_turned_off(tmp_path: Path, spy: Spy) -> None:
    config = PlayConfig(players=2, seed=1, name="Zoe", options={"deals": "1"})
    code, text = await run(
        tmp_path, config, Script(spy, ["draw", "meld {triple}"]), locale="de", guide=False
    )
    assert code == 0 and "ist keine gültige Meldung" in text
    assert "Das kannst du jetzt:" not in text and "Die Regel:" not in text


async def test_a_move_asks_the_service_once(
    tmp_path: Path, spy: Spy, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 44 item 5 ("a front end asks the entry point at most once per update"): the
    terminal draws its prompt from the change its notifier was shown, so a whole match
    asks the service for the table's screens only before the first change."""
    from bot.service.entry import EntryPoint

    asked: list[str] = []
    screens, table_info = EntryPoint.screens, EntryPoint.table_info

    async def counted_screens(self: EntryPoint, *args: Any) -> Any:
        asked.append("screens")
        return await screens(self, *args)

    async def counted_table_info(self: EntryPoint, *args: Any) -> Any:
        asked.append("table_info")
        return await table_info(self, *args)

    monkeypatch.setattr(EntryPoint, "screens", counted_screens)
    monkeypatch.setattr(EntryPoint, "table_info", counted_table_info)
    typist = GreedyTypist(spy)
    code, _text = await run(tmp_path, MATCH, typist)
    assert code == 0
    moves = len(typist.typed)
    assert moves > 50
    assert asked.count("screens") <= 1, asked
    assert asked.count("table_info") <= 3, asked  # set-up, the first look, `back`
