"""Application commands registered with the fake: global ones and per-guild ones.

Bulk overwrite (PUT) replaces a scope's whole list; like Discord, a command keeps its id
when a command of the same type and name existed before, and ``version`` changes on
every overwrite. Everything the bot sent is stored, localizations and options included.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from .entities import Json
from .errors import UNKNOWN_APPLICATION_COMMAND, not_found
from .limits import check_commands

Scope = int | None
"""``None`` for global commands, else the guild id."""


class CommandRegistry:
    """Stored application commands by scope."""

    def __init__(self, application_id: int, new_id: Callable[[], int]) -> None:
        self.application_id = application_id
        self._new_id = new_id
        self.scopes: dict[Scope, list[Json]] = {}

    def listing(self, scope: Scope) -> list[Json]:
        """The commands of ``scope`` as Discord returns them (copies)."""
        return copy.deepcopy(self.scopes.get(scope, []))

    def overwrite(self, scope: Scope, body: object) -> list[Json]:
        """Bulk-overwrite ``scope`` with ``body`` (validated; 50035 on bad input)."""
        check_commands(body)
        assert isinstance(body, list)
        old = {(c["type"], c["name"]): c["id"] for c in self.scopes.get(scope, [])}
        stored = []
        for command in body:
            kind = command.get("type", 1)
            command_id = old.get((kind, command["name"])) or str(self._new_id())
            stored.append(self._complete(scope, command, command_id))
        self.scopes[scope] = stored
        return self.listing(scope)

    def upsert(self, scope: Scope, body: Json) -> Json:
        """Create or replace one command (POST), keeping the id of a same-named one."""
        current = [c for c in self.scopes.get(scope, []) if c["name"] != body.get("name")]
        self.overwrite(scope, [*current, body])
        return self.get_by_name(scope, body["name"])

    def delete(self, scope: Scope, command_id: str) -> None:
        """Delete one command; 404 10063 when unknown."""
        commands = self.scopes.get(scope, [])
        remaining = [c for c in commands if c["id"] != command_id]
        if len(remaining) == len(commands):
            raise not_found(UNKNOWN_APPLICATION_COMMAND, "application command")
        self.scopes[scope] = remaining

    def get(self, scope: Scope, command_id: str) -> Json:
        """One command by id; 404 10063 when unknown."""
        for command in self.scopes.get(scope, []):
            if command["id"] == command_id:
                return copy.deepcopy(command)
        raise not_found(UNKNOWN_APPLICATION_COMMAND, "application command")

    def get_by_name(self, scope: Scope, name: str, kind: int = 1) -> Json:
        """One command by name and type; KeyError when unknown."""
        for command in self.scopes.get(scope, []):
            if command["name"] == name and command["type"] == kind:
                return copy.deepcopy(command)
        raise KeyError(name)

    def resolve(self, name: str, guild_id: int | None) -> Json | None:
        """What a Discord client offers for ``/name``: the guild's command, else the global one."""
        for scope in (guild_id, None) if guild_id is not None else (None,):
            for command in self.scopes.get(scope, []):
                if command["name"] == name and command["type"] == 1:
                    return copy.deepcopy(command)
        return None

    def _complete(self, scope: Scope, command: Json, command_id: str) -> Json:
        stored = copy.deepcopy(command)
        stored.update(
            id=command_id,
            application_id=str(self.application_id),
            version=str(self._new_id()),
            type=command.get("type", 1),
            default_member_permissions=command.get("default_member_permissions"),
            nsfw=command.get("nsfw", False),
            name_localizations=command.get("name_localizations"),
            description_localizations=command.get("description_localizations"),
            description=command.get("description", ""),
        )
        # Discord fills these defaults in (discord.py sends them as explicit nulls).
        if stored.get("integration_types") is None:
            stored["integration_types"] = [0]
        stored.setdefault("contexts", None)
        if scope is not None:
            stored["guild_id"] = str(scope)
        elif stored.get("dm_permission") is None:
            stored["dm_permission"] = True
        return stored
