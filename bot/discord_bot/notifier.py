"""The service's notifications shown on Discord (:class:`bot.service.notifier.Notifier`).

* ``table_changed``: the table's public message is drawn again and edited in place
  (posted once, its id kept in ``discord_table_messages`` so a restart edits the same
  message); the recent event lines are kept with it. Public text comes only from the
  public view, in the table's language.
* ``hand_changed`` / ``turn_started``: the player's open hand message (see
  :mod:`bot.discord_bot.sessions`) is redrawn; hands are never sent anywhere else.
* ``turn_started`` / ``timer_warning``: a short ping in the channel that mentions only
  that player (the previous ping of the table is deleted), with a Show my hand button.

Notifications for the same table are drawn one after another, and one for an older
table version than the message shows is dropped.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

import discord

from bot.discord_bot.components import ping_controls, table_controls
from bot.discord_bot.flows import hand_view
from bot.discord_bot.hand import HandState
from bot.discord_bot.render import RECENT_LINES, table_content
from bot.discord_bot.respond import NO_MENTIONS
from bot.discord_bot.sessions import HandSessions
from bot.i18n import N_, _, use_locale
from bot.ports.message_store import DiscordMessageStore, DiscordTableMessage
from bot.ports.model import Status, TableInfo, UserRef
from bot.render.events import event_line, render_event
from bot.render.notices import render_notice
from bot.service.notifier import Notice
from bot.service.service import GameService
from engine.errors import EngineError
from engine.events import Event
from engine.views import PlayerView, PublicView

log = logging.getLogger(__name__)

TURN_PING = N_("{mention}, it is your turn (table {number}).")
TIMER_PING = N_("{mention}, your turn ends in {seconds} seconds (table {number}).")

#: How long a notification waits for the bot to be connected before it is dropped.
READY_TIMEOUT = 30.0


class DiscordNotifier:
    """Implements the Notifier protocol for the ``discord`` platform.

    Created with the :class:`HandSessions` it shares with the handlers; usable once
    :meth:`attach` gave it the connected client, the message store and the service.
    """

    def __init__(self, sessions: HandSessions) -> None:
        self.sessions = sessions
        self.client: discord.Client | None = None
        self.store: DiscordMessageStore | None = None
        self.service: GameService | None = None
        self._ready = asyncio.Event()
        self._locks: dict[int, asyncio.Lock] = {}
        self._pinged: dict[int, int] = {}

    def attach(self, client: discord.Client, store: DiscordMessageStore,
               service: GameService) -> None:
        """Start drawing on ``client``."""
        self.client, self.store, self.service = client, store, service
        self._ready.set()

    def detach(self) -> None:
        """Stop drawing (the client is closing)."""
        self._ready.clear()
        self.client = None

    async def _connected(self) -> tuple[discord.Client, DiscordMessageStore, GameService] | None:
        try:
            await asyncio.wait_for(self._ready.wait(), READY_TIMEOUT)
        except TimeoutError:
            log.warning("Discord is not connected; a table update was dropped")
            return None
        if self.client is None or self.store is None or self.service is None:
            return None
        return self.client, self.store, self.service

    def _lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    # --- the public table message ---------------------------------------------------------

    async def table_changed(self, info: TableInfo, view: PublicView | None,
                            events: Sequence[Event], notices: Sequence[Notice]) -> None:
        """Edit (or first post) the table message."""
        connected = await self._connected()
        if connected is None:
            return
        client, store, service = connected
        if view is None or view.current != self._pinged.get(info.id):
            self._pinged.pop(info.id, None)
        async with self._lock(info.id):
            stored = await store.get(info.id)
            if stored is not None and stored.version > info.version:
                return
            with use_locale(await service.table_locale(info)):
                players = [seat.name for seat in info.seats]
                lines = [render_notice(n) for n in notices]
                lines += [event_line(e, view) if view else render_event(e, players) for e in events]
                recent = ((stored.recent if stored else ()) + tuple(lines))[-RECENT_LINES:]
                content = table_content(info, view, recent)
                controls = table_controls(info, view)
            channel = client.get_partial_messageable(int(info.key.chat_id))
            message_id = await self._show(channel, stored, content, controls)
            if message_id is None:
                return
            if stored is None or stored.message_id != message_id:
                stored = DiscordTableMessage(info.id, info.key.chat_id, message_id, info.version)
            updated = DiscordTableMessage(info.id, stored.channel_id, message_id, info.version,
                                   stored.ping_id, stored.ping_seat, recent)
            if info.status not in (Status.LOBBY, Status.PLAYING):
                await self._delete(channel, updated.ping_id)
                updated = updated.with_ping(None, None)
                self.sessions.forget_table(info.id)
                self._pinged.pop(info.id, None)
            await store.save(updated)

    async def _show(self, channel: discord.PartialMessageable, stored: DiscordTableMessage | None,
                    content: str, controls: discord.ui.View | None) -> str | None:
        """Edit the stored message, or post a new one (none yet, or it was deleted)."""
        if stored is not None:
            try:
                await channel.get_partial_message(int(stored.message_id)).edit(
                    content=content, view=controls, allowed_mentions=NO_MENTIONS)
                return stored.message_id
            except discord.NotFound:
                log.info("table message %s is gone; posting a new one", stored.message_id)
        try:
            if controls is None:
                sent = await channel.send(content, allowed_mentions=NO_MENTIONS)
            else:
                sent = await channel.send(content, view=controls, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as error:
            log.warning("cannot post the table in channel %s: %s", channel.id, error)
            return None
        return str(sent.id)

    # --- private hand messages ------------------------------------------------------------

    async def hand_changed(self, info: TableInfo, seat: int, user_key: str,
                           view: PlayerView) -> None:
        """Redraw the player's open hand message (unless their own click is drawing it)."""
        if self.sessions.is_busy(info.id, user_key):
            return
        await self._redraw_hand(info, user_key, view)

    async def _redraw_hand(self, info: TableInfo, user_key: str, view: PlayerView) -> None:
        anchor = self.sessions.anchor(info.id, user_key)
        connected = await self._connected()
        if anchor is None or connected is None:
            return
        _client, _store, service = connected
        state = anchor.state if anchor.state.matches(view.hand) else \
            HandState.fresh(view.hand, anchor.state.sort)
        with use_locale(await service.locale_of(anchor.user)):
            drawn = await hand_view(service, info.key, anchor.user, state)
        if isinstance(drawn, str):
            return  # the game ended: the table message shows it
        content, controls, state = drawn
        try:
            await anchor.interaction.edit_original_response(content=content, view=controls,
                                                            allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as error:
            log.info("hand message of %s not updated: %s", user_key, error)
            return
        anchor.state = state

    # --- pings ----------------------------------------------------------------------------

    async def turn_started(self, info: TableInfo, seat: int, user_key: str) -> None:
        """Ping the player once per turn; refresh their open hand message."""
        connected = await self._connected()
        if connected is None:
            return
        _client, _store, service = connected
        if self._pinged.get(info.id) != seat:
            self._pinged[info.id] = seat
            await self._ping(info, seat, user_key, TURN_PING)
        user = UserRef("discord", user_key.partition(":")[2], "")
        if self.sessions.anchor(info.id, user_key) is not None \
                and not self.sessions.is_busy(info.id, user_key):
            try:
                fresh_info, view = await service.player_view(info.key, user)
            except EngineError:  # the table just closed
                return
            await self._redraw_hand(fresh_info, user_key, view)

    async def timer_warning(self, info: TableInfo, seat: int, user_key: str,
                            seconds_left: float) -> None:
        """Ping the player: their turn ends soon."""
        await self._ping(info, seat, user_key, TIMER_PING, seconds=max(int(seconds_left), 1))

    async def _ping(self, info: TableInfo, seat: int, user_key: str, msgid: str,
                    **params: object) -> None:
        connected = await self._connected()
        if connected is None:
            return
        client, store, service = connected
        user_id = user_key.partition(":")[2]
        if not user_id.isdigit():
            return
        async with self._lock(info.id):
            stored = await store.get(info.id)
            if stored is None:
                return
            with use_locale(await service.table_locale(info)):
                content = _(msgid).format(mention=f"<@{user_id}>", number=info.id, **params)
                controls = ping_controls(info)
            channel = client.get_partial_messageable(int(stored.channel_id))
            mentions = discord.AllowedMentions(everyone=False, roles=False,
                                               users=[discord.Object(int(user_id))])
            try:
                sent = await channel.send(content, view=controls, allowed_mentions=mentions)
            except discord.HTTPException as error:
                log.warning("cannot ping in channel %s: %s", channel.id, error)
                return
            await self._delete(channel, stored.ping_id)
            await store.save(stored.with_ping(str(sent.id), seat))

    @staticmethod
    async def _delete(channel: discord.PartialMessageable, message_id: str | None) -> None:
        if message_id is None:
            return
        try:
            await channel.get_partial_message(int(message_id)).delete()
        except discord.HTTPException as error:
            log.info("old ping %s not deleted: %s", message_id, error)

