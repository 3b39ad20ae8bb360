"""The service's limits and budgets (units: seconds unless named otherwise)."""

from __future__ import annotations

RETRIES = 3
"""How often a change is retried after losing a version race to another process."""

UPDATE_KEY_SECONDS = 2 * 86400
"""How long an update's idempotency key is kept: Telegram keeps an undelivered update for
24 hours and a Discord interaction expires after 15 minutes, so no platform delivers an
update again after this; older keys are pruned (they were a third of the database)."""

DEFAULT_BUDGET = 2.0
"""Seconds an engine call (a move, an AI decision, a hint, the legal-move list) may take
before it is given up (``ENGINE_BUDGET``): far above the engine's usual milliseconds, far
below what a person waiting for an answer tolerates."""

QUICK_BUDGET = 0.5
"""Seconds for :func:`engine.game.quick_action` when an AI decision ran out of budget."""

MAX_TABLES_PER_USER = 20
"""Active tables (lobbies and games) one person may sit at: bounds what one account can
make the bot store and run."""

MAX_TURN_ACTIONS = 64
"""Actions the autopilot may play in one expired turn (a turn is a handful of actions;
the bound keeps a confused engine from looping)."""

QUICK_AFTER_TIMEOUT = 8
"""After an AI decision of a table ran out of its budget, the table's next this many AI
actions are quick moves: one hard position must not keep the background workers (which
every AI table shares) busy for a budget per move."""

LEASE_SECONDS = 15.0
"""How long a worker's claim on a table's due step lasts (PostgreSQL with several workers):
longer than a step takes (an engine call has a budget of a few seconds); a dead worker's
tables wait at most this long for another worker."""

FACTS_CACHE = 2048
"""Seat facts kept per (table, game state version, seat): a selection, a sort or a hint on
the same position costs no engine call."""

HINT_CACHE = 512
"""Entries of the service's other small per-table memories (quick-move counters)."""
