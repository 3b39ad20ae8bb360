"""The variant interface, re-exported for the variant packages (it lives in
:mod:`engine.variant`, below the variants, so the game flow can use it)."""

from __future__ import annotations

from engine.variant import Apply, Variant, VariantCommand, Verify

__all__ = ["Apply", "Variant", "VariantCommand", "Verify"]
