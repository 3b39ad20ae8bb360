"""Skill ratings in the database (migrations 0010, 0012): the update in a game's final
commit, the rebuild from the stored finished games, seasons and the rows a board reads.
Each game is rated twice from the same final order: on the global board (``ratings``, in
the operator's season) and on its chat's board (``chat_ratings``, in the chat's season).

The statements are SQLite's and run unchanged on PostgreSQL (bot/storage/postgres.py
rewrites the placeholders). A game is rated once: its ``rated_games`` row is inserted in
the same transaction as its results, and a second attempt finds it there. Several
workers finishing games of the same person at once: each transaction first touches the
person's rating rows (an ``UPDATE`` that changes nothing), in the order of the user keys,
so on PostgreSQL the second waits for the first to commit and then reads its result; a
SQLite file has one writer at a time.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.ports.model import SeatKind
from bot.ports.table_rules import level_of
from bot.service.model import Table
from bot.service.ratings import NEW, Rating, final_places, rate_game

__all__ = ["chat_season_at", "rate_finished", "season_at"]


@dataclass(frozen=True, slots=True)
class _Scope:
    """Where ratings are kept: the global board's ``ratings`` (per operator season) or a
    chat's ``chat_ratings`` (per season of that chat): the table and the columns and values
    that pick a rating row besides the person and the variant."""

    table: str
    columns: tuple[str, ...]
    values: tuple[Any, ...]

    def where(self) -> str:
        """The ``WHERE`` clause of one person's row of one variant in this scope."""
        return " AND ".join(f"{c} = ?" for c in ("user_key", "variant", *self.columns))


async def season_at(conn: Any, at: float) -> int:
    """The season a game finished at ``at`` (Unix seconds) counts in: the last season
    started by then, 1 before any."""
    rows = await conn.execute_fetchall(
        "SELECT MAX(number) FROM rating_seasons WHERE started_at <= ?", (at,)
    )
    number = rows[0][0] if rows else None
    return int(number) if number is not None else 1


async def chat_season_at(conn: Any, chat_key: str, at: float) -> int:
    """The season of the chat ``chat_key`` started last by ``at`` (Unix seconds; ``inf``:
    the running one), 1 before any."""
    rows = await conn.execute_fetchall(
        "SELECT MAX(number) FROM chat_seasons WHERE chat_key = ? AND started_at <= ?",
        (chat_key, at),
    )
    number = rows[0][0] if rows else None
    return int(number) if number is not None else 1


async def rate_finished(conn: Any, table: Table, at: float, chat_season: int | None = None) -> bool:
    """Rate the finished game ``table`` (its final state's totals and winners) in the
    transaction of ``conn``: on the global board in the operator's season of ``at``, and
    on the board of the table's chat in ``chat_season`` (``None``: the chat's running
    season, as the game's final commit reads it; the rebuild passes the season the game
    was rated in before); returns False when it was rated before or has no final state
    (nothing changes then). The chat's season is kept with the game
    (``rated_games.chat_season``), so a season started while the game finished on another
    worker never moves it."""
    state = table.state
    if state is None or len(table.seats) < 2:
        return False
    season = await season_at(conn, at)
    chat = str(table.key)
    if chat_season is None:
        chat_season = await chat_season_at(conn, chat, math.inf)
    cursor = await conn.execute(
        "INSERT INTO rated_games (table_id, season, rated_at, chat_season) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (table_id) DO NOTHING",
        (table.id, season, at, chat_season),
    )
    if cursor.rowcount != 1:
        return False
    places = final_places(state.rules, state.totals, state.winners)
    for scope in (
        _Scope("ratings", ("season",), (season,)),
        _Scope("chat_ratings", ("chat_key", "season"), (chat, chat_season)),
    ):
        await _rate_in(conn, scope, table, places)
    return True


async def _rate_in(conn: Any, scope: _Scope, table: Table, places: Sequence[int]) -> None:
    """Rate ``table`` (its seats' ``places``) in ``scope`` from the ratings kept there."""
    people = sorted({s.user for s in table.seats if s.kind is SeatKind.HUMAN and s.user})
    before = await _lock_ratings(conn, scope, people, table.variant, table.id)
    seats: list[Rating | str] = [
        before[s.user] if s.kind is SeatKind.HUMAN and s.user in before else level_of(s.ai)
        for s in table.seats
    ]
    after = rate_game(places, seats)
    await _store_ratings(conn, scope, table, before, after)


async def _store_ratings(
    conn: Any,
    scope: _Scope,
    table: Table,
    before: dict[str, Rating],
    after: Sequence[Rating | None],
) -> None:
    """Write each person's new rating (``after``, by seat; ``None`` for an AI seat) and its
    change from ``before`` into ``scope`` in the transaction of ``conn``."""
    for seat, new in zip(table.seats, after, strict=True):
        if new is None or seat.user is None:
            continue
        change = new.shown - before[seat.user].shown
        await conn.execute(
            f"UPDATE {scope.table} SET mu = ?, sigma = ?, games = ?, last_change = ?, "
            f"last_table = ? WHERE {scope.where()}",
            (
                new.mu,
                new.sigma,
                new.games,
                change,
                table.id,
                seat.user,
                table.variant,
                *scope.values,
            ),
        )


async def _lock_ratings(
    conn: Any, scope: _Scope, people: Sequence[str], variant: str, table_id: int
) -> dict[str, Rating]:
    """Each person's rating in ``scope`` before the game (a new row for a first game),
    each row touched first so that no other transaction changes it until this one ends."""
    out: dict[str, Rating] = {}
    columns = ", ".join(scope.columns)
    marks = ", ".join("?" for _ in scope.columns)
    for user in people:
        key = (user, variant, *scope.values)
        await conn.execute(
            f"INSERT INTO {scope.table} (user_key, variant, {columns}, mu, sigma, games, "
            f"last_change, last_table) VALUES (?, ?, {marks}, ?, ?, 0, 0, ?) "
            f"ON CONFLICT (user_key, variant, {columns}) DO NOTHING",
            (*key, NEW.mu, NEW.sigma, table_id),
        )
        await conn.execute(f"UPDATE {scope.table} SET games = games WHERE {scope.where()}", key)
        rows = await conn.execute_fetchall(
            f"SELECT mu, sigma, games FROM {scope.table} WHERE {scope.where()}", key
        )
        mu, sigma, games = rows[0][0], rows[0][1], rows[0][2]
        out[user] = Rating(float(mu), float(sigma), int(games))
    return out
