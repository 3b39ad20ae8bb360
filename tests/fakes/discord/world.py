"""The fake Discord's registry of users, guilds and channels, and how tests add to it.

Entities added while a bot is connected are announced on the gateway (GUILD_CREATE,
CHANNEL_CREATE, THREAD_CREATE, GUILD_MEMBER_ADD) through the ``announce`` hook.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .entities import (
    DEFAULT_EVERYONE_PERMISSIONS,
    DM,
    GUILD_TEXT,
    PUBLIC_THREAD,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    Json,
    Overwrite,
    Snowflakes,
)
from .intents import GUILD_MEMBERS, GUILDS

Announce = Callable[[str, Json, int], None]
"""Dispatch an event to the sessions whose intents include the given intent bit."""


class World:
    """Every user, guild and channel the fake knows, plus the bot user and its application."""

    def __init__(self, *, bot_name: str = "RummyBot", application_flags: int = 0) -> None:
        self.ids = Snowflakes()
        self.bot = FakeUser(self.ids.next(), bot_name, bot=True)
        self.application_id: int = self.bot.id
        self.application_flags = application_flags
        self.owner = FakeUser(self.ids.next(), "app-owner")
        self.users: dict[int, FakeUser] = {self.bot.id: self.bot, self.owner.id: self.owner}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.dm_channels: dict[int, FakeChannel] = {}
        self.announce: Announce = lambda event, data, intent: None

    def add_user(
        self, username: str, *, global_name: str | None = None, locale: str = "en-US"
    ) -> FakeUser:
        """Create a (human) user; ``locale`` is the client language sent with interactions."""
        user = FakeUser(self.ids.next(), username, global_name=global_name, locale=locale)
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str,
        *,
        owner: FakeUser | None = None,
        locale: str = "en-US",
        everyone_permissions: int = DEFAULT_EVERYONE_PERMISSIONS,
    ) -> FakeGuild:
        """Create a guild with an @everyone role and the bot (and ``owner``) as members."""
        guild_owner = owner or self.owner
        guild = FakeGuild(self.ids.next(), name, guild_owner.id, preferred_locale=locale)
        guild.roles[guild.id] = FakeRole(guild.id, "@everyone", everyone_permissions)
        guild.members[self.bot.id] = FakeMember(self.bot)
        guild.members[guild_owner.id] = FakeMember(guild_owner)
        self.guilds[guild.id] = guild
        self.announce("GUILD_CREATE", guild.to_json(), GUILDS)
        return guild

    def add_role(self, guild: FakeGuild, name: str, permissions: int) -> FakeRole:
        """Create a role in ``guild`` with the given permission bits."""
        role = FakeRole(self.ids.next(), name, permissions, position=len(guild.roles))
        guild.roles[role.id] = role
        self.announce(
            "GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.to_json()}, GUILDS
        )
        return role

    def add_member(
        self, guild: FakeGuild, user: FakeUser, *, roles: Iterable[FakeRole] = ()
    ) -> FakeMember:
        """Make ``user`` a member of ``guild`` with ``roles`` (besides @everyone)."""
        member = FakeMember(user, roles=[role.id for role in roles])
        guild.members[user.id] = member
        self.announce(
            "GUILD_MEMBER_ADD", {**member.to_json(), "guild_id": str(guild.id)}, GUILD_MEMBERS
        )
        return member

    def add_text_channel(
        self, guild: FakeGuild, name: str, *, overwrites: Iterable[Overwrite] = ()
    ) -> FakeChannel:
        """Create a text channel in ``guild`` (``overwrites`` adjust who may see/post)."""
        position = sum(1 for c in guild.channels.values() if not c.is_thread)
        channel = FakeChannel(
            self.ids.next(),
            GUILD_TEXT,
            name,
            guild_id=guild.id,
            position=position,
            overwrites=list(overwrites),
        )
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        self.announce("CHANNEL_CREATE", channel.to_json(), GUILDS)
        return channel

    def add_thread(self, guild: FakeGuild, parent: FakeChannel, name: str) -> FakeChannel:
        """Create a public thread under the text channel ``parent``."""
        if parent.id not in guild.channels or parent.is_thread:
            raise ValueError("a thread needs a text channel of the same guild as parent")
        thread = FakeChannel(
            self.ids.next(),
            PUBLIC_THREAD,
            name,
            guild_id=guild.id,
            parent_id=parent.id,
            owner_id=self.bot.id,
        )
        guild.channels[thread.id] = thread
        self.channels[thread.id] = thread
        self.announce("THREAD_CREATE", {**thread.to_json(), "newly_created": True}, GUILDS)
        return thread

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The DM channel between the bot and ``user`` (created on first use, then stable)."""
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = FakeChannel(self.ids.next(), DM, None, recipient=user)
            self.dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    def guild_of(self, channel: FakeChannel) -> FakeGuild | None:
        """The guild ``channel`` belongs to (None for DMs)."""
        return None if channel.guild_id is None else self.guilds[channel.guild_id]

    def can_view(self, user: FakeUser, channel: FakeChannel) -> bool:
        """Whether ``user`` can see ``channel`` (DM participants, members with VIEW_CHANNEL)."""
        if channel.is_dm:
            return channel.recipient is user or user is self.bot
        guild = self.guild_of(channel)
        return guild is not None and guild.permissions_in(user.id, channel) != 0


@dataclass(frozen=True)
class DefaultWorld:
    """The ready-made cast created by ``running_fake_discord(populate=True)``.

    One guild "Rummy Club" (preferred locale en-US) with a text channel ``#rummy`` and a
    public thread ``table-1`` in it; users alice (en-US), bob (de) and carol (en-GB) are
    members; dave (de) is no member and only reachable by DM.
    """

    guild: FakeGuild
    text: FakeChannel
    thread: FakeChannel
    alice: FakeUser
    bob: FakeUser
    carol: FakeUser
    dave: FakeUser

    @classmethod
    def create(cls, world: World) -> DefaultWorld:
        """Populate ``world`` with the default cast and return it."""
        alice = world.add_user("alice", global_name="Alice", locale="en-US")
        bob = world.add_user("bob", global_name="Bob", locale="de")
        carol = world.add_user("carol", global_name="Carol", locale="en-GB")
        dave = world.add_user("dave", global_name="Dave", locale="de")
        guild = world.add_guild("Rummy Club", owner=alice)
        for user in (bob, carol):
            world.add_member(guild, user)
        text = world.add_text_channel(guild, "rummy")
        thread = world.add_thread(guild, text, "table-1")
        return cls(guild, text, thread, alice, bob, carol, dave)
