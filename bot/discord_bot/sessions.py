"""Open hand messages: which interaction can still edit a player's ephemeral hand message.

An ephemeral message can only be changed through the interaction that made it (or a
later click on it), and only while that interaction's token lives (15 minutes). The
latest such interaction of a player at a table is the *anchor*: when a published change
says the hand changed (a new deal, the autopilot played) or the player's turn begins,
the notifier edits the anchored message so it shows the fresh hand and controls.

The player's own presses are answered by the handlers, which draw the hand themselves
and set the anchor; the change they caused says so (``TableUpdate.answered``), so the
notifier does not draw it a second time.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord_bot.hand import HandState

#: Discord's interaction tokens live 15 minutes; stop using one a minute before.
TOKEN_LIFETIME = 14 * 60.0


@dataclass
class Anchor:
    """The interaction whose ``@original`` message is the player's current hand message,
    the :class:`HandState` shown, the table ``version`` it was drawn for and when the
    interaction was created (``time.monotonic()``)."""

    interaction: discord.Interaction[Any]
    state: HandState
    version: int
    created: float


class HandSessions:
    """Anchors per (table id, user key)."""

    def __init__(self, lifetime: float = TOKEN_LIFETIME) -> None:
        self.lifetime = lifetime
        self._anchors: dict[tuple[int, str], Anchor] = {}

    def anchor(self, table_id: int, user_key: str) -> Anchor | None:
        """The live anchor, or ``None`` (an expired one is forgotten)."""
        found = self._anchors.get((table_id, user_key))
        if found is not None and time.monotonic() - found.created > self.lifetime:
            del self._anchors[(table_id, user_key)]
            return None
        return found

    def set_anchor(self, table_id: int, interaction: discord.Interaction[Any], user_key: str,
                   state: HandState, version: int) -> None:
        """``interaction``'s message is now the player's hand message, showing ``state``
        drawn for table version ``version``."""
        self._anchors[(table_id, user_key)] = Anchor(interaction, state, version,
                                                     time.monotonic())

    def forget_table(self, table_id: int) -> None:
        """Drop every anchor of a closed table."""
        for key in [k for k in self._anchors if k[0] == table_id]:
            del self._anchors[key]
