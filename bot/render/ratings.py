"""Skill ratings as the chats show them (:mod:`bot.service.ratings`: the conservative
estimate mu - 3 sigma, the rated games and the change in the last one)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from babel.numbers import format_decimal

from bot.i18n import _, current_locale, ngettext
from engine.variants import get_variant

__all__ = ["rating_line"]


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


def _number(value: float) -> str:
    """One decimal in the language's notation (12.4, German 12,4)."""
    value = round(value, 1) + 0.0  # no "-0.0"
    return format_decimal(value, format="0.0", locale=current_locale.get())


def _signed(value: float) -> str:
    text = _number(value)
    return text if text.startswith("-") else f"+{text}"
