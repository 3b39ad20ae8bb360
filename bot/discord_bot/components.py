"""Buttons and selects whose custom id says what they do, so they work after a restart.

A custom id is ``rm:<table>:<version>:<action>:<state>``: the table id, the version the
control was drawn for (during a game the game state's, :attr:`ControlId.version`), the
action (``join``, ``draw``, ``c0`` for the first
card select, ``mv`` for the select of moves, ``mc`` for the select of controls when they
are more than a row of buttons, ``o3`` for the hand model's offer number 3,
``v.call`` for a variant's call, ...) and, on the hand message, the
:class:`bot.discord_bot.hand.HandState`.
One :class:`RummyControl` (a ``discord.ui.DynamicItem``) matches them all, so no view
has to be registered per message and old messages stay clickable after a restart.

The builders here draw the public table controls and the hand message controls
(call them inside ``use_locale``); they stay inside Discord's limits: at most 5 rows,
5 buttons a row, 25 options a select, labels of 80 and custom ids of 100 characters.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from bot.discord_bot.hand import HandState
from bot.i18n import _
from bot.interaction.calls import public_calls
from bot.interaction.hand import HandModel
from bot.ports.hand import Offer
from bot.ports.model import Status, TableInfo
from bot.ports.table_rules import AI_LEVELS
from bot.ports.web_links import button_text, replay_button_text
from bot.render.cards import card_text
from bot.render.hand import sort_name
from bot.render.lobby import ai_level_label
from engine.state import Phase
from engine.views import PublicView

PREFIX = "rm"
ACTIVITY = "web"
ADD_AI = "addbot"
"""The action of the lobby's AI-seat buttons: ``addbot.<level>``."""
"""The action of the button that launches the web table as a Discord Activity."""
TEMPLATE = re.compile(
    r"rm:(?P<table>[0-9]{1,15}):(?P<version>[0-9]{1,9}):(?P<action>[a-z0-9_.]{1,24}):"
    r"(?P<state>[0-9a-z.]{0,90})"
)
CUSTOM_ID_LIMIT = 100
SELECT_LIMIT = 25
ROW_WIDTH = 5
MAX_ROWS = 5
LABEL_LIMIT = 80
OPTION_LIMIT = 100


@dataclass(frozen=True, slots=True)
class ControlId:
    """A parsed custom id: ``table`` id, ``version``, ``action`` and ``state``. During a
    game ``version`` is the game state's version the control was drawn for
    (:attr:`engine.views.PublicView.version`, which the service compares a move's with);
    in the lobby the table's version; ``0`` on a control that names none (Show my hand
    under a ping shows the hand as it is)."""

    table: int
    version: int
    action: str
    state: str = ""

    def encode(self) -> str:
        """The custom id; raises ``ValueError`` when it would break Discord's limit."""
        text = f"{PREFIX}:{self.table}:{self.version}:{self.action}:{self.state}"
        if len(text) > CUSTOM_ID_LIMIT or TEMPLATE.fullmatch(text) is None:
            raise ValueError(f"custom id {text!r} is not valid")
        return text

    @staticmethod
    def parse(custom_id: str) -> ControlId | None:
        """The control of a custom id, or ``None`` when it is not one of ours."""
        match = TEMPLATE.fullmatch(custom_id)
        if match is None:
            return None
        return ControlId(
            int(match["table"]), int(match["version"]), match["action"], match["state"]
        )


class ControlHandler(Protocol):
    """What handles a click (the client's ``controls`` attribute)."""

    async def on_control(
        self, interaction: discord.Interaction[Any], control: ControlId, values: Sequence[str]
    ) -> None:
        """Answer the interaction of ``control``; ``values`` are a select's picks."""

    async def on_unknown(self, interaction: discord.Interaction[Any]) -> None:
        """Answer a click on a component whose custom id is none of ours."""


class RummyControl(discord.ui.DynamicItem[discord.ui.Item[Any]], template=TEMPLATE):
    """Any of our buttons and selects; the callback hands it to the client's handler."""

    def __init__(self, item: discord.ui.Item[Any], control: ControlId) -> None:
        super().__init__(item)
        self.control = control

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> RummyControl:
        """Rebuild the control from a clicked component (discord.py calls this)."""
        control = ControlId.parse(match.string)
        assert control is not None  # the template matched
        return cls(item, control)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Pass the interaction to ``interaction.client.controls``."""
        handler: ControlHandler | None = getattr(interaction.client, "controls", None)
        if handler is None:
            return
        values = list(self.item.values) if isinstance(self.item, discord.ui.Select) else []
        await handler.on_control(interaction, self.control, values)


def _items(components: Sequence[Any]) -> Iterator[Any]:
    for item in components:
        yield item
        yield from _items(getattr(item, "children", ()))


def drawn_control(interaction: discord.Interaction[Any]) -> discord.Component | None:
    """The clicked control as the clicked message shows it (the message Discord sends with
    the interaction): the component of the same type and custom id, or ``None`` when the
    message has none (a forged click). discord.py only calls the dynamic items it finds
    this way."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = data.get("custom_id")
    kind = data.get("component_type")
    message = interaction.message
    if message is None or not custom_id:
        return None
    for item in _items(message.components):
        if (
            getattr(item, "custom_id", None) == custom_id
            and getattr(getattr(item, "type", None), "value", None) == kind
        ):
            found: discord.Component = item
            return found
    return None


def listed(interaction: discord.Interaction[Any], values: Sequence[str]) -> bool:
    """True when the clicked control is on the clicked message and, for a select,
    ``values`` is exactly one of the options it shows: a button or an option that was
    never drawn names nothing."""
    item = drawn_control(interaction)
    if item is None:
        return False
    if isinstance(item, discord.SelectMenu):
        return len(values) == 1 and any(o.value == values[0] for o in item.options)
    return not values


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def button(
    control: ControlId, label: str, style: discord.ButtonStyle, row: int, disabled: bool = False
) -> RummyControl:
    """A button for ``control``."""
    item: discord.ui.Button[Any] = discord.ui.Button(
        label=_clip(label, LABEL_LIMIT),
        style=style,
        custom_id=control.encode(),
        row=row,
        disabled=disabled,
    )
    return RummyControl(item, control)


def select(
    control: ControlId,
    options: list[discord.SelectOption],
    placeholder: str,
    row: int,
    *,
    many: bool,
    disabled: bool = False,
) -> RummyControl:
    """A string select for ``control`` (``many``: any number of the options, or none)."""
    options = options[:SELECT_LIMIT]
    item: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=control.encode(),
        placeholder=_clip(placeholder, 150),
        row=row,
        min_values=0 if many else 1,
        max_values=len(options) if many else 1,
        options=options,
        disabled=disabled,
    )
    return RummyControl(item, control)


def _view(items: Sequence[RummyControl]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


# --- the public table message -------------------------------------------------------------


def table_controls(
    info: TableInfo, view: PublicView | None, activity: bool = False
) -> discord.ui.View | None:
    """Lobby: Join, Leave, Start, and one "add an AI seat" button per level (custom id
    action ``addbot.<level>``: easy, normal, hard, expert). A deal: Show my hand, and in
    the draw phase Draw and Take (for the player to move: they answer with the hand
    message; not while a variant's pre-play step lasts, its public ``preplay`` flag), and
    while the variant's public view names seats that may call out of turn (``may_call``:
    Rummy 500's "Rommé!") its verbs without arguments. Between deals: Show my hand, Next
    deal. ``activity``: an Open-the-table button that launches the web table as a Discord
    Activity during the game, and under the finished game a Replay button that launches
    it (it replays the channel's last game). Nothing else once the table is closed."""

    def cid(action: str) -> ControlId:
        return ControlId(info.id, info.version if view is None else view.version, action)

    grey, blue, red = (
        discord.ButtonStyle.secondary,
        discord.ButtonStyle.primary,
        discord.ButtonStyle.danger,
    )
    if info.status is Status.LOBBY:
        return _view(_lobby_buttons(cid))
    if info.status is Status.FINISHED and activity and view is not None:
        # the activity in a channel whose game has ended replays it (docs/replay.md)
        return _view([button(cid(ACTIVITY), replay_button_text(), blue, 0)])
    if info.status is not Status.PLAYING or view is None:
        return None
    items = [button(cid("hand"), _("Show my hand"), blue, 0)]
    if activity:
        items.append(button(cid(ACTIVITY), button_text(), blue, 0))
    if view.phase is Phase.HAND_OVER:
        items.append(button(cid("next"), _("Next deal"), grey, 0))
        return _view(items)
    if view.phase not in (Phase.DRAW, Phase.PLAY):
        return _view(items)
    items += _draw_buttons(view, cid)
    for call in public_calls(view):
        if len(items) < ROW_WIDTH:
            items.append(button(cid("v." + call.verb), call.label, red, 0))
    return _view(items)


def _lobby_buttons(cid: Callable[[str], ControlId]) -> list[RummyControl]:
    """The lobby's buttons: Join, Leave, Start, then one "add an AI seat" button per level
    (action ``addbot.<level>``) on the second row."""
    green, grey, blue = (
        discord.ButtonStyle.success,
        discord.ButtonStyle.secondary,
        discord.ButtonStyle.primary,
    )
    return [
        button(cid("join"), _("Join"), green, 0),
        button(cid("leave"), _("Leave"), grey, 0),
        button(cid("start"), _("Start"), blue, 0),
        *(button(cid(f"{ADD_AI}.{level}"), ai_level_label(level), grey, 1) for level in AI_LEVELS),
    ]


def _draw_buttons(view: PublicView, cid: Callable[[str], ControlId]) -> list[RummyControl]:
    """Draw and Take (disabled without an upcard) in the draw phase, unless a variant's
    pre-play step lasts (its public ``preplay`` flag); none otherwise."""
    if view.phase is not Phase.DRAW or getattr(view.extra, "preplay", False):
        return []
    grey = discord.ButtonStyle.secondary
    take = (
        _("Take {card}").format(card=card_text(view.upcard))
        if view.upcard is not None
        else _("Take discard")
    )
    return [
        button(cid("draw"), _("Draw"), grey, 0),
        button(cid("take"), take, grey, 0, disabled=view.upcard is None),
    ]


def ping_controls(info: TableInfo) -> discord.ui.View:
    """The button under a turn ping: Show my hand."""
    control = ControlId(info.id, 0, "hand")
    return _view([button(control, _("Show my hand"), discord.ButtonStyle.primary, 0)])


# --- the private hand message -------------------------------------------------------------

STYLES = {
    "go": discord.ButtonStyle.success,
    "stop": discord.ButtonStyle.danger,
    "plain": discord.ButtonStyle.primary,
}
"""Button colours of an offer's tone (:data:`bot.render.variants.Tone`)."""


def hand_controls(
    info: TableInfo, model: HandModel, state: HandState, activity: bool = False
) -> discord.ui.View:
    """The hand message's controls: lays out the hand model
    (:class:`bot.interaction.hand.HandModel`). Rows: the card select(s) (25 cards each,
    two at most); a select of the moves the selection stands for and the deeper takes of
    a spread pile (25 at most); the controls that need no selection (as buttons, or one
    more select when there are more than a row holds); Sort / Hint / Refresh (and, with
    ``activity``, Open the table: the web table as a Discord Activity). A move's value or
    button carries its number in :attr:`HandModel.offers`."""

    def cid(action: str, hand_state: HandState = state) -> ControlId:
        return ControlId(info.id, model.view.table.version, action, hand_state.encode())

    numbers = {id(offer): number for number, offer in enumerate(model.offers)}
    items = _card_selects(model, cid)  # one row each
    row = len(items)
    moves = _move_select(model, numbers, cid, row)
    items += moves
    row += len(moves)
    controls = _control_items(model, numbers, cid, row)
    items += controls
    row += 1 if controls else 0
    items += _tool_buttons(info, model, state, cid, row, activity)
    return _view(items)


HandCid = Callable[..., ControlId]
"""The hand message's control ids: ``cid(action, hand_state=the shown state)``."""


def _card_selects(model: HandModel, cid: HandCid) -> list[RummyControl]:
    """The card selects of the hand (while drawing or playing), one a row from row 0: 25
    cards each, two at most."""
    cards = model.cards
    if not cards or model.view.table.phase not in (Phase.DRAW, Phase.PLAY):
        return []
    chunks = [
        range(i, min(i + SELECT_LIMIT, len(cards)))
        for i in range(0, min(len(cards), 2 * SELECT_LIMIT), SELECT_LIMIT)
    ]
    items: list[RummyControl] = []
    for page, chunk in enumerate(chunks):
        options = [
            discord.SelectOption(
                label=card_text(cards[i]), value=str(i), default=bool(model.mask >> i & 1)
            )
            for i in chunk
        ]
        placeholder = (
            _("Select cards")
            if len(chunks) == 1
            else _("Select cards ({page} of {pages})").format(page=page + 1, pages=len(chunks))
        )
        items.append(select(cid(f"c{page}"), options, placeholder, page, many=True))
    return items


def _offer_options(offers: Sequence[Offer], numbers: dict[int, int]) -> list[discord.SelectOption]:
    """Select options of ``offers``: the clipped label, the offer's number as the value."""
    return [
        discord.SelectOption(label=_clip(offer.label, OPTION_LIMIT), value=str(numbers[id(offer)]))
        for offer in offers
    ]


def _move_select(
    model: HandModel, numbers: dict[int, int], cid: HandCid, row: int
) -> list[RummyControl]:
    """On ``row``, the select of the moves the selection stands for and the deeper takes
    of a spread pile (25 at most); none when there are none."""
    choices = [*model.moves, *model.pile][:SELECT_LIMIT]
    if not choices:
        return []
    placeholder = (
        _("Moves for the selected cards…") if model.moves else _("Take deeper in the pile…")
    )
    options = _offer_options(choices, numbers)
    return [select(cid("mv"), options, placeholder, row, many=False)]


def _control_items(
    model: HandModel, numbers: dict[int, int], cid: HandCid, row: int
) -> list[RummyControl]:
    """On ``row``, the controls that need no selection: buttons, or one select when there
    are more than a row holds; none when there are none."""
    controls = model.controls
    if 0 < len(controls) <= ROW_WIDTH:
        return [
            button(cid(f"o{numbers[id(offer)]}"), offer.label, STYLES[offer.tone], row)
            for offer in controls
        ]
    if controls:
        options = _offer_options(controls[:SELECT_LIMIT], numbers)
        return [select(cid("mc"), options, _("Your moves…"), row, many=False)]
    return []


def _tool_buttons(
    info: TableInfo,
    model: HandModel,
    state: HandState,
    cid: HandCid,
    row: int,
    activity: bool,
) -> list[RummyControl]:
    """On ``row``: Sort, Hint, Refresh, Clear (with a selection) and, with ``activity``,
    Open the table."""
    grey = discord.ButtonStyle.secondary
    items = [
        button(
            cid("sort"),
            _("Sort: {order}").format(
                order=sort_name(state.sort.next(), model.view.table.rules.var.uses_tiles)
            ),
            grey,
            row,
        ),
        button(cid("hint"), _("Hint"), grey, row),
        button(cid("refresh"), _("Refresh"), grey, row),
    ]
    if model.mask:
        items.append(button(cid("clear", state.with_mask(0)), _("Clear"), grey, row))
    if activity:
        items.append(
            button(ControlId(info.id, 0, ACTIVITY), button_text(), discord.ButtonStyle.primary, row)
        )
    return items
