"""Two Discord workers on one PostgreSQL database show one channel as one (issue 35, item
2): the channel's table message, turn pings and hand messages are drawn by the worker that
owns the channel (:mod:`bot.service.delivery`), whichever worker ran the move; when that
worker dies, the other one takes the channel once its lease ran out and draws it again at
the stored version, with one ping for the open turn.

The workers are :func:`tests.bot.discord.test_hand_anchors.two_workers`: two game
services with their own adapters and connection pools, one fake Discord, one clock.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service.delivery import CHAT_LEASE_SECONDS, GRACE_SECONDS
from tests.bot.backends import database_url
from tests.bot.discord.test_hand_anchors import ai_moves, ai_to_move, open_hand, two_workers
from tests.fakes.discord import FakeDiscord


def _table_edits(server: FakeDiscord, channel_id: int, message_id: str) -> int:
    """How often the table message was edited so far."""
    return len(server.calls_to("PATCH", f"/channels/{channel_id}/messages/{message_id}"))


async def test_the_owner_draws_what_another_worker_moved_and_a_dead_owner_is_replaced(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Worker 2 runs the AI's turn: worker 1, the channel's owner, draws it (table message,
    Alice's turn ping, her hand message); worker 1 dies: worker 2 takes the channel and
    draws it again at the stored version, without a second ping for the same turn."""
    url = database_url(request, "postgres")
    assert url is not None
    async with two_workers(tmp_path, url) as (one, two):
        w = one.world
        table_id = await ai_to_move(one, w.alice)  # worker 1 drew the table: its channel
        hand, _token = await open_hand(one, w.alice)
        repo = two.service.repo
        row = await repo.discord_messages.get(table_id)
        assert row is not None
        await two.start_adapter()
        edits = _table_edits(one.server, w.text.id, row.message_id)
        version = await ai_moves(two, table_id)  # worker 2 runs the AI's turn ...
        assert _table_edits(one.server, w.text.id, row.message_id) == edits  # ... not drawn
        before = await repo.discord_messages.get(table_id)
        assert before is not None and before.version < version

        one.clock.advance(GRACE_SECONDS + 0.5)  # the owner's feed is not running here
        await two.service.delivery.sweep()
        assert _table_edits(one.server, w.text.id, row.message_id) == edits  # still worker 1's
        assert await one.service.delivery.sweep() == 1
        shown = await repo.discord_messages.get(table_id)
        assert shown is not None and shown.version == version
        assert _table_edits(one.server, w.text.id, row.message_id) > edits
        pings = [m for m in one.server.channel_messages(w.text) if f"<@{w.alice.id}>" in m.content]
        assert len(pings) == 1 and "your turn" in pings[0].content
        assert "to play" not in hand.content  # her hand message shows her turn

        # worker 1 dies: no renewals, no release; worker 2 takes the channel over
        one.clock.advance(CHAT_LEASE_SECONDS + 0.5)
        edits = _table_edits(one.server, w.text.id, row.message_id)
        assert await two.service.delivery.sweep() == 1
        assert _table_edits(one.server, w.text.id, row.message_id) > edits
        again = await repo.discord_messages.get(table_id)
        assert again is not None and (again.version, again.message_id) == (version, row.message_id)
        pings = [m for m in one.server.channel_messages(w.text) if f"<@{w.alice.id}>" in m.content]
        assert len(pings) == 1  # the open turn was pinged already: not again


async def test_a_ping_whose_worker_died_before_noting_it_is_posted_again_and_counted(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Posts carry a key (issue 35 item 8: "sends (pings, new messages) carry a key so a
    retry after a crash between sending and marking is detected"). Worker 1 posts Alice's
    turn ping and dies before it notes the table message: worker 2 takes the channel and
    pings the open turn again, and counts it as a repeated post. A ping that was noted is
    never posted twice."""
    url = database_url(request, "postgres")
    assert url is not None
    async with two_workers(tmp_path, url) as (one, two):
        w = one.world
        table_id = await ai_to_move(one, w.alice)
        store = one.service.repo.discord_messages
        saved = store.save

        async def dies_before_noting(message: object) -> None:
            raise ConnectionError("worker 1 is killed here")

        store.save = dies_before_noting  # type: ignore[method-assign]
        version = await ai_moves(one, table_id)  # the ping goes out; its note does not
        store.save = saved  # type: ignore[method-assign]
        pings = [m for m in one.server.channel_messages(w.text) if f"<@{w.alice.id}>" in m.content]
        assert len(pings) == 1
        await two.start_adapter()
        one.clock.advance(CHAT_LEASE_SECONDS + 0.5)
        assert await two.service.delivery.sweep() == 1
        pings = [m for m in one.server.channel_messages(w.text) if f"<@{w.alice.id}>" in m.content]
        assert len(pings) == 2 and two.adapter.notifier.keyed.repeated == 1
        row = await two.service.repo.discord_messages.get(table_id)
        assert row is not None and row.version == version and row.ping_id == str(pings[-1].id)

        two.clock.advance(CHAT_LEASE_SECONDS + 0.5)  # worker 2 "dies" too, after noting
        await one.service.delivery.release()
        assert await one.service.delivery.sweep() == 1
        pings = [m for m in one.server.channel_messages(w.text) if f"<@{w.alice.id}>" in m.content]
        assert len(pings) == 2 and one.adapter.notifier.keyed.repeated == 0


async def test_a_table_message_whose_worker_died_before_noting_it_is_posted_once_more(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The first table message is a keyed post too: posted by a worker that died before
    storing its id, it is posted again by the next one (counted); once stored, a redraw
    edits it."""
    url = database_url(request, "postgres")
    assert url is not None
    async with two_workers(tmp_path, url) as (one, two):
        w = one.world
        store = one.service.repo.discord_messages
        saved = store.save

        async def dies_before_noting(message: object) -> None:
            raise ConnectionError("worker 1 is killed here")

        store.save = dies_before_noting  # type: ignore[method-assign]
        await one.slash(w.alice, w.text, "new")
        store.save = saved  # type: ignore[method-assign]
        tables = [m for m in one.server.channel_messages(w.text) if m.components]
        assert len(tables) == 1
        await two.start_adapter()
        one.clock.advance(CHAT_LEASE_SECONDS + 0.5)
        assert await two.service.delivery.sweep() == 1
        tables = [m for m in one.server.channel_messages(w.text) if m.components]
        assert len(tables) == 2 and two.adapter.notifier.keyed.repeated == 1
        stored = await two.service.repo.active_table(two.key(w.text))
        assert stored is not None
        row = await two.service.repo.discord_messages.get(stored.id)
        assert row is not None and row.message_id == str(tables[-1].id)
