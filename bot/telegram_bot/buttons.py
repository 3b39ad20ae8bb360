"""What a button press does: checks that the button is current and belongs to the
message and user, then one service call (or a redraw of the hand keyboard). Returns the
:class:`Answer` for ``answerCallbackQuery``.

Group buttons (under the table message) check that the message is the one showing that
table and that the table is still the chat's game; game moves there (next deal, a
variant's verb) also need the message's current version. Lobby buttons do not: two
people pressing Join at once must both get in. Hand buttons (private) check that the
message is the presser's hand message for that table, drawn for the current version and
hand; otherwise the keyboard is refreshed and the press refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.i18n import _, use_locale
from bot.i18n.errors import localize_error
from bot.interaction.hand import hand_cards, hand_melds, mask_of, valid_mask
from bot.render.cards import spec_text
from bot.render.hand import hint_text
from bot.service.errors import NoTable, NotPlaying, NotSeated
from bot.service.model import ChatKey, TableInfo, UserRef
from bot.telegram_bot import texts
from bot.telegram_bot.callbacks import (
    Callback,
    CallbackError,
    ForeignCallback,
    GameEnded,
    MalformedCallback,
    StaleCallback,
)
from bot.telegram_bot.hand import (
    faces_from_arg,
    meld_action,
    ordered,
    reading_faces,
    selected,
    signature,
    with_joker_faces,
)
from bot.telegram_bot.hand_messages import Screen
from bot.telegram_bot.keyboards import reading_label, variant_verbs, verb_argument
from bot.telegram_bot.parts import Parts
from engine.actions import Action, Discard, Draw, LayOff, NextDeal, SwapJoker, TakeDiscard
from engine.cards import Card, parse_card
from engine.errors import AmbiguousJoker, CardParseError, EngineError
from engine.melds import CardSpec
from engine.views import PlayerView

if TYPE_CHECKING:
    from engine.search import Partition


@dataclass(frozen=True)
class Answer:
    """The ``answerCallbackQuery`` to give: ``text`` (an alert when ``alert``), or a
    ``url`` to open (the bot's private chat for "Start me")."""

    text: str | None = None
    alert: bool = False
    url: str | None = None


@dataclass
class _Press:
    """One hand-button press after its checks."""

    data: Callback
    info: TableInfo
    key: ChatKey
    user: UserRef
    user_id: int
    view: PlayerView
    order: tuple[Card, ...]
    cards: list[Card]
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
            info, view = await self.service.player_view(key, user)
        except (NoTable, NotSeated, NotPlaying):
            raise GameEnded() from None
        if info.id != data.table_id:
            raise GameEnded()
        if data.version != row.version or signature(view.hand) != row.hand:
            await self.hands.show(info, user_id, view, locale)
            raise StaleCallback()
        order = ordered(view.hand, data.sort,
                        await hand_melds(self.service, key, user, data.sort == 2))
        if not valid_mask(order, data.mask):
            raise MalformedCallback(data)
        press = _Press(data, info, key, user, user_id, view, order,
                       selected(order, data.mask), locale, update_key)
        return await self._hand_action(press)

    async def _show(self, press: _Press, *, mask: int | None = None, sort: int | None = None,
                    screen: str = "main", readings: tuple[tuple[Card, ...], ...] = (),
                    labels: tuple[str, ...] = (), target: str = "m", verb: int = 0,
                    note: str = "") -> Answer:
        """Redraw the presser's hand message (selection and order kept unless given)."""
        drawn = Screen(press.data.mask if mask is None else mask,
                       press.data.sort if sort is None else sort, screen, readings, labels,
                       target, verb, note)
        await self.hands.show(press.info, press.user_id, press.view, press.locale, drawn)
        return Answer()

    async def _hand_action(self, press: _Press) -> Answer:
        data = press.data
        name = data.name
        if name in ("toggle", "clear", "back"):
            return await self._show(press)
        if name == "sort":
            sort = (data.sort + 1) % 3
            melds = await hand_melds(self.service, press.key, press.user, sort == 2)
            mask = mask_of(ordered(press.view.hand, sort, melds), press.cards)
            return await self._show(press, sort=sort, mask=mask)
        if name == "hint":
            # The engine's suggestion (one of the seat's legal moves) from the service's
            # engine workers, its cards selected.
            facts = await self.service.hand_facts(press.key, press.user)
            with use_locale(press.locale):
                if facts.suggestion is None:
                    answer = texts.hint_text(_("no suggestion right now"))
                    mask = 0
                else:
                    answer = hint_text(facts.suggestion, press.view)[:200]
                    mask = mask_of(press.order, hand_cards(facts.suggestion) or ())
            await self._show(press, mask=mask or data.mask)
            return Answer(answer)
        if name == "layoff_pick":
            with use_locale(press.locale):
                note = _("Lay off on which meld?")
            return await self._show(press, screen="layoff", note=note)
        if name == "swap_pick":
            return await self._show(press, screen="swap")
        if name == "verb_pick":
            return await self._show(press, screen="pile", verb=_number(data.arg))
        if name == "take_pick":
            return await self._show(press, screen="pile", verb=-1)
        return await self._move(press)

    async def _move(self, press: _Press) -> Answer:
        data, cards = press.data, press.cards
        name = data.name
        action: Action | str
        if name == "draw":
            action = Draw(0)
        elif name == "take":
            action = TakeDiscard(0)
        elif name == "take_card":
            action = TakeDiscard(0, _card(data.arg))
        elif name == "next_deal":
            action = NextDeal(0)
        elif name == "meld":
            action = meld_action(press.view.seat, cards,
                                 await self.service.melds_of(cards, press.view.table.rules))
        elif name == "layoff":
            action = LayOff(0, tuple(CardSpec(c) for c in cards), _number(data.arg))
        elif name == "swap":
            action = SwapJoker(0, _single(cards), _number(data.arg))
        elif name == "discard":
            action = Discard(0, _single(cards))
        elif name == "joker_reading":
            melds = await self.service.melds_of(press.cards, press.view.table.rules) \
                if press.data.arg.startswith("m") else None
            action = _reading(press, melds)
        elif name == "verb":
            verb = _verb(press.info, data.arg)
            argument = verb_argument(variant_verbs(press.info.variant)[_number(data.arg)])
            words = [str(c) for c in cards] if argument == "cards" else []
            action = " ".join([verb, *words])
        else:  # verb_card: a card of the discard pile for a variant verb
            index, _sep, card = data.arg.partition("_")
            action = f"{_verb(press.info, index)} {card}"
        try:
            await self.service.act(press.key, press.user, action, press.update_key)
        except AmbiguousJoker as error:
            return await self._readings(press, action, error)
        return Answer()

    async def _readings(self, press: _Press, action: Action | str,
                        error: AmbiguousJoker) -> Answer:
        """Offer one button per reading of the jokers."""
        target = str(action.meld) if isinstance(action, LayOff) else "m"
        meld = press.view.table.melds[action.meld] if isinstance(action, LayOff) else None
        readings, labels = [], []
        for option in error.params.get("options", []):
            try:
                faces = reading_faces(str(option), meld)
                label = " ".join(spec_text(CardSpec.parse(w)) for w in str(option).split())
            except ValueError:
                continue
            readings.append(tuple(faces))
            labels.append(label or reading_label(faces))
        if not readings:
            with use_locale(press.locale):
                return Answer(localize_error(error)[:200], alert=True)
        with use_locale(press.locale):
            question = _("Which card does the joker stand for?")
        await self._show(press, screen="joker", readings=tuple(readings), labels=tuple(labels),
                         target=target, note=question)
        return Answer(question)


def _number(text: str) -> int:
    if not text.isdigit():
        raise MalformedCallback(text)
    return int(text)


def _card(text: str) -> Card:
    try:
        return parse_card(text)
    except CardParseError:
        raise MalformedCallback(text) from None


def _single(cards: list[Card]) -> Card:
    if len(cards) != 1:
        raise MalformedCallback(cards)
    return cards[0]


def _verb(info: TableInfo, arg: str) -> str:
    verbs = variant_verbs(info.variant)
    index = _number(arg)
    if index >= len(verbs):
        raise MalformedCallback(arg)
    return verbs[index].verb


def _reading(press: _Press, melds: Partition | None) -> Action:
    target, _sep, faces_text = press.data.arg.partition("_")
    try:
        faces = faces_from_arg(faces_text)
    except CardParseError:
        raise MalformedCallback(press.data.arg) from None
    base: Action
    if target == "m":
        base = meld_action(press.view.seat, press.cards, melds)
    else:
        base = LayOff(0, tuple(CardSpec(c) for c in press.cards), _number(target))
    return with_joker_faces(base, faces)

