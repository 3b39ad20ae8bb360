"""A whole game on Discord: two people and one AI seat, to the end, through slash commands
and component clicks against the fake Discord, with the privacy checks of the Telegram
tests: no hidden card in any public message (or an earlier version of it) while it is
hidden, and private (ephemeral) messages only for their owner."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bot.ports.model import Status
from engine.state import Phase
from tests.bot.backends import BACKENDS, database_url
from tests.bot.discord.players import Players, PrivacySpy, action_of, control
from tests.bot.discord.support import complaints, running_bot

MAX_STEPS = 600


@pytest.mark.parametrize("backend", BACKENDS)
async def test_two_people_and_an_ai_play_a_game_to_the_end(
    tmp_path: Path, request: pytest.FixtureRequest, backend: str
) -> None:
    """/rummy new (deals=1), Join, Add AI, Start; every human move through the hand
    message or the table buttons, the AI through the service's timer; a restart halfway
    keeps every message working; the final table shows the result and no buttons."""
    started = time.perf_counter()
    async with running_bot(tmp_path, database_url=database_url(request, backend)) as bot:
        with complaints("discord", "bot") as problems:
            # fair deals (docs/fairness.md), from a fixed key: the same game every run
            bot.service.lobby.fair_key_source = lambda: bytes(range(32))
            bot.service.coaching.enabled = True  # first games: Alice and Bob are coached
            spy = PrivacySpy(bot)
            bot.service.notifiers["discord"] = spy
            spy.watch()
            w = bot.world
            channel = w.thread
            opened = await bot.slash(w.alice, channel, "new", {"options": "deals=1"})
            assert opened.original is not None and opened.original.ephemeral
            table = bot.table_message(channel)
            assert [action_of(c) for c in table.custom_ids()] == [
                "join",
                "leave",
                "start",
                "addbot.easy",
                "addbot.normal",
                "addbot.hard",
                "addbot.expert",
            ]
            await bot.click(w.bob, table, control(table, "join"))
            refused = await bot.click(w.bob, table, control(table, "start"))
            assert refused.followups or (refused.original and refused.original.ephemeral)
            await bot.click(w.alice, table, control(table, "addbot.hard"))
            assert "Ada (AI, hard)" in bot.table_message(channel).content
            await bot.click(w.alice, table, control(table, "start"))
            key = bot.key(channel)
            info = await bot.entry.table_info(key)
            assert info is not None and info.status is Status.PLAYING
            table_id = info.id
            assert [s.name for s in info.seats] == ["Alice", "Bob", "Ada"]

            outsider = await bot.click(w.carol, table, control(table, "draw"))
            (note,) = outsider.messages()
            assert note.ephemeral and note.viewer is w.carol and "not playing" in note.content

            players = Players(bot, channel, [w.alice, w.bob])
            by_key = {f"discord:{u.id}": u for u in (w.alice, w.bob)}
            steps = ai_steps = 0
            restarted = False
            while steps < MAX_STEPS:
                steps += 1
                stored = await bot.service.repo.active_table(key)
                if stored is None:
                    break
                state = stored.state
                assert state is not None
                if state.phase is Phase.HAND_OVER or stored.seats[state.current].automated:
                    assert await bot.tick() >= 1
                    ai_steps += 1
                    continue
                user = by_key[stored.seats[state.current].user or ""]
                await players.play(state, user)
                after = await bot.service.repo.get_table(stored.id)
                assert after is not None and after.version > stored.version, (
                    f"{user.username}'s move did not happen: {players.hands[user.id].content}"
                )
                if not restarted and players.moves >= 12:
                    await bot.restart()
                    restarted = True
            assert steps < MAX_STEPS, "the game did not end"
            assert restarted

            final = await bot.service.repo.get_table(table_id)
            assert final is not None and final.status is Status.FINISHED
            assert final.state is not None and final.state.phase is Phase.GAME_OVER
            table = bot.table_message(channel)
            assert table.custom_ids() == []
            assert "Game over" in table.content
            for user_key in by_key:  # the closed table's hand anchors (tokens) are deleted
                assert (
                    await bot.service.repo.discord_messages.hand_anchor(table_id, user_key) is None
                )
            # the coach's word on the deal: a message only each of them sees (issue 46)
            await bot.service.coaching.settled()
            for user, word in ((w.alice, "Deal 1, "), (w.bob, "Runde 1, ")):
                private = [m.content for m in bot.server.ephemeral_messages(user)]
                assert any(t.startswith(word) for t in private), private[-3:]
            assert spy.problems == []
            # the deal's secret, never shown while it ran, is revealed on the table message
            assert spy.truth.revealed and all(
                secret in table.content for secret in spy.truth.revealed
            ), spy.truth.revealed
            assert spy.truth.checked_while_hidden > 30
            assert not [r for r in problems if r.levelname in ("ERROR", "CRITICAL")], [
                r.getMessage() for r in problems
            ]

            stats = await bot.slash(w.bob, channel, "stats")
            assert stats.original is not None and stats.original.ephemeral
            assert stats.original.content.startswith("Bob: 1 Spiele")  # Bob reads German
            # the finished game is rated (docs/ratings.md)
            assert "Einfaches Rommé: Wertung " in stats.original.content
            assert "(1 gewertete Partie, letzte Partie " in stats.original.content
            top = await bot.slash(w.carol, channel, "top")
            assert top.original is not None and not top.original.ephemeral
            # one rated game each: the rating board is empty, the board by wins stands in
            assert top.original.content.startswith(
                "Nobody has 3 rated games of Basic Rummy in season 1 yet.\nBest players here:"
            )

        calls = bot.server.calls
        callbacks = bot.server.calls_to("POST", "/interactions/*/callback")
        print(
            f"\nDiscord game: {players.moves} human moves {dict(players.kinds)}, "
            f"{ai_steps} AI/timer steps, "
            f"{players.interactions} component interactions, {players.menu_moves} menu "
            f"moves, {len(calls)} REST calls ({len(callbacks)} callbacks), "
            f"{spy.truth.checked_versions} message versions checked, "
            f"{time.perf_counter() - started:.1f} s"
        )
