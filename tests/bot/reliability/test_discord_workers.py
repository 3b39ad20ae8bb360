"""Issue 35's acceptance with Discord: three worker processes (:mod:`dc_worker`,
``run_bot`` with the Discord adapter, each on its own shard of three) on one PostgreSQL
database and the fake Discord, which routes a guild's events (interactions among them)
only to the session of the guild's shard, ``(guild_id >> 22) % 3``.

Alice plays in #rummy of the default guild against an AI seat with typed moves
(``/rummy play command:<move>``, chosen by the greedy AI from her view); only the worker
holding the guild's shard hears her; the AI's moves are due work that any worker runs;
the channel's table message, her turn pings and her hand are drawn by the worker that
owns the channel (``chat_owners``). Faults:

1. SIGKILL of the channel's owner (found in ``chat_owners``) in Alice's turn; it also
   holds the guild's shard, so her moves go unanswered until a replacement started on
   the same shard (she tries again after 8 s);
2. SIGKILL of another worker (neither the owner nor the guild's shard; no replacement).

Figures, printed and asserted: every move the fake saw answered with success is in the
stored action log; no version twice and every log replays; the channel was taken over
after the owner died; at the end the table message (``discord_table_messages``) is at
the stored version and its controls name the stored game version, the table message was
never edited back to an older game version (the version its controls' custom ids carry),
and Alice was pinged at most once per turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.discord_bot.components import ControlId
from bot.ports.model import ChatKey, Status
from bot.service.delivery import CHAT_LEASE_SECONDS, SWEEP_SECONDS
from bot.service.model import Table
from bot.storage.postgres import PgDatabase, PostgresRepository, open_postgres
from devsupport.pg_server import PgServer
from engine.ai import make_ai
from engine.commands import format_action
from engine.game import current_player, legal_actions
from engine.state import Phase
from engine.views import view_for
from tests.bot.reliability.support import (
    Worker,
    WorkerProcesses,
    check_logs,
    snapshot,
    until,
)
from tests.fakes.discord import FakeDiscord, FakeInteraction, FakeMessage, running_fake_discord
from tests.fakes.discord.components import interactive

pytestmark = pytest.mark.once  # processes: the first CI pass only

WORKER = Path(__file__).with_name("dc_worker.py")
SHARDS = 3
ANSWER_WAIT = 8.0  # seconds Alice waits for the bot's answer before trying again
PING_WAIT = CHAT_LEASE_SECONDS + 3 * SWEEP_SECONDS + 10.0
"""Seconds Alice waits for her turn ping before moving anyway (as long as a takeover, and
10 s more for two cores shared by the workers and the server)."""
LOBBY = ("join", "leave", "start", "addbot.easy", "addbot.normal", "addbot.hard", "addbot.expert")


@dataclass
class Figures:
    acked: list[tuple[int, str]] = field(default_factory=list)  # interaction id, move
    refused: int = 0
    retries: int = 0
    turns: list[int] = field(default_factory=list)  # pings per turn of Alice's
    takeovers: list[tuple[str, float, str]] = field(default_factory=list)


class Play(WorkerProcesses):
    def __init__(self, server: FakeDiscord, url: str, db: PgDatabase, tmp: Path) -> None:
        super().__init__()
        self.server = server
        self.url = url
        self.repo = PostgresRepository(db)
        self.tmp = tmp
        self.figures = Figures()
        self.serial = 0
        self.stop = asyncio.Event()
        self.began = time.monotonic()
        assert server.default is not None
        self.w = server.default
        self.key = ChatKey("discord", str(self.w.text.id))
        self.shard = (self.w.guild.id >> 22) % SHARDS
        self.table_id = 0

    def note(self, line: str) -> None:
        f = self.figures
        print(
            f"{line}  [{time.monotonic() - self.began:.0f} s: {len(f.acked)} moves "
            f"answered, {f.retries} unanswered, {f.refused} refused]",
            flush=True,
        )

    # --- workers -------------------------------------------------------------------------

    async def spawn(self, shards: tuple[int, ...]) -> Worker:
        self.serial += 1
        name = f"w{self.serial}"
        err = open(self.tmp / f"{name}.log", "w")  # noqa: SIM115 - the process keeps it
        process = subprocess.Popen(
            [
                sys.executable,
                str(WORKER),
                self.url,
                self.server.api_base,
                self.server.gateway_url,
                name,
                str(SHARDS),
                ",".join(map(str, shards)),
            ],
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1", "LANG": "C.UTF-8"},
        )
        err.close()
        worker = Worker(name, process, shards)
        assert process.stdout is not None
        line = await asyncio.wait_for(asyncio.to_thread(process.stdout.readline), 60)
        assert line.strip() == "READY", f"{name} did not start: {line!r}"
        self.workers.append(worker)
        return worker

    async def owner(self) -> str | None:
        conn = await asyncpg.connect(self.url)
        try:
            row = await conn.fetchrow(
                "SELECT owner, until, extract(epoch FROM now()) AS now "
                "FROM chat_owners WHERE chat_key = $1",
                str(self.key),
            )
        finally:
            await conn.close()
        return None if row is None or row["until"] < float(row["now"]) else str(row["owner"])

    # --- what the fake shows -------------------------------------------------------------

    async def table(self) -> Table:
        self.repo._written.clear()
        table = await self.repo.get_table(self.table_id)
        assert table is not None
        return table

    async def table_message(self) -> FakeMessage | None:
        row = await self.repo.discord_messages.get(self.table_id)
        return None if row is None else self.server.messages.get(int(row.message_id))

    def pings(self) -> int:
        mention = f"<@{self.w.alice.id}>"
        return sum(
            1
            for m in self.server.messages.in_channel(self.w.text.id, include_deleted=True)
            if mention in (m.history[0]["content"] if m.history else m.content)
        )

    async def answered(self, interaction: FakeInteraction) -> bool:
        """Whether the bot answered ``interaction`` (its placeholder filled) in time."""
        try:
            await interaction.wait_response(ANSWER_WAIT)
            original = interaction.original
            if original is not None and original.loading:
                await self.server.wait_until(lambda: not original.loading, ANSWER_WAIT)
        except TimeoutError:
            self.figures.retries += 1
            return False
        return True

    async def slash(self, subcommand: str, options: dict[str, Any]) -> FakeInteraction | None:
        interaction = await self.server.slash(
            self.w.alice, self.w.text, "rummy", options, subcommand=subcommand
        )
        return interaction if await self.answered(interaction) else None

    async def shows(self, version: int) -> bool:
        """Whether the table message is drawn at table ``version`` or later."""
        message = await self.table_message()
        ids = [] if message is None else message.custom_ids()
        versions = [p.version for c in ids if (p := ControlId.parse(c)) is not None]
        return max(versions, default=-1) >= version

    async def click(self, action: str) -> bool:
        message = await self.table_message()
        ids = (
            []
            if message is None
            else [
                c for c in message.custom_ids() if (p := ControlId.parse(c)) and p.action == action
            ]
        )
        if message is None or not ids:
            return False
        try:
            interaction = await self.server.click(self.w.alice, message, ids[0])
        except ValueError:  # the message changed under the finger
            return False
        return await self.answered(interaction)


def _failed(interaction: FakeInteraction) -> bool:
    texts = [m.content for m in interaction.messages()]
    return not texts or any("⚠" in t or "went wrong" in t or "has changed" in t for t in texts)


def _pinged_after(play: Play, count: int) -> Callable[[], bool]:
    return lambda: play.pings() > count


async def _alice(play: Play) -> None:
    """Alice's turns until ``play.stop`` (she ends the turn she is in)."""
    ai = make_ai("greedy", seed=7)
    in_turn, pings_before = False, 0
    while True:
        table = await play.table()
        state = table.state
        if table.status is not Status.PLAYING or state is None:
            return
        mine = current_player(state) == 0 and state.phase in (Phase.DRAW, Phase.PLAY)
        if in_turn and not mine:
            in_turn = False
            now = play.pings()
            play.figures.turns.append(now - pings_before)
            pings_before = now
        if play.stop.is_set() and not in_turn:
            return
        if state.phase is Phase.HAND_OVER:
            await play.click("next")
            await asyncio.sleep(0.3)
            continue
        if not mine:
            await asyncio.sleep(0.1)
            continue
        if not in_turn:
            in_turn = True
            with contextlib.suppress(TimeoutError):  # she reacts to the ping
                await play.server.wait_until(_pinged_after(play, pings_before), PING_WAIT)
        action = ai.decide(view_for(state, 0), legal_actions(state, 0))
        move = format_action(action)
        done = await play.slash("play", {"command": move})
        if done is None:
            continue
        if _failed(done):
            play.figures.refused += 1
            await asyncio.sleep(0.2)
        else:
            play.figures.acked.append((done.id, move))


async def _takeover(play: Play, old: str, what: str) -> None:
    began = time.monotonic()

    async def new_owner() -> str | None:
        owner = await play.owner()
        return owner if owner is not None and owner != old else None

    owner = await until(new_owner, CHAT_LEASE_SECONDS + 15, f"a new owner after {old}")
    play.figures.takeovers.append((what, time.monotonic() - began, owner))
    play.note(f"   the channel is {owner}'s {time.monotonic() - began:.1f} s later")


def _game_versions(snapshots: list[list[Any]]) -> list[int]:
    """The game version each drawn state of the table message names (its in-game
    controls' custom ids); lobby states and states without controls are left out."""
    versions = []
    for components in snapshots:
        ids = [ControlId.parse(c["custom_id"]) for c in interactive(components)]
        game = [p.version for p in ids if p is not None and p.action not in LOBBY]
        if game:
            versions.append(max(game))
    return versions


async def test_discord_workers_on_one_database_survive_kills(
    pg_server: PgServer, tmp_path: Path
) -> None:
    url = pg_server.create("discordworkers")
    async with running_fake_discord() as server:
        db = await open_postgres(url, max_size=4)
        play = Play(server, url, db, tmp_path)
        alice: asyncio.Task[None] | None = None
        try:
            s = play.shard
            await asyncio.gather(*(play.spawn(((s + k) % SHARDS,)) for k in range(SHARDS)))
            play.note(
                f"workers {[(w.name, w.shards) for w in play.workers]}; the guild is on shard {s}"
            )
            assert await play.slash("new", {"options": "deals=3"}) is not None
            lobby = await play.repo.active_table(play.key)
            assert lobby is not None
            play.table_id = lobby.id
            await until(play.table_message, 10, "the lobby's table message")
            assert await play.click("addbot.normal")
            # the owner (maybe another process) edits the table message after the answer;
            # a start pressed on the lobby drawn before the AI seat is refused as stale
            seated = await play.table()
            await until(lambda: play.shows(seated.version), 20, "the lobby with the AI seat")
            assert await play.click("start")

            async def started() -> Table | None:  # answered (deferred) before the commit
                table = await play.table()
                return table if table.status is Status.PLAYING else None

            found = await until(started, 20, "the game started")
            owner = await play.owner()
            play.note(f"table {found.id} started; the channel is {owner}'s")
            alice = asyncio.create_task(_alice(play))
            await asyncio.sleep(10)

            # 1. SIGKILL of the owner (it holds the guild's shard: a replacement starts),
            # in Alice's turn: her next moves go to the dead shard until it is back
            async def alices_turn() -> bool:
                state = (await play.table()).state
                return state is not None and current_player(state) == 0

            await until(alices_turn, 20, "Alice's turn")
            owner = await play.owner()
            victim = next(w for w in play.live() if w.name == owner)
            await play.kill(victim)
            play.note(f"1. SIGKILL of the owner {victim.name} (shards {victim.shards})")
            if s in victim.shards:
                new = await play.spawn(victim.shards)
                play.note(f"   replacement {new.name} on shards {new.shards}")
            await _takeover(play, victim.name, "owner killed")
            await asyncio.sleep(8)

            # 2. SIGKILL of another worker: neither the owner nor the guild's shard
            owner = await play.owner()
            others = [w for w in play.live() if w.name != owner and s not in w.shards]
            victim = others[0]
            await play.kill(victim)
            play.note(f"2. SIGKILL of {victim.name} (shards {victim.shards}; the owner is {owner})")
            await asyncio.sleep(12)
            play.stop.set()
            await asyncio.wait_for(alice, 60)
            quiet = await _quiet(play)
            play.note(
                f"Alice stopped; quiet after {quiet:.0f} s; alive "
                f"{[w.name for w in play.live()]}, killed {[w.name for w in play.dead]}"
            )
            exited = {w.name: w.process.returncode for w in play.workers if not w.alive}
            assert not exited, f"workers ended by themselves: {exited}"
            await _check(play)
        finally:
            if alice is not None:
                alice.cancel()
                await asyncio.gather(alice, return_exceptions=True)
            await asyncio.to_thread(play.stop_all)
            await db.close()


async def _quiet(play: Play) -> float:
    """Wait until the fake sees no call and the table stays put for 6 s; 40 s at most."""
    began = time.monotonic()
    last: tuple[int, int] = (-1, -1)
    since = time.monotonic()
    while time.monotonic() - began < 40:
        now = (len(play.server.calls), (await play.table()).version)
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= 6:
            break
        await asyncio.sleep(0.5)
    return time.monotonic() - began


async def _check(play: Play) -> None:
    figures = play.figures
    stored = await snapshot(play.url)
    failures: list[str] = []
    table_id = play.table_id
    log = stored.logs[table_id]

    logs = check_logs(
        stored,
        stored.tables,
        [(f"discord:{interaction}", table_id) for interaction, _ in figures.acked],
        seat=0,
    )
    table = stored.tables[table_id]
    print(
        f"acknowledged moves: {len(figures.acked)}, not stored: {len(logs.missing)}; "
        f"unanswered tries: {figures.retries}, refused: {figures.refused}"
    )
    print(
        f"versions written twice: {logs.twice or 'none'}; replay problems: "
        f"{logs.problems or 'none'}; table version {table.version}, log entries {len(log)}"
    )
    heard: dict[int | None, set[str]] = {}
    for session in play.server.gateway.sessions.values():
        heard.setdefault(session.shard[0] if session.shard else None, set()).update(
            d["d"]["id"] for d in session.log if d["t"] == "INTERACTION_CREATE"
        )
    routed = {shard: len(ids) for shard, ids in heard.items()}
    wrong = {shard: n for shard, n in routed.items() if n and shard != play.shard}
    print(
        f"interactions dispatched per shard (any of its sessions): {routed} of "
        f"{len(play.server.interactions)}; to another shard than the guild's: "
        f"{wrong or 'none'}"
    )
    print(
        f"takeovers (what, seconds, new owner): "
        f"{[(w, round(t, 1), o) for w, t, o in figures.takeovers]}"
    )

    row = await play.repo.discord_messages.get(table_id)
    assert row is not None
    message = play.server.messages.get(int(row.message_id))
    assert message is not None

    def is_table_message(m: FakeMessage) -> bool:
        drawn = [h["components"] for h in m.history] + [m.components]
        return any(
            p is not None
            and p.table == table_id
            and (p.action, p.version)
            != ("hand", 0)  # the turn ping's Show my hand names no version
            for components in drawn
            for c in interactive(components)
            if (p := ControlId.parse(c["custom_id"])) is not None
        )

    sent = [
        m
        for m in play.server.messages.in_channel(play.w.text.id, include_deleted=True)
        if is_table_message(m)
    ]
    snapshots = [h["components"] for h in message.history] + [message.components]
    versions = _game_versions(snapshots)
    stale = [
        (n, v, max(versions[:n])) for n, v in enumerate(versions) if n and v < max(versions[:n])
    ]
    state = table.state
    final = _game_versions([message.components])
    final_ok = row.version == table.version and state is not None and final == [state.version]
    pings = Counter(figures.turns)
    print(
        f"table message {row.message_id}: {len(message.history)} edits, game versions "
        f"shown {versions[:3]}...{versions[-3:]}, back to an older version: "
        f"{len(stale)} {stale[:4]}; row version {row.version}, stored {table.version}; "
        f"controls name game version {final}, stored "
        f"{None if state is None else state.version}; table messages sent into the "
        f"channel: {len(sent)}"
    )
    print(f"pings per Alice's turn: {dict(sorted(pings.items()))} over {len(figures.turns)} turns")

    if wrong:
        failures.append(f"interactions reached other shards: {wrong}")
    failures += logs.failures()
    if not figures.takeovers:
        failures.append("the channel was not taken over")
    if stale:
        failures.append(f"table message edited back to older versions: {stale[:5]}")
    if not final_ok:
        failures.append(
            f"table message not at the stored version: row {row.version}, "
            f"stored {table.version}, controls {final}"
        )
    if set(pings) - {0, 1}:
        failures.append(f"pinged more than once in a turn: {dict(pings)}")
    if len(figures.acked) < 5:
        failures.append(f"too few moves answered: {len(figures.acked)}")
    assert not failures, "\n".join(failures)
