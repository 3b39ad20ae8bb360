"""Lobby flows of the game service (real SQLite file, no mocked database)."""

from __future__ import annotations

import pytest

from bot.ports.model import ChatKey, SeatKind, Status
from bot.service.errors import (
    AlreadySeated,
    NoTable,
    NotEnoughPlayers,
    NotHost,
    NotInLobby,
    TableExists,
    TableFull,
)
from engine.errors import RuleOptionError
from tests.bot.people import say

from .support import ANA, BEN, CEM, CHAT, Harness


async def test_host_opens_players_join_ai_added_and_game_starts(harness: Harness) -> None:
    s = harness.people
    info = await s.new_table(CHAT, ANA, "basic", "beginner")
    assert info.status is Status.LOBBY and [x.name for x in info.seats] == ["ana"]
    await s.join(CHAT, BEN)
    info = await s.add_ai(CHAT, ANA)
    assert [x.kind for x in info.seats] == [SeatKind.HUMAN, SeatKind.HUMAN, SeatKind.AI]
    info = await s.start(CHAT, ANA)
    assert info.status is Status.PLAYING
    _, view = await s.table_view(CHAT)
    assert view is not None and view.deal_number == 1
    assert {u for u, _, _ in harness.notifier.hands} == {ANA.key, BEN.key}


async def test_one_table_per_chat_and_separate_threads(harness: Harness) -> None:
    s = harness.people
    await s.new_table(CHAT, ANA)
    with pytest.raises(TableExists):
        await s.new_table(CHAT, BEN)
    other_thread = ChatKey(CHAT.platform, CHAT.chat_id, "7")
    info = await s.new_table(other_thread, BEN)
    assert info.key == other_thread


async def test_only_the_host_changes_settings_and_starts(harness: Harness) -> None:
    s = harness.people
    await s.new_table(CHAT, ANA)
    await s.join(CHAT, BEN)
    with pytest.raises(NotHost):
        await s.start(CHAT, BEN)
    with pytest.raises(NotHost):
        await s.configure(CHAT, BEN, {"timer": "30s"})
    info = await s.configure(CHAT, ANA, {"timer": "30s", "ace": "high_or_low"})
    assert info.settings.timer == "30s" and dict(info.options)["ace"] == "high_or_low"
    with pytest.raises(RuleOptionError):
        await s.configure(CHAT, ANA, {"ace": "sideways"})


async def test_a_target_of_900_digits_is_refused_in_the_hosts_language_and_changes_nothing(
    harness: Harness,
) -> None:
    s = harness.people
    await s.new_table(CHAT, BEN)  # Ben reads German
    before = await s.table_info(CHAT)
    reply = await say(s, CHAT, BEN, "set target=" + "9" * 900)
    assert not reply.ok and reply.text is not None
    assert "ist nicht erlaubt" in reply.text and "von 1 bis 10000 oder none" in reply.text
    assert "9" * 25 not in reply.text and len(reply.text) < 300
    after = await s.table_info(CHAT)
    assert before is not None and after is not None
    assert after.version == before.version and after.options == before.options
    reply = await say(s, CHAT, BEN, "set target=10000")  # the largest is played
    assert reply.ok
    after = await s.table_info(CHAT)
    assert after is not None and dict(after.options)["target"] == "10000"


async def test_lobby_refusals(harness: Harness) -> None:
    s = harness.people
    with pytest.raises(NoTable):
        await s.join(CHAT, BEN)
    await s.new_table(CHAT, ANA)
    with pytest.raises(AlreadySeated):
        await s.join(CHAT, ANA)
    with pytest.raises(NotEnoughPlayers):
        await s.start(CHAT, ANA)
    for _ in range(5):
        await s.add_ai(CHAT, ANA)
    with pytest.raises(TableFull):
        await s.join(CHAT, CEM)
    await s.remove_ai(CHAT, ANA)
    await s.join(CHAT, CEM)
    await s.start(CHAT, ANA)
    with pytest.raises(NotInLobby):
        await s.add_ai(CHAT, ANA)


async def test_host_leaving_hands_over_and_cancel(harness: Harness) -> None:
    s = harness.people
    await s.new_table(CHAT, ANA)
    await s.join(CHAT, BEN)
    info = await s.leave(CHAT, ANA)
    assert info.host == BEN.key
    with pytest.raises(NotHost):
        await s.cancel(CHAT, CEM)
    info = await s.cancel(CHAT, CEM, is_admin=True)
    assert info.status is Status.CANCELLED
    assert await s.table_info(CHAT) is None


async def test_idle_lobby_expires(harness: Harness) -> None:
    s = harness.people
    await s.new_table(CHAT, ANA)
    harness.clock.advance(11 * 3600)
    assert await s.tick() == 0
    harness.clock.advance(2 * 3600)
    assert await s.tick() == 1
    assert await s.table_info(CHAT) is None
    assert "lobby_expired" in harness.notifier.notice_codes()
