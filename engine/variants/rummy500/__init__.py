"""Rummy 500 (variant id ``500``): shared/rules/rummy-500.de.txt.

Modules: :mod:`.rules` (options, presets), :mod:`.values` (card values, melded
points), :mod:`.state` (call window, obligation, JSON), :mod:`.pile` (deep takes and
callable cards), :mod:`.moves` (draw, take, meld, lay off, discard, floating),
:mod:`.calls` ("Rommé!"), :mod:`.legal`, :mod:`.scoring`, :mod:`.events`,
:mod:`.errors`, :mod:`.actions` / :mod:`.commands` (the ``call`` verb), :mod:`.ai` and
:mod:`.variant` (the :class:`Rummy500` object of the registry).
"""

from engine.variants.rummy500.variant import Rummy500

__all__ = ["Rummy500"]
