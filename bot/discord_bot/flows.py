"""What each click and slash command does: a service call, then the answer.

Thin by design: table verbs go through :func:`bot.interaction.commands.handle_text` (the one
chat command language of every adapter), moves through :meth:`GameService.act` as
command text (``meld 7h 8h 9h``); the engine and the service decide, this module only
translates Discord interactions and draws the answers. Every service call that
changes something carries ``update_key=f"discord:{interaction.id}"``.

Answers: public table buttons for lobby steps and calls answer silently (the table
message shows the change) or privately with the refusal; Draw, Take and Show my hand
answer with a new private hand message; clicks on a hand message redraw that message.

``/rummy play command:<text>`` runs any line of the chat command language through
:func:`bot.interaction.commands.handle_text`, as a line typed in Telegram's private chat: the
way to every move the buttons do not offer (Rummy 500's ``take 7h``, ``call``, German
``exchange``, Romanian ``joly``, ``offer r7 ben``). A move answers with a new private
hand message noting the move, a refusal with the localised error, a table verb like its
own slash command.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_bot.components import ControlId, ReadingPrompt, hand_controls
from bot.discord_bot.hand import (
    HandState,
    canonical,
    cards_at,
    declare_group,
    declare_layoff,
    display_order,
    groups_of,
    positions_of,
    words,
)
from bot.discord_bot.offers import before_play, move_key, offer_for
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
from bot.interaction.hand import hand_cards, hand_melds
from bot.render.hand import hint_text
from bot.service.message_store import DiscordMessageStore
from bot.service.model import ChatKey, Status, TableInfo, UserRef
from bot.service.service import GameService
from engine.errors import AmbiguousJoker, EngineError
from engine.melds import CardSpec
from engine.views import PlayerView

if TYPE_CHECKING:
    from engine.search import Partition

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
            info, view = await self.service.player_view(key, user)
        except EngineError as error:
            return localize_error(error)
        state = HandState.fresh(view.hand)
        listed = await listed_commands(self.service, key, user, view)
        content, controls = draw_hand(info, view, state, listed=listed)
        return content, controls, state

    async def _play_then_view(self, interaction: discord.Interaction[Any], key: ChatKey,
                              user: UserRef, line: str) -> Drawn:
        """A typed command line through the chat language, then the fresh hand noting it
        (or the localised refusal, or the end of the game)."""
        reply = await self._run_text(interaction, line)
        if not reply.ok or reply.text is not None:
            return reply.text or _("That did not work.")
        try:
            info, view = await self.service.player_view(key, user)
        except EngineError:
            # The move ended the game: the table is no longer active.
            return _("The game is over: the table message shows the result.")
        state = HandState.fresh(view.hand)
        listed = await listed_commands(self.service, key, user, view)
        echo = line if len(line) <= ECHO_LIMIT else line[:ECHO_LIMIT - 1] + "…"
        note = _("Done: {command}").format(command=escape(echo))
        content, controls = draw_hand(info, view, state, note, listed=listed)
        return content, controls, state

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
            info, view = await self.service.player_view(key, user)
        except EngineError as error:
            return localize_error(error)
        try:
            state = HandState.decode(control.state)
        except ValueError:
            state = HandState.fresh(view.hand)
        listed = await listed_commands(self.service, key, user, view)
        if not state.matches(view.hand):
            fresh = HandState.fresh(view.hand, state.grouped)
            content, controls = draw_hand(info, view, fresh,
                                          note=_("Your hand has changed; here it is again."),
                                          listed=listed,
                                          melds=await hand_melds(self.service, key, user,
                                                                 fresh.grouped))
            return content, controls, fresh
        step = HandStep(self, interaction, key, user, info, view, state, listed)
        return await step.run(control.action, values)

    async def _act(self, interaction: discord.Interaction[Any], key: ChatKey, user: UserRef,
                   command: str) -> TableInfo:
        return await self.service.act(key, user, command, update_key=f"discord:{interaction.id}")


class HandStep:
    """One click on a hand message, from the decoded state to the redrawn message."""

    def __init__(self, flows: Flows, interaction: discord.Interaction[Any], key: ChatKey,
                 user: UserRef, info: TableInfo, view: PlayerView, state: HandState,
                 listed: Sequence[str] = ()) -> None:
        self.flows = flows
        self.interaction = interaction
        self.key = key
        self.user = user
        self.info = info
        self.view = view
        self.state = state
        self.listed = tuple(listed)
        self.melds: Partition | None = None  # the hand's best melds, while grouped

    async def run(self, action: str, values: Sequence[str]
                  ) -> Drawn:
        """Carry out ``action`` (a select's ``values`` with it) and draw the answer."""
        state, hand = self.state, canonical(self.view.hand)
        if state.grouped or action in ("sort", "hint"):
            self.melds = await hand_melds(self.flows.service, self.key, self.user, True)
        if action in ("c0", "c1"):
            return self._draw(self._pick(int(action[1]), values))
        if action == "grp":
            return self._draw(state.stage())
        if action == "sort":
            return self._draw(replace(state.cleared(), grouped=not state.grouped,
                                      selected=state.selected))
        if action == "refresh":
            return self._draw(state)
        if action == "hint":
            return await self._hint()
        if action in ("draw", "take", "next", "disc") or action.startswith("v."):
            chosen = cards_at(hand, state.selected)
            if action == "disc":
                command = f"discard {words(chosen[:1])}"
            elif action.startswith("v."):
                command = f"{action[2:]} {words(chosen)}".strip()
            else:
                command = action
            return await self._move(command)
        if action == "meld":
            return await self._meld()
        if action.startswith("p."):
            return await self._listed(action[2:])
        if action == "lay" and values:
            action = values[0]
        if action[:1] in ("l", "s") and action[1:].isdigit():
            return await self._layoff(action[0], int(action[1:]))
        return self._draw(state, _("That button is no longer in use."))

    # --- selection and display ------------------------------------------------------------

    def _order(self, state: HandState) -> tuple[list[int], Partition | None]:
        return _order(self.view, state, self.melds)

    def _pick(self, page: int, values: Sequence[str]) -> HandState:
        order, _partition = self._order(self.state)
        shown = set(order[page * 25:(page + 1) * 25])
        picked = {int(v) for v in values if v.isdigit() and int(v) in shown}
        return self.state.select((self.state.selected - shown) | picked)

    async def _hint(self) -> tuple[str, discord.ui.View, HandState]:
        """The engine's suggestion (one of the seat's legal moves, found by the service's
        engine workers) with its cards selected, the hand grouped into its melds."""
        facts = await self.flows.service.hand_facts(self.key, self.user, melds=True)
        self.melds = facts.melds
        state = replace(self.state.cleared(), grouped=True)
        if facts.suggestion is None:
            return self._draw(state, _("Hint: no meld in your hand yet."))
        chosen = hand_cards(facts.suggestion)
        if chosen:
            state = state.select(positions_of(self.view.hand, list(chosen)))
        return self._draw(state, hint_text(facts.suggestion, self.view))

    def _draw(self, state: HandState, note: str | None = None,
              prompt: ReadingPrompt | None = None) -> tuple[str, discord.ui.View, HandState]:
        content, controls = draw_hand(self.info, self.view, state, note, prompt, self.listed,
                                      self.melds if state.grouped else None)
        return content, controls, state

    # --- moves ----------------------------------------------------------------------------

    async def _move(self, command: str) -> Drawn:
        try:
            await self.flows._act(self.interaction, self.key, self.user, command)
        except AmbiguousJoker as error:
            return self._draw(self.state, localize_error(error))
        except EngineError as error:
            return self._draw(self.state, "⚠ " + localize_error(error))
        return await self._after_move()

    async def _after_move(self) -> Drawn:
        try:
            info, view = await self.flows.service.player_view(self.key, self.user)
        except EngineError:
            # The move ended the game: the table is no longer active.
            return _("The game is over: the table message shows the result.")
        self.info, self.view = info, view
        self.listed = await listed_commands(self.flows.service, self.key, self.user, view)
        self.melds = await hand_melds(self.flows.service, self.key, self.user,
                                      self.state.grouped)
        return self._draw(HandState.fresh(view.hand, self.state.grouped))

    async def _listed(self, key: str) -> Drawn:
        """A listed command's button: the command it names, if that is still legal."""
        found = [c for c in self.listed if move_key(c) == key]
        if not found:
            return self._draw(self.state, _("The table has changed since; look again and "
                                            "press once more if it still fits."))
        return await self._move(found[0])

    async def _meld(self) -> Drawn:
        groups = [[CardSpec(c) for c in g] for g in groups_of(self.state, self.view.hand)]
        choices = list(self.state.readings)
        while True:
            command = "meld " + " | ".join(words(g) for g in groups)
            try:
                await self.flows._act(self.interaction, self.key, self.user, command)
            except AmbiguousJoker as error:
                options = [str(o) for o in error.params.get("options", ())]
                if choices and choices[0] < len(options) and declare_group(groups,
                                                                           options[choices[0]]):
                    choices.pop(0)
                    continue
                return self._prompt("meld", options, error)
            except EngineError as error:
                return self._draw(self.state, "⚠ " + localize_error(error))
            return await self._after_move()

    async def _layoff(self, kind: str, index: int) -> Drawn:
        chosen = cards_at(self.view.hand, self.state.selected)
        if kind == "s":
            return await self._move(f"swap {words(chosen[:1])} {index + 1}")
        cards = [CardSpec(c) for c in chosen]
        melds = self.view.table.melds
        choices = list(self.state.readings)
        while True:
            try:
                await self.flows._act(self.interaction, self.key, self.user,
                                      f"layoff {words(cards)} {index + 1}")
            except AmbiguousJoker as error:
                options = [str(o) for o in error.params.get("options", ())]
                if choices and choices[0] < len(options) and index < len(melds):
                    cards = declare_layoff(cards, melds[index], options[choices.pop(0)])
                    continue
                return self._prompt(f"l{index}", options, error)
            except EngineError as error:
                return self._draw(self.state, "⚠ " + localize_error(error))
            return await self._after_move()

    def _prompt(self, action: str, options: list[str], error: EngineError
                ) -> tuple[str, discord.ui.View, HandState]:
        if not options:
            return self._draw(self.state, "⚠ " + localize_error(error))
        note = _("The joker could stand for several cards: pick one.")
        return self._draw(self.state, note, ReadingPrompt(action, tuple(options)))


def _order(view: PlayerView, state: HandState, melds: Partition | None
           ) -> tuple[list[int], Partition | None]:
    """The canonical positions the card select offers, in the shown order (grouped with
    ``melds``: melds first; staged cards left out), and the partition used for grouping."""
    staged = {i for group in state.staged for i in group}
    partition = melds if state.grouped else None
    groups = [[spec.card for spec in meld] for meld in partition.melds] if partition else None
    return [i for i in display_order(view.hand, groups) if i not in staged], partition


def draw_hand(info: TableInfo, view: PlayerView, state: HandState, note: str | None = None,
              prompt: ReadingPrompt | None = None, listed: Sequence[str] = (),
              melds: Partition | None = None) -> tuple[str, discord.ui.View]:
    """Content and controls of a hand message (inside ``use_locale``); ``listed``: the
    commands offered as buttons of their own (see :func:`listed_commands`); ``melds``: the
    hand's best melds for the grouped order (:func:`hand_melds`; sorted by suit without)."""
    order, partition = _order(view, state, melds)
    selected = cards_at(view.hand, state.selected)
    staged = [cards_at(view.hand, group) for group in state.staged]
    content = hand_content(info, view, state.grouped, selected, staged, note, partition)
    controls = hand_controls(info, view, state, offer_for(view), order, prompt, listed)
    return content, controls


async def listed_commands(service: GameService, key: ChatKey, user: UserRef,
                          view: PlayerView) -> tuple[str, ...]:
    """The commands the hand message offers as buttons of their own: before play
    (:func:`bot.discord_bot.offers.before_play`) on the seat's turn, its legal commands
    (the service asks the engine for this seat only); otherwise none."""
    table = view.table
    if not before_play(table) or table.current != view.seat:
        return ()
    return tuple(await service.legal_commands(key, user))


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
