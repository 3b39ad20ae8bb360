"""A table's finished deals replayed for one person (:func:`replay_of`): the question
behind the web table's replay (:mod:`bot.ports.replays`). The game record is made from the
stored table (:meth:`bot.service.queries.Queries.game_record`) and replayed on an engine
worker (:func:`bot.service.engine_work.replay_positions`); nothing is changed.

While the game runs only the deals already over are replayed, each position as that person
saw it (their own hand, the public table); after the game every hand is shown."""

from __future__ import annotations

import logging

from bot.i18n import _, use_locale
from bot.i18n.errors import localize_error
from bot.ports.model import ChatKey, Status, TableInfo, UserRef
from bot.ports.replays import Replay, ReplayPosition
from bot.service import engine_work
from bot.service.compute import BudgetExceeded, Lane, WorkerLost
from bot.service.errors import (
    NoDealOver,
    NothingToReplay,
    ReplayBusy,
    ReplayDamaged,
    ReplayNotAllowed,
    ReplayRefused,
    UnreadableTable,
)
from bot.service.model import Table
from bot.service.queries import Queries
from engine.errors import EngineError

__all__ = ["REPLAY_BUDGET", "replay_choice", "replay_of", "replay_offer_text"]

log = logging.getLogger(__name__)

REPLAY_BUDGET = 20.0
"""Seconds an engine worker may take to replay a whole game (a few milliseconds a move)."""


def _refused(refused: ReplayRefused, locale: str) -> Replay:
    with use_locale(locale):
        text = localize_error(refused)
    return Replay(None, None, False, locale, refused=refused.refusal, text=text)


async def replay_of(queries: Queries, table_id: int, user: UserRef, may_watch: bool) -> Replay:
    """The finished deals of table ``table_id`` as ``user`` may see them: they sat there,
    or ``may_watch`` (the front end checked that they may watch the table: a member of its
    group, in its channel's activity). Refused (``Replay.refused``, a line in the person's
    language) for an unknown or never started table, a person who may not see it, a game
    with no deal over yet, a stored record that does not replay (or not within
    :data:`REPLAY_BUDGET`)."""
    locale = await queries.locale_of(user)
    try:
        table, seat, over, last_deal = await _replayable(queries, table_id, user, may_watch)
        positions = await _positions(queries, table, seat, over, last_deal, locale)
    except ReplayRefused as refused:
        return _refused(refused, locale)
    return Replay(table.info(), seat, over, locale, positions)


async def _replayable(
    queries: Queries, table_id: int, user: UserRef, may_watch: bool
) -> tuple[Table, int | None, bool, int]:
    """The table, the person's seat, whether the game is over and the last deal to replay;
    raises :class:`ReplayRefused` when there is nothing they may replay."""
    try:
        table = await queries.changes.get(table_id)
    except UnreadableTable:
        raise ReplayDamaged() from None
    if table is None or table.state is None or table.status is Status.LOBBY:
        raise NothingToReplay()
    seat = table.seat_of(user.key)
    if seat is None and not may_watch:
        raise ReplayNotAllowed()
    state = table.state
    over = table.status is not Status.PLAYING
    last_deal = (
        state.deal_number if over else max((r.deal_number for r in state.results), default=0)
    )
    if last_deal == 0:
        raise NoDealOver()
    return table, seat, over, last_deal


async def _positions(
    queries: Queries, table: Table, seat: int | None, over: bool, last_deal: int, locale: str
) -> tuple[ReplayPosition, ...]:
    """The replayed positions, made on an engine worker; raises :class:`ReplayDamaged` for
    a record that does not replay and :class:`ReplayBusy` when no worker made it in time."""
    try:
        record = await queries.game_record(table)
        return await queries.compute.call(
            engine_work.replay_positions,
            record,
            seat,
            over,
            last_deal,
            locale,
            budget=REPLAY_BUDGET,
            lane=Lane.BACKGROUND,
        )
    except EngineError as error:
        log.warning("table %d: its record does not replay: %s", table.id, error)
        with use_locale(locale):
            detail = localize_error(error)
        raise ReplayDamaged(detail=detail) from None
    except (BudgetExceeded, WorkerLost):
        raise ReplayBusy() from None


async def replay_choice(
    queries: Queries, running: Table | None, key: ChatKey | None, user: UserRef
) -> tuple[TableInfo, bool]:
    """The table ``replay`` offers (typed in a chat, :class:`bot.ports.intents.ReplayGame`)
    and whether its game still runs: the running game the intent found (``running``: the
    chat's, or the person's newest) once a deal of it is over, else the last ended game of
    the chat ``key`` (finished or given up; a lobby cancelled before its start has nothing
    to replay), or without a chat (a private chat) the person's last ended game. Raises
    :class:`NoDealOver` for a running game with no deal over and no ended game here,
    :class:`NothingToReplay` when there is neither; whether the person may see it is
    checked when the replay is opened (:func:`replay_of`)."""
    playing = running is not None and running.status is Status.PLAYING
    if playing and running is not None and running.state is not None and running.state.results:
        return running.info(), True
    if key is not None:
        ended = await queries.latest_ended(key)
    else:
        ended = await queries.latest_ended_of_user(user)
    if ended is not None:  # finished, or given up after its deal began
        return ended, False
    if playing:
        raise NoDealOver()
    raise NothingToReplay()


def replay_offer_text(info: TableInfo, running: bool) -> str:
    """What ``replay`` answers (call inside ``use_locale``): which table's deals can be
    stepped through; the front end adds where (a button, a link)."""
    if running:
        return _("Table {table}: the deals over so far can be replayed.").format(table=info.id)
    return _("Table {table}: its game can be replayed, every hand shown.").format(table=info.id)
