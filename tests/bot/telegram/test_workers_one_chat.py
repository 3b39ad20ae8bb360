"""Three Telegram workers on one PostgreSQL database show one group the same way (issue 35
item 2): moves land on every worker (presses go wherever the update goes, AI moves to
whichever worker claims them), yet the group's table message is drawn by one worker at a
time, never back to an older version, and ends at the stored version with the recent
lines in the stored order; each turn is pinged at most once. Then the owner dies (no
release, no more sends): another worker takes the chat once its lease ran out and draws
it again, and play goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from dataclasses import dataclass
from typing import Any

import asyncpg
import pytest
from telegram.ext import AIORateLimiter

from bot.i18n import use_locale
from bot.ports.model import Status, TableSettings, UserRef
from bot.service.change_records import HISTORY, stored_changes
from bot.service.delivery import CHAT_LEASE_SECONDS, SWEEP_SECONDS
from bot.service.service import GameService
from bot.storage.feed import PostgresChangeFeed
from bot.storage.postgres import PgDatabase, PostgresRepository, open_postgres
from bot.telegram_bot import TelegramAdapter
from bot.telegram_bot.callbacks import UnverifiedCallback, decode
from bot.telegram_bot.identity import chat_key
from bot.telegram_bot.table_messages import LOG_LINES, change_lines, render_group_text
from devsupport.pg_server import PgServer
from engine.actions import Discard
from engine.commands import format_action
from engine.game import current_player, legal_actions
from engine.views import public_view
from tests.bot.people import People
from tests.bot.telegram.support import BOB, CARL, GROUP, scripted_flow
from tests.fakes.telegram import FakeTelegram, running_fake_telegram

SETTINGS = TableSettings(timer="off", ai_delay=0.0, next_deal_delay=0.0, call_window=0.0)
KEY = chat_key(GROUP, None)
PEOPLE = {
    f"telegram:{CARL}": UserRef("telegram", str(CARL), "Carl"),
    f"telegram:{BOB}": UserRef("telegram", str(BOB), "Bob"),
}
WAIT = 30.0


@dataclass
class Worker:
    adapter: TelegramAdapter
    service: GameService
    db: PgDatabase
    feed: PostgresChangeFeed
    run: asyncio.Task[None]
    stop: asyncio.Event


async def _worker(tg: FakeTelegram, url: str, n: int) -> Worker:
    db = await open_postgres(url, max_size=4)
    adapter = TelegramAdapter(
        tg.token,
        base_url=tg.base_url,
        base_file_url=tg.base_file_url,
        poll_timeout=1,
        group_budget=0,
        rate_limiter=AIORateLimiter(overall_max_rate=0, group_max_rate=0),
    )
    seeds = iter(range(1000 * (n + 1), 10**9))
    service = GameService(
        PostgresRepository(db),
        {"telegram": adapter.notifier},
        defaults=SETTINGS,
        seed_source=lambda: next(seeds),
        worker_id=f"w{n}",
    )
    service.flow = scripted_flow()
    await adapter.start(service.host())
    feed = PostgresChangeFeed(url)
    await feed.start(service.delivery.changed)
    stop = asyncio.Event()
    run = asyncio.create_task(service.run(stop, max_sleep=0.2))
    return Worker(adapter, service, db, feed, run, stop)


async def _close(worker: Worker) -> None:
    worker.stop.set()
    with contextlib.suppress(Exception):
        await worker.run
    with contextlib.suppress(Exception):
        await worker.adapter.stop()
    await worker.feed.stop()
    await worker.db.close()


async def _die(worker: Worker) -> None:
    """What SIGKILL does to a worker here: no more due work, sends or commits, and no
    release of its chats (their leases run out)."""

    async def never() -> None:
        return None

    worker.service.delivery.release = never  # type: ignore[method-assign]
    worker.adapter.notifier.detach()
    worker.stop.set()
    await worker.run
    await worker.feed.stop()


async def _play_moves(workers: list[Worker], moves: int, rng: random.Random) -> int:
    """People's moves sent through random workers (AI seats are the schedulers'); returns
    how many were made."""
    made = 0
    deadline = time.monotonic() + WAIT * 2
    while made < moves and time.monotonic() < deadline:
        repo = workers[0].service.repo
        table = await repo.active_table(KEY)
        if table is None or table.state is None or table.status is not Status.PLAYING:
            break
        seat = current_player(table.state)
        user = None if seat is None else table.seats[seat].user
        if seat is None or user not in PEOPLE:
            await asyncio.sleep(0.05)  # an AI seat's turn: a scheduler plays it
            continue
        legal = legal_actions(table.state, seat)
        discard = next((a for a in legal if isinstance(a, Discard)), None)
        command = format_action(discard) if discard is not None else "draw"
        worker = rng.choice(workers)
        with contextlib.suppress(Exception):  # a stale move (an AI moved first) is refused
            await People(worker.service).act(KEY, PEOPLE[user], command)
            made += 1
    return made


LOBBY_BUTTONS = {"j", "l", "a", "s"}


def _edits_of(tg: FakeTelegram, message_id: int) -> list[tuple[int, int]]:
    """What the table message's keyboard was drawn for, edit by edit: (0, table version)
    in the lobby, (1, game state version) once the game runs."""
    out = []
    for call in tg.calls:
        if (
            call.method.lower() != "editmessagetext"
            or not call.ok
            or str(call.params.get("chat_id")) != str(GROUP)
            or int(call.params.get("message_id", 0)) != message_id
        ):
            continue
        markup: Any = call.params.get("reply_markup") or {}
        if isinstance(markup, str):
            markup = json.loads(markup)
        for row in markup.get("inline_keyboard", []):
            for button in row:
                data = button.get("callback_data")
                if data is None:
                    continue
                try:
                    drawn = decode(data)
                except UnverifiedCallback:
                    continue
                out.append((0 if drawn.action in LOBBY_BUTTONS else 1, drawn.version))
                break
            else:
                continue
            break
    return out


async def _quiet(workers: list[Worker], table_id: int, tg: FakeTelegram | None = None) -> None:
    """Wait until every change is shown: the stored message shows the stored version."""
    repo = workers[-1].service.repo
    began = time.monotonic()
    while time.monotonic() - began < WAIT:
        table = await repo.get_table(table_id)
        row = await repo.telegram_messages.table_message(table_id)
        busy = any(
            w.adapter.notifier._parts is not None and w.adapter.notifier._parts.outbox.busy()
            for w in workers
        )
        if table is not None and row is not None and row.version == table.version and not busy:
            return
        await asyncio.sleep(0.1)
    conn = await asyncpg.connect(workers[-1].service.repo._db.url)  # type: ignore[attr-defined]
    try:
        owners = await conn.fetch("SELECT * FROM chat_owners")
        unshown = await conn.fetch(
            "SELECT table_id, version, created_at FROM table_changes WHERE shown = 0"
        )
        now = await conn.fetchval("SELECT extract(epoch from now())")
    finally:
        await conn.close()
    raise AssertionError(
        f"the group message did not reach the stored version: table "
        f"{table and table.version}, message {row and row.version}, busy "
        f"{busy}, owners {[dict(o) for o in owners]}, unshown "
        f"{[dict(u) for u in unshown]}, now {now}, calls "
        f"{[(c.method, c.status) for c in (tg.calls if tg else [])[-12:]]}"
    )


@pytest.mark.once
async def test_three_workers_show_one_group_as_one(pg_server: PgServer) -> None:
    url = pg_server.create("onechat")
    rng = random.Random(35)
    async with running_fake_telegram() as tg:
        tg.add_user(CARL, "Carl", "carl")
        tg.add_user(BOB, "Bob", "bob")
        tg.add_group(GROUP, "Rummy night", admins=(CARL,))
        workers = [await _worker(tg, url, n) for n in range(3)]
        try:
            for user in (CARL, BOB):
                tg.start_private(user)
            for text, user in (
                ("/new deals=1", CARL),
                ("/join", BOB),
                ("/addbot", CARL),
                ("/start", CARL),
            ):
                tg.send_text(user, GROUP, text)
                await asyncio.sleep(0.3)
            repo = workers[0].service.repo
            began = time.monotonic()
            while (
                await repo.active_table(KEY) is None
                or (await repo.active_table(KEY)).status is not Status.PLAYING
            ):  # type: ignore[union-attr]
                assert time.monotonic() - began < WAIT
                await asyncio.sleep(0.1)
            table = await repo.active_table(KEY)
            assert table is not None
            made = await _play_moves(workers, 24, rng)
            owners = await _owners(url)
            assert len(owners) == 1, owners
            owner = next(w for w in workers if w.service.worker_id == owners[0])
            await _quiet(workers, table.id)

            # the owner dies; the others play on and one of them takes the chat
            await _die(owner)
            alive = [w for w in workers if w is not owner]
            made += await _play_moves(alive, 12, rng)
            await asyncio.sleep(CHAT_LEASE_SECONDS + 2 * SWEEP_SECONDS)
            await _quiet(alive, table.id, tg)
            after = await _owners(url)
            assert after and after[0] != owner.service.worker_id

            stored = await repo.get_table(table.id)
            row = await repo.telegram_messages.table_message(table.id)
            assert stored is not None and row is not None
            versions = _edits_of(tg, row.message_id)
            assert versions == sorted(versions), versions  # never drawn back
            assert stored.state is not None and row.version == stored.version
            message = next(m for m in tg.messages(GROUP) if m.message_id == row.message_id)
            view = public_view(stored.state)
            with use_locale("en"):
                lines = [
                    line
                    for past in await stored_changes(repo.outbox, table.id, HISTORY)
                    for line in change_lines(past.events, past.notices, view)
                ]
                expected = render_group_text(stored.info(), view, lines[-LOG_LINES:], [])
            assert message.text == expected  # the stored version, the stored lines
            pings = [
                c
                for c in tg.calls
                if c.method.lower() == "sendmessage"
                and c.ok
                and str(c.params.get("chat_id")) == str(GROUP)
                and "it is your turn" in str(c.params.get("text", ""))
            ]
            keys = await _ping_keys(url, table.id)
            print(
                f"\n{made} moves by people over 3 workers, {stored.version} versions; "
                f"{len(versions)} edits of the table message, all in version order; "
                f"{len(pings)} turn pings for {len(keys)} turns; chat owner "
                f"{owners[0]} then {after[0]}"
            )
            assert len(pings) == len(keys), ([c.params.get("text") for c in pings], keys)
            assert made >= 10
        finally:
            for worker in workers:
                await _close(worker)


async def _owners(url: str) -> list[str]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT owner FROM chat_owners WHERE chat_key = $1", str(KEY))
    finally:
        await conn.close()
    return [str(r["owner"]) for r in rows]


async def _ping_keys(url: str, table_id: int) -> list[str]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT key FROM sent_keys WHERE key LIKE $1 AND state = 'sent'",
            f"telegram:ping:{table_id}:%",
        )
    finally:
        await conn.close()
    return [str(r["key"]) for r in rows]
