"""Open hand messages: which interaction can still edit a player's ephemeral hand message.

An ephemeral message can only be changed through the interaction that made it (or a
later click on it), and only while that interaction's token lives (15 minutes). The
latest such interaction of a player at a table is the *anchor*: when a published change
says the hand changed (a new deal, the autopilot played) or the player's turn begins,
the notifier edits the anchored message so it shows the fresh hand and controls.

The player's own presses are answered by the handlers, which draw the hand themselves
and set the anchor at the table's new version before the change is shown to anyone
(:meth:`bot.ports.entry.Entry.answer_first`), so the notifier, which draws a hand message
only when it shows an older version, does not draw it a second time.

**Several workers.** The worker that answered the interaction keeps it in memory (the
fast path: :meth:`HandSessions.anchor`) and writes the anchor through to the Discord
message store (:class:`bot.ports.message_store.DiscordHandAnchor`: application id,
interaction token, message id, the :class:`HandState` shown, the table version, when).
A change may be published by another worker (due work it claimed, a table whose chat it
now owns): that worker has no live interaction, so it loads the stored anchor
(:meth:`HandSessions.stored_anchor`) and edits the message through the interaction's
webhook, ``PATCH /webhooks/{application id}/{token}/messages/@original``
(:func:`edit_by_token`, the request discord.py's ``Interaction.edit_original_response``
sends). A token older than :data:`TOKEN_LIFETIME` (by the service's clock, the same on
every worker) is not used, and one Discord refuses (404 Unknown Webhook or Message, 401
Invalid Webhook Token) is forgotten; then the player's way back is the Show my hand
button on the table message and under the turn ping, which answers with a fresh
ephemeral hand message and so a fresh anchor. The fast path trusts memory: a player's
interactions reach the worker that runs their server's gateway shard, so a live anchor
is their newest one; should a press reach another worker, that worker's newer anchor is
stored, and a redraw through an older live interaction only touches an older message
(the stored state is updated for the token it names only).

Security: a stored token lets whoever reads it edit that one ephemeral message (nothing
else) until Discord lets it expire 15 minutes after the interaction. It lives in the
same database as the games; rows are deleted once expired (pruned at most every
:data:`PRUNE_EVERY` seconds while anchors are set or read), when Discord refuses them
and when the table closes.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord
from cachetools import LRUCache
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context

from bot.discord_bot.hand import HandState
from bot.interaction.kept_screens import SEAT_SCREENS, KeptScreens
from bot.ports.hand import SortMode
from bot.ports.message_store import DiscordHandAnchor, DiscordMessageStore

log = logging.getLogger(__name__)

#: Discord's interaction tokens live 15 minutes; stop using one a minute before.
TOKEN_LIFETIME = 14 * 60.0

#: Seconds between two deletions of expired stored anchors by one worker.
PRUNE_EVERY = 60.0


@dataclass
class Anchor:
    """The interaction whose ``@original`` message is the player's current hand message,
    the :class:`HandState` shown, the table ``version`` it was drawn for and when the
    interaction was created (``time.monotonic()``)."""

    interaction: discord.Interaction[Any]
    state: HandState
    version: int
    created: float


def stored_state(anchor: DiscordHandAnchor) -> HandState:
    """The :class:`HandState` a stored anchor shows; raises ``ValueError`` for a row that
    does not hold one (an unknown order, a digest that is not 4 hex digits) or whose
    application id is no number."""
    int(anchor.application_id)
    return HandState.decode(HandState(anchor.digest, SortMode(anchor.sort), anchor.mask).encode())


def refused_token(error: discord.HTTPException) -> bool:
    """True when Discord's answer says the token or its message is gone for good: 404
    (Unknown Webhook 10015, Unknown Message 10008) or 401 (Invalid Webhook Token 50027)."""
    return error.status in (401, 404)


async def edit_by_token(
    client: discord.Client,
    application_id: int,
    token: str,
    *,
    content: str,
    view: discord.ui.View | None,
    allowed_mentions: discord.AllowedMentions,
) -> None:
    """Edit the original response of the interaction with ``token`` of application
    ``application_id`` (``PATCH /webhooks/{application_id}/{token}/messages/@original``,
    the request of ``discord.Interaction.edit_original_response``), through ``client``'s
    HTTP session. Any worker can do it, whichever saw the interaction. Raises
    ``discord.HTTPException`` (``NotFound`` for 404; status 401 for an expired token)."""
    await _by_token(
        client,
        application_id,
        token,
        "edit_original_interaction_response",
        content=content,
        view=view,
        allowed_mentions=allowed_mentions,
    )


async def follow_up_privately(
    client: discord.Client,
    application_id: int,
    token: str,
    content: str,
    allowed_mentions: discord.AllowedMentions,
) -> None:
    """A follow-up message only the interaction's user sees (``POST
    /webhooks/{application_id}/{token}`` with the ephemeral flag, the request of
    ``interaction.followup.send(ephemeral=True)``), through ``client``'s HTTP session: any
    worker can send it while the token lives. Raises ``discord.HTTPException``."""
    await _by_token(
        client,
        application_id,
        token,
        "execute_webhook",
        content=content,
        flags=discord.MessageFlags(ephemeral=True),
        allowed_mentions=allowed_mentions,
    )


async def _by_token(
    client: discord.Client, application_id: int, token: str, request: str, **message: Any
) -> None:
    """One request of discord.py's webhook adapter (``request``: its method's name) for
    the interaction webhook of ``token``, with the ``message`` parameters."""
    webhook = discord.Webhook.partial(application_id, token, client=client)
    with handle_message_parameters(
        previous_allowed_mentions=client.allowed_mentions, **message
    ) as params:
        await getattr(async_context.get(), request)(
            application_id,
            token,
            session=webhook.session,
            proxy=webhook.proxy,
            proxy_auth=webhook.proxy_auth,
            payload=params.payload,
            multipart=params.multipart,
            files=params.files,
        )


class HandSessions:
    """Anchors per (table id, user key): live ones in memory, every one also in the
    message store once :meth:`attach` gave it one (see the module docstring)."""

    def __init__(self, lifetime: float = TOKEN_LIFETIME) -> None:
        self.lifetime = lifetime
        self.store: DiscordMessageStore | None = None
        #: The service's clock (Unix seconds) that stamps and ages stored anchors.
        self.now: Callable[[], float] = time.time
        self._anchors: dict[tuple[int, str], Anchor] = {}
        self._pruned: float | None = None
        #: (table id, user key) -> (application id, token, when) of the player's newest
        #: hand interaction here, kept after the table ended (:meth:`private_place`).
        self._private: LRUCache[tuple[int, str], tuple[int, str, float]] = LRUCache(SEAT_SCREENS)
        #: The seat screens this process was shown, for picks and sorts without a load.
        self.screens = KeptScreens()

    async def private_place(self, table_id: int, user_key: str) -> tuple[int, str] | None:
        """(application id, token) of an interaction of the player at ``table_id`` whose
        token still lives, to write to them privately (follow-ups): the newest this worker
        answered, also after the table ended (its hand sessions are forgotten then), else
        the stored anchor another worker answered; ``None`` when there is none."""
        mine = self._private.get((table_id, user_key))
        if mine is not None and time.monotonic() - mine[2] < self.lifetime:
            return mine[0], mine[1]
        stored = await self.stored_anchor(table_id, user_key)
        return None if stored is None else (int(stored.application_id), stored.token)

    def attach(self, store: DiscordMessageStore, now: Callable[[], float]) -> None:
        """Write anchors through to ``store`` from now on, stamped and aged by ``now``."""
        self.store, self.now = store, now

    def anchor(self, table_id: int, user_key: str) -> Anchor | None:
        """The live anchor, or ``None`` (an expired one is forgotten)."""
        found = self._anchors.get((table_id, user_key))
        if found is not None and time.monotonic() - found.created > self.lifetime:
            del self._anchors[(table_id, user_key)]
            return None
        return found

    async def set_anchor(
        self,
        table_id: int,
        interaction: discord.Interaction[Any],
        user_key: str,
        state: HandState,
        version: int,
        message_id: str | None = None,
    ) -> None:
        """``interaction``'s message (``message_id``, when known) is now the player's hand
        message, showing ``state`` drawn for table version ``version``; kept in memory
        and written to the store. A store that fails is logged: this worker still
        redraws the message, other workers cannot."""
        self._anchors[(table_id, user_key)] = Anchor(interaction, state, version, time.monotonic())
        self._private[(table_id, user_key)] = (
            interaction.application_id,
            interaction.token,
            time.monotonic(),
        )
        if self.store is None:
            return
        row = DiscordHandAnchor(
            table_id,
            user_key,
            str(interaction.application_id),
            interaction.token,
            message_id,
            state.digest,
            int(state.sort),
            state.mask,
            version,
            self.now(),
        )
        try:
            await self.store.save_hand_anchor(row)
            await self._prune()
        except Exception as error:
            log.warning("hand anchor of %s at table %d not stored: %s", user_key, table_id, error)

    async def stored_anchor(self, table_id: int, user_key: str) -> DiscordHandAnchor | None:
        """The player's anchor as any worker stored it, unless it is older than
        :attr:`lifetime` by the service's clock (then the row is deleted) or there is no
        store. A store that fails counts as no anchor (logged)."""
        if self.store is None:
            return None
        try:
            await self._prune()
            found = await self.store.hand_anchor(table_id, user_key)
            if found is not None and self.now() - found.created_at > self.lifetime:
                await self.store.forget_hand_anchor(table_id, user_key, found.token)
                return None
        except Exception as error:
            log.warning("hand anchor of %s at table %d not read: %s", user_key, table_id, error)
            return None
        return found

    async def shown(
        self, table_id: int, user_key: str, token: str, state: HandState, version: int
    ) -> None:
        """The player's message of ``token`` was redrawn with ``state`` for table
        ``version``: say so in the store (unless a newer anchor replaced that token
        meanwhile)."""
        if self.store is None:
            return
        try:
            await self.store.update_hand_anchor(
                table_id, user_key, token, state.digest, int(state.sort), state.mask, version
            )
        except Exception as error:
            log.warning("hand anchor of %s at table %d not updated: %s", user_key, table_id, error)

    async def forget(self, table_id: int, user_key: str, token: str) -> None:
        """Discord refused the player's ``token`` (or its row is unreadable): delete the
        row, if it is still that token's, and a live anchor with the same token."""
        live = self._anchors.get((table_id, user_key))
        if live is not None and live.interaction.token == token:
            del self._anchors[(table_id, user_key)]
        if self.store is None:
            return
        try:
            await self.store.forget_hand_anchor(table_id, user_key, token)
        except Exception as error:
            log.warning(
                "refused hand anchor of %s at table %d not deleted: %s", user_key, table_id, error
            )

    def forget_all(self) -> None:
        """Drop every live anchor (a new client: the old one's interactions are gone from
        memory; their stored rows stay usable through the webhook)."""
        self._anchors.clear()

    async def forget_table(self, table_id: int) -> None:
        """Drop every anchor of a closed table, live and stored."""
        for key in [k for k in self._anchors if k[0] == table_id]:
            del self._anchors[key]
        if self.store is None:
            return
        try:
            await self.store.forget_hand_anchors(table_id)
        except Exception as error:
            log.warning("hand anchors of closed table %d not deleted: %s", table_id, error)

    async def _prune(self) -> None:
        """Delete the stored anchors whose tokens expired, at most every
        :data:`PRUNE_EVERY` seconds."""
        assert self.store is not None
        clock = time.monotonic()
        if self._pruned is not None and clock - self._pruned < PRUNE_EVERY:
            return
        self._pruned = clock
        await self.store.prune_hand_anchors(self.now() - self.lifetime)
