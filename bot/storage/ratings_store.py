"""Skill ratings in the database (migration 0010): the update in a game's final commit,
the rebuild from the stored finished games, seasons and the rows a board reads.

The statements are SQLite's and run unchanged on PostgreSQL (bot/storage/postgres.py
rewrites the placeholders). A game is rated once: its ``rated_games`` row is inserted in
the same transaction as its results, and a second attempt finds it there. Several
workers finishing games of the same person at once: each transaction first touches the
person's rating rows (an ``UPDATE`` that changes nothing), in the order of the user keys,
so on PostgreSQL the second waits for the first to commit and then reads its result; a
SQLite file has one writer at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.ports.model import SeatKind
from bot.ports.table_rules import level_of
from bot.service.model import Table
from bot.service.ratings import NEW, Rating, final_places, rate_game

__all__ = ["rate_finished", "season_at"]


async def season_at(conn: Any, at: float) -> int:
    """The season a game finished at ``at`` (Unix seconds) counts in: the last season
    started by then, 1 before any."""
    rows = await conn.execute_fetchall(
        "SELECT MAX(number) FROM rating_seasons WHERE started_at <= ?", (at,)
    )
    number = rows[0][0] if rows else None
    return int(number) if number is not None else 1


async def rate_finished(conn: Any, table: Table, at: float) -> bool:
    """Rate the finished game ``table`` (its final state's totals and winners) in the
    transaction of ``conn``, in the season of ``at``; returns False when it was rated
    before or has no final state (nothing changes then)."""
    state = table.state
    if state is None or len(table.seats) < 2:
        return False
    season = await season_at(conn, at)
    cursor = await conn.execute(
        "INSERT INTO rated_games (table_id, season, rated_at) VALUES (?, ?, ?) "
        "ON CONFLICT (table_id) DO NOTHING",
        (table.id, season, at),
    )
    if cursor.rowcount != 1:
        return False
    people = sorted({s.user for s in table.seats if s.kind is SeatKind.HUMAN and s.user})
    before = await _lock_ratings(conn, people, table.variant, season, table.id)
    places = final_places(state.rules, state.totals, state.winners)
    seats: list[Rating | str] = [
        before[s.user] if s.kind is SeatKind.HUMAN and s.user in before else level_of(s.ai)
        for s in table.seats
    ]
    after = rate_game(places, seats)
    await _store_ratings(conn, table, season, before, after)
    return True


async def _store_ratings(
    conn: Any,
    table: Table,
    season: int,
    before: dict[str, Rating],
    after: Sequence[Rating | None],
) -> None:
    """Write each person's new rating (``after``, by seat; ``None`` for an AI seat) and its
    change from ``before`` in the transaction of ``conn``."""
    for seat, new in zip(table.seats, after, strict=True):
        if new is None or seat.user is None:
            continue
        change = new.shown - before[seat.user].shown
        await conn.execute(
            "UPDATE ratings SET mu = ?, sigma = ?, games = ?, last_change = ?, last_table = ? "
            "WHERE user_key = ? AND variant = ? AND season = ?",
            (new.mu, new.sigma, new.games, change, table.id, seat.user, table.variant, season),
        )


async def _lock_ratings(
    conn: Any, people: Sequence[str], variant: str, season: int, table_id: int
) -> dict[str, Rating]:
    """Each person's rating before the game (a new row for a first game), each row
    touched first so that no other transaction changes it until this one ends."""
    out: dict[str, Rating] = {}
    for user in people:
        await conn.execute(
            "INSERT INTO ratings (user_key, variant, season, mu, sigma, games, last_change, "
            "last_table) VALUES (?, ?, ?, ?, ?, 0, 0, ?) "
            "ON CONFLICT (user_key, variant, season) DO NOTHING",
            (user, variant, season, NEW.mu, NEW.sigma, table_id),
        )
        await conn.execute(
            "UPDATE ratings SET games = games WHERE user_key = ? AND variant = ? AND season = ?",
            (user, variant, season),
        )
        rows = await conn.execute_fetchall(
            "SELECT mu, sigma, games FROM ratings WHERE user_key = ? AND variant = ? AND "
            "season = ?",
            (user, variant, season),
        )
        mu, sigma, games = rows[0][0], rows[0][1], rows[0][2]
        out[user] = Rating(float(mu), float(sigma), int(games))
    return out
