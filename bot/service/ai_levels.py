"""AI seat levels: the one table from the level a person picks
(``addbot easy|normal|hard|expert``) to the :func:`engine.ai.make_ai` kind that plays it.

``easy`` is the random player, ``normal`` the greedy one (the chat default, and the
autopilot of an absent person), ``hard`` the racing player and ``expert`` the searching
player (:mod:`engine.ai.expert`) of :mod:`engine.ai`. A level
whose kind :func:`engine.ai.make_ai` does not know (yet) is refused with
:class:`AILevelUnavailable`. Seats store the kind, so tables saved before levels existed
(``greedy`` / ``random``) keep playing; those words are accepted as aliases.
"""

from __future__ import annotations

from bot.ports.table_rules import AI_LEVELS, DEFAULT_LEVEL, LEVEL_ALIASES
from bot.service.errors import AILevelUnavailable, BadSetting
from engine.ai import UnknownAI, make_ai

LEVELS = AI_LEVELS
"""Level -> :func:`engine.ai.make_ai` kind (:data:`bot.ports.table_rules.AI_LEVELS`)."""
ALIASES = LEVEL_ALIASES
"""Further words for the levels (:data:`bot.ports.table_rules.LEVEL_ALIASES`)."""


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
