"""What each click and slash command does: a service call, then the answer.

Thin by design: table verbs go through :func:`bot.interaction.commands.handle_text` (the one
chat command language of every adapter); a hand message lays out the hand model
(:mod:`bot.interaction.hand`) and a click on one of its moves sends that legal action
through :meth:`GameService.act`; the engine and the service decide, this module only
translates Discord interactions and draws the answers. Every service call that
changes something carries ``update_key=f"discord:{interaction.id}"``.

Answers: public table buttons for lobby steps and calls answer silently (the table
message shows the change) or privately with the refusal; Draw, Take and Show my hand
answer with a new private hand message; clicks on a hand message redraw that message.

``/rummy play command:<text>`` runs any line of the chat command language through
:func:`bot.interaction.commands.handle_text`, as a line typed in Telegram's private chat
(Rummy 500's ``take 7h``, ``call``, German ``exchange``, Romanian ``joly``,
``offer r7 ben``: the same moves the hand message offers as buttons). A move answers
with a new private hand message noting the move, a refusal with the localised error, a
table verb like its own slash command.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, cast

import discord

from bot.discord_bot.components import SELECT_LIMIT, ControlId, hand_controls
from bot.discord_bot.hand import HandState
from bot.discord_bot.render import escape, hand_content, pieces
from bot.discord_bot.respond import (
    DEFER_AFTER,
    acknowledge,
    send_message,
    settle,
    update_message,
)
from bot.discord_bot.sessions import HandSessions
from bot.i18n import _, use_locale
from bot.i18n.errors import localize_error
from bot.interaction.commands import TABLE_VERBS, Reply, handle_text
from bot.interaction.hand import HandModel, SortMode, hand_melds, hand_model, mask_of, order_cards
from bot.ports.message_store import DiscordMessageStore
from bot.ports.model import ChatKey, Status, TableInfo, UserRef
from bot.render.hand import hint_text
from bot.service.errors import NoTable, NotPlaying
from bot.service.service import GameService
from engine.actions import Action
from engine.errors import EngineError

log = logging.getLogger(__name__)

PLATFORM = "discord"

#: A redrawn hand message (content, controls, the state they show), or a closing text.
Drawn = str | tuple[str, discord.ui.View, HandState]

#: Slash commands whose answer the whole channel sees.
PUBLIC = {"top"}

#: Public table buttons that are table verbs of the chat language.
LOBBY_VERBS = {"join": "join", "leave": "leave", "addbot": "addbot", "start": "start"}

#: How much of a typed command the confirmation note repeats.
ECHO_LIMIT = 200


def user_ref(interaction: discord.Interaction[Any]) -> UserRef:
    """The interacting Discord user, with the language of their Discord client."""
    member = interaction.user
    return UserRef(PLATFORM, str(member.id), member.display_name, str(interaction.locale.value))


def chat_key(interaction: discord.Interaction[Any]) -> ChatKey:
    """The table's place: the channel, thread or DM the interaction happened in (a
    thread is a channel of its own on Discord)."""
    return ChatKey(PLATFORM, str(interaction.channel_id))


def own_message(interaction: discord.Interaction[Any]) -> bool:
    """True when the clicked message was created in answer to the clicker's own interaction
    (Discord's ``interaction_metadata.user``): a private hand message is only ever redrawn
    for its owner, whatever a forged click claims. A message without that record is no
    hand message of ours, so it counts as foreign."""
    message = interaction.message
    meta = message.interaction_metadata if message is not None else None
    return meta is not None and meta.user.id == interaction.user.id


def is_admin(interaction: discord.Interaction[Any]) -> bool:
    """Whether the user may cancel other people's games here (Manage Server/Channels)."""
    perms = interaction.permissions
    return bool(perms.administrator or perms.manage_guild or perms.manage_channels)


class Flows:
    """The handlers; :meth:`on_control` is the client's ``controls`` (every click)."""

    def __init__(self, service: GameService, sessions: HandSessions, store: DiscordMessageStore,
                 defer_after: float = DEFER_AFTER) -> None:
        self.service = service
        self.sessions = sessions
        self.store = store
        self.defer_after = defer_after

    # --- entry points ---------------------------------------------------------------------

    async def on_control(self, interaction: discord.Interaction[Any], control: ControlId,
                         values: Sequence[str]) -> None:
        """Handle a click on one of our buttons or selects (an unexpected failure is
        logged and the user told privately, so no click stays unanswered)."""
        try:
            await self._on_control(interaction, control, values)
        except Exception:
            log.exception("click %s failed", control)
            await _apologise(interaction)

    async def _on_control(self, interaction: discord.Interaction[Any], control: ControlId,
                          values: Sequence[str]) -> None:
        user = user_ref(interaction)
        key = chat_key(interaction)
        with use_locale(await self.service.locale_of(user)):
            info = await self.service.table_info(key)
            if info is None:
                await self._closed(interaction, bool(control.state))
                return
            if info.id != control.table:
                # A stale control of another table: say so and leave its message alone.
                await send_message(interaction, _(
                    "That button belongs to table {old}; the game here is table {table}. "
                    "/rummy hand shows your hand.").format(old=control.table, table=info.id))
                return
            if control.state and not own_message(interaction):
                await send_message(interaction, _(
                    "That hand belongs to another player; /rummy hand shows yours."))
                return
            action = control.action
            if control.state:
                await self._hand_click(interaction, key, user, info, control, values)
            elif action in LOBBY_VERBS:
                await self._table_verb(interaction, key, user, LOBBY_VERBS[action])
            elif action == "hand":
                await self._new_hand(interaction, key, user, info, None)
            elif action in ("draw", "take"):
                await self._new_hand(interaction, key, user, info, action)
            elif action == "next" or action.startswith("v."):
                await self._public_move(interaction, key, user, action.removeprefix("v."),
                                        control, info)
            else:
                await send_message(interaction, _("That button is no longer in use."))

    async def slash_text(self, interaction: discord.Interaction[Any], text: str) -> None:
        """A slash command that is a chat command line (``join``, ``set timer=2m``, ...):
        the reply goes to the user privately, or to the channel when it is public."""
        user = user_ref(interaction)
        with use_locale(await self.service.locale_of(user)):
            verb = text.split()[0]
            # Only the leaderboard is for everyone; a deferral fixes the visibility.
            reply = await settle(interaction, self._run_text(interaction, text),
                                 defer_after=self.defer_after, ephemeral=verb not in PUBLIC)
            await self._answer_reply(interaction, reply, verb)

    async def slash_new(self, interaction: discord.Interaction[Any], text: str) -> None:
        """``/rummy new``: open a lobby; the table message appears in the channel."""
        user = user_ref(interaction)
        key = chat_key(interaction)
        with use_locale(await self.service.locale_of(user)):
            reply = await settle(interaction, self._run_text(interaction, text),
                                 defer_after=self.defer_after)
            if not reply.ok:
                await send_message(interaction, reply.text or _("That did not work."))
                return
            info = await self.service.table_info(key)
            posted = info is not None and await self.store.get(info.id) is not None
            if posted:
                await send_message(interaction, _("The table is open: the others join with "
                                                  "the Join button."))
            else:
                await send_message(interaction, _(
                    "The table is open, but I could not post it here. I need the permissions "
                    "View Channel, Send Messages, Send Messages in Threads and Read Message "
                    "History in this channel."))

    async def slash_hand(self, interaction: discord.Interaction[Any]) -> None:
        """``/rummy hand``: the private hand message."""
        user = user_ref(interaction)
        key = chat_key(interaction)
        with use_locale(await self.service.locale_of(user)):
            info = await self.service.table_info(key)
            if info is None:
                await send_message(interaction, _("There is no game here; /rummy new opens "
                                                  "one."))
                return
            await self._new_hand(interaction, key, user, info, None)

    async def slash_play(self, interaction: discord.Interaction[Any], text: str) -> None:
        """``/rummy play``: one line of the chat command language (see the module
        docstring); the answer is private."""
        user = user_ref(interaction)
        key = chat_key(interaction)
        with use_locale(await self.service.locale_of(user)):
            words = text.split()
            verb = TABLE_VERBS.get(words[0].lstrip("/!").lower()) if words else None
            info = await self.service.table_info(key)
            if words and (verb is None or verb == "hand") and info is not None \
                    and info.status is Status.PLAYING:
                move = None if verb == "hand" else " ".join(words)
                await self._new_hand(interaction, key, user, info, move, typed=True)
                return
            reply = await settle(interaction, self._run_text(interaction, text),
                                 defer_after=self.defer_after)
            if reply.text is not None:
                for piece in pieces(reply.text):
                    await send_message(interaction, piece)
            else:
                await send_message(interaction, _done_text(verb or ""))

    # --- table verbs and public moves -----------------------------------------------------

    async def _run_text(self, interaction: discord.Interaction[Any], text: str) -> Reply:
        return await handle_text(self.service, chat_key(interaction), user_ref(interaction),
                                 text, update_key=f"discord:{interaction.id}",
                                 is_admin=is_admin(interaction))

    async def _answer_reply(self, interaction: discord.Interaction[Any], reply: Reply,
                            verb: str) -> None:
        if reply.text is not None:
            for piece in pieces(reply.text):
                await send_message(interaction, piece, ephemeral=reply.private or not reply.ok)
        else:
            await send_message(interaction, _done_text(verb))

    async def _table_verb(self, interaction: discord.Interaction[Any], key: ChatKey,
                          user: UserRef, verb: str) -> None:
        reply = await settle(interaction, self._run_text(interaction, verb), update=True,
                             defer_after=self.defer_after)
        if reply.text is not None:
            await send_message(interaction, reply.text, ephemeral=True)
        else:
            await acknowledge(interaction)

    async def _public_move(self, interaction: discord.Interaction[Any], key: ChatKey,
                           user: UserRef, verb: str, control: ControlId, info: TableInfo
                           ) -> None:
        """Next deal or a variant call from the table message: silent when it works."""
        if verb != "next" and control.version != info.version:
            # A call refers to the table as shown; it changed since.
            await send_message(interaction, _("The table has changed since; look again "
                                              "and press once more if it still fits."))
            return
        try:
            await settle(interaction, self._act(interaction, key, user, verb), update=True,
                         defer_after=self.defer_after)
        except EngineError as error:
            await send_message(interaction, localize_error(error))
            return
        await acknowledge(interaction)

    async def _closed(self, interaction: discord.Interaction[Any], hand: bool) -> None:
        text = _("This game is over; /rummy new opens a new one.")
        if hand:
            await update_message(interaction, text, None)
        else:
            await send_message(interaction, text)

    # --- the private hand message -----------------------------------------------------------

    async def _new_hand(self, interaction: discord.Interaction[Any], key: ChatKey,
                        user: UserRef, info: TableInfo, move: str | None,
                        typed: bool = False) -> None:
        """Show my hand (``move`` None), Draw, Take or a ``typed`` command line
        (``/rummy play``): answer with a new hand message."""
        with self.sessions.busy(info.id, user.key):
            work = self._play_then_view(interaction, key, user, move) if typed and move \
                else self._move_then_view(interaction, key, user, move)
            drawn = await settle(interaction, work, defer_after=self.defer_after)
            if isinstance(drawn, str):
                await send_message(interaction, drawn)
                return
            content, view, state = drawn
            await send_message(interaction, content, view)
            self.sessions.set_anchor(info.id, interaction, user, state)

    async def _move_then_view(self, interaction: discord.Interaction[Any], key: ChatKey,
                              user: UserRef, move: str | None
                              ) -> Drawn:
        try:
            if move is not None:
                await self._act(interaction, key, user, move)
        except EngineError as error:
            return localize_error(error)
        return await hand_view(self.service, key, user)

    async def _play_then_view(self, interaction: discord.Interaction[Any], key: ChatKey,
                              user: UserRef, line: str) -> Drawn:
        """A typed command line through the chat language, then the fresh hand noting it
        (or the localised refusal, or the end of the game)."""
        reply = await self._run_text(interaction, line)
        if not reply.ok or reply.text is not None:
            return reply.text or _("That did not work.")
        echo = line if len(line) <= ECHO_LIMIT else line[:ECHO_LIMIT - 1] + "…"
        return await hand_view(self.service, key, user,
                               note=_("Done: {command}").format(command=escape(echo)))

    async def _hand_click(self, interaction: discord.Interaction[Any], key: ChatKey,
                          user: UserRef, info: TableInfo, control: ControlId,
                          values: Sequence[str]) -> None:
        with self.sessions.busy(info.id, user.key):
            drawn = await settle(interaction,
                                 self._hand_step(interaction, key, user, control, values),
                                 update=True, defer_after=self.defer_after)
            if isinstance(drawn, str):
                await update_message(interaction, drawn, None)
                return
            content, view, state = drawn
            await update_message(interaction, content, view)
            self.sessions.set_anchor(info.id, interaction, user, state)

    async def _hand_step(self, interaction: discord.Interaction[Any], key: ChatKey,
                         user: UserRef, control: ControlId, values: Sequence[str]
                         ) -> Drawn:
        """One click on a hand message: returns the redrawn message (or a closing text)."""
        try:
            state: HandState | None = HandState.decode(control.state)
        except ValueError:
            state = None
        try:
            _info, view = await self.service.player_view(key, user)
        except EngineError as error:
            return localize_error(error)
        if state is None:  # not ours: start from a fresh selection
            state = HandState.fresh(view.hand)
        elif not state.matches(view.hand):
            return await hand_view(self.service, key, user,
                                   HandState.fresh(view.hand, state.sort),
                                   _("Your hand has changed; here it is again."))
        step = HandStep(self, interaction, key, user, state)
        return await step.run(control.action, values)

    async def _act(self, interaction: discord.Interaction[Any], key: ChatKey, user: UserRef,
                   command: str | Action) -> TableInfo:
        return await self.service.act(key, user, command, update_key=f"discord:{interaction.id}")


class HandStep:
    """One click on a hand message, from the decoded state to the redrawn message."""

    def __init__(self, flows: Flows, interaction: discord.Interaction[Any], key: ChatKey,
                 user: UserRef, state: HandState) -> None:
        self.flows = flows
        self.interaction = interaction
        self.key = key
        self.user = user
        self.state = state

    async def _model(self, state: HandState) -> HandModel:
        return await hand_model(self.flows.service, self.key, self.user, mask=state.mask,
                                sort=state.sort)

    async def _redraw(self, state: HandState, note: str | None = None) -> Drawn:
        return await hand_view(self.flows.service, self.key, self.user, state, note)

    async def run(self, action: str, values: Sequence[str]) -> Drawn:
        """Carry out ``action`` (a select's ``values`` with it) and draw the answer."""
        state = self.state
        if action in ("c0", "c1"):
            return await self._redraw(self._pick(int(action[1]), values))
        if action in ("refresh", "clear"):
            return await self._redraw(state)
        if action == "sort":
            return await self._sort()
        if action == "hint":
            return await self._hint()
        number = _offer_number(action, values)
        if number is None:
            return await self._redraw(state, _("That button is no longer in use."))
        model = await self._model(state)
        if number >= len(model.offers):
            return await self._redraw(state, _("The table has changed since; look again and "
                                               "press once more if it still fits."))
        try:
            await self.flows._act(self.interaction, self.key, self.user,
                                  cast("Action", model.offers[number].action))
        except EngineError as error:
            return await self._redraw(state, "⚠ " + localize_error(error))
        try:
            _info, view = await self.flows.service.player_view(self.key, self.user)
        except EngineError:
            # The move ended the game: the table is no longer active.
            return _("The game is over: the table message shows the result.")
        return await self._redraw(HandState.fresh(view.hand, state.sort))

    def _pick(self, page: int, values: Sequence[str]) -> HandState:
        """The selection after the card select ``page`` (25 cards each) chose ``values``."""
        shown = range(page * SELECT_LIMIT, (page + 1) * SELECT_LIMIT)
        mask = self.state.mask
        for index in shown:
            mask &= ~(1 << index)
        for value in values:
            if value.isdigit() and int(value) in shown:
                mask |= 1 << int(value)
        return self.state.with_mask(mask)

    async def _sort(self) -> Drawn:
        """The next order, the same cards selected."""
        chosen = (await self._model(self.state)).selected
        sort = self.state.sort.next()
        melds = await hand_melds(self.flows.service, self.key, self.user,
                                 sort is SortMode.MELDS)
        _info, view = await self.flows.service.player_view(self.key, self.user)
        order = order_cards(view.hand, sort, melds)
        return await self._redraw(HandState(self.state.digest, sort, mask_of(order, chosen)))

    async def _hint(self) -> Drawn:
        """The engine's suggestion (one of the seat's legal moves, found by the service's
        engine workers) with its cards selected."""
        model = await self._model(self.state)
        if model.hint is None:
            return await self._redraw(self.state, _("Hint: no meld in your hand yet."))
        state = self.state.with_mask(model.hint_mask or self.state.mask)
        return await self._redraw(state, hint_text(model.hint.action, model.view))


def _offer_number(action: str, values: Sequence[str]) -> int | None:
    """The offer a click names: ``o3`` (a button) or the value of the moves or controls
    select."""
    if action in ("mv", "mc") and values and values[0].isdigit():
        return int(values[0])
    if action.startswith("o") and action[1:].isdigit():
        return int(action[1:])
    return None


async def hand_view(service: GameService, key: ChatKey, user: UserRef,
                    state: HandState | None = None, note: str | None = None) -> Drawn:
    """The user's hand message now (inside ``use_locale``): content, controls and the
    state they show, laid out from the hand model; ``state``: the order and selection
    (default: by suit, nothing selected); the closing text when the game is over."""
    try:
        if state is None:
            _info, view = await service.player_view(key, user)
            state = HandState.fresh(view.hand)
        model = await hand_model(service, key, user, mask=state.mask, sort=state.sort)
    except (NotPlaying, NoTable):
        return _("The game is over: the table message shows the result.")
    except EngineError as error:
        return localize_error(error)
    state = HandState(state.digest, model.sort, model.mask)
    content = hand_content(model.info, model, note)
    return content, hand_controls(model.info, model, state), state


async def _apologise(interaction: discord.Interaction[Any]) -> None:
    """Tell the user privately that something went wrong (if Discord still listens)."""
    try:
        await send_message(interaction, _("Something went wrong; please try again."))
    except discord.HTTPException:
        log.info("could not tell the user about the failure")


def _done_text(verb: str) -> str:
    texts = {
        "join": _("You joined the table."),
        "leave": _("You left the table."),
        "addbot": _("An AI player joined the table."),
        "removebot": _("The AI player left the table."),
        "start": _("The game has started."),
        "cancel": _("The game was cancelled."),
        "set": _("The settings were changed."),
        "back": _("You play your seat again."),
    }
    return texts.get(verb, _("Done."))
