"""Moving an installation between databases (``rummy-bot export-db`` / ``import-db``): every
row of every table of the schema as JSON lines, so a SQLite installation can move to
PostgreSQL (or back) without losing a game, a log line, a seen update or a message id.

The file is one JSON object per line: first ``{"format": 1, "schema": N}``, then
``{"table": name, "row": {...}}`` for each row, tables in :data:`TABLES` order (parents
before the rows that refer to them). Import refuses a database that already holds
tables or users, and moves PostgreSQL's id counters past the imported ids.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

import aiosqlite

from bot.storage.repository import SqliteRepository

__all__ = ["TABLES", "TransferError", "export_rows", "import_rows"]

FORMAT = 1

TABLES: tuple[str, ...] = (
    "users",
    "tables",
    "actions",
    "seen_updates",
    "results",
    "telegram_table_messages",
    "telegram_hand_messages",
    "telegram_chats",
    "telegram_users",
    "discord_table_messages",
    "table_faults",
    "heartbeat",
    "table_changes",
    "sent_keys",
    "rating_seasons",
    "ratings",
    "rated_games",
    "chat_seasons",
    "chat_ratings",
)
"""Every table of the schema, parents first; not ``due_leases`` nor ``chat_owners``
(claims on due work and on showing a chat, which run out within seconds), nor
``telegram_group_budget`` (a minute's rate budget), nor ``discord_hand_anchors``
(interaction tokens that run out within 15 minutes and edit a message only for whoever
holds them: they are not carried into export files)."""

IDENTITY: dict[str, str] = {"tables": "id", "actions": "id"}
"""Tables whose ids a database counts itself (PostgreSQL identity columns)."""

ORDER: dict[str, str] = {
    "users": "platform, user_id",
    "tables": "id",
    "actions": "id",
    "seen_updates": "key",
    "results": "table_id, seat",
    "telegram_table_messages": "table_id",
    "telegram_hand_messages": "user_id, table_id",
    "telegram_chats": "chat_id",
    "telegram_users": "user_id",
    "discord_table_messages": "table_id",
    "table_faults": "table_id",
    "heartbeat": "id",
    "table_changes": "table_id, version",
    "sent_keys": "key",
    "rating_seasons": "number",
    "ratings": "user_key, variant, season",
    "rated_games": "table_id",
    "chat_seasons": "chat_key, number",
    "chat_ratings": "chat_key, season, user_key, variant",
}


class TransferError(Exception):
    """The file or the target database cannot take part in a transfer (the message says
    why)."""


async def export_rows(repo: SqliteRepository, out: TextIO, schema: int) -> dict[str, int]:
    """Write every row of ``repo``'s database to ``out``; returns the rows per table.
    Every table is read in one snapshot (:meth:`SqliteRepository.snapshot`: one read
    transaction, ``REPEATABLE READ`` on PostgreSQL), so an export while workers play has
    no log line past its table's version. Raises
    :class:`bot.service.errors.StorageUnavailable` when the database cannot be read."""
    out.write(json.dumps({"format": FORMAT, "schema": schema}) + "\n")
    counts: dict[str, int] = {}
    async with repo.snapshot() as read:
        for table in TABLES:
            rows = await read(f"SELECT * FROM {table} ORDER BY {ORDER[table]}")
            for row in rows:
                record = dict(zip(row.keys(), row, strict=True))
                out.write(json.dumps({"table": table, "row": record}, ensure_ascii=False) + "\n")
            counts[table] = len(rows)
    return counts


def _read(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if line.strip():
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as error:
                    raise TransferError(f"line {number} is not JSON: {error}") from error


def _check_head(head: dict[str, Any] | None, schema: int) -> None:
    """Raise :class:`TransferError` unless ``head`` is the format line of an export from
    ``schema`` or older."""
    if not head or head.get("format") != FORMAT:
        raise TransferError("not an export of rummy-bot (no format line)")
    if int(head.get("schema", 0)) > schema:
        raise TransferError(
            f"exported from schema {head['schema']}; this release knows up to {schema}"
        )


async def _check_empty(repo: SqliteRepository) -> None:
    """Raise :class:`TransferError` when ``repo`` already holds tables or users."""
    for table in ("tables", "users"):
        found = await repo.fetch_all(f"SELECT COUNT(*) AS n FROM {table}")
        if found[0]["n"]:
            raise TransferError(f"the target database is not empty ({table})")


def _batches(records: Iterator[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The rows of ``records`` by table (every table of :data:`TABLES`, maybe empty);
    raises :class:`TransferError` for a record of an unknown table or without a row."""
    batches: dict[str, list[dict[str, Any]]] = {table: [] for table in TABLES}
    for record in records:
        name = str(record.get("table"))
        if name not in batches or not isinstance(record.get("row"), dict):
            raise TransferError(f"unknown table in the file: {name!r}")
        batches[name].append(record["row"])
    return batches


async def _insert(
    conn: aiosqlite.Connection, batches: dict[str, list[dict[str, Any]]], postgres: bool
) -> None:
    """Insert ``batches`` through the transaction's connection ``conn``, table by table in
    :data:`TABLES`'s order; on PostgreSQL, move the identity sequences past the rows."""
    for table in TABLES:
        rows = batches[table]
        if not rows:
            continue
        columns = list(rows[0])
        marks = ", ".join("?" for _ in columns)
        await conn.executemany(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})",
            [tuple(row.get(c) for c in columns) for row in rows],
        )
    if postgres:
        for table, column in IDENTITY.items():
            if batches[table]:
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                    f"(SELECT MAX({column}) FROM {table}))"
                )


async def import_rows(
    repo: SqliteRepository, path: Path, schema: int, postgres: bool
) -> dict[str, int]:
    """Insert the rows of the file at ``path`` into ``repo``'s database (empty, migrated to
    ``schema``) in one transaction; returns the rows per table. Raises
    :class:`TransferError` for another file format, a newer schema, an unknown table or a
    database that is not empty; then nothing was written."""
    records = _read(path)
    _check_head(next(records, None), schema)
    await _check_empty(repo)
    batches = _batches(records)
    async with repo._transaction() as conn:
        await _insert(conn, batches, postgres)
    repo._written.clear()
    return {table: len(rows) for table, rows in batches.items()}
