"""What the front ends may know about the variants: their ids, names, presets and option
specs (the registry's metadata, for menus, autocompletion and titles). Nothing here plays
a rule: moves come from the engine's legal actions through the hand model
(:mod:`bot.interaction.hand`), so an adapter never imports a variant."""

from __future__ import annotations

from engine.options import Option
from engine.variants import VARIANTS, get_variant

__all__ = ["option_specs", "preset_names", "variant_ids", "variant_name"]


def variant_ids() -> list[str]:
    """Every variant id, in registry order (``basic``, ``500``, ...)."""
    return list(VARIANTS)


def variant_name(variant: str) -> str:
    """The English name of ``variant`` (a msgid: translate it with ``_``). Raises
    ``RuleOptionError`` for an unknown id."""
    return get_variant(variant).name


def preset_names(variant: str) -> list[str]:
    """The presets of ``variant``, default first. Raises ``RuleOptionError`` for an
    unknown id."""
    return list(get_variant(variant).presets)


def option_specs(variant: str) -> tuple[Option, ...]:
    """The rule options of ``variant`` with their types, defaults and bounds. Raises
    ``RuleOptionError`` for an unknown id."""
    return tuple(get_variant(variant).options)
