"""The ``/rummy`` command tree as discord.py syncs it (bot.discord_bot.commands): every
subcommand is there, named and described in English and German, and the subcommands
without options send their text command for the person who used them."""

from __future__ import annotations

from typing import Any, cast

import discord
from discord import app_commands

from bot.discord_bot.commands import PLAIN_COMMANDS, rummy_group
from bot.discord_bot.flows import Flows
from bot.discord_bot.translator import RummyTranslator

EXPECTED = {
    "new", "join", "leave", "start", "addbot", "settings", "cancel", "hand", "play", "replay",
    "rules", "stats", "top", "season", "lang", "coach",
}  # fmt: skip


class SentTexts:
    """Stands in for the flows: records what each subcommand sends."""

    def __init__(self) -> None:
        self.sent: list[tuple[object, str]] = []

    async def slash_text(self, interaction: object, text: str, private: bool = False) -> None:
        self.sent.append((interaction, text))


def _group(flows: object) -> app_commands.Group:
    return rummy_group(cast(Flows, flows))


def test_every_subcommand_is_registered_once() -> None:
    names = [command.name for command in _group(SentTexts()).commands]
    assert sorted(names) == sorted(EXPECTED)


async def test_every_name_and_description_has_a_german_text() -> None:
    translator = RummyTranslator()
    where = app_commands.TranslationContextLocation
    for command in _group(SentTexts()).commands:
        name = await translator.translate(
            app_commands.locale_str(command.name),
            discord.Locale.german,
            app_commands.TranslationContext(where.command_name, command),
        )
        description = await translator.translate(
            app_commands.locale_str(command.description),
            discord.Locale.german,
            app_commands.TranslationContext(where.command_description, command),
        )
        assert name and name == name.lower() and " " not in name, command.name
        assert description and description != command.description, command.name


async def test_a_plain_subcommand_sends_its_text_command() -> None:
    flows = SentTexts()
    commands = {command.name: command for command in _group(flows).commands}
    for name, _description, text in PLAIN_COMMANDS:
        command = commands[name]
        assert isinstance(command, app_commands.Command) and not command.parameters
        interaction: Any = object()
        await command.callback(interaction)  # type: ignore[call-arg]
        assert flows.sent[-1] == (interaction, text)
    assert [text for _i, text in flows.sent] == [text for _n, _d, text in PLAIN_COMMANDS]
