"""Setting up a terminal game: rules, seat names, AI players and the first deal."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TextIO

from bot.terminal.table import LineReader, TerminalTable
from engine.ai import make_ai
from engine.errors import RuleOptionError
from engine.game import new_game
from engine.rules import OptionValue, make_rules

__all__ = [
    "AI_NAMES",
    "PlayConfig",
    "build_table",
    "default_name",
    "parse_option_pairs",
    "seat_names",
]

AI_NAMES: tuple[str, ...] = ("Ada", "Bo", "Cleo", "Dex", "Eli", "Fay")
"""Names given to the AI seats, in seat order (a name equal to the human's is skipped)."""


@dataclass(frozen=True, slots=True)
class PlayConfig:
    """What ``rummy-bot play`` was asked for.

    ``players``: seats in all, the human included (seat 0). ``options``: rule
    option values as typed (``{"deals": "1"}``). ``ai``: ``greedy`` or
    ``random``. ``delay``: seconds after each AI move line. ``seed``: the game
    seed (``None``: random); the AIs are seeded from it too.
    """

    variant: str = "basic"
    preset: str | None = None
    players: int = 3
    options: Mapping[str, OptionValue] = field(default_factory=dict)
    seed: int | None = None
    name: str = "Player"
    ai: str = "greedy"
    delay: float = 0.0


def default_name(environ: Mapping[str, str]) -> str:
    """The login name from ``USER`` / ``USERNAME`` when it is a valid player name, else
    ``Player``."""
    for variable in ("USER", "USERNAME"):
        name = environ.get(variable, "").strip()
        if name and ":" not in name:
            return name
    return "Player"


def seat_names(human: str, seats: int) -> tuple[str, ...]:
    """The human's name (seat 0) and ``seats - 1`` distinct AI names (``AI 7``, ``AI 8``
    ... once :data:`AI_NAMES` run out, so a wrong seat count reaches the engine's check)."""
    taken = {human.casefold()}
    names = [human]
    extra = (f"AI {n}" for n in range(len(AI_NAMES) + 1, seats + len(AI_NAMES) + 2))
    for candidate in (*AI_NAMES, *extra):
        if len(names) >= seats:
            break
        if candidate.casefold() not in taken:
            names.append(candidate)
            taken.add(candidate.casefold())
    return tuple(names)


def build_table(
    config: PlayConfig,
    read_line: LineReader,
    out: TextIO,
    sleep: Callable[[float], None] = time.sleep,
) -> TerminalTable:
    """Build the rules, deal the first hand and seat the AIs (``sleep``: see
    :class:`bot.terminal.table.TerminalTable`).

    Raises :class:`engine.errors.RuleOptionError` for an unknown variant, preset
    or option, a bad value, or a player count the variant does not allow.
    """
    rules = make_rules(config.variant, config.preset, dict(config.options))
    names = seat_names(config.name.strip(), config.players)
    state = new_game(rules, names, seed=config.seed)
    base = state.seed
    ais = {seat: make_ai(config.ai, seed=base + seat) for seat in range(1, len(names))}
    return TerminalTable(
        state,
        human=0,
        ais=ais,
        read_line=read_line,
        out=out,
        delay=config.delay,
        sleep=sleep,
        adviser=make_ai("greedy", seed=base),
    )


def parse_option_pairs(items: Sequence[str]) -> dict[str, str]:
    """``["deals=1", "ace=high_or_low"]`` -> ``{"deals": "1", "ace": "high_or_low"}``.

    Raises :class:`engine.errors.RuleOptionError` (option ``option``) for an item
    without ``=``.
    """
    values: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise RuleOptionError(
                detail=f"option '{item}' needs the form name=value",
                option="option", value=item, accepts="name=value",
            )
        values[name.strip()] = value.strip()
    return values
