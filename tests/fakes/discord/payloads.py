"""INTERACTION_CREATE payloads as a Discord client would cause them.

The builders refuse (``ValueError``) what a real Discord client would not let a user do:
options a command does not declare, missing required options, values outside the
declared choices/ranges/lengths, wrong value types, a group invoked without its
subcommand, select values that are not offered, too few/many values, modal fields that
do not exist or break their length limits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from . import components as comp
from .entities import (
    DM_APP_PERMISSIONS,
    FakeChannel,
    FakeGuild,
    FakeRole,
    FakeUser,
    Json,
)

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

# Option types.
SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING = 3
INTEGER = 4
BOOLEAN = 5
USER = 6
CHANNEL = 7
ROLE = 8
MENTIONABLE = 9
NUMBER = 10

OptionValue = str | int | float | bool | FakeUser | FakeChannel | FakeRole


def interaction_payload(
    *,
    interaction_id: int,
    token: str,
    application_id: int,
    kind: int,
    user: FakeUser,
    channel: FakeChannel,
    guild: FakeGuild | None,
    bot: FakeUser,
    data: Json,
    locale: str,
    message: Json | None = None,
) -> Json:
    """The full interaction object Discord puts into INTERACTION_CREATE."""
    payload: Json = {
        "id": str(interaction_id),
        "application_id": str(application_id),
        "type": kind,
        "data": data,
        "token": token,
        "version": 1,
        "locale": locale,
        "entitlements": [],
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        "channel_id": str(channel.id),
        "channel": channel.to_json(),
    }
    if guild is not None:
        member = guild.members.get(user.id)
        if member is None:
            raise ValueError(f"{user.username} is not a member of {guild.name}")
        permissions = guild.permissions_in(user.id, channel)
        payload["channel"]["permissions"] = str(permissions)
        payload.update(
            guild_id=str(guild.id),
            guild_locale=guild.preferred_locale,
            guild={"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
            member={**member.to_json(), "permissions": str(permissions)},
            app_permissions=str(guild.permissions_in(bot.id, channel)),
            context=0,
            authorizing_integration_owners={"0": str(guild.id)},
        )
    else:
        payload.update(
            user=user.to_json(),
            app_permissions=str(DM_APP_PERMISSIONS),
            context=1,
            authorizing_integration_owners={"0": "0"},
        )
    if message is not None:
        payload["message"] = message
    return payload


def command_data(
    command: Json,
    *,
    options: Mapping[str, OptionValue],
    subcommand: str | None,
    guild: FakeGuild | None,
    focused: str | None = None,
) -> Json:
    """``data`` of a slash command (or, with ``focused``, autocomplete) interaction.

    ``subcommand`` is the path below the command, e.g. ``"new"`` for ``/rummy new`` or
    ``"game new"`` for a subcommand ``new`` in the group ``game``.
    """
    data: Json = {"id": command["id"], "name": command["name"], "type": 1}
    if command.get("guild_id"):
        data["guild_id"] = command["guild_id"]
    container = data
    specs: list[Json] = command.get("options") or []
    shown = f"/{command['name']}"
    for part in (subcommand or "").split():
        spec = next(
            (
                s
                for s in specs
                if s["name"] == part and s["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
            ),
            None,
        )
        if spec is None:
            raise ValueError(f"{shown} has no subcommand or group {part!r}")
        entry: Json = {"type": spec["type"], "name": part, "options": []}
        container.setdefault("options", []).append(entry)
        container = entry
        specs = spec.get("options") or []
        shown = f"{shown} {part}"
    if any(s["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for s in specs):
        names = ", ".join(s["name"] for s in specs)
        raise ValueError(f"{shown} cannot be invoked by itself; choose one of: {names}")
    resolved: dict[str, dict[str, Json]] = {}
    values = []
    for name, value in options.items():
        spec = next((s for s in specs if s["name"] == name), None)
        if spec is None:
            raise ValueError(f"{shown} has no option {name!r}")
        if name == focused:
            values.append(
                {"type": spec["type"], "name": name, "value": str(value), "focused": True}
            )
            continue
        values.append(
            {
                "type": spec["type"],
                "name": name,
                "value": _option_value(shown, spec, value, guild, resolved),
            }
        )
    if focused is None:
        missing = [s["name"] for s in specs if s.get("required") and s["name"] not in options]
        if missing:
            raise ValueError(f"{shown} needs the required option(s) {', '.join(missing)}")
    elif focused not in options:
        raise ValueError(f"the focused option {focused!r} needs a (partial) value in options")
    if values or container is not data:
        container["options"] = values
    if resolved:
        data["resolved"] = resolved
    return data


def _option_value(
    shown: str,
    spec: Json,
    value: OptionValue,
    guild: FakeGuild | None,
    resolved: dict[str, dict[str, Json]],
) -> str | int | float | bool:
    kind = spec["type"]
    name = f"{shown} {spec['name']}"
    if kind == STRING:
        if not isinstance(value, str):
            raise ValueError(f"{name} takes text, not {value!r}")
        low, high = spec.get("min_length", 0), spec.get("max_length", 6000)
        if not low <= len(value) <= high:
            raise ValueError(f"{name} must be {low}..{high} characters long")
        result: str | int | float | bool = value
    elif kind in (INTEGER, NUMBER):
        ok = isinstance(value, int) or (kind == NUMBER and isinstance(value, float))
        if isinstance(value, bool) or not ok:
            raise ValueError(f"{name} takes a number, not {value!r}")
        assert isinstance(value, int | float)
        low_value, high_value = spec.get("min_value"), spec.get("max_value")
        if (low_value is not None and value < low_value) or (
            high_value is not None and value > high_value
        ):
            raise ValueError(f"{name} must be between {low_value} and {high_value}")
        result = value
    elif kind == BOOLEAN:
        if not isinstance(value, bool):
            raise ValueError(f"{name} takes True/False, not {value!r}")
        result = value
    elif kind in (USER, MENTIONABLE) and isinstance(value, FakeUser):
        result = _resolve_user(value, guild, resolved)
    elif kind in (ROLE, MENTIONABLE) and isinstance(value, FakeRole):
        resolved.setdefault("roles", {})[str(value.id)] = value.to_json()
        result = str(value.id)
    elif kind == CHANNEL and isinstance(value, FakeChannel):
        allowed = spec.get("channel_types")
        if allowed and value.type not in allowed:
            raise ValueError(f"{name} does not accept channel type {value.type}")
        resolved.setdefault("channels", {})[str(value.id)] = _resolved_channel(value, guild)
        result = str(value.id)
    else:
        raise ValueError(f"{name} (option type {kind}) cannot take {value!r}")
    choices = spec.get("choices")
    if choices and result not in [c["value"] for c in choices]:
        offered = ", ".join(repr(c["value"]) for c in choices)
        raise ValueError(f"{name} must be one of {offered}, not {result!r}")
    return result


def _resolve_user(
    user: FakeUser, guild: FakeGuild | None, resolved: dict[str, dict[str, Json]]
) -> str:
    resolved.setdefault("users", {})[str(user.id)] = user.to_json()
    member = guild.members.get(user.id) if guild else None
    if guild is not None and member is not None:
        data = member.to_json()
        del data["user"]
        data["permissions"] = str(guild.base_permissions(user.id))
        resolved.setdefault("members", {})[str(user.id)] = data
    return str(user.id)


def _resolved_channel(channel: FakeChannel, guild: FakeGuild | None) -> Json:
    data = channel.to_json()
    data["permissions"] = "0" if guild is None else str(guild.base_permissions(guild.owner_id))
    return data


def component_data(
    component: Json,
    values: Sequence[str | FakeUser | FakeRole | FakeChannel] | None,
    guild: FakeGuild | None,
) -> Json:
    """``data`` of a button click (``values`` None) or a select choice."""
    kind = component["type"]
    custom_id = component["custom_id"]
    data: Json = {"custom_id": custom_id, "component_type": kind}
    if kind == comp.BUTTON:
        if values is not None:
            raise ValueError(f"{custom_id!r} is a button; use click(), not select()")
        return data
    if values is None:
        raise ValueError(f"{custom_id!r} is a select menu; use select(), not click()")
    low, high = component.get("min_values", 1), component.get("max_values", 1)
    if not low <= len(values) <= high:
        raise ValueError(f"{custom_id!r} takes {low}..{high} values, got {len(values)}")
    resolved: dict[str, dict[str, Json]] = {}
    picked: list[str] = []
    for value in values:
        if kind == comp.STRING_SELECT:
            offered = [o["value"] for o in component.get("options") or []]
            if value not in offered:
                raise ValueError(f"{custom_id!r} offers {offered}, not {value!r}")
            assert isinstance(value, str)
            picked.append(value)
        elif isinstance(value, FakeUser):
            picked.append(_resolve_user(value, guild, resolved))
        elif isinstance(value, FakeRole):
            resolved.setdefault("roles", {})[str(value.id)] = value.to_json()
            picked.append(str(value.id))
        elif isinstance(value, FakeChannel):
            resolved.setdefault("channels", {})[str(value.id)] = _resolved_channel(value, guild)
            picked.append(str(value.id))
        else:
            raise ValueError(f"{custom_id!r} (select type {kind}) cannot take {value!r}")
    data["values"] = picked
    if resolved:
        data["resolved"] = resolved
    return data


def modal_submit_data(modal: Json, values: Mapping[str, str]) -> Json:
    """``data`` of submitting ``modal`` with text ``values`` by text input custom_id."""
    inputs = {
        c["custom_id"]: c for _, c in comp.walk(modal.get("components")) if c.get("type") == 4
    }
    unknown = set(values) - set(inputs)
    if unknown:
        raise ValueError(f"the modal has no text input(s) {sorted(unknown)}")
    for custom_id, spec in inputs.items():
        text = values.get(custom_id, "")
        low, high = spec.get("min_length", 0), spec.get("max_length", 4000)
        if spec.get("required", True) and not text:
            raise ValueError(f"text input {custom_id!r} is required")
        if text and not low <= len(text) <= high:
            raise ValueError(f"text input {custom_id!r} takes {low}..{high} characters")
    rows = []
    for row in modal.get("components") or []:
        if row.get("type") == comp.ACTION_ROW:
            rows.append(
                {
                    "type": comp.ACTION_ROW,
                    "components": [
                        {
                            "type": 4,
                            "custom_id": c["custom_id"],
                            "value": values.get(c["custom_id"], ""),
                        }
                        for c in row.get("components") or []
                        if c.get("type") == 4
                    ],
                }
            )
        elif row.get("type") == 18 and (row.get("component") or {}).get("type") == 4:
            inner = row["component"]
            rows.append(
                {
                    "type": 18,
                    "component": {
                        "type": 4,
                        "custom_id": inner["custom_id"],
                        "value": values.get(inner["custom_id"], ""),
                    },
                }
            )
    return {"custom_id": modal["custom_id"], "components": rows}
