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
from bot.ports.model import Status, UserRef
from bot.ports.replays import Replay
from bot.service import engine_work
from bot.service.compute import BudgetExceeded, Lane, WorkerLost
from bot.service.errors import UnreadableTable
from bot.service.queries import Queries
from engine.errors import EngineError

__all__ = ["REPLAY_BUDGET", "refusal_text", "replay_of"]

log = logging.getLogger(__name__)

REPLAY_BUDGET = 20.0
"""Seconds an engine worker may take to replay a whole game (a few milliseconds a move)."""


def refusal_text(code: str) -> str:
    """The line saying why a replay was refused (codes of
    :data:`bot.ports.replays.REPLAY_REFUSALS`); call inside ``use_locale``."""
    texts = {
        "no_table": _("There is no game of that table to replay."),
        "not_at_table": _("You neither played at that table nor may watch it."),
        "no_deal": _("No deal of that table is over yet; a deal can be replayed once it is."),
        "damaged": _("The stored record of that table cannot be replayed; nothing was changed."),
        "busy": _("The replay could not be prepared now; try again in a moment."),
    }
    return texts.get(code, texts["no_table"])


def _refused(code: str, locale: str, detail: str | None = None) -> Replay:
    with use_locale(locale):
        text = refusal_text(code)
        if detail:
            text = f"{text} ({detail})"
    return Replay(None, None, False, locale, refused=code, text=text)


async def replay_of(queries: Queries, table_id: int, user: UserRef, may_watch: bool) -> Replay:
    """The finished deals of table ``table_id`` as ``user`` may see them: they sat there,
    or ``may_watch`` (the front end checked that they may watch the table: a member of its
    group, in its channel's activity). Refused (``Replay.refused``, a line in the person's
    language) for an unknown or never started table, a person who may not see it, a game
    with no deal over yet, a stored record that does not replay (or not within
    :data:`REPLAY_BUDGET`)."""
    locale = await queries.locale_of(user)
    try:
        table = await queries.changes.get(table_id)
    except UnreadableTable:
        return _refused("damaged", locale)
    if table is None or table.state is None or table.status is Status.LOBBY:
        return _refused("no_table", locale)
    seat = table.seat_of(user.key)
    if seat is None and not may_watch:
        return _refused("not_at_table", locale)
    state = table.state
    over = table.status is not Status.PLAYING
    last_deal = (
        state.deal_number if over else max((r.deal_number for r in state.results), default=0)
    )
    if last_deal == 0:
        return _refused("no_deal", locale)
    try:
        record = await queries.game_record(table)
        positions = await queries.compute.call(
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
        log.warning("table %d: its record does not replay: %s", table_id, error)
        with use_locale(locale):
            detail = localize_error(error)
        return _refused("damaged", locale, detail)
    except (BudgetExceeded, WorkerLost):
        return _refused("busy", locale)
    return Replay(table.info(), seat, over, locale, positions)
