"""Users, roles, members, channels and guilds of the fake Discord, and their JSON shapes.

Each entity knows how Discord v10 serialises it (``to_json``) well enough for discord.py 2.7
to build its models. Permissions follow Discord's algorithm: the @everyone role, then the
member's roles (ADMINISTRATOR grants everything), then the channel overwrites for
@everyone, the member's roles and the member (threads use their parent's overwrites).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

Json = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000

# Permission bits (https://discord.com/developers/docs/topics/permissions).
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1

DEFAULT_EVERYONE_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | SEND_MESSAGES_IN_THREADS
    | CREATE_PUBLIC_THREADS
    | READ_MESSAGE_HISTORY
    | EMBED_LINKS
    | ATTACH_FILES
    | ADD_REACTIONS
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
)
"""What a new guild's @everyone role allows (a typical community server)."""

DM_APP_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | READ_MESSAGE_HISTORY
    | EMBED_LINKS
    | ATTACH_FILES
    | ADD_REACTIONS
    | USE_EXTERNAL_EMOJIS
)
"""``app_permissions`` Discord reports for interactions in a DM with the bot."""

# Channel types.
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = frozenset({10, PUBLIC_THREAD, PRIVATE_THREAD})


def iso(moment: datetime) -> str:
    """Discord's ISO 8601 timestamp text for ``moment`` (UTC, microseconds)."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def now() -> datetime:
    """The current time in UTC."""
    return datetime.now(UTC)


class Snowflakes:
    """Generator of increasing Discord snowflakes (timestamp in the upper 42 bits)."""

    def __init__(self) -> None:
        self._increment = itertools.count()
        self._last = 0

    def next(self) -> int:
        """A new snowflake, strictly greater than every earlier one."""
        millis = int(time.time() * 1000) - DISCORD_EPOCH_MS
        value = (millis << 22) | (next(self._increment) & 0xFFF)
        self._last = max(value, self._last + 1)
        return self._last


@dataclass(eq=False)
class FakeUser:
    """A Discord user (a player, or the bot itself when ``bot`` is true)."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    locale: str = "en-US"

    def to_json(self) -> Json:
        """The user object as Discord sends it."""
        return {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
        }


@dataclass(eq=False)
class FakeRole:
    """A guild role; the @everyone role has the guild's id."""

    id: int
    name: str
    permissions: int
    position: int = 0

    def to_json(self) -> Json:
        """The role object as Discord sends it."""
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(frozen=True)
class Overwrite:
    """A channel permission overwrite; ``type`` 0 targets a role, 1 a member."""

    target_id: int
    type: int
    allow: int = 0
    deny: int = 0

    def to_json(self) -> Json:
        """The overwrite object as Discord sends it."""
        return {
            "id": str(self.target_id),
            "type": self.type,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel, a thread (``parent_id`` set) or a DM (``recipient`` set)."""

    id: int
    type: int
    name: str | None
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    overwrites: list[Overwrite] = field(default_factory=list)
    recipient: FakeUser | None = None
    owner_id: int | None = None
    last_message_id: int | None = None
    created: datetime = field(default_factory=now)

    @property
    def is_thread(self) -> bool:
        """Whether this channel is a thread."""
        return self.type in THREAD_TYPES

    @property
    def is_dm(self) -> bool:
        """Whether this channel is a DM between the bot and one user."""
        return self.type == DM

    def to_json(self) -> Json:
        """The channel object as Discord sends it (REST and GUILD_CREATE)."""
        data: Json = {"id": str(self.id), "type": self.type, "flags": 0}
        data["last_message_id"] = (
            None if self.last_message_id is None else str(self.last_message_id)
        )
        if self.is_dm:
            assert self.recipient is not None
            data["recipients"] = [self.recipient.to_json()]
            return data
        data.update(
            guild_id=str(self.guild_id),
            name=self.name,
            position=self.position,
            nsfw=False,
            rate_limit_per_user=0,
            parent_id=None if self.parent_id is None else str(self.parent_id),
        )
        if self.is_thread:
            data.update(
                owner_id=None if self.owner_id is None else str(self.owner_id),
                message_count=0,
                member_count=0,
                total_message_sent=0,
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": iso(self.created),
                    "locked": False,
                    "create_timestamp": iso(self.created),
                },
            )
        else:
            data.update(
                topic=None,
                permission_overwrites=[o.to_json() for o in self.overwrites],
            )
        return data


@dataclass(eq=False)
class FakeMember:
    """A user's membership of a guild (role ids exclude @everyone)."""

    user: FakeUser
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: datetime = field(default_factory=now)

    def to_json(self) -> Json:
        """The guild member object as Discord sends it."""
        return {
            "user": self.user.to_json(),
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "roles": [str(r) for r in self.roles],
            "joined_at": iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }


@dataclass(eq=False)
class FakeGuild:
    """A guild with roles, members and channels (threads included in ``channels``)."""

    id: int
    name: str
    owner_id: int
    preferred_locale: str = "en-US"
    roles: dict[int, FakeRole] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    joined_at: datetime = field(default_factory=now)

    @property
    def everyone(self) -> FakeRole:
        """The @everyone role (same id as the guild)."""
        return self.roles[self.id]

    def base_permissions(self, user_id: int) -> int:
        """Guild-wide permissions of ``user_id`` (0 when not a member; all for the owner)."""
        member = self.members.get(user_id)
        if member is None:
            return 0
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        perms = self.everyone.permissions
        for role_id in member.roles:
            perms |= self.roles[role_id].permissions
        return ALL_PERMISSIONS if perms & ADMINISTRATOR else perms

    def permissions_in(self, user_id: int, channel: FakeChannel) -> int:
        """Permissions of ``user_id`` in ``channel`` after Discord's overwrite algorithm."""
        perms = self.base_permissions(user_id)
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        source = self.channels[channel.parent_id] if channel.parent_id else channel
        member = self.members.get(user_id)
        roles = set(member.roles) if member else set()
        everyone = [o for o in source.overwrites if o.type == 0 and o.target_id == self.id]
        role_ows = [o for o in source.overwrites if o.type == 0 and o.target_id in roles]
        member_ows = [o for o in source.overwrites if o.type == 1 and o.target_id == user_id]
        for overwrite in everyone:
            perms = (perms & ~overwrite.deny) | overwrite.allow
        deny = allow = 0
        for overwrite in role_ows:
            deny |= overwrite.deny
            allow |= overwrite.allow
        perms = (perms & ~deny) | allow
        for overwrite in member_ows:
            perms = (perms & ~overwrite.deny) | overwrite.allow
        return perms if perms & VIEW_CHANNEL else 0

    def to_json(self, *, members: list[FakeMember] | None = None) -> Json:
        """The GUILD_CREATE payload; ``members`` defaults to every member."""
        chosen = list(self.members.values()) if members is None else members
        channels = [c for c in self.channels.values() if not c.is_thread]
        threads = [c for c in self.channels.values() if c.is_thread]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "features": [],
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "max_members": 500_000,
            "preferred_locale": self.preferred_locale,
            "joined_at": iso(self.joined_at),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "roles": [r.to_json() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "members": [m.to_json() for m in chosen],
            "channels": [c.to_json() for c in channels],
            "threads": [c.to_json() for c in threads],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }
