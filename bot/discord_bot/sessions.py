"""Open hand messages: which interaction can still edit a player's ephemeral hand message.

An ephemeral message can only be changed through the interaction that made it (or a
later click on it), and only while that interaction's token lives (15 minutes). The
latest such interaction of a player at a table is the *anchor*: when the service says
the hand changed (a new deal, the autopilot played) or the player's turn begins, the
notifier edits the anchored message so it shows the fresh hand and controls.

While one of the player's own clicks is being handled (``busy``), the click's answer
draws the hand itself, so notifications for that player's hand are skipped.
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord_bot.hand import HandState
from bot.ports.model import UserRef

#: Discord's interaction tokens live 15 minutes; stop using one a minute before.
TOKEN_LIFETIME = 14 * 60.0


@dataclass
class Anchor:
    """The interaction whose ``@original`` message is the player's current hand message,
    the ``user`` (with the language they use), the :class:`HandState` shown and when
    the interaction was created (``time.monotonic()``)."""

    interaction: discord.Interaction[Any]
    user: UserRef
    state: HandState
    created: float


class HandSessions:
    """Anchors and busy marks per (table id, user key)."""

    def __init__(self, lifetime: float = TOKEN_LIFETIME) -> None:
        self.lifetime = lifetime
        self._anchors: dict[tuple[int, str], Anchor] = {}
        self._busy: Counter[tuple[int, str]] = Counter()

    def anchor(self, table_id: int, user_key: str) -> Anchor | None:
        """The live anchor, or ``None`` (an expired one is forgotten)."""
        found = self._anchors.get((table_id, user_key))
        if found is not None and time.monotonic() - found.created > self.lifetime:
            del self._anchors[(table_id, user_key)]
            return None
        return found

    def set_anchor(self, table_id: int, interaction: discord.Interaction[Any], user: UserRef,
                   state: HandState) -> None:
        """``interaction``'s message is now the player's hand message, showing ``state``."""
        self._anchors[(table_id, user.key)] = Anchor(interaction, user, state, time.monotonic())

    def forget_table(self, table_id: int) -> None:
        """Drop every anchor of a closed table."""
        for key in [k for k in self._anchors if k[0] == table_id]:
            del self._anchors[key]

    def is_busy(self, table_id: int, user_key: str) -> bool:
        """True while a click of the user at this table is being handled."""
        return self._busy[(table_id, user_key)] > 0

    @contextlib.contextmanager
    def busy(self, table_id: int, user_key: str) -> Iterator[None]:
        """Mark the user busy at the table for the ``with`` block."""
        key = (table_id, user_key)
        self._busy[key] += 1
        try:
            yield
        finally:
            self._busy[key] -= 1
            if self._busy[key] <= 0:
                del self._busy[key]
