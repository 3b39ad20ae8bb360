"""What ``top`` asks for: the words of ``top [global] [variant] [season N]`` read into a
:class:`BoardAsk` (docs/ratings.md, "Boards")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.service.errors import BadSeasonWord, BadSetting
from engine.variants import VARIANTS

__all__ = [
    "EVERYWHERE_WORDS",
    "MIN_RATED_GAMES",
    "NEW_SEASON_WORDS",
    "SEASON_WORDS",
    "BoardAsk",
    "board_words",
    "check_new_season",
]

MIN_RATED_GAMES = 3
"""Rated games a person needs to stand on a board (fewer say little: a new rating is
mostly uncertainty)."""

EVERYWHERE_WORDS = frozenset({"global", "all", "alle", "überall", "ueberall"})
"""``top global``: the board of every chat (German: alle, überall)."""
SEASON_WORDS = frozenset({"season", "saison"})
"""``top season 3`` (German: saison 3)."""
NEW_SEASON_WORDS = frozenset({"new", "neu", "next", "nächste", "naechste"})
"""``season new``: start the chat's next season (German: saison neu)."""


@dataclass(frozen=True, slots=True)
class BoardAsk:
    """One ``top``: every chat or the chat's (``everywhere``), a ``variant`` (``None``:
    the chat's) and a ``season`` (``None``: the running one)."""

    everywhere: bool = False
    variant: str | None = None
    season: int | None = None


def board_words(words: Sequence[str]) -> BoardAsk:
    """The board ``words`` ask for, in any order and case: ``global`` (or ``alle``), a
    variant id (``basic``, ``500``, ``german``, ``romanian``), ``season N``. Raises
    :class:`BadSetting` for any other word, a season that is not a whole number from 1,
    or two of a kind."""
    asked = BoardAsk()
    rest = [w.lower() for w in words]
    while rest:
        word = rest.pop(0)
        if word in EVERYWHERE_WORDS and not asked.everywhere:
            asked = replace(asked, everywhere=True)
        elif word in VARIANTS and asked.variant is None:
            asked = replace(asked, variant=word)
        elif word in SEASON_WORDS and asked.season is None:
            asked = replace(asked, season=_season(rest.pop(0) if rest else ""))
        else:
            raise BadSetting(
                name="top",
                value=word[:40],
                accepts="global, " + ", ".join(VARIANTS) + ", season N",
            )
    return asked


def _season(word: str) -> int:
    """The season number ``word`` names; :class:`BadSetting` unless a whole number from 1
    (ASCII digits only)."""
    if not (word.isascii() and word.isdigit()) or int(word) < 1:
        raise BadSetting(name="season", value=word[:40] or "?", accepts="1, 2, 3, ...")
    return int(word)


def check_new_season(words: Sequence[str]) -> None:
    """Check the words after ``season``: one of :data:`NEW_SEASON_WORDS` alone (any case).
    Raises :class:`BadSeasonWord` (its message names the usage ``season new``) otherwise:
    no word, another word, more words."""
    if len(words) != 1 or words[0].lower() not in NEW_SEASON_WORDS:
        raise BadSeasonWord(word=" ".join(words)[:40] or "season")
