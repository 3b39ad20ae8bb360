"""The subcommands of ``/rummy`` without options (bot.discord_bot.commands.PLAIN_COMMANDS)
send their text command for the person who used them (the synced tree, with its German
names and descriptions, is checked through the fake Discord in test_commands_and_table)."""

from __future__ import annotations

from typing import Any, cast

from discord import app_commands

from bot.discord_bot.commands import PLAIN_COMMANDS, rummy_group
from bot.discord_bot.flows import Flows


class SentTexts:
    """Stands in for the flows: records what each subcommand sends."""

    def __init__(self) -> None:
        self.sent: list[tuple[object, str]] = []

    async def slash_text(self, interaction: object, text: str, private: bool = False) -> None:
        self.sent.append((interaction, text))


def _group(flows: object) -> app_commands.Group:
    return rummy_group(cast(Flows, flows))


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
