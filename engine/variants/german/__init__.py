"""German Rommé (variant ``german``); see :mod:`engine.variants.german.variant`."""

from engine.variants.german.variant import GermanRummy

__all__ = ["GermanRummy"]
