"""Slash commands (sync, German names, autocomplete), the public table message (edited in
place, posted again when deleted), turn pings, closing a table and missing permissions."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.adapter_errors import PlatformRefused
from bot.discord_bot import DiscordAdapter
from bot.discord_bot.adapter import ShardedRummyClient
from bot.ports.model import UserRef
from bot.settings import Settings, SettingsError
from tests.bot.discord.players import action_of, control
from tests.bot.discord.support import TIMEOUT, Bot, running_bot
from tests.bot.test_storage_ratings import finish_game
from tests.fakes.discord import Overwrite
from tests.fakes.discord.entities import SEND_MESSAGES


def rummy_command(bot: Bot, guild: Any = None) -> dict[str, Any]:
    (command,) = [c for c in bot.server.commands_in(guild) if c["name"] == "rummy"]
    return command


async def lobby_with_bob(bot: Bot) -> None:
    w = bot.world
    await bot.slash(w.alice, w.text, "new")
    table = bot.table_message(w.text)
    await bot.click(w.bob, table, control(table, "join"))


async def test_commands_are_synced_with_german_names(tmp_path: Path) -> None:
    """One global /rummy group; German names and descriptions come from the catalogues."""
    async with running_bot(tmp_path) as bot:
        command = rummy_command(bot)
        assert command["name_localizations"] == {"de": "rommé"}
        assert command["description_localizations"] == {"de": "Rommé in diesem Kanal spielen"}
        subcommands = {o["name"]: o for o in command["options"]}
        assert set(subcommands) == {
            "new",
            "join",
            "leave",
            "start",
            "addbot",
            "settings",
            "cancel",
            "hand",
            "rules",
            "stats",
            "top",
            "season",
            "replay",
            "lang",
            "play",
            "coach",
        }
        for name, sub in subcommands.items():  # every one named and described in German
            assert set(sub["name_localizations"]) == {"de"}, name
            assert sub["description_localizations"]["de"] != sub["description"], name
        coach = subcommands["coach"]
        assert coach["name_localizations"] == {"de": "trainer"}
        assert coach["description_localizations"] == {
            "de": "Deine teuersten Züge nach jeder Runde, nur für dich: an oder aus"
        }
        (mode,) = coach["options"]
        assert [c["value"] for c in mode["choices"]] == ["on", "off"]
        assert [c["name_localizations"] for c in mode["choices"]] == [{"de": "an"}, {"de": "aus"}]
        new = subcommands["new"]
        assert new["name_localizations"] == {"de": "neu"}
        options = {o["name"]: o for o in new["options"]}
        assert options["variant"]["name_localizations"] == {"de": "variante"}
        assert {c["value"] for c in options["variant"]["choices"]} >= {"basic"}
        assert options["preset"]["autocomplete"] and options["options"]["autocomplete"]
        kinds = {o["name"]: o for o in subcommands["addbot"]["options"]}["kind"]
        assert kinds["choices"][0]["name_localizations"] == {"de": "Normale KI (spielt gut)"}
        assert [c["value"] for c in kinds["choices"]] == ["normal", "easy", "hard", "expert"]
        assert kinds["choices"][3]["name_localizations"] == {
            "de": "Experten-KI (probiert ihre Züge aus)"
        }


async def test_guild_scoped_sync_for_development(tmp_path: Path) -> None:
    """DISCORD_GUILD_ID syncs the commands to that guild (instantly visible there)."""
    async with running_bot(tmp_path) as bot:
        guild = bot.world.guild
        await bot.adapter.stop()
        settings = Settings(
            discord_token=bot.server.token, database_path=bot.path, discord_guild_id=guild.id
        )
        bot.adapter = DiscordAdapter(settings, guild_ready_timeout=0.05)
        bot.service.notifiers["discord"] = bot.adapter.notifier
        await bot.start_adapter()
        assert rummy_command(bot, guild)["name"] == "rummy"
        assert bot.server.calls_to("PUT", f"/applications/*/guilds/{guild.id}/commands")


async def test_a_sharded_client_plays_on_its_shards(tmp_path: Path) -> None:
    """DISCORD_SHARD_COUNT / DISCORD_SHARD_IDS: the adapter runs discord.py's
    AutoShardedClient on the shards given (identifying with them) and plays as before."""
    async with running_bot(tmp_path) as bot:
        await bot.adapter.stop()
        settings = Settings(
            discord_token=bot.server.token,
            database_path=bot.path,
            discord_shard_count=1,
            discord_shard_ids=(0,),
        )
        bot.adapter = DiscordAdapter(settings, guild_ready_timeout=0.05)
        bot.service.notifiers["discord"] = bot.adapter.notifier
        await bot.start_adapter()
        client = bot.adapter.client
        assert isinstance(client, ShardedRummyClient) and client.shard_ids == [0]
        w = bot.world
        await bot.slash(w.alice, w.text, "new", {"options": "deals=1"})
        assert "Join" in [b["label"] for b in bot.table_message(w.text).buttons()]


def test_shard_settings_are_checked() -> None:
    env = {"DISCORD_SHARD_COUNT": "4", "DISCORD_SHARD_IDS": "3, 1"}
    settings = Settings.from_env(env, env_file=None)
    assert (settings.discord_shard_count, settings.discord_shard_ids) == (4, (1, 3))
    for bad in (
        {"DISCORD_SHARD_IDS": "0"},
        {"DISCORD_SHARD_COUNT": "2", "DISCORD_SHARD_IDS": "2"},
        {"DISCORD_SHARD_COUNT": "0"},
    ):
        with pytest.raises(SettingsError):
            Settings.from_env(bad, env_file=None)


async def test_autocomplete_offers_presets_and_options(tmp_path: Path) -> None:
    """Typing into preset and options of /rummy new completes from the variant's rules."""
    async with running_bot(tmp_path) as bot:
        w = bot.world
        typed = await bot.server.autocomplete(
            w.alice,
            w.text,
            "rummy",
            {"variant": "basic", "preset": "be"},
            "preset",
            subcommand="new",
        )
        await typed.wait_response(TIMEOUT)
        assert typed.choices == [{"name": "beginner", "value": "beginner"}]
        typed = await bot.server.autocomplete(
            w.alice, w.text, "rummy", {"options": "deals=1 jo"}, "options", subcommand="new"
        )
        await typed.wait_response(TIMEOUT)
        names = [c["name"] for c in typed.choices or []]
        assert "deals=1 jokers=0" in names and "deals=1 joker_swap=on" in names
        assert all(n.startswith("deals=1 jo") for n in names) and len(names) <= 25


async def test_german_player_sees_german_and_settings_change(tmp_path: Path) -> None:
    """bob's Discord is German: his private answers are German; /rummy lang en switches."""
    async with running_bot(tmp_path) as bot:
        w = bot.world
        rules = await bot.slash(w.bob, w.text, "rules")
        assert rules.original is not None and rules.original.ephemeral
        assert "/rummy" not in rules.original.content and "Hier" in rules.original.content
        await lobby_with_bob(bot)
        changed = await bot.slash(w.alice, w.text, "settings", {"name": "timer", "value": "2m"})
        assert changed.original is not None and "settings were changed" in changed.original.content
        table = bot.table_message(w.text)
        assert "Turn timer: 2m" in table.content
        refused = await bot.slash(w.bob, w.text, "settings", {"name": "timer", "value": "off"})
        assert refused.original is not None and refused.original.ephemeral
        assert "Gastgeber" in refused.original.content
        await bot.slash(w.bob, w.text, "lang", {"language": "en"})
        again = await bot.slash(w.bob, w.text, "settings", {"name": "timer", "value": "off"})
        assert again.original is not None and "host" in again.original.content


async def test_table_message_is_edited_in_place_and_pings_one_player(tmp_path: Path) -> None:
    """One table message for the whole lobby and game; each turn pings only that player
    (the previous ping is deleted); a deleted table message is posted again."""
    async with running_bot(tmp_path) as bot:
        w = bot.world
        await lobby_with_bob(bot)
        table = bot.table_message(w.text)
        await bot.click(w.alice, table, control(table, "start"))
        assert bot.table_message(w.text) is table and len(table.history) == 2
        key = bot.key(w.text)
        stored = await bot.service.repo.active_table(key)
        assert stored is not None and stored.state is not None
        seat = stored.state.current
        first, second = (w.alice, w.bob) if seat == 0 else (w.bob, w.alice)
        ping = [m for m in bot.server.channel_messages(w.text) if m is not table]
        assert len(ping) == 1 and ping[0].content.startswith(f"<@{first.id}>")
        sent = bot.server.calls_to("POST", f"/channels/{w.text.id}/messages")[-1]
        mentions = sent.json["allowed_mentions"]
        assert mentions["parse"] == [] and [int(u) for u in mentions["users"]] == [first.id]
        player = UserRef("discord", str(first.id), first.global_name)
        await bot.act(player, key, "draw")
        assert len([m for m in bot.server.channel_messages(w.text) if m is not table]) == 1
        stored = await bot.service.repo.active_table(key)
        assert stored is not None and stored.state is not None
        await bot.act(player, key, f"discard {stored.state.hands[seat][0]}")
        pings = [m for m in bot.server.channel_messages(w.text) if m is not table]
        assert len(pings) == 1 and pings[0].content.startswith(f"<@{second.id}>")
        assert ping[0].deleted
        edits = bot.server.calls_to("PATCH", f"/channels/{w.text.id}/*")
        assert edits and all(
            call.json["allowed_mentions"]["parse"] == []
            and not call.json["allowed_mentions"].get("users")
            for call in edits
        )
        bot.server.delete_message(table)
        await bot.act(UserRef("discord", str(second.id), "x"), key, "draw")
        again = bot.table_message(w.text)
        assert again is not table
        assert f"{second.global_name} draws from the stock." in again.content


async def test_timer_warning_pings_the_player(tmp_path: Path) -> None:
    """With a 30 s timer the player is warned before the turn runs out."""
    async with running_bot(tmp_path) as bot:
        w = bot.world
        await lobby_with_bob(bot)
        await bot.slash(w.alice, w.text, "settings", {"name": "timer", "value": "30s"})
        table = bot.table_message(w.text)
        await bot.click(w.alice, table, control(table, "start"))
        bot.clock.advance(25)
        assert await bot.service.tick() == 1
        await bot.idle()
        stored = await bot.service.repo.active_table(bot.key(w.text))
        assert stored is not None and stored.state is not None
        first = (w.alice, w.bob)[stored.state.current]
        (ping,) = [m for m in bot.server.channel_messages(w.text) if m is not table]
        assert ping.content == f"<@{first.id}>, your turn ends in 5 seconds (table 1)."


async def test_only_seated_players_act_and_closed_tables_answer(tmp_path: Path) -> None:
    """carol (not seated) is told so privately; the host cancels; buttons of the closed
    table (the hand message too) answer that the game is over."""
    async with running_bot(tmp_path) as bot:
        w = bot.world
        await lobby_with_bob(bot)
        table = bot.table_message(w.text)
        leave = await bot.click(w.carol, table, control(table, "leave"))
        (note,) = leave.messages()
        assert note.ephemeral and note.viewer is w.carol
        await bot.click(w.alice, table, control(table, "start"))
        shown = await bot.click(w.carol, table, control(table, "hand"))
        assert shown.original is not None and shown.original.viewer is w.carol
        assert "not playing" in shown.original.content and not shown.original.custom_ids()
        hand = (await bot.click(w.bob, table, control(table, "hand"))).original
        assert hand is not None and hand.viewer is w.bob and "Your hand" not in hand.content
        assert "Deine Hand" in hand.content
        refused = await bot.slash(w.bob, w.text, "cancel")
        assert refused.original is not None and refused.original.ephemeral
        await bot.slash(w.alice, w.text, "cancel")
        assert table.custom_ids() == [] and "cancelled" in table.content
        assert [m for m in bot.server.channel_messages(w.text) if m is not table] == []
        await bot.click(w.bob, hand, control(hand, "refresh"))
        assert "vorbei" in hand.content and hand.custom_ids() == []
        before = table.history[-1]["components"][0]["components"]
        assert [action_of(b["custom_id"]) for b in before] == ["hand", "draw", "take"]


async def test_missing_permission_is_explained(tmp_path: Path) -> None:
    """Where the bot may not send messages, /rummy new says which permissions it needs."""
    async with running_bot(tmp_path) as bot:
        w = bot.world
        locked = bot.server.world.add_text_channel(
            w.guild, "locked", overwrites=[Overwrite(bot.server.bot.id, 1, deny=SEND_MESSAGES)]
        )
        await bot.server.wait_until(
            lambda: bot.adapter.client is not None and bot.adapter.client.get_channel(locked.id),
            TIMEOUT,
        )
        opened = await bot.slash(w.alice, locked, "new")
        assert opened.original is not None and opened.original.ephemeral
        assert "Send Messages" in opened.original.content


async def test_a_game_against_the_ai_in_a_direct_message(tmp_path: Path) -> None:
    """dave (no shared channel needed) plays against an AI seat in the bot's DM."""
    async with running_bot(tmp_path) as bot:
        w = bot.world
        dm = bot.server.world.dm_channel(w.dave)
        opened = await bot.slash(w.dave, dm, "new")
        assert opened.original is not None and opened.original.ephemeral
        await bot.slash(w.dave, dm, "addbot", {"kind": "easy"})
        table = bot.table_message(dm)
        await bot.click(w.dave, table, control(table, "start"))
        hand = (await bot.slash(w.dave, dm, "hand")).original
        assert hand is not None and hand.viewer is w.dave and "Deine Hand" in hand.content
        assert table.channel_id == dm.id and "Deal 1" in table.content


async def test_runner_builds_the_adapter_and_a_wrong_token_fails_start(tmp_path: Path) -> None:
    """``rummy-bot run`` finds bot.discord_bot; a wrong token fails start() (no hang)."""

    from bot.runner import create_adapters

    (adapter,) = create_adapters(Settings(discord_token="x.y.z"))
    assert isinstance(adapter, DiscordAdapter) and adapter.platform == "discord"
    async with running_bot(tmp_path) as bot:
        wrong = DiscordAdapter(
            Settings(discord_token="wrong", database_path=bot.path), guild_ready_timeout=0.05
        )
        with pytest.raises(PlatformRefused):
            await asyncio.wait_for(wrong.start(bot.service.host()), TIMEOUT)


async def test_rummy_season_starts_the_channels_next_season(tmp_path: Path) -> None:
    """`/rummy season` (issue 47): the host's answer goes to the channel (the ended
    season's standings, the new number); anyone else is refused privately, in their
    language, and nothing changes."""
    async with running_bot(tmp_path) as bot:
        w = bot.world
        # a game of the channel rated in its season 1 (a season without one goes on)
        people = [f"discord:{w.alice.id}", f"discord:{w.bob.id}"]
        await finish_game(bot.service.repo, people, [120, 10], chat=bot.key(w.text))
        await lobby_with_bob(bot)  # Alice hosts
        refused = await bot.slash(w.bob, w.text, "season")
        assert refused.original is not None and refused.original.ephemeral
        assert refused.original.content == "Nur der Gastgeber kann eine neue Saison beginnen."
        started = await bot.slash(w.alice, w.text, "season")
        assert started.original is not None and not started.original.ephemeral
        assert started.original.content.splitlines() == [
            "Season 1 is over. Final standings:",
            "Nobody had 3 rated games in season 1.",
            "Season 2 begins now; see it with top, the last one with top season 1.",
        ]
        top = await bot.slash(w.carol, w.text, "top", {"season": 2})
        assert top.original is not None
        assert top.original.content.startswith(
            "Nobody has 3 rated games of Basic Rummy in season 2"
        )
