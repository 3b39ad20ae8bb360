"""Every open page of this worker (:class:`PageHub`): what each is shown and what each
may do.

- A page that connects is sent its screen at once (:meth:`PageHub.attach`: the entry
  point's read-only :meth:`~bot.ports.entry.Entry.screens`), so a reconnect catches up.
- A committed change published on this worker (:meth:`PageHub.publish`, called by
  :class:`bot.web.notifier.WebNotifier`) is laid out for every page at that table from
  the :class:`~bot.ports.screens.TableUpdate` itself: a seated person's page gets that
  seat's screen, a spectator's the public table; nothing is asked of the service.
- A change committed by another worker arrives through the change feed
  (:meth:`PageHub.changed`); pages still behind it are refreshed with
  :meth:`~bot.ports.entry.Entry.screens` after a short grace (this worker's own commits
  are usually published meanwhile).
- A page's selection, order and hint are laid out here from the seat screen the page
  shows (:func:`bot.interaction.hand.build_hand_model`, pure): a tap costs no database
  read and no flow-control budget. A press of an offered move is an intent for the entry
  point (:meth:`PageHub.press`), answered on the pressing page first.

Versions: every screen carries the table version it shows; a page is never sent an older
one, and a press names the version and hand digest it was drawn for (a stale press is
refused by the service and answered with the fresh screen).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from bot.i18n import _, use_locale
from bot.interaction.hand import build_hand_model
from bot.interaction.hand_session import (
    HandSession,
    HandStep,
    SelectCards,
    ShowHint,
    SortBy,
    hint_reply,
    step,
)
from bot.ports.entry import Entry
from bot.ports.feed import TableChanged
from bot.ports.hand import HandModel
from bot.ports.intents import (
    AddAI,
    AtTable,
    Intent,
    Join,
    Leave,
    Outcome,
    PressOffer,
    Request,
    Selection,
    Start,
)
from bot.ports.model import Status, TableInfo
from bot.ports.screens import CoachAdvice, SeatScreen, TableScreen, TableUpdate, TimerWarning
from bot.render.events import event_line
from bot.render.lobby import render_lobby
from bot.render.notices import render_notice
from bot.render.text import fair_line, turn_line
from bot.render.variants import variant_table_lines
from bot.web.pages.page import Page
from bot.web.protocol import (
    Incoming,
    encode,
    error_message,
    hand_json,
    public_json,
    sheet_json,
    status_word,
)
from engine.events import GameEnded, HandEnded
from engine.views import PublicView

__all__ = ["FEED_GRACE", "RECENT_CHANGES", "PageHub"]

log = logging.getLogger(__name__)

RECENT_CHANGES = 5
"""Stored changes whose lines a page that just opened shows as its last moves."""
FEED_GRACE = 0.1
"""Seconds a change announced by the feed waits before the pages still behind it are
refreshed (this worker's own commits reach its pages through the notifier meanwhile)."""


class PageHub:
    """The open pages of this worker, by table; ``entry``: the service's entry point."""

    def __init__(self, entry: Entry, feed_grace: float = FEED_GRACE) -> None:
        self.entry = entry
        self.feed_grace = feed_grace
        self._tables: dict[int, dict[str, Page]] = {}
        self._pending: set[int] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    # --- pages coming and going -------------------------------------------------------------

    def pages(self, table_id: int | None = None) -> list[Page]:
        """The open pages (of one table)."""
        if table_id is not None:
            return list(self._tables.get(table_id, {}).values())
        return [page for pages in self._tables.values() for page in pages.values()]

    async def attach(self, page: Page) -> None:
        """Register ``page`` and send it its screen."""
        self._tables.setdefault(page.table_id, {})[page.id] = page
        await self.refresh(page)

    def detach(self, page: Page) -> None:
        """Forget ``page`` (its socket closed)."""
        page.closed = True
        pages = self._tables.get(page.table_id)
        if pages is not None:
            pages.pop(page.id, None)
            if not pages:
                del self._tables[page.table_id]

    async def refresh(self, page: Page) -> None:
        """Send ``page`` the table as it is now (the entry point's screens)."""
        found = await self.entry.screens(page.table_id, page.user)
        if found is None:
            await page.push(
                encode(
                    {
                        "type": "screen",
                        "table": page.table_id,
                        "version": page.version,
                        "status": "closed",
                        "locale": page.locale,
                        "seat": None,
                        "public": None,
                        "hand": None,
                        "events": [],
                        "notices": [],
                        "lobby": None,
                        "sheet": None,
                        "recent": False,
                    }
                )
            )
            return
        table, own = found
        if table.info.version < page.version:
            return
        if own is not None:
            page.locale = own.locale
        first = page.version < 0
        page_version = page.version
        self._show(page, table, own)
        # A new page hears the table's last changes ("last moves"); an open one the changes
        # it missed (another worker's commits).
        missed = (
            list(table.history[-RECENT_CHANGES:])
            if first
            else [past for past in table.history if past.version > page_version]
        )
        news = None
        if missed:
            news = replace(
                table,
                events=tuple(e for p in missed for e in p.events),
                notices=tuple(n for p in missed for n in p.notices),
            )
            page.evented = table.info.version
        await page.push(encode(self.screen_message(page, news, recent=first)))

    # --- what the service publishes ---------------------------------------------------------

    async def publish(self, update: TableUpdate) -> None:
        """Lay ``update`` out for every page of its table (see the module docstring)."""
        version = update.info.version
        pages = sorted(self.pages(update.info.id), key=lambda p: p.user.key != update.actor)
        for page in pages:  # the presser's pages first
            if version < page.version:
                continue
            has_news = bool(update.table.events or update.table.notices)
            if version == page.version and (page.evented >= version or not has_news):
                continue  # shown already (the page's own answer, or the feed's refresh)
            seat = update.info.seat_of(page.user.key)
            own = None if seat is None else update.seat_screen(seat)
            if own is not None:
                page.locale = own.locale
            self._show(page, update.table, own)
            page.evented = version
            await page.push(self.screen_text(page, update.table))
        self._forget_closed(update.info.id)

    async def warn(self, warning: TimerWarning) -> None:
        """Tell the pages of the person whose turn runs out."""
        for page in self.pages(warning.info.id):
            if page.user.key != warning.user_key:
                continue
            with use_locale(page.locale):
                text = _("Hurry: your turn ends in {seconds} seconds.").format(
                    seconds=max(round(warning.seconds_left), 0)
                )
            await page.push(
                encode(
                    {
                        "type": "warn",
                        "table": page.table_id,
                        "seconds": round(warning.seconds_left, 1),
                        "text": text,
                    }
                )
            )

    async def coach(self, advice: CoachAdvice) -> None:
        """The coach's notes on the deal that ended, to the person's pages of that table
        (``{"type": "coach", "table", "deal", "text"}``: the page's coach panel)."""
        for page in self.pages(advice.info.id):
            if page.user.key == advice.user_key:
                frame = {
                    "type": "coach",
                    "table": page.table_id,
                    "deal": advice.deal,
                    "text": advice.text,
                }
                await page.push(encode(frame))

    def changed(self, change: TableChanged) -> None:
        """The change feed's announcement (any worker's commit): refresh the pages still
        behind it after :data:`FEED_GRACE`; table 0 means "anything may have changed"."""
        tables: Iterable[int] = list(self._tables) if change.table_id == 0 else [change.table_id]
        for table_id in tables:
            behind = [
                p
                for p in self.pages(table_id)
                if change.table_id == 0 or p.version < change.version
            ]
            if behind and table_id not in self._pending:
                self._pending.add(table_id)
                task = asyncio.create_task(self._catch_up(table_id, change.version))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def _catch_up(self, table_id: int, version: int) -> None:
        try:
            await asyncio.sleep(self.feed_grace)
        finally:
            self._pending.discard(table_id)
        for page in self.pages(table_id):
            if page.version < version or version == 0:
                try:
                    await self.refresh(page)
                except Exception:
                    log.exception("web: refreshing a page of table %d failed", table_id)

    async def close(self) -> None:
        """Stop the refreshes under way."""
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def _forget_closed(self, table_id: int) -> None:
        for page in self.pages(table_id):
            if page.closed:
                self.detach(page)

    # --- a page's own messages --------------------------------------------------------------

    async def handle(self, page: Page, message: Incoming) -> None:
        """One parsed message of ``page`` (see :mod:`bot.web.protocol`)."""
        if message.table != page.table_id:
            await page.push(encode(error_message("not_your_table", page.locale)))
            return
        kind = message.type
        if kind == "refresh":
            await self.refresh(page)
        elif kind == "offer":
            await self.press(page, message)
        elif kind == "lobby":
            await self.lobby_step(page, message)
        elif page.screen is None:
            await self.refresh(page)  # a spectator, or the game has not started
        else:
            await self._step(page, message)

    async def _step(self, page: Page, message: Incoming) -> None:
        """A hand step of ``page`` (select, sort, hint: :mod:`bot.interaction.hand_session`),
        answered with the page's hand; a selection made on an older screen is ignored."""
        assert page.screen is not None
        event: HandStep
        session = page.hand
        if message.type == "select":
            if message.version != page.version or message.sort is None:
                await self._send_hand(page)
                return
            if message.sort != session.sort:  # selected in the order the page showed
                session = HandSession(message.sort)
            event = SelectCards(message.mask)
        elif message.type == "sort":
            event = SortBy(message.sort)
        else:
            event = ShowHint()
        with use_locale(page.locale):
            stepped = step(_untyped(page.screen), session, event)
            page.hand = stepped.session
            text = hint_reply(stepped)
        await self._send_hand(page, None if stepped.hint is None else stepped.hint.action)
        if text is not None:
            await page.push(encode({"type": "reply", "ok": True, "code": "hint", "text": text}))

    async def lobby_step(self, page: Page, message: Incoming) -> None:
        """A lobby step asked on ``page`` (join, leave, start, add an AI seat of a level):
        one intent for the entry point at the page's table, as the chat's lobby buttons
        send it; a refusal is said on this page, the new lobby reaches every page."""
        request: Request = (
            AddAI(message.level)
            if message.action == "addbot"
            else LOBBY_STEPS[message.action or ""]
        )
        intent = Intent(request, page.user, AtTable(page.table_id))
        async with self.entry.answer_first():
            outcome = await self.entry.handle(intent)
            if not outcome.ok:
                await self._answer(page, outcome)

    async def press(self, page: Page, message: Incoming) -> None:
        """An offered move pressed on ``page``: one intent for the entry point, answered on
        this page first (a refusal with the fresh screen); the change then reaches every
        page of the table, this person's first (:meth:`publish`)."""
        assert message.offer is not None
        selection = Selection(
            message.mask, message.sort or page.hand.sort, message.digest, message.offer
        )
        # The page names the table version of the screen it pressed on; the entry point
        # checks the game state's version that screen showed (a screen older than the
        # page's last one is stale: no state version matches -1).
        shown = (
            page.screen.view.table.version
            if page.screen is not None and message.version == page.version
            else -1
        )
        intent = Intent(
            PressOffer(),
            page.user,
            AtTable(page.table_id),
            version=shown,
            selection=selection,
            update_key=f"web:{page.user.key}:{message.id}",
        )
        async with self.entry.answer_first():
            await self._answer(page, await self.entry.handle(intent))

    async def _answer(self, page: Page, outcome: Outcome) -> None:
        """The page's answer: a refusal with the fresh screen (nothing was applied), the
        reply's words; a change reaches this page, first, through :meth:`publish`."""
        if not outcome.ok:
            await self.refresh(page)
        if outcome.reply.text and not outcome.reply.quiet:
            await page.push(
                encode(
                    {
                        "type": "reply",
                        "ok": outcome.ok,
                        "code": outcome.reply.code,
                        "text": outcome.reply.text,
                    }
                )
            )

    # --- laying screens out -----------------------------------------------------------------

    @staticmethod
    def _show(page: Page, table: TableScreen, own: SeatScreen | None) -> None:
        """``page`` shows ``table`` and ``own`` now; a hand that changed loses its
        selection."""
        before = page.screen
        if own is None or before is None or before.view.hand != own.view.hand:
            page.hand = HandSession(page.hand.sort)
        page.table, page.screen = table, own
        page.version = table.info.version

    def _model(self, page: Page) -> HandModel:
        assert page.screen is not None
        with use_locale(page.locale):
            return build_hand_model(_untyped(page.screen), mask=page.hand.mask, sort=page.hand.sort)

    async def _send_hand(self, page: Page, hint: object = None) -> None:
        model = self._model(page)
        await page.push(
            encode(
                {
                    "type": "hand",
                    "table": page.table_id,
                    "version": page.version,
                    "hand": hand_json(model, hint),
                }
            )
        )

    def screen_message(
        self, page: Page, news: TableScreen | None = None, *, recent: bool = False
    ) -> dict[str, Any]:
        """The ``screen`` message of ``page`` (:mod:`bot.web.protocol`); ``news``: the
        table screen whose events and notices are said with it; ``recent``: they are the
        table's last changes for a page that just opened (it shows them as its last
        moves instead of the ones it had)."""
        table = page.table
        assert table is not None
        info = table.info
        own = page.screen
        with use_locale(page.locale):
            view = own.view.table if own is not None else table.view
            public, sheet = self._public_parts(view, info)
            events = _event_lines(news, view)
            notices = [render_notice(n) for n in news.notices] if news is not None else []
            lobby = render_lobby(info) if view is None and info.status is Status.LOBBY else None
            hand = None
            if own is not None and info.status is Status.PLAYING:
                hand = hand_json(self._model(page))
        return {
            "type": "screen",
            "table": info.id,
            "version": info.version,
            "status": status_word(info.status),
            "locale": page.locale,
            "seat": None if own is None else own.seat,
            "tiles": bool(view is not None and view.rules.var.uses_tiles),
            "public": public,
            "hand": hand,
            "events": events,
            "notices": notices,
            "lobby": lobby,
            "sheet": sheet,
            "recent": recent,
        }

    @staticmethod
    def _public_parts(
        view: PublicView | None, info: TableInfo
    ) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
        """The public table and the score sheet of ``view`` (``None`` before the game);
        call inside ``use_locale``."""
        if view is None:
            return None, None
        fair = fair_line(view)
        lines = [turn_line(view), *variant_table_lines(view), *([fair] if fair else [])]
        left = None if info.deadline is None else max(info.deadline - time.time(), 0)
        return public_json(view, info, lines, left), sheet_json(view)

    def screen_text(self, page: Page, news: TableScreen | None = None) -> str:
        """:meth:`screen_message` as a frame."""
        return encode(self.screen_message(page, news))


LOBBY_STEPS: dict[str, Request] = {"join": Join(), "leave": Leave(), "start": Start()}
"""The page's lobby buttons -> the table request they send (besides ``addbot``)."""


def _event_lines(news: TableScreen | None, view: PublicView | None) -> list[str]:
    """The lines of ``news``'s events as ``view``'s seat reads them (the deal's and the
    game's end are on the score sheet instead); none before the game."""
    if news is None or view is None:
        return []
    return [event_line(e, view) for e in news.events if not isinstance(e, HandEnded | GameEnded)]


def _untyped(screen: SeatScreen) -> SeatScreen:
    """The seat screen without the first game's typing guide: the page offers every move
    as a button, so its phase line says what can be done, not what to type."""
    return replace(screen, guided=False) if screen.guided else screen
