"""What a button press does: checks that the button is current and belongs to the
message and user, then one service call (or a redraw of the hand keyboard). Returns the
:class:`Answer` for ``answerCallbackQuery``.

Group buttons (under the table message) check that the message is the one showing that
table and that the table is still the chat's game; game moves there (next deal, a
variant's verb) also need the message's current version. Lobby buttons do not: two
people pressing Join at once must both get in. Hand buttons (private) check that the
message is the presser's hand message for that table, drawn for the current version and
hand; otherwise the keyboard is refreshed and the press refused. A hand move is the offer
its button numbers in the hand model rebuilt for that version, selection and order
(:class:`bot.interaction.hand.HandModel`), so it is one of the seat's legal moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from bot.i18n import _, use_locale
from bot.i18n.errors import localize_error
from bot.interaction.calls import variant_verbs
from bot.interaction.hand import (
    HandModel,
    SortMode,
    hand_melds,
    hand_model,
    mask_of,
    order_cards,
    valid_mask,
)
from bot.ports.model import ChatKey, TableInfo, UserRef
from bot.render.hand import hint_text
from bot.service.errors import NoTable, NotPlaying, NotSeated
from bot.telegram_bot import texts
from bot.telegram_bot.callbacks import (
    Callback,
    CallbackError,
    ForeignCallback,
    GameEnded,
    MalformedCallback,
    StaleCallback,
)
from bot.telegram_bot.hand import signature
from bot.telegram_bot.hand_messages import Screen
from bot.telegram_bot.parts import Parts
from engine.actions import Action, NextDeal
from engine.errors import EngineError


@dataclass(frozen=True)
class Answer:
    """The ``answerCallbackQuery`` to give: ``text`` (an alert when ``alert``), or a
    ``url`` to open (the bot's private chat for "Start me")."""

    text: str | None = None
    alert: bool = False
    url: str | None = None


@dataclass
class _Press:
    """One hand-button press after its checks, with the hand model it was pressed on."""

    data: Callback
    info: TableInfo
    key: ChatKey
    user: UserRef
    user_id: int
    model: HandModel
    locale: str
    update_key: str


class Buttons:
    """Carries out button presses (see the module docstring)."""

    def __init__(self, parts: Parts) -> None:
        self.service = parts.service
        self.store = parts.store
        self.messenger = parts.messenger
        self.tables = parts.tables
        self.hands = parts.hands
        self.notifier = parts.notifier

    async def press(self, data: Callback, chat_id: int, message_id: int, user: UserRef,
                    update_key: str) -> Answer:
        """Carry out a decoded button; refusals come back as alerts in the user's
        language."""
        locale = await self.service.locale_of(user)
        try:
            if data.kind == "g":
                return await self._group(data, chat_id, message_id, user, locale, update_key)
            return await self._hand(data, chat_id, message_id, user, locale, update_key)
        except CallbackError as error:
            with use_locale(locale):
                return Answer(texts.alert(error.code), alert=True)
        except EngineError as error:
            with use_locale(locale):
                return Answer(localize_error(error)[:200], alert=True)

    # --- the group's table message ----------------------------------------------------------

    async def _group(self, data: Callback, chat_id: int, message_id: int, user: UserRef,
                     locale: str, update_key: str) -> Answer:
        row = await self.store.table_message(data.table_id)
        if row is None or (row.chat_id, row.message_id) != (chat_id, message_id):
            raise ForeignCallback()
        key = ChatKey.parse(row.chat_key)
        info = await self.service.table_info(key)
        if info is None or info.id != data.table_id:
            raise GameEnded()
        user_id = int(user.user_id)
        name = data.name
        if name == "join":
            if not await self.messenger.reachable(user_id):
                await self.notifier.waiting(info, user_id, user.name)
                with use_locale(locale):
                    return Answer(texts.write_me_first(user.name)[:200],
                                  url=self.tables.start_link(info.id))
            await self.service.join(key, user, update_key)
        elif name == "leave":
            if info.seat_of(user.key) is None and user_id in self.tables.waiting.get(info.id, {}):
                self.notifier.reached(user_id)  # left before the private chat worked
                return Answer()
            await self.service.leave(key, user, update_key)
        elif name == "add_ai":
            await self.service.add_ai(key, user, "greedy", update_key)
        elif name == "start":
            await self.service.start(key, user, update_key)
        elif name == "my_hand":
            current, view = await self.service.player_view(key, user)
            if not await self.hands.show(current, user_id, view, locale, repost=True):
                await self.notifier.waiting(info, user_id, user.name)
                return Answer(url=self.tables.start_link(info.id))
            with use_locale(locale):
                return Answer(texts.sent_privately())
        else:
            if data.version != row.version:
                await self.notifier.redraw(key)
                raise StaleCallback()
            if name == "next_deal":
                await self.service.act(key, user, NextDeal(0), update_key)
            else:
                verb = _verb(info, data.arg)
                await self.service.act(key, user, verb, update_key)
        return Answer()

    # --- a private hand message -------------------------------------------------------------

    async def _hand(self, data: Callback, chat_id: int, message_id: int, user: UserRef,
                    locale: str, update_key: str) -> Answer:
        user_id = int(user.user_id)
        row = await self.store.hand_message(user_id, data.table_id)
        if chat_id != user_id or row is None or row.message_id != message_id:
            raise ForeignCallback()
        key = ChatKey.parse(row.chat_key)
        try:
            with use_locale(locale):
                model = await hand_model(self.service, key, user, mask=data.mask,
                                         sort=SortMode(data.sort))
        except (NoTable, NotSeated, NotPlaying):
            raise GameEnded() from None
        info, view = model.info, model.view
        if info.id != data.table_id:
            raise GameEnded()
        if data.version != row.version or signature(view.hand) != row.hand:
            await self.hands.show(info, user_id, view, locale)
            raise StaleCallback()
        if not valid_mask(model.cards, data.mask):
            raise MalformedCallback(data)
        press = _Press(data, info, key, user, user_id, model, locale, update_key)
        return await self._hand_action(press)

    async def _show(self, press: _Press, *, mask: int | None = None, sort: int | None = None,
                    screen: str = "main", note: str = "") -> Answer:
        """Redraw the presser's hand message (selection and order kept unless given)."""
        drawn = Screen(press.data.mask if mask is None else mask,
                       press.data.sort if sort is None else sort, screen, note)
        await self.hands.show(press.info, press.user_id, press.model.view, press.locale, drawn)
        return Answer()

    async def _hand_action(self, press: _Press) -> Answer:
        data, model = press.data, press.model
        name = data.name
        if name in ("toggle", "clear", "back"):
            return await self._show(press)
        if name == "sort":
            sort = model.sort.next()
            melds = await hand_melds(self.service, press.key, press.user,
                                     sort is SortMode.MELDS)
            mask = mask_of(order_cards(model.view.hand, sort, melds), model.selected)
            return await self._show(press, sort=sort, mask=mask)
        if name == "hint":
            # The engine's suggestion, one of the seat's legal moves, its cards selected.
            with use_locale(press.locale):
                if model.hint is None:
                    answer = texts.hint_text(_("no suggestion right now"))
                else:
                    answer = hint_text(model.hint.action, model.view)[:200]
            await self._show(press, mask=model.hint_mask or data.mask)
            return Answer(answer)
        if name == "pile":
            return await self._show(press, screen="pile")
        offers = model.offers
        number = _number(data.arg)
        if number >= len(offers):
            await self._show(press)
            raise StaleCallback()
        # a legal action of the seat: shared or the variant's own (typed as Action)
        action = cast("Action", offers[number].action)
        await self.service.act(press.key, press.user, action, press.update_key)
        return Answer()


def _number(text: str) -> int:
    if not text.isdigit():
        raise MalformedCallback(text)
    return int(text)


def _verb(info: TableInfo, arg: str) -> str:
    verbs = variant_verbs(info.variant)
    index = _number(arg)
    if index >= len(verbs):
        raise MalformedCallback(arg)
    return verbs[index].verb


