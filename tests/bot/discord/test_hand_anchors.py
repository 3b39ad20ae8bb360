"""Hand anchors across workers (issue 35, item 2): two Discord adapters, each with its own
game service, on ONE PostgreSQL database and one fake Discord. A person opens their hand
on worker 1 (the ephemeral answers worker 1's interaction); a change that worker 2
publishes (an AI move it ran as due work) makes worker 2 edit that same ephemeral
message through the stored interaction token. A stored token that is too old by the
service's clock, or that Discord refuses, is forgotten instead; the turn ping then
carries the Show my hand button, which opens a fresh hand message."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from bot.discord_bot.sessions import TOKEN_LIFETIME
from bot.ports.message_store import DiscordHandAnchor
from bot.service.clock import ManualClock
from bot.service.flow import FlowControl
from bot.service.service import GameService
from engine.dealing import new_game
from engine.game import current_player
from tests.bot.backends import database_url, open_backend
from tests.bot.discord.players import control
from tests.bot.discord.support import DEFAULTS, TIMEOUT, Bot, new_adapter, running_bot
from tests.fakes.discord import (
    FakeDiscord,
    FakeMessage,
    FakeUser,
    point_discord_py_at,
    running_fake_discord,
)


@contextlib.asynccontextmanager
async def two_workers(tmp_path: Path, url: str) -> AsyncIterator[tuple[Bot, Bot]]:
    """Two workers on the PostgreSQL database ``url``: each a game service (its own
    connection pool) whose Discord notifier is its own adapter, both adapters on one fake
    Discord; one clock (on PostgreSQL the workers share the database's). Only worker 1's
    adapter is connected: a test connects worker 2 (``start_adapter``) once the
    interactions worker 1 should answer are answered (the fake gateway hands every
    interaction to every connected session)."""
    clock = ManualClock()
    async with running_fake_discord() as server:
        with point_discord_py_at(server):
            bots = []
            for n in (1, 2):
                path = tmp_path / f"worker{n}"
                db, repo = await open_backend(path, url)
                seeds = iter(range(1000 * n, 10**9))
                service = GameService(
                    repo, {}, clock, DEFAULTS, seed_source=lambda s=seeds: next(s)
                )  # type: ignore[misc]
                service.flow = FlowControl(user_rate=(10_000, 1.0), chat_rate=(10_000, 1.0))
                adapter = new_adapter(server, path)
                service.notifiers["discord"] = adapter.notifier
                bots.append(Bot(server, service, clock, adapter, db, path))
            first, second = bots
            await first.start_adapter()
            try:
                yield first, second
            finally:
                for bot in bots:
                    await asyncio.wait_for(bot.adapter.stop(), TIMEOUT)
                    await bot.db.close()


async def ai_to_move(bot: Bot, user: FakeUser) -> int:
    """``user`` opens a table in #rummy with an AI seat and starts it; the deal is made
    again so that the AI moves first (due now). Returns the table id."""
    w = bot.world
    await bot.slash(user, w.text, "new")
    table = bot.table_message(w.text)
    await bot.click(user, table, control(table, "addbot.normal"))
    await bot.click(user, table, control(table, "start"))
    stored = await bot.service.repo.active_table(bot.key(w.text))
    assert stored is not None and stored.state is not None
    state = new_game(stored.state.rules, list(stored.state.players), seed=7, dealer=0)
    assert current_player(state) == 1
    await bot.service.repo.commit(
        replace(stored, state=state, version=stored.version + 1, due_at=bot.clock.now()),
        stored.version,
    )
    return stored.id


async def open_hand(bot: Bot, user: FakeUser) -> tuple[FakeMessage, str]:
    """``user`` presses Show my hand on the table message: their ephemeral hand message
    and the token of the interaction it answers."""
    table = bot.table_message(bot.world.text)
    shown = await bot.click(user, table, control(table, "hand"))
    hand = shown.original
    assert hand is not None and hand.ephemeral and hand.viewer is user
    return hand, shown.token


async def ai_moves(bot: Bot, table_id: int) -> int:
    """Run ``bot``'s due work until the AI finished its turn; the table's version then."""
    for _ in range(10):
        assert await bot.tick() >= 1
        table = await bot.service.repo.get_table(table_id)
        assert table is not None and table.state is not None
        if current_player(table.state) == 0:
            return table.version
    raise AssertionError("the AI did not finish its turn")


def turn_ping(server: FakeDiscord, bot: Bot, user: FakeUser) -> FakeMessage:
    """The newest public message mentioning ``user``."""
    pings = [m for m in server.channel_messages(bot.world.text) if f"<@{user.id}>" in m.content]
    assert pings, "no ping"
    return pings[-1]


async def test_a_hand_opened_on_one_worker_is_redrawn_by_the_worker_that_publishes(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Alice opens her hand on worker 1 while the AI is to move; worker 1 gives the
    channel up (it is stopping), worker 2 runs the AI's move (due work) and shows it:
    worker 2 edits Alice's ephemeral through the
    interaction's webhook with her token (``PATCH /webhooks/{app}/{token}/messages/
    @original``), so that same message shows her new turn; the stored anchor then names
    the version it shows. Worker 1 drew nothing."""
    url = database_url(request, "postgres")
    assert url is not None
    async with two_workers(tmp_path, url) as (one, two):
        w = one.world
        table_id = await ai_to_move(one, w.alice)
        hand, token = await open_hand(one, w.alice)
        before = hand.content
        assert "to play" in before  # the AI's turn
        stored = await two.service.repo.discord_messages.hand_anchor(
            table_id, f"discord:{w.alice.id}"
        )
        assert stored is not None
        assert (stored.token, stored.message_id) == (token, str(hand.id))
        assert stored.application_id == str(one.server.world.application_id)
        assert stored.created_at == one.clock.now()

        await one.service.delivery.release()  # worker 1 stops showing #rummy: worker 2 will
        await two.start_adapter()
        edits_before = len(one.server.calls_to("PATCH", "/webhooks/*"))
        private = list(one.server.ephemeral_messages(w.alice))
        version = await ai_moves(two, table_id)  # Alice's turn now

        edits = one.server.calls_to("PATCH", "/webhooks/*")[edits_before:]
        app = one.server.world.application_id
        assert [(c.path, c.status) for c in edits] == [
            (f"/webhooks/{app}/{token}/messages/@original", 200)
        ]
        assert hand.content != before and "to play" not in hand.content
        assert hand.history and hand.history[-1]["content"] == before
        assert not hand.deleted and one.server.ephemeral_messages(w.alice) == private
        after = await two.service.repo.discord_messages.hand_anchor(
            table_id, f"discord:{w.alice.id}"
        )
        assert after is not None and after.token == token
        assert after.version == version
        # Worker 1 published nothing: its live anchor still shows the version it drew.
        live = one.adapter.sessions.anchor(table_id, f"discord:{w.alice.id}")
        assert live is not None and live.version < version
        # A click on the redrawn message is answered (by worker 2, the one connected
        # to the gateway now that worker 1 stops) and draws the same hand.
        redrawn = hand.content
        await one.adapter.stop()
        refreshed = await two.click(w.alice, hand, control(hand, "refresh"))
        assert refreshed.original is hand and refreshed.response_type == 7
        assert hand.content == redrawn


@pytest.mark.parametrize("why", ["old", "refused"])
async def test_a_stale_token_is_forgotten_and_the_turn_ping_opens_a_fresh_hand(
    tmp_path: Path, request: pytest.FixtureRequest, why: str
) -> None:
    """``old``: the stored anchor is older than 14 minutes by the service's clock: worker 2
    does not use it (no webhook call) and deletes it. ``refused``: Discord answers 401
    Invalid Webhook Token (the fake's tokens expire at once here): the row is deleted too.
    Either way the turn ping mentions Alice with a Show my hand button, which answers with a
    fresh ephemeral hand message showing her turn, the new anchor."""
    url = database_url(request, "postgres")
    assert url is not None
    async with two_workers(tmp_path, url) as (one, two):
        w = one.world
        key = f"discord:{w.alice.id}"
        table_id = await ai_to_move(one, w.alice)
        hand, token = await open_hand(one, w.alice)
        before = hand.content
        if why == "old":
            one.clock.advance(TOKEN_LIFETIME + 1.0)
        else:  # Discord (the fake) holds the token expired, whatever our clock says
            one.server.token_lifetime = 0.0
        await one.service.delivery.release()  # worker 1 stops showing #rummy: worker 2 will
        await two.start_adapter()
        edits_before = len(one.server.calls_to("PATCH", "/webhooks/*"))
        await ai_moves(two, table_id)
        edits = one.server.calls_to("PATCH", "/webhooks/*")[edits_before:]
        if why == "old":
            assert edits == []
        else:
            assert [c.status for c in edits] == [401]
            assert token in edits[0].path
        assert hand.content == before
        assert await two.service.repo.discord_messages.hand_anchor(table_id, key) is None
        one.server.token_lifetime = 15 * 60.0  # the tokens of new interactions live again

        ping = turn_ping(one.server, two, w.alice)
        assert "your turn" in ping.content
        assert [c for c in ping.custom_ids() if ":hand" in c], ping.custom_ids()
        await one.adapter.stop()  # worker 2 alone answers the click
        fresh = await two.click(w.alice, ping, control(ping, "hand"))
        new_hand = fresh.original
        assert new_hand is not None and new_hand is not hand and new_hand.ephemeral
        assert new_hand.viewer is w.alice and "to play" not in new_hand.content
        stored = await two.service.repo.discord_messages.hand_anchor(table_id, key)
        assert isinstance(stored, DiscordHandAnchor)
        assert (stored.token, stored.message_id) == (fresh.token, str(new_hand.id))


async def test_a_restarted_adapter_redraws_the_hand_its_old_client_opened(tmp_path: Path) -> None:
    """One worker on SQLite: Alice opens her hand, the adapter restarts (a new client: the
    old interactions are gone from memory); the AI's move is still drawn into the same
    ephemeral, through the stored token."""
    async with running_bot(tmp_path) as bot:
        w = bot.world
        table_id = await ai_to_move(bot, w.alice)
        hand, token = await open_hand(bot, w.alice)
        before = hand.content
        await bot.restart()
        assert bot.adapter.sessions.anchor(table_id, f"discord:{w.alice.id}") is None
        edits_before = len(bot.server.calls_to("PATCH", "/webhooks/*"))
        await ai_moves(bot, table_id)
        edits = bot.server.calls_to("PATCH", "/webhooks/*")[edits_before:]
        assert [(c.path, c.status) for c in edits] == [
            (f"/webhooks/{bot.server.world.application_id}/{token}/messages/@original", 200)
        ]
        assert hand.content != before and "to play" not in hand.content
