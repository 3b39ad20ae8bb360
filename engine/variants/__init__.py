"""The variant registry: variant id -> :class:`engine.variants.base.Variant`."""

from __future__ import annotations

from engine.errors import RuleOptionError
from engine.variants.base import Variant, VariantCommand
from engine.variants.basic import BasicRummy
from engine.variants.german import GermanRummy
from engine.variants.romanian import RomanianRummy
from engine.variants.rummy500 import Rummy500

VARIANTS: dict[str, Variant] = {
    v.id: v
    for v in (
        BasicRummy(),
        Rummy500(),
        GermanRummy(),
        RomanianRummy(),
    )
}


def variant_commands() -> tuple[VariantCommand, ...]:
    """Every variant-only verb of the command language, in registry order."""
    return tuple(c for v in VARIANTS.values() for c in v.commands)


def get_variant(variant_id: str) -> Variant:
    """The variant with this id; raises :class:`RuleOptionError` for an unknown one."""
    try:
        return VARIANTS[variant_id.strip().lower()]
    except KeyError:
        raise RuleOptionError(
            detail=f"unknown variant '{variant_id}'; variants: " + ", ".join(VARIANTS),
            option="variant",
            value=variant_id,
            accepts=", ".join(VARIANTS),
        ) from None
