"""Issue 35's acceptance: three worker processes (:mod:`tg_worker`, ``run_bot`` with the
Telegram adapter) on one PostgreSQL database and the fake Telegram, people playing
through the fake while workers fail:

1. SIGKILL of a worker that does not poll (a replacement starts);
2. SIGSTOP of a worker for 30 s while it is inside a transaction, then SIGCONT;
3. SIGKILL of the poller (found through the polling role's advisory lock; a
   replacement starts);
4. ``pg_terminate_backend`` of the polling lock's backend;
5. a kill between a send and its mark: the fake carries out a worker's group
   ``sendMessage`` (the message is in the group) and holds its answer; the worker is
   killed before it learns that the message went out (a replacement starts).

Figures, printed and asserted: every move the fake answered (a press answered without an
alert, a typed move answered with the hand) is in the stored action log; no version
twice and every log replays; the longest pause of committed due work while a worker is
stopped stays within one lease; polling resumes within 10 s of each poller failure, with
exactly one poller afterwards (409 conflicts outside the handovers: none); at the end,
after the workers went quiet, each group's table message is at the stored version and
shows its table with the last moves of the stored log as its recent lines, no table
message was ever edited back to an older version, each person was pinged once per turn,
and a send was repeated only for the held send (counted).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.i18n import use_locale
from bot.interaction.hand import Group, SortMode, build_hand_model, hand_cards
from bot.ports.model import Status, TableSettings, UserRef
from bot.ports.table_rules import table_rules
from bot.render.cards import card_text
from bot.render.events import event_line
from bot.render.text import render_hand_end, render_table
from bot.service.delivery import CHAT_LEASE_SECONDS, SWEEP_SECONDS
from bot.service.limits import LEASE_SECONDS
from bot.service.model import Table
from bot.service.repository import LogEntry
from bot.service.service import GameService
from bot.storage.postgres import PgDatabase, PostgresRepository, open_postgres
from bot.telegram_bot.callbacks import decode, sign_with
from bot.telegram_bot.identity import chat_key
from devsupport.pg_server import PgServer
from engine.actions import Action
from engine.ai import make_ai
from engine.commands import format_action, parse_action
from engine.dealing import new_game
from engine.events import Event
from engine.game import apply, current_player, legal_actions
from engine.state import GameState, Phase
from engine.views import public_view, view_for
from tests.bot.reliability.support import (
    SEAT_VERBS,
    Worker,
    WorkerProcesses,
    check_logs,
    pg_ai_tables,
    polling_backend,
    snapshot,
    until,
)
from tests.fakes.telegram import ApiCall, FakeMessage, FakeTelegram, running_fake_telegram
from tests.fakes.telegram.server import Hold

pytestmark = pytest.mark.once  # processes: the first CI pass only

WORKER = Path(__file__).with_name("tg_worker.py")
GROUPS = (-5001, -5002, -5003)
ANSWER_WAIT = 8.0  # seconds a person waits for the bot's answer before trying again
PING_WAIT = CHAT_LEASE_SECONDS + 3 * SWEEP_SECONDS + 10.0
"""Seconds a person waits for the turn ping before moving anyway: it comes at once, or,
when the worker that shows the group died, once another worker took the group over (its
lease ran out) and drew the open turn; 10 s more for two cores shared by six workers and
the server (the figures print the longest wait seen)."""
STOP_SECONDS = 30.0
RESUME_LIMIT = 10.0  # the issue's bound for polling to resume
AI_TABLES = 3
AI_SETTINGS = TableSettings(timer="off", ai_delay=0.3, next_deal_delay=0.5, call_window=0.0)


# --- worker processes ---------------------------------------------------------------------


def _spawn(url: str, tg: FakeTelegram, name: str) -> Worker:
    process = subprocess.Popen(
        [sys.executable, str(WORKER), url, tg.worker_base_url(name), name],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "LANG": "C.UTF-8"},
    )
    return Worker(name, process)


async def _ready(worker: Worker) -> Worker:
    assert worker.process.stdout is not None
    line = await asyncio.wait_for(asyncio.to_thread(worker.process.stdout.readline), 60)
    assert line.strip() == "READY", f"{worker.name} did not start: {line!r}"
    return worker


def _socket_ports(pid: int) -> set[int]:
    """The local TCP ports of process ``pid``'s sockets (Linux ``/proc``)."""
    inodes = set()
    with contextlib.suppress(FileNotFoundError):
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
                if link.startswith("socket:["):
                    inodes.add(link[8:-1])
    ports = set()
    for table in ("tcp", "tcp6"):
        with contextlib.suppress(FileNotFoundError), open(f"/proc/{pid}/net/{table}") as f:
            for line in f.readlines()[1:]:
                parts = line.split()
                if parts[9] in inodes:
                    ports.add(int(parts[1].rsplit(":", 1)[1], 16))
    return ports


# --- what the test saw ----------------------------------------------------------------------


@dataclass
class Acked:
    """A move the fake answered: its update key, table, person and the move."""

    key: str
    table_id: int
    user: int
    action: str


@dataclass
class Figures:
    acked: list[Acked] = field(default_factory=list)
    retries: int = 0
    fumbles: int = 0
    refused: int = 0
    turns: dict[tuple[int, str], list[int]] = field(default_factory=dict)  # pings per turn
    #: (group, person) -> per turn: when it began and ended (monotonic s), its first version
    spans: dict[tuple[int, str], list[tuple[float, float, int]]] = field(default_factory=dict)
    ping_waits: list[tuple[float, int, int]] = field(default_factory=list)  # s, group, turn
    resumes: list[tuple[str, float, str]] = field(default_factory=list)  # what, s, by
    handovers: list[tuple[float, float]] = field(default_factory=list)
    steady_overlaps: int = 0
    longest_due_pause: float = 0.0
    due_pauses: dict[int, float] = field(default_factory=dict)
    stopped_in_transaction: str = ""
    stop_attempts: int = 0


class Play:
    """The fake, the database and the people's moves."""

    def __init__(self, tg: FakeTelegram, url: str, db: PgDatabase) -> None:
        self.tg = tg
        self.url = url
        self.db = db
        self.repo = PostgresRepository(db)
        self.service = GameService(self.repo)  # reads the players' screens, runs nothing
        self.figures = Figures()
        self.stop = asyncio.Event()

    async def table(self, table_id: int) -> Table:
        self.repo._written.clear()
        table = await self.repo.get_table(table_id)
        assert table is not None
        return table

    async def answer(self, query_id: str) -> Any:
        def answered() -> Any:
            return next((a for a in self.tg.callback_answers if a.query_id == query_id), None)

        with contextlib.suppress(TimeoutError):
            return await self.tg.wait_for(answered, ANSWER_WAIT)
        return None


class Person:
    """A Telegram user at one table: moves chosen by the greedy AI from their view, made
    with the hand message's buttons (two in three) or typed in the private chat."""

    def __init__(self, play: Play, user: int, name: str, group: int, seat: int) -> None:
        self.play = play
        self.tg = play.tg
        self.user = user
        self.name = name
        self.group = group
        self.seat = seat
        self.table_id = 0
        self.ai = make_ai("greedy", seed=user)
        self.moves = itertools.count()
        self.turn = 0
        self.in_turn = False
        self.pings_at_turn_end = 0
        self.turn_began = (0.0, 0)

    def pings(self) -> int:
        text = f"{self.name}, it is your turn."
        return sum(1 for m in self.tg.messages(self.group) if m.text == text)

    async def run(self) -> None:
        while True:
            table = await self.play.table(self.table_id)
            state = table.state
            if table.status is not Status.PLAYING or state is None:
                return
            mine = current_player(state) == self.seat
            if self.in_turn and not mine:
                self._turn_over()
            if self.play.stop.is_set() and not self.in_turn:
                return
            if state.phase is Phase.HAND_OVER:
                if self.seat == 0:
                    await self.next_deal(table)
                await asyncio.sleep(0.3)
                continue
            if not mine:
                await asyncio.sleep(0.1)
                continue
            if not self.in_turn:
                self.in_turn = True
                self.turn_began = (time.monotonic(), table.version)

                def pinged() -> bool:
                    return self.pings() > self.pings_at_turn_end

                with contextlib.suppress(TimeoutError):  # a person reacts to the ping
                    await self.tg.wait_for(pinged, PING_WAIT)
                    self.play.figures.ping_waits.append(
                        (time.monotonic() - self.turn_began[0], self.group, self.turn)
                    )
            action = self.ai.decide(view_for(state, self.seat), legal_actions(state, self.seat))
            if next(self.moves) % 3 == 2:
                await self.type_move(table, action)
            else:
                await self.press_move(table, action)
            if (await self.play.table(self.table_id)).version == table.version:
                self.play.figures.fumbles += 1  # nothing moved: look again in a moment
                await asyncio.sleep(0.2)

    def _turn_over(self) -> None:
        self.in_turn = False
        now = self.pings()
        self.play.figures.turns.setdefault((self.group, self.name), []).append(
            now - self.pings_at_turn_end
        )
        self.play.figures.spans.setdefault((self.group, self.name), []).append(
            (self.turn_began[0], time.monotonic(), self.turn_began[1])
        )
        self.pings_at_turn_end = now
        self.turn += 1

    async def press(self, message: FakeMessage, data: str, move: str | None) -> bool:
        """Press; True when answered without an alert (a move then noted as acknowledged);
        a press on the hand that is no move (a card, the pile) waits for the redraw."""
        before = (message.message_id, len(message.history))
        try:
            query_id = self.tg.press_button(self.user, message, data)
        except LookupError:  # the message changed under the finger: look again
            return False
        answer = await self.play.answer(query_id)
        if answer is None:
            self.play.figures.retries += 1
            return False
        if answer.show_alert:
            self.play.figures.refused += 1
            return False
        if move is not None:
            self.play.figures.acked.append(
                Acked(f"telegram:cb:{query_id}", self.table_id, self.user, move)
            )
            return True

        def redrawn() -> bool:
            hand = self.hand()
            return hand is not None and (hand.message_id, len(hand.history)) != before

        with contextlib.suppress(TimeoutError):
            await self.tg.wait_for(redrawn, ANSWER_WAIT)
        return True

    def hand(self) -> FakeMessage | None:
        for message in reversed(self.tg.messages(self.user)):
            if any(decode(d).kind == "h" for d in message.callback_data):
                return message
        return None

    async def press_move(self, table: Table, action: Action) -> None:
        message = self.hand()
        if message is None:
            await asyncio.sleep(0.2)
            return
        for card in hand_cards(action) or ():
            labels = set()
            for locale in ("en", "de"):
                with use_locale(locale):
                    labels.add(card_text(card))
            message = self.hand()
            free = [b for b in (message.buttons if message else []) if b.get("text") in labels]
            if (
                message is None
                or not free
                or not await self.press(message, str(free[0]["callback_data"]), None)
            ):
                return
        message = self.hand()
        if message is None:
            return
        try:
            drawn = decode(
                next(
                    d
                    for d in message.callback_data
                    if decode(d).kind == "h" and decode(d).action == "r"
                )
            )
        except StopIteration:
            return
        found = await self.play.service.entry.screens(
            table.id, UserRef("telegram", str(self.user), self.name)
        )
        if found is None or found.own is None:
            return
        model = build_hand_model(found.own, mask=drawn.mask, sort=SortMode(drawn.sort))
        numbers = [i for i, offer in enumerate(model.offers) if offer.action == action]
        if not numbers:
            return
        if model.offers[numbers[0]].group is Group.PILE:
            pile = next(
                (
                    d
                    for d in message.callback_data
                    if decode(d).kind == "h" and decode(d).action == "k"
                ),
                None,
            )
            if pile is None or not await self.press(message, pile, None):
                return
            message = self.hand() or message
        offer = next(
            (
                d
                for d in message.callback_data
                if decode(d).kind == "h"
                and decode(d).action == "a"
                and decode(d).arg == str(numbers[0])
            ),
            None,
        )
        if offer is not None:
            await self.press(message, offer, format_action(action))

    async def type_move(self, table: Table, action: Action) -> None:
        typed = self.tg.send_text(self.user, self.user, format_action(action))

        def answered() -> str | None:
            for m in self.tg.messages(self.user):
                if m.message_id > typed.message_id:
                    if m.reply_to_id == typed.message_id:
                        return "refused"
                    if m.callback_data:
                        return "ok"
            return None

        try:
            outcome = await self.tg.wait_for(answered, ANSWER_WAIT)
        except TimeoutError:
            self.play.figures.retries += 1
            return
        if outcome == "ok":
            assert typed.update_id is not None
            self.play.figures.acked.append(
                Acked(f"telegram:{typed.update_id}", table.id, self.user, format_action(action))
            )
        else:
            self.play.figures.refused += 1

    async def next_deal(self, table: Table) -> None:
        row = await self.play.repo.telegram_messages.table_message(table.id)
        if row is None:
            return
        message = self.tg.world.find_message(row.chat_id, row.message_id)
        if message is None:
            return
        data = next(
            (d for d in message.callback_data if decode(d).kind == "g" and decode(d).action == "n"),
            None,
        )
        if data is not None:
            await self.press(message, data, "next")


# --- setting up -----------------------------------------------------------------------------


async def _group_table(play: Play, people: list[Person], group: int) -> int:
    """The two people open a table in ``group`` with one AI seat, through the fake."""
    host, guest = people
    key = chat_key(group, None)

    async def info() -> Any:
        play.repo._written.clear()
        return await play.service.entry.table_info(key)

    async def typed(user: int, text: str, done: Any) -> Any:
        for _ in range(3):
            play.tg.send_text(user, group, text)
            with contextlib.suppress(AssertionError):
                return await until(done, 10, f"{text} in {group}")
        raise AssertionError(f"{text} in {group} had no effect")

    await typed(host.user, "/new deals=3", info)
    await typed(guest.user, "/join", lambda: _seats(info, 2))
    await typed(host.user, "/addbot", lambda: _seats(info, 3))
    started = await typed(host.user, "/start", lambda: _status(info, Status.PLAYING))
    return int(started.id)


async def _seats(info: Any, count: int) -> Any:
    found = await info()
    return found if found is not None and len(found.seats) >= count else None


async def _status(info: Any, status: Status) -> Any:
    found = await info()
    return found if found is not None and found.status is status else None


# --- the faults -----------------------------------------------------------------------------


class Scenario(WorkerProcesses):
    def __init__(self, play: Play, url: str) -> None:
        super().__init__()
        self.play = play
        self.tg = play.tg
        self.url = url
        self.held: Hold | None = None
        self.log: list[str] = []
        self.serial = itertools.count(1)
        self.began = time.monotonic()
        self.people: list[asyncio.Task[None]] = []

    def note(self, line: str) -> None:
        figures = self.play.figures
        sends = sum(
            1
            for c in self.tg.calls
            if c.method == "sendMessage"
            and isinstance(c.params.get("chat_id"), int)
            and c.params["chat_id"] < 0
        )
        line += (
            f"  [{time.monotonic() - self.began:.0f} s: {len(figures.acked)} moves "
            f"answered, {figures.retries} unanswered, {figures.fumbles} without effect, "
            f"{sends} group sends]"
        )
        self.log.append(line)
        print(line, flush=True)
        for task in self.people:
            if task.done() and not task.cancelled() and task.exception() is not None:
                raise AssertionError("a person's play failed") from task.exception()

    async def start(self, count: int) -> None:
        new = [_spawn(self.url, self.tg, f"w{next(self.serial)}") for _ in range(count)]
        self.workers += await asyncio.gather(*(_ready(w) for w in new))

    async def admin(self) -> asyncpg.Connection:
        return await asyncpg.connect(self.url)

    async def lock_backend(self) -> int | None:
        return await polling_backend(self.url)

    async def owner_of(self, backend: int) -> Worker | None:
        """The worker process whose connection the server process ``backend`` serves."""
        conn = await self.admin()
        try:
            port = await conn.fetchval(
                "SELECT client_port FROM pg_stat_activity WHERE pid = $1", backend
            )
        finally:
            await conn.close()
        return next((w for w in self.live() if port in _socket_ports(w.process.pid)), None)

    async def poller(self) -> tuple[int, Worker]:
        """The polling role's backend and the worker holding it (15 s at most)."""

        async def found() -> tuple[int, Worker] | None:
            backend = await self.lock_backend()
            owner = None if backend is None else await self.owner_of(backend)
            return None if backend is None or owner is None else (backend, owner)

        result: tuple[int, Worker] = await until(found, 15, "a poller")
        return result

    async def resumed(self, began: float, what: str, old_backend: int) -> None:
        """Polling resumes: a live worker holds the role (a backend other than
        ``old_backend``) and its ``getUpdates`` began after that; for 3 s after that only
        that worker polls."""
        _backend, worker = await self.poller_other_than(old_backend)
        taken = time.monotonic()
        await self.tg.wait_for(
            lambda: (
                any(
                    c.method == "getUpdates" and c.began >= taken - 0.5 and c.worker == worker.name
                    for c in self.tg.calls
                )
                or worker.name in self.tg.polling()
            ),
            RESUME_LIMIT + 10,
        )
        resume = time.monotonic() - began
        self.play.figures.resumes.append((what, resume, worker.name))
        settle_from = time.monotonic()
        overlaps = 0
        end = time.monotonic() + 3.0
        while time.monotonic() < end:  # exactly one poller afterwards
            if time.monotonic() - settle_from > 1.0:
                others = {
                    name
                    for name in self.tg.polling()
                    if name != worker.name and name in {w.name for w in self.live()}
                }
                overlaps += bool(others)
            await asyncio.sleep(0.05)
        self.play.figures.steady_overlaps += overlaps
        self.play.figures.handovers.append((began, settle_from + 1.0))
        self.note(
            f"{what}: polling resumed by {worker.name} in {resume:.1f} s; "
            f"samples with a second live poller afterwards: {overlaps}"
        )

    async def poller_other_than(self, old: int) -> tuple[int, Worker]:
        async def found() -> tuple[int, Worker] | None:
            backend = await self.lock_backend()
            if backend is None or backend == old:
                return None
            owner = await self.owner_of(backend)
            return None if owner is None else (backend, owner)

        result: tuple[int, Worker] = await until(found, RESUME_LIMIT + 10, "a new poller")
        return result

    async def in_transaction(
        self, conn: asyncpg.Connection, worker: Worker, tables_only: bool
    ) -> bool:
        """Whether a session of ``worker`` is inside a transaction (``tables_only``: in the
        middle of one, after its first statement, holding a lock on the tables' rows, as
        a move's commit does)."""
        ports = list(_socket_ports(worker.process.pid))
        count = await conn.fetchval(
            "SELECT count(*) FROM pg_stat_activity a WHERE a.client_port = ANY($1::int[])"
            " AND a.xact_start IS NOT NULL AND (NOT $2 OR a.xact_start < a.query_start"
            " AND EXISTS (SELECT 1 FROM pg_locks l"
            " WHERE l.pid = a.pid AND l.granted AND l.relation = 'tables'::regclass"
            " AND l.mode IN ('RowExclusiveLock', 'RowShareLock')))",
            ports,
            tables_only,
        )
        return bool(count)

    async def due_counts(self, ids: list[int]) -> dict[int, int]:
        """How many actions each table of ``ids`` that still plays has stored."""
        conn = await self.admin()
        try:
            rows = await conn.fetch(
                "SELECT t.id, (SELECT count(*) FROM actions a WHERE a.table_id = t.id) AS n "
                "FROM tables t WHERE t.id = ANY($1::bigint[]) AND t.status = 'playing'",
                ids,
            )
        finally:
            await conn.close()
        return {int(r["id"]): int(r["n"]) for r in rows}

    # the five faults

    async def kill_a_non_poller(self) -> None:
        _backend, poller = await self.poller()
        victim = next(w for w in self.live() if w is not poller)
        await self.kill(victim)
        self.note(f"1. SIGKILL of {victim.name} (the poller is {poller.name})")
        await self.start(1)

    async def stop_in_a_transaction(self, ids: list[int]) -> None:
        """SIGSTOP a worker that does not poll in the middle of a commit (tried for 20 s,
        then any transaction of it will do) for :data:`STOP_SECONDS`, measuring each
        playing table of ``ids``: its longest time without a stored action (the stopped
        worker's table waits for the server to end its session and for its lease)."""
        _backend, poller = await self.poller()
        victim = next(w for w in self.live() if w is not poller)
        figures = self.play.figures
        caught = ""
        trying = time.monotonic()
        conn = await self.admin()
        try:
            while not caught and time.monotonic() - trying < 25:
                victim.process.send_signal(signal.SIGSTOP)
                figures.stop_attempts += 1
                tables_only = time.monotonic() - trying < 20  # then any transaction will do
                if await self.in_transaction(conn, victim, tables_only):
                    rows = await conn.fetch(
                        "SELECT state, left(query, 60) AS q FROM pg_stat_activity "
                        "WHERE client_port = ANY($1::int[]) AND xact_start IS NOT NULL",
                        list(_socket_ports(victim.process.pid)),
                    )
                    caught = (
                        "mid-commit" if tables_only else "in a transaction"
                    ) + f": {[(r['state'], r['q']) for r in rows]}"
                    break
                victim.process.send_signal(signal.SIGCONT)
                await asyncio.sleep(random.uniform(0.01, 0.05))
        finally:
            await conn.close()
        if not caught:
            victim.process.send_signal(signal.SIGSTOP)
        figures.stopped_in_transaction = caught
        began = time.monotonic()
        last = await self.due_counts(ids)
        changed = dict.fromkeys(last, began)
        longest = dict.fromkeys(last, 0.0)
        try:  # each busy table's longest pause: a stopped worker's claim lasts one lease
            while time.monotonic() - began < STOP_SECONDS:
                await asyncio.sleep(0.1)
                counts = await self.due_counts(ids)
                now = time.monotonic()
                for table_id, count in counts.items():
                    if count != last.get(table_id):
                        last[table_id], changed[table_id] = count, now
                    longest[table_id] = max(
                        longest.get(table_id, 0.0), now - changed.get(table_id, now)
                    )
        finally:
            victim.process.send_signal(signal.SIGCONT)
        figures.longest_due_pause = max(longest.values(), default=0.0)
        figures.due_pauses = {t: round(v, 1) for t, v in longest.items()}
        self.note(
            f"2. SIGSTOP of {victim.name} for {STOP_SECONDS:.0f} s "
            f"({caught or 'NOT caught in a transaction'}"
            f", {figures.stop_attempts} tries); the longest a table went without a stored "
            f"action: {figures.longest_due_pause:.1f} s (per table: "
            f"{figures.due_pauses})"
        )

    async def kill_the_poller(self) -> None:
        backend, poller = await self.poller()
        began = time.monotonic()
        await self.kill(poller)
        self.note(f"3. SIGKILL of the poller {poller.name}")
        await self.resumed(began, "poller killed", backend)
        await self.start(1)

    async def terminate_the_lock(self) -> None:
        backend, poller = await self.poller()
        conn = await self.admin()
        try:
            began = time.monotonic()
            assert await conn.fetchval("SELECT pg_terminate_backend($1)", backend)
        finally:
            await conn.close()
        self.note(f"4. pg_terminate_backend of the polling lock's backend ({poller.name})")
        await self.resumed(began, "lock's backend terminated", backend)

    async def kill_between_send_and_mark(self) -> None:
        _backend, poller = await self.poller()

        def group_send(not_of: str | None) -> Any:
            def matches(call: ApiCall) -> bool:
                chat = call.params.get("chat_id")
                return (
                    call.method.lower() == "sendmessage"
                    and call.ok
                    and isinstance(chat, int)
                    and chat < 0
                    and call.worker != not_of
                    and call.worker in {w.name for w in self.live()}
                )

            return matches

        held = self.tg.hold(group_send(poller.name))
        try:
            await asyncio.wait_for(held.arrived.wait(), 25)
        except TimeoutError:  # no other worker sent into a group: hold the poller's
            self.tg.holds.remove(held)
            held = self.tg.hold(group_send(None))
            await asyncio.wait_for(held.arrived.wait(), 25)
        assert held.call is not None
        victim = next(w for w in self.live() if w.name == held.call.worker)
        await self.kill(victim)
        held.release()
        self.held = held
        self.note(
            f"5. {victim.name}'s sendMessage into {held.call.params['chat_id']} "
            f"({held.call.result['text']!r}) delivered, its answer held, "
            f"{victim.name} killed before it arrived"
        )
        await self.start(1)


# --- checking ----------------------------------------------------------------------------


def _heads(table: Table, log: list[LogEntry]) -> tuple[dict[int, str], int, list[str]]:
    """The table head (table or score sheet, English) each version of a started table
    shows, the first started version, and the line of every move's event in order (what
    the table message's recent lines tell)."""
    rules = table_rules(table.variant, table.preset, dict(table.options))
    start = next(e.version for e in log if e.command == "start")
    key = table.state.fair_key if table.state is not None else None  # the deals' secrets
    state: GameState = new_game(rules, [s.name for s in table.seats], seed=table.seed, fair_key=key)
    heads: dict[int, str] = {}
    lines: list[str] = []
    with use_locale("en"):
        for entry in log:
            if entry.version < start:
                continue
            events: tuple[Event, ...] = ()
            if entry.seat is not None and entry.command not in SEAT_VERBS:
                state, events = apply(state, parse_action(entry.command, entry.seat))
            view = public_view(state)
            lines += [event_line(e, view) for e in events]
            heads[entry.version] = (
                render_hand_end(view)
                if view.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
                else render_table(view)
            )
    return heads, start, lines


def _recent_lines_lost(
    text: str | None, heads: dict[int, str], version: int, lines: list[str]
) -> tuple[int, list[str]]:
    """The moves the message's recent lines skip: the event lines it shows (notices left
    out) must be the last ones of the stored log, in order; returns how many it shows and
    the missing ones."""
    head = heads.get(version)
    if text is None or head is None or not text.startswith(head + "\n\n"):
        return 0, []
    known = set(lines)
    shown = [line for line in text[len(head) + 2 :].split("\n") if line in known]
    if not shown or shown == lines[-len(shown) :]:
        return len(shown), []
    # the moves from the oldest line shown to the newest that the message does not show
    first = max(
        i for i in range(len(lines)) if lines[i] == shown[0] and i <= len(lines) - len(shown)
    )
    wanted = Counter(lines[first:])
    wanted.subtract(Counter(shown))
    return len(shown), [line for line, n in wanted.items() for _ in range(n) if n > 0]


def _versions_shown(text: str | None, heads: dict[int, str]) -> list[int]:
    return [
        v
        for v, head in heads.items()
        if text is not None and (text == head or text.startswith(head + "\n\n"))
    ]


def _stale_edits(
    texts: list[str | None], heads: dict[int, str], start: int
) -> tuple[int, int, list[str]]:
    """(stale, unmatched, details): texts that can only show an older version than one
    shown before (a lobby text counts as before ``start``), and texts of no version."""
    shown, stale, unmatched, details = 0, 0, 0, []
    for n, text in enumerate(texts):
        versions = _versions_shown(text, heads)
        if not versions:
            if shown >= start:  # a lobby (or unknown) text after the game showed
                unmatched += 1
                details.append(f"#{n}: no version after {shown}: {(text or '')[:60]!r}")
            continue
        later = [v for v in versions if v >= shown]
        if later:
            shown = min(later)
        else:
            stale += 1
            details.append(f"#{n}: shows {versions} after {shown}")
    return stale, unmatched, details


def _span(span: tuple[float, float, int], began: float) -> str:
    start, end, version = span
    return f"from {start - began:.1f} to {end - began:.1f} s, the table at {version}"


async def test_three_workers_on_one_database_survive_the_issues_faults(pg_server: PgServer) -> None:
    began = time.monotonic()
    url = pg_server.create("three")
    ai_ids = await pg_ai_tables(url, AI_TABLES, AI_SETTINGS, deals=30)
    async with running_fake_telegram() as tg:
        sign_with(tg.token)  # the people read the buttons the workers signed
        db = await open_postgres(url, max_size=4)
        play = Play(tg, url, db)
        scenario = Scenario(play, url)
        people: list[Person] = []
        for g, group in enumerate(GROUPS):
            tg.add_group(group, f"Table {g + 1}")
            for seat in range(2):
                user = 7000 + 10 * g + seat
                name = f"P{g}{seat}"
                tg.add_user(user, name, f"p{g}{seat}")
                people.append(Person(play, user, name, group, seat))
        tasks: list[asyncio.Task[None]] = []
        try:
            await scenario.start(3)
            for person in people:
                tg.start_private(person.user)
            await tg.wait_for(lambda: all(tg.private_messages(p.user) for p in people), 20)
            ids = await asyncio.gather(
                *(
                    _group_table(play, people[2 * g : 2 * g + 2], group)
                    for g, group in enumerate(GROUPS)
                )
            )
            for person in people:
                person.table_id = ids[GROUPS.index(person.group)]
            scenario.note(
                f"set up in {time.monotonic() - began:.0f} s: tables {ids}, AI tables {ai_ids}"
            )
            tasks = scenario.people = [asyncio.create_task(p.run()) for p in people]
            await asyncio.sleep(8)
            await scenario.kill_a_non_poller()
            await asyncio.sleep(5)
            await scenario.stop_in_a_transaction(ids + ai_ids)
            await asyncio.sleep(5)
            await scenario.kill_the_poller()
            await scenario.terminate_the_lock()
            await scenario.kill_between_send_and_mark()
            await asyncio.sleep(10)
            play.stop.set()  # each person ends the turn they are in
            await asyncio.wait_for(asyncio.gather(*tasks), 60)
            quiet = await _quiet(play, ids)
            exited = {w.name: w.process.returncode for w in scenario.workers if not w.alive}
            scenario.note(
                f"the people stopped; the workers quiet after {quiet:.0f} s; "
                f"{time.monotonic() - began:.0f} s in all; killed by the test: "
                f"{[w.name for w in scenario.dead]}, alive: "
                f"{[w.name for w in scenario.live()]}, ended by themselves: "
                f"{exited or 'none'}"
            )
            assert not exited, f"workers ended by themselves: {exited}"
            await _check(play, scenario, ids + ai_ids, ids)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await asyncio.to_thread(scenario.stop_all)
            await db.close()


async def _quiet(play: Play, ids: list[int]) -> float:
    """Wait until no group is written to and the people's tables stay put for 12 s (the
    table message shows a change inside a turn 8 s late); 60 s at most."""
    began = time.monotonic()
    last: tuple[int, list[int]] = (-1, [])
    since = time.monotonic()
    while time.monotonic() - began < 60:
        calls = sum(1 for c in play.tg.calls if c.method != "getUpdates")
        versions = [(await play.table(i)).version for i in ids]
        if (calls, versions) != last:
            last, since = (calls, versions), time.monotonic()
        elif time.monotonic() - since >= 12:
            break
        await asyncio.sleep(0.5)
    return time.monotonic() - began


async def _check(play: Play, scenario: Scenario, all_ids: list[int], ids: list[int]) -> None:
    tg, figures = play.tg, play.figures
    stored = await snapshot(play.url)
    failures: list[str] = []

    # data: acknowledged = stored; no version twice; every log replays
    logs = check_logs(stored, all_ids, [(a.key, a.table_id) for a in figures.acked])
    print(
        f"acknowledged moves: {len(figures.acked)} (presses and typed), not stored: "
        f"{len(logs.missing)}; unanswered tries: {figures.retries}, refused: "
        f"{figures.refused}"
    )
    print(
        f"versions written twice: {logs.twice or 'none'}; replay problems: "
        f"{logs.problems or 'none'}"
    )
    print(f"table versions: {[stored.tables[i].version for i in all_ids]}")

    # polling
    conflicts = [c for c in tg.calls if c.method == "getUpdates" and c.status == 409]
    outside = [
        c for c in conflicts if not any(a <= c.ended <= b + 2.0 for a, b in figures.handovers)
    ]
    print(
        f"polling resumed: {[(w, round(s, 1)) for w, s, _ in figures.resumes]}; 409 conflicts: "
        f"{len(conflicts)} ({len(outside)} outside the handovers); samples with two "
        f"live pollers after a handover settled: {figures.steady_overlaps}"
    )

    # the group messages
    sends_by_group: dict[int, list[ApiCall]] = {}
    for call in tg.calls:
        chat = call.params.get("chat_id")
        if call.method == "sendMessage" and call.ok and isinstance(chat, int) and chat < 0:
            sends_by_group.setdefault(chat, []).append(call)
    stale_total, unmatched_total, final_wrong = 0, 0, []
    lines_lost: dict[int, list[str]] = {}
    lines_checked = 0
    repeated: list[tuple[int, str]] = []
    for table_id in ids:
        table = stored.tables[table_id]
        group = int(table.key.chat_id)
        row = await play.repo.telegram_messages.table_message(table_id)
        assert row is not None
        message = tg.world.find_message(row.chat_id, row.message_id)
        assert message is not None
        heads, start, lines = _heads(table, stored.logs[table_id])
        stale, unmatched, details = _stale_edits(message.texts, heads, start)
        stale_total += stale
        unmatched_total += unmatched
        final = _versions_shown(message.text, heads)
        if row.version != table.version or table.version not in final:
            final_wrong.append(
                f"table {table_id}: stored {table.version}, row "
                f"{row.version}, the message shows {final}"
            )
        checked, lost = _recent_lines_lost(message.text, heads, table.version, lines)
        lines_checked += checked
        if lost:
            lines_lost[table_id] = lost
        table_sends = [c for c in sends_by_group.get(group, []) if c.result.get("reply_markup")]
        repeated += [(group, c.result["text"]) for c in table_sends[1:]]
        print(
            f"table {table_id} (group {group}): {len(message.texts)} texts of the table "
            f"message, stale {stale}, of no version {unmatched} {details[:4]}; "
            f"{len(table_sends)} table message(s) sent"
        )
    held = scenario.held
    held_key = None
    if held is not None and held.call is not None:
        held_key = (held.call.params["chat_id"], held.call.result["text"])
    pings: Counter[int] = Counter()
    for (group, name), counts in figures.turns.items():
        pings.update(counts)
        repeated += [(group, f"{name}, it is your turn.")] * sum(c - 1 for c in counts if c > 1)
    not_held = [r for r in repeated if r != held_key]
    unpinged = [
        (group, name, turn, _span(figures.spans[group, name][turn], scenario.began))
        for (group, name), counts in figures.turns.items()
        for turn, count in enumerate(counts)
        if count == 0
    ]
    print(
        f"pings per person per turn: {dict(sorted(pings.items()))} over "
        f"{sum(pings.values())} turns; turns without one (group, person, turn): "
        f"{unpinged}"
    )
    waits = sorted(figures.ping_waits)
    if waits:
        print(
            f"seconds from a turn seen to its ping: p50 {waits[len(waits) // 2][0]:.2f}, "
            f"p99 {waits[min(len(waits) - 1, len(waits) * 99 // 100)][0]:.2f}, max "
            f"{waits[-1][0]:.2f} (group {waits[-1][1]}, turn {waits[-1][2]}) over "
            f"{len(waits)} pings"
        )
    print(
        f"sends repeated: {len(repeated)} ({len(repeated) - len(not_held)} of the held "
        f"send, {len(not_held)} others: {not_held[:4]})"
    )
    print(
        f"table messages: stale edits {stale_total}, texts of no version "
        f"{unmatched_total}, final version not shown: {final_wrong or 'none'}; of "
        f"{lines_checked} recent lines of moves shown at the end, moves missing between: "
        f"{ {t: len(v) for t, v in lines_lost.items()} or 'none' } "
        f"{[v[:2] for v in lines_lost.values()][:2]}"
    )

    failures += logs.failures()
    if not figures.longest_due_pause < LEASE_SECONDS + 5.0:
        failures.append(f"due work paused {figures.longest_due_pause:.1f} s")
    if any(s >= RESUME_LIMIT for _w, s, _ in figures.resumes):
        failures.append(f"polling resumed late: {figures.resumes}")
    if outside or figures.steady_overlaps:
        failures.append(
            f"two pollers: {len(outside)} conflicts outside handovers, "
            f"{figures.steady_overlaps} samples"
        )
    if final_wrong:
        failures.append(f"group message not at the stored version: {final_wrong}")
    if lines_lost:
        failures.append(
            f"the final table messages' recent lines skip stored moves: "
            f"{ {t: len(v) for t, v in lines_lost.items()} }"
        )
    if stale_total or unmatched_total:
        failures.append(f"table edits lost: {stale_total} stale, {unmatched_total} of no version")
    if set(pings) - {1} and not (
        set(pings) - {1} == {2} and pings[2] <= 1 and held_key in repeated
    ):
        failures.append(f"pings per person per turn: {dict(pings)}")
    if not_held or len(repeated) > 1:
        failures.append(f"sends repeated outside the held send: {not_held}")
    assert not failures, "\n".join(failures)
