"""Pure, synchronous, deterministic Rummy rules engine.

No I/O and no platform imports live here. The public entry points are
:func:`engine.game.new_game`, :func:`engine.game.apply`,
:func:`engine.game.legal_actions` and :func:`engine.views.view_for`.
"""
