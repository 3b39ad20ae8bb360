"""Romanian Rummy (``romanian``), played with 106 tiles: see :mod:`.variant`."""

from __future__ import annotations

from engine.variants.romanian.variant import RomanianRummy

__all__ = ["RomanianRummy"]
