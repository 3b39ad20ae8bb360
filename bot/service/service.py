"""The game service: every adapter's way into lobbies and games.

Flow of a change: take the table's lock, load it, let the engine (or a lobby
step) produce the new table, commit it in one transaction with a
compare-and-set on its version (and the action log, the update's idempotency
key, the results), and only then notify the platforms. A refused change raises
an :class:`engine.errors.EngineError` subclass and changes nothing.

The service is put together from one module per concern: :mod:`bot.service.core` (the
parts and the change protocol), :mod:`bot.service.lobby_steps`, :mod:`bot.service.play`
(people's moves), :mod:`bot.service.automatic` (AI moves, timers, next deals: run by
:class:`bot.service.scheduler.Scheduler`) and :mod:`bot.service.queries`. Engine work
(moves, AI decisions, hints, legal-move lists) runs in ``compute``
(:mod:`bot.service.compute`: worker processes with a budget per call), never on the
event loop.
"""

from __future__ import annotations

from bot.service.automatic import AutomaticSteps
from bot.service.core import (
    DEFAULT_BUDGET,
    HINT_CACHE,
    MAX_TABLES_PER_USER,
    QUICK_AFTER_TIMEOUT,
    UPDATE_KEY_SECONDS,
    Change,
    HandFacts,
)
from bot.service.lobby_steps import LobbySteps
from bot.service.queries import Queries

__all__ = [
    "DEFAULT_BUDGET",
    "HINT_CACHE",
    "MAX_TABLES_PER_USER",
    "QUICK_AFTER_TIMEOUT",
    "UPDATE_KEY_SECONDS",
    "Change",
    "GameService",
    "HandFacts",
]


class GameService(LobbySteps, AutomaticSteps, Queries):
    """Lobbies and games of every chat, stored through a :class:`Repository`.

    ``notifiers`` maps a platform name (``telegram``, ``discord``, ``terminal``) to
    its :class:`Notifier`. ``clock`` is injectable so tests can move time;
    ``seed_source`` makes game seeds reproducible in tests. ``default_locale`` is the
    language of users and chats without a preference.
    """
