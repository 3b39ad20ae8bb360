"""AI seat levels: the one table from the level a person picks (``addbot easy|normal|hard``)
to the :func:`engine.ai.make_ai` kind that plays it.

``easy`` is the random player, ``normal`` the greedy one (the chat default, and the
autopilot of an absent person), ``hard`` the search player of :mod:`engine.ai`. A level
whose kind :func:`engine.ai.make_ai` does not know (yet) is refused with
:class:`AILevelUnavailable`. Seats store the kind, so tables saved before levels existed
(``greedy`` / ``random``) keep playing; those words are accepted as aliases.
"""

from __future__ import annotations

from bot.service.errors import AILevelUnavailable, BadSetting
from engine.ai import UnknownAI, make_ai

LEVELS: dict[str, str] = {"easy": "random", "normal": "greedy", "hard": "hard"}
"""Level -> :func:`engine.ai.make_ai` kind."""

DEFAULT_LEVEL = "normal"
"""The level of ``addbot`` without a word, of the lobby's Add AI button and of the
autopilot."""

ALIASES: dict[str, str] = {
    "leicht": "easy", "einfach": "easy", "random": "easy",
    "mittel": "normal", "normal": "normal", "greedy": "normal",
    "schwer": "hard", "stark": "hard",
}
"""Further words for the levels (German, and the kinds' own names)."""


def level_word(word: str | None) -> str:
    """The level ``word`` names (a level, a German word or a kind; ``None``: the default).
    Raises :class:`BadSetting` for any other word."""
    if word is None or not word.strip():
        return DEFAULT_LEVEL
    key = word.strip().lower()
    level = key if key in LEVELS else ALIASES.get(key)
    if level is None:
        raise BadSetting(name="ai", value=word[:40], accepts=", ".join(LEVELS))
    return level


def ai_kind(level: str) -> str:
    """The :func:`engine.ai.make_ai` kind of ``level``, after checking that the engine can
    build it (:class:`AILevelUnavailable` otherwise; :class:`BadSetting` for a word that
    is no level)."""
    level = level_word(level)
    kind = LEVELS[level]
    try:
        make_ai(kind, seed=0)
    except UnknownAI:
        raise AILevelUnavailable(level=level) from None
    return kind


def level_of(kind: str) -> str:
    """The level a stored AI kind plays at (an unknown kind is shown as itself)."""
    for level, known in LEVELS.items():
        if known == kind:
            return level
    return kind
