"""Published changes shown on Discord (:class:`DiscordNotifier`, the
:class:`bot.ports.notifier.Notifier` of the ``discord`` platform), laid out from the
computed screens of a :class:`bot.ports.screens.TableUpdate` only: it never asks the
service anything.

* The table's public message is drawn from ``update.table`` in the table's language and
  edited in place (posted once, its id kept in ``discord_table_messages`` so a restart
  edits the same message); the recent event lines are kept with it. Public text comes
  only from the public view.
* The open hand message of each person whose hand changed or whose turn began (see
  :mod:`bot.discord_bot.sessions`) is redrawn from their own seat's screen, in their
  language, with the selection and order it showed, the presser's first; one that shows
  the table's version already (the press's answer drew it: on Discord a private message is
  drawn through its interaction) stays. Hands are never sent anywhere else.
  The message is edited through the live interaction when this worker answered it, else
  through the stored anchor's token (another worker answered it); a token Discord
  refuses is forgotten, and the Show my hand button opens a fresh hand message.
* ``update.turn`` / a timer warning: a short ping in the channel that mentions only that
  player (the previous ping of the table is deleted), with a Show my hand button; once
  per turn: not when the stored message already shows the version the turn began at
  (a worker that takes the channel over draws it again). The recent lines are the
  table's stored changes (:attr:`bot.ports.screens.TableScreen.history`), the same on
  every worker.
* A table that cannot be loaded any more is said once in its channel.

Changes of the same table are drawn one after another; a table message is not drawn
back to an older version than it shows, nor a hand message.
"""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.discord_bot.components import hand_controls, ping_controls, table_controls
from bot.discord_bot.hand import HandState
from bot.discord_bot.render import RECENT_LINES, hand_content, pieces, table_content
from bot.discord_bot.respond import NO_MENTIONS
from bot.discord_bot.sessions import (
    Anchor,
    HandSessions,
    edit_by_token,
    follow_up_privately,
    refused_token,
    stored_state,
)
from bot.i18n import N_, _, use_locale
from bot.interaction.hand import build_hand_model, hand_digest
from bot.ports.keyed_sends import KeyedSends
from bot.ports.message_store import DiscordHandAnchor, DiscordMessageStore, DiscordTableMessage
from bot.ports.model import Status, TableInfo
from bot.ports.screens import (
    CoachAdvice,
    SeatScreen,
    TableFault,
    TableScreen,
    TableUpdate,
    TimerWarning,
)
from bot.render.events import event_line, render_event
from bot.render.notices import render_fault, render_notice

log = logging.getLogger(__name__)

PLATFORM = "discord"

TURN_PING = N_("{mention}, it is your turn (table {number}).")
TIMER_PING = N_("{mention}, your turn ends in {seconds} seconds (table {number}).")

#: How long a notification waits for the bot to be connected before it is dropped.
READY_TIMEOUT = 30.0


class DiscordNotifier:
    """Implements the Notifier protocol for the ``discord`` platform.

    Created with the :class:`HandSessions` it shares with the handlers; usable once
    :meth:`attach` gave it the connected client and the message store.
    """

    def __init__(self, sessions: HandSessions) -> None:
        self.sessions = sessions
        self.client: discord.Client | None = None
        self.store: DiscordMessageStore | None = None
        #: Whether the table and hand messages get the button that opens the web table.
        self.activity = False
        self._ready = asyncio.Event()
        self._locks: dict[int, asyncio.Lock] = {}
        self.keyed = KeyedSends(self._begin_send)

    def attach(self, client: discord.Client, store: DiscordMessageStore) -> None:
        """Start drawing on ``client``, keeping the table messages in ``store``."""
        self.client, self.store = client, store
        self._ready.set()

    def detach(self) -> None:
        """Stop drawing (the client is closing)."""
        self._ready.clear()
        self.client = None

    async def _connected(self) -> tuple[discord.Client, DiscordMessageStore] | None:
        try:
            await asyncio.wait_for(self._ready.wait(), READY_TIMEOUT)
        except TimeoutError:
            log.warning("Discord is not connected; a table update was dropped")
            return None
        if self.client is None or self.store is None:
            return None
        return self.client, self.store

    def _lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    # --- the Notifier protocol ---------------------------------------------------------------

    async def publish(self, update: TableUpdate) -> None:
        """Draw ``update``: the table message (and the turn ping), then the open hand
        messages whose hand changed."""
        connected = await self._connected()
        if connected is None:
            return
        self.sessions.screens.keep(update)
        client, store = connected
        info = update.info
        ping = None if update.turn is None else update.seat_screen(update.turn)
        async with self._lock(info.id):
            await self._table(client, store, update.table, ping, update.turn_started)
        await self._hands(client, update)

    async def warn(self, warning: TimerWarning) -> None:
        """Ping the player: their turn ends soon."""
        connected = await self._connected()
        if connected is None:
            return
        client, store = connected
        info = warning.info
        async with self._lock(info.id):
            stored = await store.get(info.id)
            if stored is None:
                return
            with use_locale(warning.locale):
                sent = await self._ping(
                    client,
                    stored,
                    info,
                    warning.user_key,
                    TIMER_PING,
                    seconds=max(int(warning.seconds_left), 1),
                )
            if sent is not None:
                await store.save(stored.with_ping(sent, warning.seat))

    async def coach(self, advice: CoachAdvice) -> None:
        """The coach's notes, as messages only the person sees: follow-ups of their hand
        message's interaction (:meth:`HandSessions.private_place`; a token lives 15
        minutes). Without one there is no private place to write: nothing is sent."""
        connected = await self._connected()
        if connected is None:
            return
        client, _store = connected
        place = await self.sessions.private_place(advice.info.id, advice.user_key)
        if place is None:
            log.info("no private place for the coach of %s", advice.user_key)
            return
        application, token = place
        try:
            for piece in pieces(advice.text):
                await follow_up_privately(client, application, token, piece, NO_MENTIONS)
        except discord.HTTPException as error:
            log.info("the coach's notes for %s not sent: %s", advice.user_key, error)

    async def fault(self, fault: TableFault) -> None:
        """Say in the table's channel that the table cannot be loaded."""
        connected = await self._connected()
        if connected is None:
            return
        client, _store = connected
        with use_locale(fault.locale):
            text = render_fault(fault)
        try:
            channel = client.get_channel(int(fault.key.chat_id)) or await client.fetch_channel(
                int(fault.key.chat_id)
            )
            if isinstance(channel, discord.abc.Messageable):
                await channel.send(text, allowed_mentions=NO_MENTIONS)
        except (discord.HTTPException, ValueError) as error:
            log.warning(
                "could not tell channel %s about table %d: %s",
                fault.key.chat_id,
                fault.table_id,
                error,
            )

    # --- the public table message ---------------------------------------------------------

    async def _table(
        self,
        client: discord.Client,
        store: DiscordMessageStore,
        table: TableScreen,
        ping: SeatScreen | None,
        turn_started: int,
    ) -> None:
        """Edit (or first post) the table message; ping ``ping``'s player, whose turn
        began at version ``turn_started``, unless the message showed that version
        already; one read and one write of the stored message."""
        info, view = table.info, table.view
        stored = await store.get(info.id)
        if stored is not None and stored.version > info.version:
            return
        if _turn_drawn(stored, turn_started):
            ping = None  # the turn's first change was drawn (and pinged) already
        with use_locale(table.locale):
            recent = _recent_lines(table, stored)
            content = table_content(info, view, recent)
            controls = table_controls(info, view, self.activity)
        channel = client.get_partial_messageable(int(info.key.chat_id))
        message_id, posted = await self._show(channel, stored, info.id, content, controls)
        if message_id is None:
            return
        updated = _table_row(info, stored, message_id, recent)
        updated, ping_key = await self._after_draw(client, table, updated, ping, turn_started)
        await store.save(updated)
        for done in (posted, ping_key):
            if done is not None:
                await store.end_send(done)

    async def _after_draw(
        self,
        client: discord.Client,
        table: TableScreen,
        updated: DiscordTableMessage,
        ping: SeatScreen | None,
        turn_started: int,
    ) -> tuple[DiscordTableMessage, str | None]:
        """An ended table loses its ping and hand sessions; a turn that began is pinged
        once (keyed by the version it began at). Returns the message row to store and the
        key of a ping to note as sent once it is stored."""
        info = table.info
        if info.status not in (Status.LOBBY, Status.PLAYING):
            await self._delete(
                client.get_partial_messageable(int(info.key.chat_id)), updated.ping_id
            )
            await self.sessions.forget_table(info.id)
            return updated.with_ping(None, None), None
        if ping is None:
            return updated, None
        key = f"discord:ping:{info.id}:{turn_started}"
        if not await self.keyed.may_send(key):
            return updated, None
        with use_locale(table.locale):
            sent = await self._ping(client, updated, info, ping.user_key, TURN_PING)
        if sent is None:
            return updated, None
        return updated.with_ping(sent, ping.seat), key

    async def _begin_send(self, key: str) -> str:
        if self.store is None:  # drawn only once attached
            raise RuntimeError("the Discord notifier has no message store")
        return await self.store.begin_send(key)

    async def _show(
        self,
        channel: discord.PartialMessageable,
        stored: DiscordTableMessage | None,
        table_id: int,
        content: str,
        controls: discord.ui.View | None,
    ) -> tuple[str | None, str | None]:
        """Edit the stored message, or post a new one (none yet, or it was deleted).
        Returns the message's id (``None`` when there is none) and the key of the post to
        note as sent once the message is stored (``None`` when it was edited)."""
        if stored is not None:
            try:
                await channel.get_partial_message(int(stored.message_id)).edit(
                    content=content, view=controls, allowed_mentions=NO_MENTIONS
                )
                return stored.message_id, None
            except discord.NotFound:
                log.info("table message %s is gone; posting a new one", stored.message_id)
        # the post that replaces message N (0: the first one) is keyed by N
        key = f"discord:table:{table_id}:{0 if stored is None else stored.message_id}"
        if not await self.keyed.may_send(key):
            return None, None
        try:
            if controls is None:
                sent = await channel.send(content, allowed_mentions=NO_MENTIONS)
            else:
                sent = await channel.send(content, view=controls, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as error:
            log.warning("cannot post the table in channel %s: %s", channel.id, error)
            return None, None
        return str(sent.id), key

    # --- private hand messages ------------------------------------------------------------

    async def _hands(self, client: discord.Client, update: TableUpdate) -> None:
        """Redraw the open hand message of every seat whose hand changed or whose turn
        began, unless it shows this version already (the press that made the change
        drew it in its answer)."""
        info = update.info
        if info.status is not Status.PLAYING:
            return  # the table message shows the end
        for screen in update.seats_actor_first:
            if update.hand_changed(screen.seat):
                await self._redraw_hand(client, info, screen)

    async def _redraw_hand(
        self, client: discord.Client, info: TableInfo, screen: SeatScreen
    ) -> None:
        """Redraw the player's hand message: through the live interaction of this worker,
        else through the stored anchor's token (a hand opened on another worker); then
        note the state and version shown in the store."""
        live = self.sessions.anchor(info.id, screen.user_key)
        stored = None
        if live is not None:
            shown, version, token = live.state, live.version, live.interaction.token
        else:
            found = await self._stored_anchor(info, screen.user_key)
            if found is None:
                return
            stored, shown = found
            version, token = stored.version, stored.token
        if version >= info.version:
            return
        state = shown
        if state.digest != hand_digest(screen.view.hand):
            state = HandState.fresh(screen.view.hand, state.sort)
        with use_locale(screen.locale):
            model = build_hand_model(screen, mask=state.mask, sort=state.sort)
            state = HandState.of(model)
            content = hand_content(info, model)
            controls = hand_controls(info, model, state, self.activity)
        try:
            await _edit_hand(client, live, stored, content, controls)
        except discord.HTTPException as error:
            log.info("hand message of %s not updated: %s", screen.user_key, error)
            if refused_token(error):
                await self.sessions.forget(info.id, screen.user_key, token)
            return
        if live is not None:
            live.state = state
            live.version = info.version
        await self.sessions.shown(info.id, screen.user_key, token, state, info.version)

    async def _stored_anchor(
        self, info: TableInfo, user_key: str
    ) -> tuple[DiscordHandAnchor, HandState] | None:
        """The player's hand anchor as stored (a hand opened on another worker) and the
        state it shows; ``None`` when there is none, or it is unreadable (then it is
        forgotten)."""
        stored = await self.sessions.stored_anchor(info.id, user_key)
        if stored is None:
            return None
        try:
            return stored, stored_state(stored)
        except ValueError:
            log.warning("stored hand anchor of %s is unreadable; forgotten", user_key)
            await self.sessions.forget(info.id, user_key, stored.token)
            return None

    # --- pings ----------------------------------------------------------------------------

    async def _ping(
        self,
        client: discord.Client,
        stored: DiscordTableMessage,
        info: TableInfo,
        user_key: str,
        msgid: str,
        **params: object,
    ) -> str | None:
        """Send a ping mentioning only ``user_key`` (inside ``use_locale``: the table's
        language) and delete the table's previous one; the new ping's id, or ``None``."""
        user_id = user_key.partition(":")[2]
        if not user_id.isdigit():
            return None
        content = _(msgid).format(mention=f"<@{user_id}>", number=info.id, **params)
        controls = ping_controls(info)
        channel = client.get_partial_messageable(int(stored.channel_id))
        mentions = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(int(user_id))]
        )
        try:
            sent = await channel.send(content, view=controls, allowed_mentions=mentions)
        except discord.HTTPException as error:
            log.warning("cannot ping in channel %s: %s", channel.id, error)
            return None
        await self._delete(channel, stored.ping_id)
        return str(sent.id)

    @staticmethod
    async def _delete(channel: discord.PartialMessageable, message_id: str | None) -> None:
        if message_id is None:
            return
        try:
            await channel.get_partial_message(int(message_id)).delete()
        except discord.HTTPException as error:
            log.info("old ping %s not deleted: %s", message_id, error)


def _recent_lines(table: TableScreen, stored: DiscordTableMessage | None) -> tuple[str, ...]:
    """The table message's last lines: the stored changes' lines (the same whichever
    worker draws), else the message's lines before and this change's (in the table's
    language, set by the caller)."""
    info, view = table.info, table.view
    players = [seat.name for seat in info.seats]
    if table.history:
        changes = [(past.events, past.notices) for past in table.history]
        recent: tuple[str, ...] = ()
    else:
        changes = [(table.events, table.notices)]
        recent = stored.recent if stored else ()
    for events, notices in changes:
        recent += tuple(render_notice(n) for n in notices)
        recent += tuple(event_line(e, view) if view else render_event(e, players) for e in events)
    return recent[-RECENT_LINES:]


def _turn_drawn(stored: DiscordTableMessage | None, turn_started: int) -> bool:
    """Whether the stored table message shows the version a turn began at (or a later
    one): that turn's ping was sent with it."""
    return stored is not None and stored.version >= turn_started


def _table_row(
    info: TableInfo, stored: DiscordTableMessage | None, message_id: str, recent: tuple[str, ...]
) -> DiscordTableMessage:
    """The row of the table message ``message_id`` now showing ``info`` with the
    ``recent`` lines; the ping of the stored row kept while it is the same message."""
    if stored is None or stored.message_id != message_id:
        stored = DiscordTableMessage(info.id, info.key.chat_id, message_id, info.version)
    return DiscordTableMessage(
        info.id,
        stored.channel_id,
        message_id,
        info.version,
        stored.ping_id,
        stored.ping_seat,
        recent,
    )


async def _edit_hand(
    client: discord.Client,
    live: Anchor | None,
    stored: DiscordHandAnchor | None,
    content: str,
    controls: discord.ui.View,
) -> None:
    """Edit the hand message through the ``live`` interaction, else through the
    ``stored`` anchor's token; raises ``discord.HTTPException``."""
    if live is not None:
        await live.interaction.edit_original_response(
            content=content, view=controls, allowed_mentions=NO_MENTIONS
        )
        return
    assert stored is not None
    await edit_by_token(
        client,
        int(stored.application_id),
        stored.token,
        content=content,
        view=controls,
        allowed_mentions=NO_MENTIONS,
    )
