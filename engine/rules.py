"""Rules by name: :func:`make_rules` builds a validated :class:`RuleSet` from a variant id,
an optional preset and option values, e.g. ``make_rules("basic", "beginner", {"ace":
"high_or_low"})``. It looks the variant up in the registry (:mod:`engine.variants`), so
it belongs to the edge of the engine; the option specs and the rule set itself live in
:mod:`engine.options` (re-exported here).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.options import Option, OptionValue, Preset, RuleSet
from engine.variant import build_rules
from engine.variants import get_variant

__all__ = ["Option", "OptionValue", "Preset", "RuleSet", "build_rules", "make_rules"]


def make_rules(
    variant: str, preset: str | None = None, options: Mapping[str, OptionValue] | None = None
) -> RuleSet:
    """Build and validate a :class:`RuleSet`.

    Precedence: option defaults < preset values < ``options``. Raises
    :class:`engine.errors.RuleOptionError` for an unknown variant, preset or option, a
    bad value, or a combination the variant refuses.
    """
    return build_rules(get_variant(variant), preset, options or {})
