"""``rummy-bot play``, the terminal's composition root: open the terminal's database, build
the game service, resume the stored game or set up a new one through the entry point, and
play it (:class:`bot.terminal.game.TerminalGame`, which holds only the entry point).

The terminal is a platform of the game service like the chats: its table lives in
its own SQLite file (default :func:`bot.terminal.setup.default_db_path`) under the
chat key :data:`bot.terminal.setup.TERMINAL_KEY`, every move is committed before
it is shown, and a game left with ``quit`` (or Ctrl-C, or the end of input) is
resumed by the next ``rummy-bot play`` unless ``--new`` cancels it.
"""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TextIO, TypeGuard

from bot.i18n import _, use_locale
from bot.interaction.catalogue import variant_name
from bot.ports.entry import Entry
from bot.ports.host import Host
from bot.ports.intents import (
    AddAI,
    Cancel,
    Coach,
    InChat,
    Intent,
    OpenTable,
    Request,
    SetLanguage,
    Start,
)
from bot.ports.model import Status, TableInfo, UserRef
from bot.ports.table_rules import table_rules
from bot.service.clock import Clock
from bot.service.compute import Compute
from bot.service.flow import FlowControl
from bot.service.service import GameService
from bot.storage import open_database
from bot.storage.database import Database, DatabaseUnusable, damaged
from bot.storage.repository import SqliteRepository
from bot.terminal.game import CALL_PROMPT_SECONDS, Sleep, TerminalGame
from bot.terminal.input import AsyncLineReader
from bot.terminal.notifier import TerminalNotifier
from bot.terminal.setup import (
    PLATFORM,
    TERMINAL_KEY,
    USER_KEY,
    PlayConfig,
    check_config,
    terminal_settings,
    terminal_user,
)
from engine.rules import make_rules

__all__ = ["DatabaseUnavailable", "play"]


class DatabaseUnavailable(Exception):
    """The game database could not be opened (``path``, ``reason``)."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


async def play(
    config: PlayConfig,
    db_path: Path,
    *,
    read_line: AsyncLineReader,
    out: TextIO,
    locale: str,
    new: bool = False,
    clock: Clock | None = None,
    sleep: Sleep = asyncio.sleep,
    compute: Compute | None = None,
    lang_chosen: bool = True,
    call_timeout: float = CALL_PROMPT_SECONDS,
    guide: bool = True,
) -> int:
    """Play in the terminal; returns the exit code (0).

    Resumes the unfinished game stored in ``db_path`` (it keeps its rules, seats
    and AI pace; ``config`` is then not used), unless ``new``: then that game is
    cancelled and a new one set up from ``config``. ``locale``: the language of
    the output when ``lang_chosen`` (``--lang``); otherwise (``LANG`` only) a language
    the player chose with ``lang`` in an earlier run is kept.
    ``clock`` and ``sleep`` are injectable so tests run without waiting; ``compute``: where
    engine work runs (the command line passes its worker pool; default in-process).
    ``call_timeout``: seconds an out-of-turn call prompt waits before play goes on.
    ``guide``: while the player has finished no game of the variant, say what they can do
    and explain the first refusal of each kind (:mod:`bot.render.guide`); False: never.

    Raises :class:`engine.errors.RuleOptionError` for bad rules or a player count
    the variant does not allow (before the database is touched), and
    :class:`DatabaseUnavailable` when the file cannot be opened.
    """
    check_config(config)
    db = await _open(db_path)
    try:
        notifier = TerminalNotifier(out, USER_KEY, locale)
        seed = config.seed
        service = GameService(
            SqliteRepository(db),
            {PLATFORM: notifier},
            clock,
            terminal_settings(config.delay),
            seed_source=None if seed is None else (lambda: seed),
            compute=compute,
            guide=guide,
            coach=True,
        )
        service.flow = FlowControl(limited=False)  # one person at their own keyboard
        host = replace(service.host(), run_due=service.tick)
        entry = host.entry
        user = terminal_user(config.name, locale)
        if lang_chosen:  # this run's --lang decides, not a language chosen in a run before
            await entry.handle(Intent(SetLanguage(None), user, InChat(TERMINAL_KEY)))
        else:
            locale = notifier.locale = await entry.locale_of(user)
        if guide:  # the guided terminal always coaches (issue 46: "always on in --guide")
            await entry.handle(Intent(Coach("on"), user, InChat(TERMINAL_KEY)))
        with use_locale(locale):
            await _set_up(host, user, config, notifier, read_line, new)
        code = await TerminalGame(
            host, user, notifier, read_line, sleep, call_timeout=call_timeout
        ).run()
        await service.coaching.settled()  # the last deal's notes before the goodbye
        return code
    finally:
        await db.close()


async def _set_up(
    host: Host,
    user: UserRef,
    config: PlayConfig,
    notifier: TerminalNotifier,
    read_line: AsyncLineReader,
    new: bool,
) -> None:
    """Resume the game in progress where ``user`` sits, or set up a new one from
    ``config``: with ``new`` (``--new``) or other rules named, the game in progress is only
    cancelled when the player says so (:func:`_ask_new_game`)."""
    entry = host.entry
    info = await entry.table_info(TERMINAL_KEY)
    if _seated_in_game(info, user) and (new or (config.chosen and _other_rules(config, info))):
        # --new, or other rules named: a game in progress is only thrown away when
        # the player says so.
        new = await _ask_new_game(info, config, notifier, read_line)
    if info is not None and (new or not _seated_in_game(info, user)):
        await _do(entry, user, Cancel(), is_admin=True)
        info = None
    if info is None:
        await _new_table(entry, user, config, notifier)
    else:
        await _announce_resume(host, info, user, notifier)


def _seated_in_game(info: TableInfo | None, user: UserRef) -> TypeGuard[TableInfo]:
    """Whether ``info`` is a game in progress where ``user`` has a seat."""
    return info is not None and info.status is Status.PLAYING and info.seat_of(user.key) is not None


def _other_rules(config: PlayConfig, info: TableInfo) -> bool:
    """True when the command line named other rules than the stored game plays."""
    asked = make_rules(config.variant, config.preset, dict(config.options))
    return asked != make_rules(info.variant, info.preset, dict(info.options))


async def _ask_new_game(
    info: TableInfo, config: PlayConfig, notifier: TerminalNotifier, read_line: AsyncLineReader
) -> bool:
    """Ask whether to throw the stored game away for the one the command line named;
    True for ``new`` (``neu``, ``n``), False (resume) for anything else."""
    notifier.write(
        _(
            "A game of {stored} is stored. Type new to end it and start {asked}, "
            "or press Enter to resume it."
        ).format(stored=_(variant_name(info.variant)), asked=_(variant_name(config.variant)))
    )
    notifier.out.write(_("New game or resume> "))
    notifier.out.flush()
    answer = await read_line()
    return answer is not None and answer.strip().lower() in ("new", "neu", "n")


async def _open(path: Path) -> Database:
    try:
        return await open_database(path)
    except DatabaseUnusable as error:
        raise DatabaseUnavailable(path, error.localized()) from error
    except (OSError, sqlite3.Error, UnicodeDecodeError) as error:
        raise DatabaseUnavailable(path, damaged(str(path), error).localized()) from error


def _intro(info: TableInfo, user: UserRef) -> str:
    seat = info.seat_of(user.key)
    name = info.seats[seat].name if seat is not None else user.name
    rules = table_rules(info.variant, info.preset, dict(info.options))
    return _("{variant}, preset {preset}. You are {name}. Type help for the commands.").format(
        variant=_(variant_name(info.variant)), preset=rules.preset, name=name
    )


async def _do(entry: Entry, user: UserRef, request: Request, is_admin: bool = False) -> TableInfo:
    """One table request of the set-up through the entry point; raises its refusal (the
    configuration was checked before, so none is expected)."""
    outcome = await entry.handle(Intent(request, user, InChat(TERMINAL_KEY), is_admin=is_admin))
    if outcome.error is not None:
        raise outcome.error
    assert outcome.info is not None
    return outcome.info


async def _new_table(
    entry: Entry, user: UserRef, config: PlayConfig, notifier: TerminalNotifier
) -> None:
    """Open the table with the player seated, add the AI seats and start the game."""
    words = [
        config.variant,
        *([config.preset] if config.preset else []),
        *(f"{name}={value}" for name, value in config.options.items()),
    ]
    info = await _do(entry, user, OpenTable(tuple(words)))
    for _seat in range(config.players - 1):
        info = await _do(entry, user, AddAI(config.ai))
    notifier.write(_intro(info, user))
    await _do(entry, user, Start())


async def _announce_resume(
    host: Host, info: TableInfo, user: UserRef, notifier: TerminalNotifier
) -> None:
    when = datetime.fromtimestamp(info.updated_at if info.updated_at is not None else host.now())
    notifier.write(
        _("Resuming your game from {date} (rummy-bot play --new starts a new one).").format(
            date=when.strftime("%Y-%m-%d %H:%M")
        )
    )
    notifier.write(_intro(info, user))
    notifier.screen_due = True
