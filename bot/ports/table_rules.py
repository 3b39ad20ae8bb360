"""The rules a bot table plays, and its AI levels: shared by the service (which plays them)
and the screens (which show them).

The rules: the variant, preset and options its host chose, plus the house rules that keep
a chat game finite where the text allows an endless one.

Basic Rummy reuses the discard pile as the stock without limit by default, and the text
itself warns that a deal can then go on for ever (basic-rummy.de.txt: "Wenn die Spieler
stur sind, könnte das Spiel endlos sein. Um dies zu vermeiden, kann es eine gute Idee
sein, die Häufigkeit zu begrenzen, mit der der Ablagestapel als neuer Vorrat
wiederverwendet werden kann. Ich schlage vor, dass, nachdem der Vorrat zum dritten Mal
erschöpft ist, das Spiel enden sollte"). A table in a chat, where AI seats and absent
players may draw and discard for hours, follows that suggestion: ``reuses=2`` unless the
host set ``reuses`` (``reuses=unlimited`` restores the text's default) or the preset sets
it (Block Rummy: 0).

Romanian Rummy rebuilds the wall from the discard row without a limit in the text
(romanian-rummy.de.txt: "... benutzt, um eine neue Mauer zu bauen, ... so dass das Spiel
weitergehen kann"), which also knows the game that ends without a winner when the wall is
drawn ("wenn alle Steine von der Mauer gezogen worden sind und keiner es geschafft hat,
seine Hand zu vervollständigen"): a bot table rebuilds it twice (``renewals=2``), then
the game ends that way, unless the host chose ``renewals``.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.rules import OptionValue, RuleSet, make_rules
from engine.variants import get_variant

__all__ = [
    "AI_LEVELS",
    "DEFAULT_LEVEL",
    "LEVEL_ALIASES",
    "TABLE_DEFAULTS",
    "level_of",
    "table_rules",
]

TABLE_DEFAULTS: Mapping[str, Mapping[str, OptionValue]] = {
    "basic": {"reuses": 2},
    "romanian": {"renewals": 2},
}
"""Variant id -> option values a bot table plays unless its host or preset chose them."""


def table_rules(
    variant: str, preset: str | None, options: Mapping[str, OptionValue] | None = None
) -> RuleSet:
    """The rule set of a bot table (see the module docstring). Raises
    ``RuleOptionError`` for a bad variant, preset or option, as
    :func:`engine.rules.make_rules` does."""
    chosen = dict(options or {})
    rules = make_rules(variant, preset, chosen)
    set_by_preset = get_variant(rules.variant).presets[rules.preset].values
    extra = {
        name: value
        for name, value in TABLE_DEFAULTS.get(rules.variant, {}).items()
        if name not in chosen and name not in set_by_preset
    }
    return make_rules(variant, preset, {**extra, **chosen}) if extra else rules


AI_LEVELS: dict[str, str] = {
    "easy": "random",
    "normal": "greedy",
    "hard": "hard",
    "expert": "expert",
}
"""AI seat level (what a person picks: ``addbot easy|normal|hard|expert``) -> the
:func:`engine.ai.make_ai` kind that plays it: ``easy`` the random player, ``normal`` the
greedy one (the chat default, and the autopilot of an absent person), ``hard`` the racing
player, ``expert`` the hard player checked by playouts on determinised deals
(:mod:`engine.ai.expert`; :mod:`bot.service.ai_levels` checks that the engine has it)."""

DEFAULT_LEVEL = "normal"
"""The level of ``addbot`` without a word, of the lobby's Add AI button and of the
autopilot."""

LEVEL_ALIASES: dict[str, str] = {
    "leicht": "easy",
    "einfach": "easy",
    "random": "easy",
    "mittel": "normal",
    "normal": "normal",
    "greedy": "normal",
    "schwer": "hard",
    "stark": "hard",
    "experte": "expert",
    "profi": "expert",
}
"""Further words for the levels (German, and the kinds' own names)."""


def level_of(kind: str) -> str:
    """The level a stored AI kind plays at (an unknown kind is shown as itself)."""
    for level, known in AI_LEVELS.items():
        if known == kind:
            return level
    return kind
