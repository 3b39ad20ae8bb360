"""The ``rummy-bot`` command line.

Subcommands::

    rummy-bot play [--variant basic] [--preset P] [--players 3] [--option k=v ...]
                   [--seed N] [--name NAME] [--lang en|de] [--ai greedy|hard|expert|random]
                   [--delay SECONDS] [--db PATH] [--new] [--guide on|off]
    rummy-bot replay FILE.json [--step]
    rummy-bot verify FILE.json
    rummy-bot review FILE.json [--seat N]
    rummy-bot simulate --games N [--variant basic] [--preset P] [--players k]
                       [--option k=v ...] [--seed N] [--ai greedy|hard|expert|random|expert,hard]
                       [--record FILE.json]
    rummy-bot options [--variant basic] [--preset P]
    rummy-bot run
    rummy-bot faults [--clear ID]
    rummy-bot ratings rebuild
    rummy-bot season new
    rummy-bot bench [--quick] [--only NAME[,NAME]] [--no-peers] [--seed N] [--json FILE]

Every subcommand takes ``--lang en|de`` (default: from the ``LANG``
environment variable). Exit codes: 0 ok, 1 a replayed record had an error, 2
bad arguments, rule options or settings, an unusable game database, and ``run``
while no chat adapter exists, ``migrate --status`` of a directory or a file that is no
database, ``faults --clear ID`` of a table without a fault (each a localised line, never
a traceback; a database that is damaged, a FIFO, a directory or of a newer release is
one line naming it for every subcommand that opens it: ``play``, ``run``, ``faults``,
``migrate``, ``export-db``, ``import-db``), 130 interrupted, 141 the output pipe was
closed (``play`` says so in one line on stderr; its game stays stored).

``verify`` checks a record's fair deals (:mod:`engine.fair_check`, docs/fairness.md) and
prints one line: exit 0 when every deal holds, 1 naming the first mismatch (deal, card or
action) or saying that the record carries no commitments, 2 for a file it cannot read.

``review`` prints the coach's notes (:mod:`bot.review`): for each deal of a record, the
moves of the seat (``--seat``: a number from 1 or a player's name; default every seat)
where the expert's alternative was clearly better, or one line saying none was; exit 0,
2 with one line for a file it cannot read, a record that does not replay or an unknown
seat.

``bench`` runs the benchmarks of a checkout (the top-level ``benchmarks`` package, loaded
by name: the product never imports it); where they are not installed (the wheel carries
only the product) it says so in one line and exits 2.

``play`` keeps its game in a SQLite file (``--db``, default
``$XDG_DATA_HOME/rummy-bot/terminal.sqlite3``): ``quit`` leaves the game stored
and the next ``play`` resumes it, unless ``--new`` cancels it and starts another.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import logging
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tqdm import tqdm

from bot.cli_database import add_commands as add_database_commands
from bot.cli_database import add_lang, read_failure, unusable_line
from bot.i18n import _, argparse_texts, current_locale, normalize_locale, use_locale
from bot.i18n.errors import localize_error
from bot.play import DatabaseUnavailable, play
from bot.ports.table_rules import AI_LEVELS, DEFAULT_LEVEL, LEVEL_ALIASES
from bot.record_files import load_record
from bot.render.rules import render_presets, render_rules, render_variants
from bot.render.text import render_match_goal
from bot.settings import Settings, SettingsError
from bot.terminal.input import stream_reader, threaded_reader
from bot.terminal.record_walk import walk_record
from bot.terminal.setup import PlayConfig, default_db_path, default_name, parse_option_pairs
from engine.ai import KINDS
from engine.errors import EngineError
from engine.fair_check import FairCheck, check_record
from engine.records import RecordError, dump_record, failed_report, replay
from engine.rules import RuleSet, make_rules
from engine.simulate import SimulationResult, simulate

__all__ = ["build_parser", "main"]

Handler = Callable[[argparse.Namespace], int]


def _default_delay() -> float:
    """0.4 s between AI moves when a person watches (stdout is a terminal), else none."""
    return 0.4 if sys.stdout.isatty() else 0.0


def _ai_level(word: str) -> str:
    """The AI level ``word`` names for ``play --ai``: a level, one of its German words or
    the engine's name of the player (``greedy`` is ``normal``), as in the chats
    (:data:`bot.ports.table_rules.LEVEL_ALIASES`); another word is left for argparse to
    refuse with the levels it accepts."""
    key = word.strip().lower()
    return key if key in AI_LEVELS else LEVEL_ALIASES.get(key, key)


def _add_rules(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", default="basic", help=_("rules variant (default: basic)"))
    parser.add_argument("--preset", default=None, help=_("preset of the variant"))
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=_("set a rule option; may be repeated"),
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser; its help texts are in the current locale."""
    parser = argparse.ArgumentParser(
        prog="rummy-bot", description=_("Rummy: play in the terminal, replay and simulate.")
    )
    parser.add_argument(
        "--lang",
        choices=("en", "de"),
        default=None,
        help=_("language of the output (default: from LANG)"),
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    play = commands.add_parser("play", help=_("play against AI players in the terminal"))
    _add_rules(play)
    play.set_defaults(variant=None)  # None: not named (basic, unless a game is stored)
    play.add_argument("--players", type=int, default=3, help=_("seats, you included"))
    play.add_argument("--seed", type=int, default=None, help=_("seed of the shuffle"))
    play.add_argument(
        "--name", default=None, help=_("your name at the table (default: your login name)")
    )
    play.add_argument(
        "--ai",
        type=_ai_level,
        choices=tuple(AI_LEVELS),
        default=DEFAULT_LEVEL,
        help=_("level of the AI players: easy, normal, hard or expert (default: normal)"),
    )
    play.add_argument(
        "--delay",
        type=float,
        default=None,
        help=_("seconds between AI moves (default: 0.4 in a terminal, else 0)"),
    )
    play.add_argument(
        "--db",
        default=None,
        metavar="PATH",
        help=_("file that keeps the game (default: $XDG_DATA_HOME/rummy-bot/terminal.sqlite3)"),
    )
    play.add_argument(
        "--new",
        action="store_true",
        help=_("start a new game even if one is stored (it asks, then cancels the stored one)"),
    )
    play.add_argument(
        "--guide",
        choices=("on", "off"),
        default="on",
        help=_(
            "in your first game of a variant, say what you can do and what to type (default: on)"
        ),
    )
    add_lang(play)
    play.set_defaults(handler=_play)

    rep = commands.add_parser("replay", help=_("replay a game record and print the result"))
    rep.add_argument("file", metavar="FILE.json", help=_("the game record (JSON)"))
    rep.add_argument(
        "--step",
        action="store_true",
        help=_("walk the game move by move (Enter: next, b: back, q: quit)"),
    )
    add_lang(rep)
    rep.set_defaults(handler=_replay)

    ver = commands.add_parser(
        "verify", help=_("check that a game record's deals were dealt as committed")
    )
    ver.add_argument("file", metavar="FILE.json", help=_("the game record (JSON)"))
    add_lang(ver)
    ver.set_defaults(handler=_verify)

    rev = commands.add_parser(
        "review", help=_("show the moves of a game record where the expert would have done better")
    )
    rev.add_argument("file", metavar="FILE.json", help=_("the game record (JSON)"))
    rev.add_argument(
        "--seat",
        default=None,
        metavar="N",
        help=_("the player to review: a number from 1 or a name (default: every player)"),
    )
    add_lang(rev)
    rev.set_defaults(handler=_review)

    sim = commands.add_parser("simulate", help=_("play AI against AI and print statistics"))
    _add_rules(sim)
    sim.add_argument("--games", type=int, default=100, help=_("number of games (default: 100)"))
    sim.add_argument("--players", type=int, default=2, help=_("seats per game"))
    sim.add_argument("--seed", type=int, default=0, help=_("first seed"))
    sim.add_argument(
        "--ai",
        default="greedy",
        help=_("AI kind for every seat, or one per seat separated by commas"),
    )
    sim.add_argument(
        "--record",
        default=None,
        metavar="FILE.json",
        help=_("write the game record of the last game to FILE"),
    )
    add_lang(sim)
    sim.set_defaults(handler=_simulate)

    opts = commands.add_parser("options", help=_("list variants, presets and rule options"))
    opts.add_argument("--variant", default="basic", help=_("rules variant (default: basic)"))
    opts.add_argument("--preset", default=None, help=_("preset of the variant"))
    add_lang(opts)
    opts.set_defaults(handler=_options)

    run = commands.add_parser("run", help=_("start the chat bot (Discord / Telegram)"))
    add_lang(run)
    run.set_defaults(handler=_run)

    faults = commands.add_parser(
        "faults",
        help=_(
            "list the tables whose automatic steps fail or that cannot be "
            "loaded (DATABASE_URL or DATABASE_PATH)"
        ),
    )
    faults.add_argument(
        "--clear",
        type=int,
        default=None,
        metavar="ID",
        help=_("let table ID run again (after fixing it)"),
    )
    add_lang(faults)
    faults.set_defaults(handler=_faults)

    add_database_commands(commands)

    bench = commands.add_parser(
        "bench", help=_("measure the engine and the bot and print a table of the figures")
    )
    bench.add_argument(
        "--quick",
        action="store_true",
        help=_("a short run of a few seconds per section (rougher figures)"),
    )
    benchmarks = _benchmarks()
    bench.add_argument(
        "--only",
        default=None,
        metavar="NAME[,NAME]",
        help=_("run only these sections: {names}").format(
            names=", ".join(benchmarks.runner.SECTIONS)
        )
        if benchmarks
        else _("run only these sections (listed where the benchmarks are installed)"),
    )
    bench.add_argument(
        "--no-peers",
        action="store_true",
        help=_("skip the comparisons with rummikub-solver and RLCard"),
    )
    bench.add_argument(
        "--seed", type=int, default=None, help=_("seed of every generated position and game")
    )
    bench.add_argument(
        "--json", default=None, metavar="FILE", help=_("also write every figure to FILE as JSON")
    )
    add_lang(bench)
    bench.set_defaults(handler=_bench)
    return parser


def _language(argv: Sequence[str]) -> str:
    """The ``--lang`` given anywhere in ``argv``, else the ``LANG`` environment variable."""
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--lang", default=None)
    known, _rest = pre.parse_known_args(list(argv))
    return normalize_locale(known.lang or os.environ.get("LANG"))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); returns the exit code."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    argparse_texts.install()  # argparse's own words (usage:, options) in the language too
    with use_locale(_language(args_list)):
        try:
            args = build_parser().parse_args(args_list)
        except SystemExit as stop:  # --help, or a usage error already printed
            return stop.code if isinstance(stop.code, int) else 2
        handler: Handler = args.handler
        try:
            return handler(args)
        except EngineError as error:  # bad rule options, an unknown AI kind
            print(localize_error(error), file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            print(file=sys.stderr)
            return 130
        except BrokenPipeError:  # e.g. `rummy-bot options | head`: the reader left
            _quiet_stdout()
            return 141


def _quiet_stdout() -> None:
    """Point stdout at /dev/null after its reader left, so the flush at exit does not fail
    a second time ("Exception ignored ... BrokenPipeError")."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is no real file (tests capture it)
        pass


# --- play -----------------------------------------------------------------------------------


def _play(args: argparse.Namespace) -> int:
    config = PlayConfig(
        variant=args.variant or "basic",
        chosen=args.variant is not None or args.preset is not None or bool(args.option),
        preset=args.preset,
        players=args.players,
        options=parse_option_pairs(args.option),
        seed=args.seed,
        name=default_name(os.environ) if args.name is None else args.name,
        ai=args.ai,
        delay=_default_delay() if args.delay is None else max(args.delay, 0.0),
    )
    path = Path(args.db).expanduser() if args.db else default_db_path(os.environ)
    try:
        return asyncio.run(
            _play_with_pool(config, path, args.new, args.lang is not None, args.guide == "on")
        )
    except DatabaseUnavailable as error:
        print(
            _("Cannot open the game file {path}: {reason}").format(
                path=error.path, reason=error.reason
            ),
            file=sys.stderr,
        )
        return 2
    except BrokenPipeError:
        print(
            _("The output was closed; the game is saved and rummy-bot play continues it."),
            file=sys.stderr,
        )
        _quiet_stdout()
        return 141


async def _play_with_pool(
    config: PlayConfig, path: Path, new: bool, lang_chosen: bool, guide: bool = True
) -> int:
    """The terminal game with its engine work in worker processes, like the chat bot."""
    from bot.service import engine_work
    from bot.service.compute import WorkerPool

    pool = WorkerPool(2, warm_up=engine_work.warm_up)
    try:
        await pool.start()
        return await play(
            config,
            path,
            read_line=threaded_reader(stream_reader(sys.stdin)),
            out=sys.stdout,
            locale=current_locale.get(),
            new=new,
            compute=pool,
            lang_chosen=lang_chosen,
            guide=guide,
        )
    finally:
        await pool.close()


# --- replay ---------------------------------------------------------------------------------


def _replay(args: argparse.Namespace) -> int:
    if args.step:
        return _walk(args.file)
    try:
        report = replay(load_record(args.file))
    except RecordError as error:
        report = failed_report(error)
    print(json.dumps(report, indent=2, ensure_ascii=False))
    if report.get("ok"):
        return 0
    print(_('The record has an error; see "error" in the output.'), file=sys.stderr)
    return 1


def _walk(path: str) -> int:
    """``replay FILE --step`` (:mod:`bot.terminal.record_walk`); 2 for an unreadable file."""
    try:
        record = load_record(path)
    except RecordError as error:
        print(localize_error(error), file=sys.stderr)
        return 2

    def read_line() -> str | None:
        try:
            return input()
        except EOFError:
            return None

    return walk_record(record, read_line, print)


# --- verify ---------------------------------------------------------------------------------


def _verify(args: argparse.Namespace) -> int:
    try:
        record = load_record(args.file)
    except RecordError as error:
        print(localize_error(error), file=sys.stderr)
        return 2
    check = check_record(record)
    if check.code == "unreadable" and check.error is not None:
        print(localize_error(check.error), file=sys.stderr)
        return 2
    print(_verify_line(check))
    return 0 if check.ok else 1


def _verify_line(check: FairCheck) -> str:
    """The one line ``verify`` prints for ``check`` (in the current locale)."""
    nothing = _("nothing")
    if check.code == "ok":
        return _(
            "All {deals} deals hold: each deck is the one its revealed secret deals, "
            "each commitment matches, every action replays."
        ).format(deals=check.deals)
    if check.code == "no_commitments":
        return _(
            "The record carries no commitments (it was written before fair dealing): "
            "there is nothing to verify."
        )
    if check.code == "no_commitment":
        return _("Deal {deal} carries no commitment.").format(deal=check.deal)
    if check.code == "commitment":
        return _(
            "Deal {deal}: the commitment is not the SHA-256 of the deck its revealed "
            "secret deals and that secret."
        ).format(deal=check.deal)
    if check.code == "card":
        return _(
            "Deal {deal}, card {card} of the deck: the record lists {listed}, the "
            "secret deals {expected}."
        ).format(
            deal=check.deal,
            card=check.card,
            listed=check.listed or nothing,
            expected=check.expected or nothing,
        )
    error = localize_error(check.error) if check.error is not None else ""
    if check.action is None:
        return _("Deal {deal} cannot be dealt: {error}").format(deal=check.deal, error=error)
    return _("Deal {deal}, action {action} ({line}): {error}").format(
        deal=check.deal, action=check.action, line=check.text, error=error
    )


# --- review ---------------------------------------------------------------------------------


def _review(args: argparse.Namespace) -> int:
    """``review FILE [--seat N]`` (:mod:`bot.review`)."""
    from bot.review import review_file

    code, line = review_file(args.file, args.seat, lambda text: print(text, flush=True))
    if line:
        print(line, file=sys.stderr)
    return code


# --- simulate -------------------------------------------------------------------------------


def _simulate(args: argparse.Namespace) -> int:
    refusal = _simulate_refusal(args)
    if refusal is not None:
        print(refusal, file=sys.stderr)
        return 2
    kinds = _ai_kinds(args)
    rules = make_rules(args.variant, args.preset, parse_option_pairs(args.option))
    seat_kinds = tuple(kinds * args.players if len(kinds) == 1 else kinds)
    # A progress bar on stderr while the games run (only when a person watches it).
    with tqdm(
        total=args.games,
        unit=_("games"),
        disable=not sys.stderr.isatty(),
        file=sys.stderr,
        leave=False,
    ) as bar:
        result = simulate(
            rules,
            args.games,
            args.players,
            seed=args.seed,
            ai=seat_kinds,
            progress=bar.update,
            keep_record=args.record is not None,
        )
    record = result.record if args.record is not None else None
    if record is not None and not _write_record(args.record, record):
        return 2
    print("\n".join(line for line in _simulation_lines(args, rules, result) if line))
    return 0


def _ai_kinds(args: argparse.Namespace) -> list[str]:
    """The AI kinds of ``--ai`` (comma-separated), lower case."""
    return [k.strip().lower() for k in str(args.ai).split(",")]


def _simulate_refusal(args: argparse.Namespace) -> str | None:
    """Why ``simulate`` cannot run with ``args`` (fewer than one game; ``--ai`` naming an
    unknown kind, or neither one kind nor one per seat), or ``None``."""
    if args.games < 1:
        return _("--games must be at least 1.")
    kinds = _ai_kinds(args)
    if any(k not in KINDS for k in kinds) or len(kinds) not in (1, args.players):
        return _("--ai takes {kinds}, one for all seats or one per seat (got {value}).").format(
            kinds=", ".join(KINDS), value=args.ai
        )
    return None


def _write_record(path: str, record: dict[str, Any]) -> bool:
    """Write the simulation's game ``record`` to ``path``; False (said on stderr) when
    the file cannot be written."""
    try:
        Path(path).write_text(dump_record(record), encoding="utf-8")
    except OSError as error:
        print(
            _("Cannot write the record to {path}: {error}").format(
                path=path, error=error.strerror or error
            ),
            file=sys.stderr,
        )
        return False
    return True


def _simulation_lines(
    args: argparse.Namespace, rules: RuleSet, result: SimulationResult
) -> list[str]:
    """The report of a simulation ``result`` (empty lines left in: the caller drops
    them)."""
    lines = [
        _("Simulation: {variant}, preset {preset}, AI {ai}").format(
            variant=rules.variant, preset=rules.preset, ai=args.ai
        ),
        render_match_goal(rules),
        _("games: {n}").format(n=result.games),
        _("players: {n}").format(n=result.players),
        _("seconds: {s:.2f}").format(s=result.seconds),
        _("games per second: {rate:.1f}").format(rate=result.games_per_second),
        _("mean actions per game: {n:.1f}").format(n=result.mean_actions),
        _("win share per seat:"),
    ]
    for seat, share in enumerate(result.win_shares):
        lines.append(
            _("  seat {seat} ({ai}): {share:.1%}").format(
                seat=seat + 1, ai=result.ai[seat], share=share
            )
        )
    lines.append(_("unfinished: {n}").format(n=result.unfinished))
    return lines


# --- options --------------------------------------------------------------------------------


def _options(args: argparse.Namespace) -> int:
    rules = make_rules(args.variant, args.preset)
    print(render_variants())
    print()
    print(render_presets(rules.variant))
    print()
    print(render_rules(rules))
    return 0


# --- run ------------------------------------------------------------------------------------


def _run(args: argparse.Namespace) -> int:
    try:
        settings = Settings.from_env()
    except SettingsError as error:
        print(str(error), file=sys.stderr)
        return 2
    if settings.discord_token is None and settings.telegram_token is None:
        print(
            _(
                "No chat platform is configured: set DISCORD_TOKEN or TELEGRAM_TOKEN "
                "(in the environment or a .env file). To play in the terminal now, run: "
                "rummy-bot play"
            ),
            file=sys.stderr,
        )
        return 2
    logging.basicConfig(
        level=settings.log_level_number, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    from bot.runner import NoPlatform, WorkerNameTaken, run_bot
    from bot.storage import DatabaseUnusable

    try:
        asyncio.run(run_bot(settings, freeze_heap=True))
    except DatabaseUnusable as error:
        print(_unusable(error), file=sys.stderr)
        return 2
    except WorkerNameTaken as error:
        print(
            _(
                "Another worker on this database runs as WORKER_ID={name}; give each "
                "worker its own name, or stop the other one."
            ).format(name=error.worker_id),
            file=sys.stderr,
        )
        return 2
    except NoPlatform as error:
        print(
            _(
                "Every platform refused the bot's token ({platforms}); check the tokens in "
                "the settings."
            ).format(platforms=error),
            file=sys.stderr,
        )
        return 3
    return 0


def _unusable(error: Any) -> str:
    """One line for a database that cannot be used (a :class:`DatabaseUnusable`)."""
    return unusable_line(error)


# --- faults ---------------------------------------------------------------------------------


class NoFaultToClear(Exception):
    """``faults --clear ID`` names a table that has no stored fault (``table_id``)."""

    def __init__(self, table_id: int) -> None:
        super().__init__(table_id)
        self.table_id = table_id


def _faults(args: argparse.Namespace) -> int:
    try:
        settings = Settings.from_env()
    except SettingsError as error:
        print(str(error), file=sys.stderr)
        return 2
    import sqlite3

    from bot.service.errors import StorageUnavailable
    from bot.storage import DatabaseUnusable

    try:
        lines = asyncio.run(_fault_lines(settings, args.clear))
    except DatabaseUnusable as error:
        print(_unusable(error), file=sys.stderr)
        return 2
    except (sqlite3.Error, UnicodeDecodeError, StorageUnavailable) as error:
        # it opened, then failed while it was read: damage past the first checks
        where = "PostgreSQL" if settings.database_url else str(settings.database_path)
        print(_unusable(read_failure(where, error)), file=sys.stderr)
        return 2
    except NoFaultToClear as error:
        print(
            _("Table {id} has no fault to clear (rummy-bot faults lists them).").format(
                id=error.table_id
            ),
            file=sys.stderr,
        )
        return 2
    print("\n".join(lines))
    return 0


async def _fault_lines(settings: Settings, clear: int | None) -> list[str]:
    from bot.storage.backend import open_storage

    db, repo = await open_storage(settings)
    try:
        rows = await repo.faults()
        if clear is not None:
            if all(row["table_id"] != clear for row in rows):
                raise NoFaultToClear(clear)
            await repo.clear_fault(clear)
            rows = await repo.faults()
        beat = await repo.last_heartbeat()
    finally:
        await db.close()
    lines = [_("Last heartbeat: {when}").format(when=_when(beat))]
    if not rows:
        lines.append(_("No table is failing."))
    for row in rows:
        lines.append(
            _("table {id} ({chat}): {kind}, {failures} failures, next try {retry}: {error}").format(
                id=row["table_id"],
                chat=row["chat_key"],
                kind=row["kind"],
                failures=row["failures"],
                retry=_when(row["retry_at"]),
                error=row["error"],
            )
        )
    return lines


def _when(stamp: float | None) -> str:
    from datetime import datetime

    return "-" if stamp is None else datetime.fromtimestamp(stamp).strftime("%Y-%m-%d %H:%M:%S")


# --- bench ----------------------------------------------------------------------------------


class _Benchmarks:
    """The benchmarks' modules ``runner`` and ``report`` (the top-level ``benchmarks``
    package of a checkout)."""

    def __init__(self) -> None:
        self.runner = importlib.import_module("benchmarks.runner")
        self.report = importlib.import_module("benchmarks.report")


def _benchmarks() -> _Benchmarks | None:
    """The benchmarks where they are installed (a checkout, an editable install), else
    ``None``: the wheel carries only the product, which never imports them (pyproject.toml,
    the import contracts), so they are loaded by name."""
    try:
        return _Benchmarks()
    except ModuleNotFoundError as error:
        if error.name == "benchmarks" or (error.name or "").startswith("benchmarks."):
            return None
        raise


def _bench(args: argparse.Namespace) -> int:
    benchmarks = _benchmarks()
    if benchmarks is None:
        print(
            _(
                "The benchmarks are not installed: rummy-bot bench runs in a checkout of "
                "rummy-bot (pip install -e '.[bench]')."
            ),
            file=sys.stderr,
        )
        return 2
    runner, config_type = benchmarks.runner, benchmarks.report.BenchConfig
    try:
        names = runner.parse_only(args.only)
    except ValueError as error:
        print(
            _("--only takes {names}, separated by commas (unknown: {value}).").format(
                names=", ".join(runner.SECTIONS), value=error
            ),
            file=sys.stderr,
        )
        return 2
    seed = config_type().seed if args.seed is None else args.seed
    config = config_type(quick=args.quick, peers=not args.no_peers, seed=seed)
    try:
        return int(runner.run_bench(config, names, json_path=args.json))
    except OSError as error:
        print(
            _("Cannot write {path}: {reason}").format(path=args.json, reason=error.strerror),
            file=sys.stderr,
        )
        return 2
