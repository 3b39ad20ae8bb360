"""What each click and slash command does: one intent for the service's entry point, and
the answer to the presser.

Thin by design: every input — a component click, a slash command, a line typed into
``/rummy play`` — is decoded into ONE :class:`bot.ports.intents.Intent` and handed to
:meth:`bot.ports.entry.Entry.handle` inside :meth:`bot.ports.entry.Entry.answer_first`;
the entry point finds the table, runs the move in the engine's workers and commits; this
module answers the presser, and only then are the other screens shown
(:mod:`bot.discord_bot.notifier`). This module
decodes Discord's input and lays the outcome out; the engine and the service decide.
Every intent carries ``update_key=f"discord:{interaction.id}"`` (a redelivered
interaction changes nothing twice); flow control, stale controls and refusals are the
entry point's.

Decoding (:class:`bot.discord_bot.components.ControlId`: ``rm:<table>:<version>:<action>:
<state>``):

- table buttons Join / Leave / Add AI / Start: the table verbs of those names;
- Draw / Take: the move of that name; Show my hand: ``hand``; each answered with a new
  private hand message;
- Next deal and a variant's call (``v.<verb>``): that move with the game state's
  ``version`` the button was drawn for (refused as stale when the game moved on);
- a hand message's controls (their state is the :class:`bot.discord_bot.hand.HandState`):
  the card selects and Refresh / Clear -> ``select``, Sort -> ``sort``, Hint -> ``hint``,
  an offer (``o3``, or an option of the moves or controls select) -> ``offer`` with its
  number; all with the :class:`~bot.ports.intents.Selection` of the state. A state that
  cannot be read, an action that is none of these, or an offer number the clicked control
  did not list is never guessed: it is sent as an offer of no number, which the entry
  point refuses (``unknown_offer``) with the fresh hand, drawn in its place.

Answers: public table buttons answer silently (the table message shows the change) or
privately with the refusal; Draw, Take, Show my hand and ``/rummy hand`` answer with a
new private hand message; clicks on a hand message redraw that message. That answer is
the presser's new hand screen (on Discord a private message can only be drawn through its
interaction), noted as shown at the table's new version, so the notifier, which draws
every other changed hand after the answer, leaves it.

``/rummy play command:<text>`` runs any line of the chat command language
(:func:`bot.interaction.commands.parse`), as a line typed in Telegram's private chat
(Rummy 500's ``take 7h``, ``call``, German ``exchange``, Romanian ``joly``,
``offer r7 ben``: the same moves the hand message offers as buttons). A move answers
with a new private hand message noting the move, a refusal with the localised error, a
table verb like its own slash command.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.discord_bot.components import (
    ACTIVITY,
    ADD_AI,
    SELECT_LIMIT,
    ControlId,
    hand_controls,
    listed,
)
from bot.discord_bot.hand import HandState
from bot.discord_bot.render import escape, hand_content, pieces
from bot.discord_bot.respond import (
    DEFER_AFTER,
    acknowledge,
    in_time,
    send_message,
    update_message,
)
from bot.discord_bot.sessions import HandSessions
from bot.dropped_inputs import DroppedInputs, error_kind
from bot.i18n import _, use_locale
from bot.interaction.commands import parse
from bot.interaction.hand_session import HandSession, HandStep, SelectCards, SortBy
from bot.interaction.kept_screens import step_kept
from bot.ports.entry import Entry
from bot.ports.hand import HandModel, SortMode
from bot.ports.intents import (
    AddAI,
    Back,
    Cancel,
    Configure,
    Hint,
    InChat,
    Intent,
    Join,
    Leave,
    Move,
    NewSeason,
    Outcome,
    PressOffer,
    RemoveAI,
    ReplayGame,
    Request,
    Select,
    Selection,
    ShowHand,
    Sort,
    Start,
    Top,
)
from bot.ports.model import ChatKey, UserRef
from bot.ports.web_links import replay_without_web

log = logging.getLogger(__name__)

PLATFORM = "discord"

#: Slash commands whose answer the whole channel sees.
PUBLIC = (Top, NewSeason)

#: Public table buttons that are table requests of the chat language.
LOBBY_REQUESTS: dict[str, Request] = {
    "join": Join(),
    "leave": Leave(),
    "start": Start(),
}


def _lobby_request(action: str) -> Request | None:
    """The table request of a lobby button's ``action`` (``addbot.<level>``: an AI seat
    of that level; ``addbot`` alone, from a release before the levels: the default), or
    ``None`` for another control."""
    name, _dot, level = action.partition(".")
    if name == ADD_AI:
        return AddAI(level or None)
    return LOBBY_REQUESTS.get(action)


#: Hand message controls that only show the hand another way -> the screen request.
SCREEN_CONTROLS: dict[str, Request] = {
    "c0": Select(),
    "c1": Select(),
    "refresh": Select(),
    "clear": Select(),
    "sort": Sort(),
    "hint": Hint(),
}

#: The code of the entry point's flow-control refusal (over the rate limits).
TOO_FAST = "too_fast"

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


def can_post(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot may post the table message where ``interaction`` happened (the
    ``app_permissions`` Discord sends with every interaction: View Channel and Send
    Messages, or Send Messages in Threads in a thread)."""
    perms = interaction.app_permissions
    channel = interaction.channel
    kind = getattr(channel, "type", None)
    in_thread = kind in (
        discord.ChannelType.public_thread,
        discord.ChannelType.private_thread,
        discord.ChannelType.news_thread,
    )
    send = perms.send_messages_in_threads if in_thread else perms.send_messages
    return bool(perms.view_channel and send)


def offer_number(action: str, values: Sequence[str]) -> int | None:
    """The offer a hand control names: ``o3`` (a button) or the one value of the moves
    (``mv``) or controls (``mc``) select; ``None`` for anything else."""
    if action in ("mv", "mc"):
        if len(values) == 1 and values[0].isascii() and values[0].isdigit() and len(values[0]) <= 4:
            return int(values[0])
        return None
    number = action[1:]
    if action.startswith("o") and number.isascii() and number.isdigit() and len(number) <= 4:
        return int(number)
    return None


def picked(state: HandState, page: int, values: Sequence[str]) -> HandState:
    """The selection after the card select ``page`` (25 cards each) chose ``values``
    (card positions in display order; others are ignored)."""
    shown = range(page * SELECT_LIMIT, (page + 1) * SELECT_LIMIT)
    mask = state.mask
    for index in shown:
        mask &= ~(1 << index)
    for value in values:
        if value.isascii() and value.isdigit() and int(value) in shown:
            mask |= 1 << int(value)
    return state.with_mask(mask)


class Flows:
    """The handlers; :meth:`on_control` is the client's ``controls`` (every click). They
    hold the service's entry point as the :class:`~bot.ports.entry.Entry` protocol
    only. ``failures``: where a click that failed, or an answer Discord refused (an
    interaction it does not know: a forged or expired one), is logged, once per kind and
    interval."""

    def __init__(
        self,
        entry: Entry,
        sessions: HandSessions,
        defer_after: float = DEFER_AFTER,
        activity: bool = False,
        failures: DroppedInputs | None = None,
    ) -> None:
        self.entry = entry
        self.sessions = sessions
        self.defer_after = defer_after
        self.failures = failures or DroppedInputs(
            log, "discord", says="an event handler failed", level=logging.ERROR
        )
        #: Whether hand messages get the button that opens the web table (an Activity).
        self.activity = activity

    # --- intents ---------------------------------------------------------------------------

    @staticmethod
    def intent(
        interaction: discord.Interaction[Any],
        request: Request,
        *,
        table_id: int | None = None,
        version: int | None = None,
        selection: Selection | None = None,
    ) -> Intent:
        """The intent of ``interaction``: who, where (the channel's table; with
        ``table_id``, a control's table, which must be the channel's), the update key,
        admin rights."""
        return Intent(
            request,
            user_ref(interaction),
            InChat(chat_key(interaction), table_id),
            version=version,
            selection=selection,
            update_key=f"discord:{interaction.id}",
            is_admin=is_admin(interaction),
        )

    async def _handle(
        self,
        interaction: discord.Interaction[Any],
        intent: Intent,
        answer: Callable[[Outcome], Awaitable[None]],
        *,
        update: bool = False,
        ephemeral: bool = True,
    ) -> Outcome:
        """``entry.handle(intent)``, the interaction deferred when that is slow, then
        ``answer`` (in the person's language), before the change is shown to anyone else;
        an answer Discord refused is followed by a private apology, so no interaction
        stays unanswered."""
        async with self.entry.answer_first():
            outcome = await in_time(
                interaction,
                self.entry.handle(intent),
                defer_after=self.defer_after,
                update=update,
                ephemeral=ephemeral,
            )
            with use_locale(outcome.locale):
                try:
                    await answer(outcome)
                except discord.HTTPException as error:  # Discord does not take the answer
                    self.failures.drop(error_kind("answer", error), f"interaction {interaction.id}")
                    await _apologise(interaction)
        return outcome

    # --- clicks ----------------------------------------------------------------------------

    async def on_control(
        self, interaction: discord.Interaction[Any], control: ControlId, values: Sequence[str]
    ) -> None:
        """Handle a click on one of our buttons or selects (an unexpected failure is
        logged and the user told privately, so no click stays unanswered)."""
        try:
            await self._on_control(interaction, control, values)
        except Exception as error:
            self.failures.drop(error_kind("click", error), f"{control}", error)
            await _apologise(interaction)

    async def _on_control(
        self, interaction: discord.Interaction[Any], control: ControlId, values: Sequence[str]
    ) -> None:
        if control.state:
            await self._hand_click(interaction, control, values)
            return
        action = control.action
        request = _lobby_request(action)
        if request is not None:
            await self._table_button(
                interaction, control, self.intent(interaction, request, table_id=control.table)
            )
        elif action == "hand":
            await self._new_hand(
                interaction, self.intent(interaction, ShowHand(), table_id=control.table), control
            )
        elif action in ("draw", "take"):
            await self._new_hand(
                interaction,
                self.intent(
                    interaction,
                    Move((action,)),
                    table_id=control.table,
                ),
                control,
            )
        elif action == "next" or action.startswith("v."):
            await self._table_button(
                interaction,
                control,
                self.intent(
                    interaction,
                    Move((action.removeprefix("v."),)),
                    table_id=control.table,
                    version=control.version,
                ),
            )
        elif action == ACTIVITY and self.activity:
            await self._launch_activity(interaction)
        else:
            with use_locale(await self.entry.locale_of(user_ref(interaction))):
                await send_message(interaction, _("That button is no longer in use."))

    async def _offer_replay(self, interaction: discord.Interaction[Any], text: str) -> None:
        """``/rummy replay`` (the service found a game to replay here): the activity is
        launched; in a channel whose game has ended it replays that game, during a game
        its page has a Replay button (docs/replay.md). Without the activity, or when the
        answer had to be deferred, ``text`` and where to replay it, privately."""
        if self.activity and not interaction.response.is_done():
            await self._launch_activity(interaction)
            return
        where = (
            _("Open this channel's activity and press Replay.")
            if self.activity
            else replay_without_web()
        )
        await send_message(interaction, f"{text}\n{where}", ephemeral=True)

    async def _launch_activity(self, interaction: discord.Interaction[Any]) -> None:
        """Open the web table as a Discord Activity in this channel (it finds its table
        from the activity instance's channel); a client that cannot is told so."""
        try:
            await interaction.response.launch_activity()
        except discord.HTTPException as error:
            log.info("could not launch the activity: %s", error)
            with use_locale(await self.entry.locale_of(user_ref(interaction))):
                await send_message(
                    interaction, _("The table cannot be opened here; /rummy hand shows your hand.")
                )

    async def _table_button(
        self, interaction: discord.Interaction[Any], control: ControlId, intent: Intent
    ) -> None:
        """A table verb or a public move from the table message: silent when it works."""

        async def answer(outcome: Outcome) -> None:
            if not outcome.ok:
                await self._refused(interaction, outcome, control)
            elif outcome.reply.text is not None:
                await send_message(interaction, outcome.reply.text)
            else:
                await acknowledge(interaction)

        await self._handle(interaction, intent, answer, update=True)

    # --- the private hand message -----------------------------------------------------------

    async def _new_hand(
        self,
        interaction: discord.Interaction[Any],
        intent: Intent,
        control: ControlId | None = None,
        typed: str | None = None,
    ) -> None:
        """Show my hand, Draw, Take, ``/rummy hand`` or a ``typed`` move (``/rummy
        play``): answer with a new hand message (noting the typed move)."""

        async def answer(outcome: Outcome) -> None:
            if not outcome.ok:
                await self._refused(interaction, outcome, control)
            elif outcome.hand is not None:
                note = None
                if typed is not None:
                    echo = typed if len(typed) <= ECHO_LIMIT else typed[: ECHO_LIMIT - 1] + "…"
                    note = _("Done: {command}").format(command=escape(echo))
                await self._show_hand(interaction, outcome.hand, note, new=True)
            else:  # the move ended the game
                await send_message(
                    interaction, _("The game is over: the table message shows the result.")
                )

        await self._handle(interaction, intent, answer)

    async def _hand_click(
        self, interaction: discord.Interaction[Any], control: ControlId, values: Sequence[str]
    ) -> None:
        """A click on a hand message: redraws that message (or closes it)."""
        if not own_message(interaction):
            with use_locale(await self.entry.locale_of(user_ref(interaction))):
                await send_message(
                    interaction, _("That hand belongs to another player; /rummy hand shows yours.")
                )
            return
        intent = self._hand_intent(interaction, control, values)
        local = isinstance(intent.request, Select | Sort) and control.action != "refresh"
        if local and await self._step_here(interaction, control, intent):
            return

        async def answer(outcome: Outcome) -> None:
            if outcome.hand is not None:
                await self._show_hand(
                    interaction, outcome.hand, _hand_note(intent, outcome), new=False
                )
            elif outcome.ok:  # the move ended the game
                await update_message(
                    interaction, _("The game is over: the table message shows the result."), None
                )
            else:
                await self._refused(interaction, outcome, control, on_hand=True)

        await self._handle(interaction, intent, answer, update=True)

    async def _step_here(
        self, interaction: discord.Interaction[Any], control: ControlId, intent: Intent
    ) -> bool:
        """A card picked, the selection cleared or the hand sorted, carried out on
        the seat screen this process was last shown (the pure hand session of
        :mod:`bot.interaction.hand_session`): no table load, no engine call. False
        (nothing done) when that screen is not the one the control was drawn on (another
        worker drew it, a restart, a newer change), or the flow control is spent: then the
        entry point carries the step out."""
        selection = intent.selection
        if selection is None:
            return False
        screen = self.sessions.screens.drawn_at(
            control.table, intent.user.key, control.version, selection.digest
        )
        if screen is None or not await self.entry.admit(intent.user, str(chat_key(interaction))):
            return False
        event: HandStep = (
            SortBy() if isinstance(intent.request, Sort) else SelectCards(selection.mask)
        )
        stepped = step_kept(screen, HandSession(selection.sort, selection.mask), event)
        with use_locale(screen.locale):
            await self._show_hand(interaction, stepped.model, None, new=False)
        return True

    def _hand_intent(
        self, interaction: discord.Interaction[Any], control: ControlId, values: Sequence[str]
    ) -> Intent:
        """The intent of a hand control (see the module docstring)."""
        try:
            state = HandState.decode(control.state)
        except ValueError:
            return self._unlisted(interaction, control, SortMode.SUIT)
        request = SCREEN_CONTROLS.get(control.action)
        if request is not None:
            if control.action in ("c0", "c1"):
                state = picked(state, int(control.action[1]), values)
            return self.intent(
                interaction,
                request,
                table_id=control.table,
                version=control.version,
                selection=state.selection(),
            )
        number = offer_number(control.action, values)
        if number is None or not listed(interaction, values):
            return self._unlisted(interaction, control, state.sort)
        return self.intent(
            interaction,
            PressOffer(),
            table_id=control.table,
            version=control.version,
            selection=state.selection(number),
        )

    def _unlisted(
        self, interaction: discord.Interaction[Any], control: ControlId, sort: SortMode
    ) -> Intent:
        """A hand control that names no offer its screen listed: an offer of no number,
        which the entry point refuses (``unknown_offer``) with the fresh hand."""
        return self.intent(
            interaction,
            PressOffer(),
            table_id=control.table,
            version=control.version,
            selection=Selection(sort=sort),
        )

    async def _show_hand(
        self,
        interaction: discord.Interaction[Any],
        model: HandModel,
        note: str | None,
        *,
        new: bool,
    ) -> None:
        """Lay ``model`` out as the hand message: a ``new`` private message or the clicked
        one redrawn; it becomes the player's anchored hand message."""
        state = HandState.of(model)
        content = hand_content(model.info, model, note)
        controls = hand_controls(model.info, model, state, self.activity)
        if new:
            message_id = await send_message(interaction, content, controls)
        else:
            await update_message(interaction, content, controls)
            message_id = None if interaction.message is None else str(interaction.message.id)
        await self.sessions.set_anchor(
            model.info.id,
            interaction,
            user_ref(interaction).key,
            state,
            model.info.version,
            message_id,
        )

    # --- refusals ---------------------------------------------------------------------------

    async def _refused(
        self,
        interaction: discord.Interaction[Any],
        outcome: Outcome,
        control: ControlId | None = None,
        on_hand: bool = False,
    ) -> None:
        """Say a refusal privately; a click on a closed table's hand message closes it.
        Over the flow limits (``too_fast``) a click said so a moment ago (``quiet``) is only
        acknowledged. Other refusals are said every time: on Discord they are private
        (ephemeral), so repeating one bothers nobody else, and a press is answered."""
        reply = outcome.reply
        if (
            reply.code == TOO_FAST
            and reply.quiet
            and interaction.type is discord.InteractionType.component
        ):
            await acknowledge(interaction)
            return
        if reply.code == "no_table":
            text = await self._no_table_text(interaction, outcome, control, on_hand)
            if text is None:
                return
        else:
            text = reply.text or _("That did not work.")
        for piece in pieces(text):
            await send_message(interaction, piece)

    async def _no_table_text(
        self,
        interaction: discord.Interaction[Any],
        outcome: Outcome,
        control: ControlId | None,
        on_hand: bool,
    ) -> str | None:
        """What to say for a ``no_table`` refusal: no game here (a command), the game is
        over (a control; on a hand message, said there instead: ``None``), the control
        belongs to another table (the outcome's ``info``: the channel's table now), else
        the refusal's own text."""
        reply = outcome.reply
        if control is None:
            return _("There is no game here; /rummy new opens one.")
        info = outcome.info
        if info is None:
            text = _("This game is over; /rummy new opens a new one.")
            if on_hand:
                await update_message(interaction, text, None)
                return None
            return text
        if info.id != control.table:
            # A stale control of another table: say so and leave its message alone.
            return _(
                "That button belongs to table {old}; the game here is table "
                "{table}. /rummy hand shows your hand."
            ).format(old=control.table, table=info.id)
        return reply.text or _("That did not work.")

    # --- slash commands ---------------------------------------------------------------------

    async def slash_text(
        self, interaction: discord.Interaction[Any], text: str, private: bool = False
    ) -> None:
        """A slash command that is a chat command line (``join``, ``set timer=2m``, ...):
        the reply goes to the user privately, or to the channel when it is public (and
        not ``private``)."""
        request = parse(text)
        public = isinstance(request, PUBLIC) and not private

        async def answer(outcome: Outcome) -> None:
            reply = outcome.reply
            if not reply.ok:
                await self._refused(interaction, outcome)
            elif isinstance(request, ReplayGame):
                await self._offer_replay(interaction, reply.text or "")
            elif reply.text is not None:
                for piece in pieces(reply.text):
                    await send_message(interaction, piece, ephemeral=reply.private or not public)
            else:
                await send_message(interaction, _done_text(request))

        await self._handle(
            interaction, self.intent(interaction, request), answer, ephemeral=not public
        )

    async def slash_new(self, interaction: discord.Interaction[Any], text: str) -> None:
        """``/rummy new``: open a lobby; the table message appears in the channel."""

        async def answer(outcome: Outcome) -> None:
            if not outcome.ok:
                await self._refused(interaction, outcome)
            elif can_post(interaction):
                await send_message(
                    interaction, _("The table is open: the others join with the Join button.")
                )
            else:
                await send_message(
                    interaction,
                    _(
                        "The table is open, but I could not post it here. I need the permissions "
                        "View Channel, Send Messages, Send Messages in Threads and Read Message "
                        "History in this channel."
                    ),
                )

        await self._handle(interaction, self.intent(interaction, parse(text)), answer)

    async def slash_hand(self, interaction: discord.Interaction[Any]) -> None:
        """``/rummy hand``: the private hand message."""
        await self._new_hand(interaction, self.intent(interaction, ShowHand()))

    async def slash_play(self, interaction: discord.Interaction[Any], text: str) -> None:
        """``/rummy play``: one line of the chat command language (see the module
        docstring); the answer is private."""
        request = parse(text)
        if isinstance(request, Move):
            await self._new_hand(
                interaction,
                self.intent(
                    interaction,
                    request,
                ),
                typed=" ".join(text.split()),
            )
        elif isinstance(request, ShowHand):
            await self._new_hand(interaction, self.intent(interaction, request))
        else:
            await self.slash_text(interaction, text, private=True)


def _hand_note(intent: Intent, outcome: Outcome) -> str | None:
    """The note under a redrawn hand: the hint, or why nothing was done."""
    reply = outcome.reply
    if outcome.ok:
        return reply.text
    if reply.code == "stale_control" and not isinstance(intent.request, PressOffer):
        return _("Your hand has changed; here it is again.")
    if reply.code in ("stale_control", "unknown_offer"):
        return reply.text
    return "⚠ " + (reply.text or _("That did not work."))


async def _apologise(interaction: discord.Interaction[Any]) -> None:
    """Tell the user privately that something went wrong (if Discord still listens)."""
    try:
        await send_message(interaction, _("Something went wrong; please try again."))
    except (discord.HTTPException, AttributeError, TypeError, ValueError):
        log.info("could not tell the user about the failure")


def _done_text(request: Request) -> str:
    match request:
        case Join():
            return _("You joined the table.")
        case Leave():
            return _("You left the table.")
        case AddAI():
            return _("An AI player joined the table.")
        case RemoveAI():
            return _("The AI player left the table.")
        case Start():
            return _("The game has started.")
        case Cancel():
            return _("The game was cancelled.")
        case Configure():
            return _("The settings were changed.")
        case Back():
            return _("You play your seat again.")
    return _("Done.")
