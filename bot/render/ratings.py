"""Skill ratings as the chats show them (:mod:`bot.service.ratings`: the conservative
estimate mu - 3 sigma, the rated games and the change in the last one)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from babel.numbers import format_decimal

from bot.i18n import _, current_locale, ngettext
from bot.render.lobby import LEVEL_NAMES
from engine.variants import get_variant

__all__ = [
    "against_ai_line",
    "ai_reference_line",
    "board_lines",
    "board_title",
    "nobody_rated",
    "rating_line",
    "season_started",
]


def rating_line(rating: Mapping[str, Any]) -> str:
    """One rating of ``stats``: ``{"variant", "season", "shown", "games", "last_change"}``
    (:meth:`bot.service.repository.Repository.ratings_of`) as "Basic Rummy: rating 12.4
    (5 rated games, last game +1.8; season 1)". Call inside ``use_locale``. Raises
    ``KeyError`` for a row without those keys."""
    games = int(rating["games"])
    return ngettext(
        "{variant}: rating {shown} ({games} rated game, last game {change}; season {season})",
        "{variant}: rating {shown} ({games} rated games, last game {change}; season {season})",
        games,
    ).format(
        variant=_(get_variant(rating["variant"]).name),
        shown=_number(float(rating["shown"])),
        games=games,
        change=_signed(float(rating["last_change"])),
        season=int(rating["season"]),
    )


def board_title(variant: str, season: int, *, everywhere: bool) -> str:
    """The first line of a rating board: whose board, the variant and the season."""
    name = _(get_variant(variant).name)
    if everywhere:
        text = _("Best players everywhere · {variant} · season {season} (skill rating):")
    else:
        text = _("Best players here · {variant} · season {season} (skill rating):")
    return text.format(variant=name, season=season)


def board_lines(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """One line per row of a rating board (``{"name", "shown", "games"}``, best first):
    "1. Ana: 12.4 (7 rated games)". Call inside ``use_locale``."""
    return [
        ngettext(
            "{rank}. {name}: {shown} ({games} rated game)",
            "{rank}. {name}: {shown} ({games} rated games)",
            int(row["games"]),
        ).format(
            rank=rank, name=row["name"], shown=_number(float(row["shown"])), games=row["games"]
        )
        for rank, row in enumerate(rows, start=1)
    ]


def against_ai_line(rows: Sequence[Mapping[str, Any]]) -> str | None:
    """The line of ``stats`` on a person's games against AI seats, per level met
    (``{"level", "games", "wins"}``, :meth:`bot.service.repository.Repository.user_stats`):
    "Against AI seats: hard 5 games, 3 won · expert 2 games, 0 won"; ``None`` when they
    met none. Call inside ``use_locale``."""
    parts = [
        ngettext(
            "{level} {games} game, {wins} won",
            "{level} {games} games, {wins} won",
            int(row["games"]),
        ).format(level=_level(str(row["level"])), games=row["games"], wins=row["wins"])
        for row in rows
    ]
    return _("Against AI seats: {levels}").format(levels=" · ".join(parts)) if parts else None


def ai_reference_line(shown: Mapping[str, float]) -> str:
    """The line under a rating board that places the AI levels on it (level -> the
    conservative estimate of the fixed rating they play with, weakest first): "AI seats
    for comparison: easy 12.0 · normal 22.0 · hard 27.0 · expert 28.0". Call inside
    ``use_locale``."""
    levels = " · ".join(f"{_level(level)} {_number(value)}" for level, value in shown.items())
    return _("AI seats for comparison: {levels}").format(levels=levels)


def _level(level: str) -> str:
    """The name of AI ``level`` in the current language (an unknown one as it is)."""
    name = LEVEL_NAMES.get(level)
    return level if name is None else _(name)


def nobody_rated(variant: str, season: int, games: int) -> str:
    """Said when nobody has the ``games`` rated games a board needs yet."""
    return _("Nobody has {games} rated games of {variant} in season {season} yet.").format(
        games=games, variant=_(get_variant(variant).name), season=season
    )


def season_started(
    ended: int, boards: Mapping[str, Sequence[Mapping[str, Any]]], games: int
) -> str:
    """The answer to ``season new``: the final standings of the chat's season ``ended``
    (``boards``: variant id -> its rows as :func:`board_lines` takes them, best first; the
    variants without rows are left out), or that nobody had the ``games`` rated games a
    board needs, then the number of the season that begins. Call inside ``use_locale``."""
    lines = [_("Season {season} is over. Final standings:").format(season=ended)]
    shown = {variant: rows for variant, rows in boards.items() if rows}
    for variant, rows in shown.items():
        lines += [board_title(variant, ended, everywhere=False), *board_lines(rows)]
    if not shown:
        lines.append(
            _("Nobody had {games} rated games in season {season}.").format(
                games=games, season=ended
            )
        )
    lines.append(
        _(
            "Season {season} begins now; see it with top, the last one with top season {ended}."
        ).format(season=ended + 1, ended=ended)
    )
    return "\n".join(lines)


def _number(value: float) -> str:
    """One decimal in the language's notation (12.4, German 12,4)."""
    value = round(value, 1) + 0.0  # no "-0.0"
    return format_decimal(value, format="0.0", locale=current_locale.get())


def _signed(value: float) -> str:
    text = _number(value)
    return text if text.startswith("-") else f"+{text}"
