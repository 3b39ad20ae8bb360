"""Buttons and selects whose custom id says what they do, so they work after a restart.

A custom id is ``rm:<table>:<version>:<action>:<state>``: the table id, the table
version the control was drawn for, the action (``join``, ``draw``, ``meld``, ``c0``
for the first card select, ``l3`` for a lay-off on meld 3, ``v.rummy`` for a variant
verb, ``p.1a2b3c4d`` for a listed command (see :func:`bot.discord_bot.offers.move_key`),
...) and, on the hand message, the :class:`bot.discord_bot.hand.HandState`.
One :class:`RummyControl` (a ``discord.ui.DynamicItem``) matches them all, so no view
has to be registered per message and old messages stay clickable after a restart.

The builders here draw the public table controls and the hand message controls
(call them inside ``use_locale``); they stay inside Discord's limits: at most 5 rows,
5 buttons a row, 25 options a select, labels of 80 and custom ids of 100 characters.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from bot.discord_bot.hand import HandState, canonical
from bot.discord_bot.offers import (
    Offer,
    before_play,
    listed_order,
    move_key,
    variant_verbs,
    verb_label_msgid,
)
from bot.discord_bot.render import reading_label
from bot.i18n import _
from bot.render.cards import card_text, meld_text
from bot.render.variants import variant_action_label
from bot.service.model import Status, TableInfo
from engine.commands import parse_action
from engine.errors import EngineError
from engine.state import Phase
from engine.views import PlayerView, PublicView

PREFIX = "rm"
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
    """A parsed custom id: ``table`` id, table ``version``, ``action`` and ``state``."""

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
        return ControlId(int(match["table"]), int(match["version"]), match["action"],
                         match["state"])


class ControlHandler(Protocol):
    """What handles a click (the client's ``controls`` attribute)."""

    async def on_control(self, interaction: discord.Interaction[Any], control: ControlId,
                         values: Sequence[str]) -> None:
        """Answer the interaction of ``control``; ``values`` are a select's picks."""

    async def on_unknown(self, interaction: discord.Interaction[Any]) -> None:
        """Answer a click on a component whose custom id is none of ours."""


class RummyControl(discord.ui.DynamicItem[discord.ui.Item[Any]], template=TEMPLATE):
    """Any of our buttons and selects; the callback hands it to the client's handler."""

    def __init__(self, item: discord.ui.Item[Any], control: ControlId) -> None:
        super().__init__(item)
        self.control = control

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
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


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def button(control: ControlId, label: str, style: discord.ButtonStyle, row: int,
           disabled: bool = False) -> RummyControl:
    """A button for ``control``."""
    item: discord.ui.Button[Any] = discord.ui.Button(
        label=_clip(label, LABEL_LIMIT), style=style, custom_id=control.encode(), row=row,
        disabled=disabled)
    return RummyControl(item, control)


def select(control: ControlId, options: list[discord.SelectOption], placeholder: str,
           row: int, *, many: bool, disabled: bool = False) -> RummyControl:
    """A string select for ``control`` (``many``: any number of the options, or none)."""
    options = options[:SELECT_LIMIT]
    item: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=control.encode(), placeholder=_clip(placeholder, 150), row=row,
        min_values=0 if many else 1, max_values=len(options) if many else 1,
        options=options, disabled=disabled)
    return RummyControl(item, control)


def _view(items: Sequence[RummyControl]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


# --- the public table message -------------------------------------------------------------


def table_controls(info: TableInfo, view: PublicView | None) -> discord.ui.View | None:
    """Lobby: Join, Leave, Add AI, Start. A deal: Show my hand, Draw, Take (not before
    play, when nobody may draw yet), and the variant's verbs without arguments. Between
    deals: Show my hand, Next deal. Nothing once the table is closed."""

    def cid(action: str) -> ControlId:
        return ControlId(info.id, info.version, action)

    green, grey, blue, red = (discord.ButtonStyle.success, discord.ButtonStyle.secondary,
                              discord.ButtonStyle.primary, discord.ButtonStyle.danger)
    if info.status is Status.LOBBY:
        return _view([button(cid("join"), _("Join"), green, 0),
                      button(cid("leave"), _("Leave"), grey, 0),
                      button(cid("addbot"), _("Add AI"), grey, 0),
                      button(cid("start"), _("Start"), blue, 0)])
    if info.status is not Status.PLAYING or view is None:
        return None
    items = [button(cid("hand"), _("Show my hand"), blue, 0)]
    if view.phase is Phase.HAND_OVER:
        items.append(button(cid("next"), _("Next deal"), grey, 0))
        return _view(items)
    if view.phase not in (Phase.DRAW, Phase.PLAY):
        return _view(items)
    if not before_play(view):
        take = (_("Take {card}").format(card=card_text(view.upcard))
                if view.upcard is not None else _("Take discard"))
        items.append(button(cid("draw"), _("Draw"), grey, 0))
        items.append(button(cid("take"), take, grey, 0, disabled=view.upcard is None))
    for verb in variant_verbs(view.rules.variant):
        if not verb.cards and len(items) < ROW_WIDTH:
            items.append(button(cid("v." + verb.verb), _(verb_label_msgid(verb.verb)), red, 0))
    return _view(items)


def ping_controls(info: TableInfo) -> discord.ui.View:
    """The button under a turn ping: Show my hand."""
    control = ControlId(info.id, info.version, "hand")
    return _view([button(control, _("Show my hand"), discord.ButtonStyle.primary, 0)])


# --- the private hand message -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ReadingPrompt:
    """Joker readings to choose from: the ``action`` that was ambiguous (``meld`` or
    ``l<meld>``) and the engine's ``options``."""

    action: str
    options: tuple[str, ...]


def hand_controls(info: TableInfo, view: PlayerView, state: HandState, offer: Offer,
                  order: Sequence[int], prompt: ReadingPrompt | None = None,
                  listed: Sequence[str] = ()) -> discord.ui.View:
    """The hand message's controls for ``state`` (``order``: canonical positions in the
    order shown). Rows: card select(s); the lay-off select; the moves; the ``listed``
    commands (before play: the seat's legal commands, one button each, as many as the
    rows left hold); joker readings or Sort / Hint / Refresh."""
    hand = canonical(view.hand)
    items: list[RummyControl] = []
    row = 0

    def cid(action: str, hand_state: HandState = state) -> ControlId:
        return ControlId(info.id, info.version, action, hand_state.encode())

    if offer.select_cards:
        chunks = [order[i:i + SELECT_LIMIT] for i in range(0, min(len(order), 2 * SELECT_LIMIT),
                                                             SELECT_LIMIT)]
        for page, chunk in enumerate(chunks):
            options = [discord.SelectOption(label=card_text(hand[i]), value=str(i),
                                            default=i in state.selected) for i in chunk]
            placeholder = _("Select cards") if len(chunks) == 1 else \
                _("Select cards ({page} of {pages})").format(page=page + 1, pages=len(chunks))
            items.append(select(cid(f"c{page}"), options, placeholder, row, many=True))
            row += 1
    melds_select = _meld_options(view, state, offer)
    if melds_select:
        items.append(select(cid("lay"), melds_select, _("Lay off the selected cards on…"),
                            row, many=False, disabled=not state.selected))
        row += 1
    moves = _move_buttons(view, state, offer, cid, row)
    if moves:
        items.extend(moves)
        row += 1
    if listed:
        shown = listed_order(listed)[:max(MAX_ROWS - 1 - row, 0) * ROW_WIDTH]
        for index, command in enumerate(shown):
            label, style = _listed_label(command, view)
            items.append(button(cid("p." + move_key(command)), label, style,
                                row + index // ROW_WIDTH))
        row += (len(shown) + ROW_WIDTH - 1) // ROW_WIDTH
    if prompt is not None:
        for index, option in enumerate(prompt.options[:ROW_WIDTH]):
            items.append(button(cid(prompt.action, state.with_reading(index)),
                                reading_label(option), discord.ButtonStyle.primary, row))
    else:
        grey = discord.ButtonStyle.secondary
        items.append(button(cid("sort"), _("Sort by suit") if state.grouped else
                            _("Group melds"), grey, row))
        items.append(button(cid("hint"), _("Hint"), grey, row))
        items.append(button(cid("refresh"), _("Refresh"), grey, row))
    return _view(items)


def _meld_options(view: PlayerView, state: HandState, offer: Offer
                  ) -> list[discord.SelectOption]:
    table = view.table
    options = []
    if offer.layoff:
        for index, meld in enumerate(table.melds):
            label = _("{number}. {owner}: {cards}").format(
                number=index + 1, owner=table.players[meld.owner], cards=meld_text(meld))
            options.append(discord.SelectOption(label=_clip(label, OPTION_LIMIT),
                                                value=f"l{index}"))
    chosen = [canonical(view.hand)[i] for i in state.selected if i < len(view.hand)]
    if offer.swap and len(chosen) == 1 and not chosen[0].is_joker:
        for index, meld in enumerate(table.melds):
            if any(p.card.is_joker for p in meld.cards):
                label = _("Swap {card} for the joker in meld {number}").format(
                    card=card_text(chosen[0]), number=index + 1)
                options.append(discord.SelectOption(label=_clip(label, OPTION_LIMIT),
                                                    value=f"s{index}"))
    return options[:SELECT_LIMIT]


def _move_buttons(view: PlayerView, state: HandState, offer: Offer, cid: Any, row: int
                  ) -> list[RummyControl]:
    blue, grey, red = (discord.ButtonStyle.primary, discord.ButtonStyle.secondary,
                       discord.ButtonStyle.danger)
    items = []
    if offer.draw:
        items.append(button(cid("draw"), _("Draw"), blue, row))
    if offer.draw and view.table.upcard is not None:
        items.append(button(cid("take"), _("Take {card}").format(
            card=card_text(view.table.upcard)), grey, row, disabled=not offer.take))
    if offer.meld:
        items.append(button(cid("meld"), _("Meld"), blue, row,
                            disabled=not (state.selected or state.staged)))
        items.append(button(cid("grp"), _("+ Group"), grey, row,
                            disabled=not state.selected or not _fits(cid("a" * 12, state.stage()))))
    if offer.discard:
        items.append(button(cid("disc"), _("Discard"), red, row,
                            disabled=len(state.selected) != 1))
    if offer.next_deal:
        items.append(button(cid("next"), _("Next deal"), grey, row))
    for verb in offer.verbs:
        if len(items) < ROW_WIDTH:
            items.append(button(cid("v." + verb.verb), _(verb_label_msgid(verb.verb)), red, row,
                                disabled=not state.selected))
    return items[:ROW_WIDTH]


def _listed_label(command: str, view: PlayerView) -> tuple[str, discord.ButtonStyle]:
    """The label and colour of a listed command's button: a variant's own words for its
    moves (:func:`bot.render.variants.variant_action_label`, e.g. the Romanian pre-play
    moves), anything else as its verb's label and its cards."""
    styles = {"go": discord.ButtonStyle.success, "stop": discord.ButtonStyle.danger,
              "plain": discord.ButtonStyle.primary}
    try:
        action: object = parse_action(command, view.seat)
    except EngineError:
        return command, styles["plain"]
    found = variant_action_label(action)
    if found is not None:
        return found[0], styles[found[1]]
    verb, *rest = command.split()
    label = _(verb_label_msgid(verb))
    return " ".join([label, *rest]), styles["plain"]


def _fits(control: ControlId) -> bool:
    """True when ``control`` (after one more staged group) still makes a valid custom id."""
    try:
        control.encode()
    except ValueError:
        return False
    return True
