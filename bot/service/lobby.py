"""Lobby steps as pure functions on :class:`Table`: join, leave, AI seats, settings.

Each returns the changed table (same version; the service bumps it on commit)
and raises a :class:`bot.service.errors.ServiceError` when the step is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from bot.i18n import SUPPORTED_LOCALES, normalize_locale
from bot.ports.model import TIMERS, Seat, SeatKind, Status, UserRef
from bot.ports.table_rules import DEFAULT_LEVEL
from bot.service.ai_levels import ai_kind
from bot.service.errors import (
    AlreadySeated,
    BadSetting,
    NoSuchSeat,
    NotHost,
    NotInLobby,
    NotSeated,
    TableFull,
)
from bot.service.model import Table
from engine.rules import OptionValue, make_rules
from engine.variants import get_variant

AI_NAMES = ("Ada", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal")

MAX_NAME = 32
"""Characters of a name shown at a table (Discord's own limit for display names): a
platform or a forged update may send any length, and every table message repeats it."""


def seat_name(name: str) -> str:
    """``name`` as a seat shows it: control characters and ``:`` (the record format's
    separator) replaced, whitespace collapsed, at most :data:`MAX_NAME` characters,
    ``Player`` when nothing is left."""
    cleaned = "".join(" " if ch == ":" or not ch.isprintable() else ch for ch in name[:256])
    return " ".join(cleaned.split())[:MAX_NAME].strip() or "Player"


def bounded_user(user: UserRef) -> UserRef:
    """``user`` with its name cut to what a seat shows (:func:`seat_name`)."""
    name = seat_name(user.name)
    return user if name == user.name else replace(user, name=name)


def require_lobby(table: Table) -> None:
    """Raise :class:`NotInLobby` unless the table is a lobby."""
    if table.status is not Status.LOBBY:
        raise NotInLobby()


def require_host(table: Table, user: UserRef, action: str, is_admin: bool = False) -> None:
    """Raise :class:`NotHost` unless ``user`` hosts the table (or is a chat admin)."""
    if user.key != table.host and not is_admin:
        raise NotHost(action=action)


def _max_seats(table: Table) -> int:
    return get_variant(table.variant).max_players


def _unique_name(table: Table, name: str) -> str:
    taken = {s.name.casefold() for s in table.seats}
    clean = seat_name(name)
    candidate, n = clean, 2
    while candidate.casefold() in taken:
        candidate, n = f"{clean} {n}", n + 1
    return candidate


def join(table: Table, user: UserRef) -> Table:
    """Seat ``user``; refuses a second seat and a full table."""
    require_lobby(table)
    if table.seat_of(user.key) is not None:
        raise AlreadySeated()
    if len(table.seats) >= _max_seats(table):
        raise TableFull(seats=_max_seats(table))
    seat = Seat(SeatKind.HUMAN, _unique_name(table, user.name), user.key)
    return replace(table, seats=(*table.seats, seat))


def leave(table: Table, user: UserRef) -> Table:
    """Free the user's seat in the lobby (the host hands hosting to the next human)."""
    require_lobby(table)
    index = table.seat_of(user.key)
    if index is None:
        raise NotSeated()
    seats = table.seats[:index] + table.seats[index + 1 :]
    host = table.host
    if host == user.key:
        humans = [s.user for s in seats if s.user is not None]
        host = humans[0] if humans else host
    return replace(table, seats=seats, host=host)


def add_ai(table: Table, user: UserRef, level: str = DEFAULT_LEVEL) -> Table:
    """The host adds an AI seat of ``level`` (``easy``, ``normal``, ``hard`` or an alias:
    :mod:`bot.service.ai_levels`); the seat stores the AI kind that plays it. Raises
    ``BadSetting`` for another word, ``AILevelUnavailable`` when the engine lacks it."""
    require_lobby(table)
    require_host(table, user, "add AI players")
    kind = ai_kind(level)
    if len(table.seats) >= _max_seats(table):
        raise TableFull(seats=_max_seats(table))
    used = {s.name for s in table.seats}
    name = next((n for n in AI_NAMES if n not in used), f"AI {len(table.seats) + 1}")
    return replace(
        table, seats=(*table.seats, Seat(SeatKind.AI, _unique_name(table, name), ai=kind))
    )


def remove_ai(table: Table, user: UserRef, seat: int | None = None) -> Table:
    """The host removes AI seat number ``seat`` (1-based), or the last AI seat."""
    require_lobby(table)
    require_host(table, user, "remove AI players")
    ais = [i for i, s in enumerate(table.seats) if s.kind is SeatKind.AI]
    index = (seat - 1) if seat is not None else (ais[-1] if ais else -1)
    if index not in ais:
        raise NoSuchSeat(seat=seat if seat is not None else 0)
    return replace(table, seats=table.seats[:index] + table.seats[index + 1 :])


def configure(table: Table, user: UserRef, changes: Mapping[str, str]) -> Table:
    """The host changes settings before the start.

    Keys: ``variant``, ``preset``, ``timer`` (off, 30s, 2m, 10m, 24h), ``lang``
    (en, de) and any rule option of the variant (validated by
    :func:`engine.rules.make_rules`, whose ``RuleOptionError`` passes through).
    """
    require_lobby(table)
    require_host(table, user, "change the settings")
    variant, preset = table.variant, table.preset
    options: dict[str, OptionValue] = dict(table.options)
    settings = table.settings
    for raw_key, value in changes.items():
        key = raw_key.strip().lower()
        if key == "variant":
            variant, preset, options = get_variant(value).id, None, {}
        elif key == "preset":
            preset = value
        elif key == "timer":
            if value not in TIMERS:
                raise BadSetting(name="timer", value=value, accepts=", ".join(TIMERS))
            settings = replace(settings, timer=value)
        elif key in ("lang", "language", "sprache"):
            locale = normalize_locale(value)
            if value.strip().lower()[:2] not in SUPPORTED_LOCALES:
                raise BadSetting(name="lang", value=value, accepts=", ".join(SUPPORTED_LOCALES))
            settings = replace(settings, locale=locale)
        else:
            options[key] = value
    make_rules(variant, preset, options)
    if len(table.seats) > get_variant(variant).max_players:
        raise TableFull(seats=get_variant(variant).max_players)
    return replace(
        table, variant=variant, preset=preset, options=tuple(options.items()), settings=settings
    )
