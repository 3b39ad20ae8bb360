"""The operator's database commands of ``rummy-bot``: ``migrate`` (apply the schema
migrations, or ``--status``), ``export-db FILE`` and ``import-db FILE`` (move an
installation between SQLite and PostgreSQL: :mod:`bot.storage.transfer`), ``ratings
rebuild`` (every rating again from the finished games: the global board's and each chat
season's) and ``season new`` (the next season of the global board; a chat's host starts
the chat's with the chat command ``season new``). The database is
the one the bot would use: ``DATABASE_URL`` (PostgreSQL) if set, else ``DATABASE_PATH``.
Exit codes: 0 done, 2 a setting, the database or the file is unusable (one line naming
it, never a traceback: a damaged file, a FIFO, a directory, a schema of a newer
release)."""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

import asyncpg

from bot.i18n import N_, _
from bot.service.errors import StorageUnavailable
from bot.settings import Settings, SettingsError
from bot.storage.backend import open_storage
from bot.storage.database import DatabaseUnusable, damaged, inspect_file, latest_schema
from bot.storage.postgres import schema_status
from bot.storage.transfer import TransferError, export_rows, import_rows

__all__ = ["add_commands", "add_lang"]


def add_commands(commands: Any) -> None:
    """Register ``migrate``, ``export-db``, ``import-db``, ``ratings`` and ``season`` on the
    subparsers ``commands``."""
    migrate = commands.add_parser(
        "migrate", help=_("apply the database schema migrations (DATABASE_URL or DATABASE_PATH)")
    )
    migrate.add_argument(
        "--status", action="store_true", help=_("only show the schema version, change nothing")
    )
    add_lang(migrate)
    migrate.set_defaults(handler=_migrate)
    export = commands.add_parser(
        "export-db", help=_("write every row of the database to FILE (JSON lines)")
    )
    export.add_argument("file", metavar="FILE")
    add_lang(export)
    export.set_defaults(handler=_export)
    load = commands.add_parser("import-db", help=_("load an export into the (empty) database"))
    load.add_argument("file", metavar="FILE")
    add_lang(load)
    load.set_defaults(handler=_import)
    _one_action(
        commands,
        "ratings",
        _("skill ratings: recompute them from the finished games"),
        "rebuild",
        _(
            "rebuild: recompute every rating from the stored finished "
            "games (the same result each time)"
        ),
    ).set_defaults(handler=_ratings)
    _one_action(
        commands,
        "season",
        _("skill ratings: start the next season of the global board"),
        "new",
        _(
            "new: the global board's running season ends now, the next begins (its "
            "standings stay viewable: top global season N)"
        ),
    ).set_defaults(handler=_season)


def _one_action(
    commands: Any, name: str, help_text: str, action: str, action_help: str
) -> argparse.ArgumentParser:
    """The subcommand ``name ACTION`` whose one action is ``action`` (``--lang`` too)."""
    parser: argparse.ArgumentParser = commands.add_parser(name, help=help_text)
    parser.add_argument("action", choices=(action,), help=action_help)
    add_lang(parser)
    return parser


def add_lang(parser: argparse.ArgumentParser) -> None:
    """The ``--lang en|de`` option of every subcommand (default: from ``LANG``)."""
    parser.add_argument(
        "--lang",
        choices=("en", "de"),
        default=argparse.SUPPRESS,
        help=_("language of the output (default: from LANG)"),
    )


def _settings() -> Settings | None:
    try:
        return Settings.from_env()
    except SettingsError as error:
        print(str(error), file=sys.stderr)
        return None


def _where(settings: Settings) -> str:
    return "PostgreSQL" if settings.database_url else str(settings.database_path)


def unusable_line(error: DatabaseUnusable) -> str:
    """The one line (current language) for a database that cannot be used, naming it."""
    return _("Cannot use the database {path}: {reason}").format(
        path=error.path, reason=error.localized()
    )


def read_failure(where: str, error: BaseException) -> DatabaseUnusable:
    """The refusal of the database ``where`` for an error raised while it was read after it
    opened (``sqlite3.Error``, ``UnicodeDecodeError`` from SQLite's message, or the
    service's :class:`StorageUnavailable`): damage the first checks did not see."""
    if isinstance(error, StorageUnavailable):
        return DatabaseUnusable(where, N_("damaged or unavailable"))
    return damaged(where, error)


def _run(work: Any, settings: Settings) -> int:
    try:
        return int(asyncio.run(work))
    except DatabaseUnusable as error:
        print(unusable_line(error), file=sys.stderr)
        return 2
    except (sqlite3.Error, UnicodeDecodeError, StorageUnavailable) as error:
        # the file opened, then failed while it was read: damage past the first checks
        print(unusable_line(read_failure(_where(settings), error)), file=sys.stderr)
        return 2
    except (TransferError, OSError) as error:
        print(" ".join(str(error).split()), file=sys.stderr)
        return 2


def _migrate(args: argparse.Namespace) -> int:
    settings = _settings()
    if settings is None:
        return 2
    return _run(_migrate_async(settings, args.status), settings)


async def _migrate_async(settings: Settings, status_only: bool) -> int:
    if status_only:
        applied = await _applied(settings)
        print(
            _("{where}: schema {applied} of {known}").format(
                where=_where(settings), applied=applied, known=latest_schema()
            )
        )
        return 0
    db, _repo = await open_storage(settings)  # opening migrates
    await db.close()
    print(
        _("{where}: schema {applied} of {known}").format(
            where=_where(settings), applied=latest_schema(), known=latest_schema()
        )
    )
    return 0


async def _applied(settings: Settings) -> int:
    """The schema version of the database without migrating it (0: none yet).

    Raises :class:`DatabaseUnusable` for a directory or a file that is not a readable
    SQLite database (``migrate --status`` then says so in one line, exit code 2)."""
    if settings.database_url:
        conn = await asyncpg.connect(settings.database_url)
        try:
            return (await schema_status(conn))[0]
        finally:
            await conn.close()
    return inspect_file(settings.database_path)


def _export(args: argparse.Namespace) -> int:
    settings = _settings()
    if settings is None:
        return 2
    return _run(_export_async(settings, Path(args.file)), settings)


async def _export_async(settings: Settings, path: Path) -> int:
    db, repo = await open_storage(settings)
    try:
        with path.open("w", encoding="utf-8") as out:
            counts = await export_rows(repo, out, latest_schema())
    finally:
        await db.close()
    print(
        _("Exported {rows} rows of {where} to {file}.").format(
            rows=sum(counts.values()), where=_where(settings), file=path
        )
    )
    return 0


def _ratings(args: argparse.Namespace) -> int:
    settings = _settings()
    if settings is None:
        return 2
    return _run(_ratings_async(settings), settings)


async def _ratings_async(settings: Settings) -> int:
    db, repo = await open_storage(settings)
    try:
        games = await repo.rebuild_ratings()
    finally:
        await db.close()
    print(
        _("Ratings of {where} rebuilt from {games} finished games.").format(
            where=_where(settings), games=games
        )
    )
    return 0


def _season(args: argparse.Namespace) -> int:
    settings = _settings()
    if settings is None:
        return 2
    return _run(_season_async(settings), settings)


async def _season_async(settings: Settings) -> int:
    db, repo = await open_storage(settings)
    try:
        number = await repo.start_season(time.time())
    finally:
        await db.close()
    print(
        _("Season {season} of the global board of {where} begins now.").format(
            season=number, where=_where(settings)
        )
    )
    return 0


def _import(args: argparse.Namespace) -> int:
    settings = _settings()
    if settings is None:
        return 2
    return _run(_import_async(settings, Path(args.file)), settings)


async def _import_async(settings: Settings, path: Path) -> int:
    if not path.is_file():
        raise TransferError(_("{file} is not a file").format(file=path))
    db, repo = await open_storage(settings)
    try:
        counts = await import_rows(
            repo, path, latest_schema(), postgres=settings.database_url is not None
        )
    finally:
        await db.close()
    print(
        _("Imported {rows} rows into {where}.").format(
            rows=sum(counts.values()), where=_where(settings)
        )
    )
    return 0
