"""A fake Discord (REST ``/api/v10`` + gateway) on 127.0.0.1 for driving the real discord.py.

Usage::

    async with running_fake_discord() as server:
        with point_discord_py_at(server):
            task = asyncio.create_task(client.start(server.token))
            await asyncio.wait_for(client.wait_until_ready(), 5)
            interaction = await server.slash(server.default.alice, server.default.text, "ping")
            await interaction.wait_response()

See README.md next to this file.
"""

from .entities import FakeChannel, FakeGuild, FakeMember, FakeRole, FakeUser, Overwrite
from .errors import DiscordAPIError
from .interactions import FakeInteraction
from .messages import FakeMessage
from .rest import RecordedCall
from .server import FakeDiscord, point_discord_py_at, running_fake_discord
from .world import DefaultWorld, World

__all__ = [
    "DefaultWorld",
    "DiscordAPIError",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "Overwrite",
    "RecordedCall",
    "World",
    "point_discord_py_at",
    "running_fake_discord",
]
