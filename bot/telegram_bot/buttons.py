"""What a button press does: check that the button belongs to the message and user it was
pressed on and by, decode it into one :class:`bot.ports.intents.Intent` for the service's
entry point, and answer the presser first — ``answerCallbackQuery`` and, for a hand
button, their redrawn hand message — before the entry point pushes the other screens.

Group buttons (under the table message) must be on the message that shows that table;
moves there (next deal, a variant's call) carry the message's version, which the entry
point checks. Lobby buttons do not: two people pressing Join at once must both get in.
Hand buttons (private) must be on the presser's own hand message for that table; they
carry the selection, the order and (from the message's row) the digest of the hand they
were drawn for, so the entry point refuses a press on a hand or table that moved on and
answers with the fresh hand screen. A pressed offer is the offer its button numbers in the
hand model of that version, selection and order, resolved by the engine worker.

Every button's data is signed (:mod:`bot.telegram_bot.callbacks`); a press whose data this
bot did not draw (a forged or changed one, a keyboard of a release before the signature)
changes nothing: when the message it was pressed on is the one that shows the table the
data names (the presser's hand message, the group's table message), that message is
redrawn with a fresh keyboard, and the presser told it was out of date; else they are
told the button cannot be read.
"""

from __future__ import annotations

from dataclasses import dataclass

from telegram import CallbackQuery

from bot.i18n import use_locale
from bot.interaction.calls import call_verbs
from bot.interaction.hand_session import HandSession, HandStep, SelectCards, SortBy
from bot.interaction.kept_screens import step_kept
from bot.ports.hand import SortMode
from bot.ports.intents import (
    AddAI,
    AtTable,
    Hint,
    InChat,
    Intent,
    Join,
    Leave,
    Move,
    Outcome,
    PressOffer,
    Request,
    Select,
    Selection,
    ShowHand,
    Sort,
    Start,
)
from bot.ports.model import ChatKey, UserRef
from bot.telegram_bot import texts
from bot.telegram_bot.callbacks import (
    Callback,
    ForeignCallback,
    GameEnded,
    MalformedCallback,
)
from bot.telegram_bot.parts import Parts
from engine.actions import NextDeal

__all__ = ["Buttons"]

#: Hand buttons -> the screen request they send.
HAND_REQUESTS: dict[str, Request] = {
    "toggle": Select(),
    "clear": Select(),
    "back": Select(),
    "pile": Select(),
    "sort": Sort(),
    "hint": Hint(),
    "offer": PressOffer(),
}
#: Lobby buttons -> the table request they send.
LOBBY_REQUESTS: dict[str, Request] = {
    "join": Join(),
    "leave": Leave(),
    "add_ai": AddAI(),
    "start": Start(),
}
#: An alert says at most this much (Telegram cuts callback answers at 200 characters).
ALERT = 200


@dataclass(frozen=True)
class Press:
    """One decoded press: the button's ``data``, the chat and message it was pressed on
    (``chat_id``, ``message_id``), the presser and the update key."""

    data: Callback
    chat_id: int
    message_id: int
    user: UserRef
    update_key: str

    @property
    def user_id(self) -> int:
        """The presser's Telegram id."""
        return int(self.user.user_id)


class Buttons:
    """Carries out button presses (see the module docstring)."""

    def __init__(self, parts: Parts) -> None:
        self.parts = parts

    async def press(self, query: CallbackQuery, press: Press) -> None:
        """Carry out ``press`` and answer ``query``; a button that is not the presser's,
        or not this message's, is refused with an alert and changes nothing."""
        try:
            if press.data.kind == "g":
                await self._group(query, press)
            else:
                await self._hand(query, press)
        except (ForeignCallback, GameEnded, MalformedCallback) as error:
            with use_locale(await self.parts.entry.locale_of(press.user)):
                await query.answer(texts.alert(error.code), show_alert=True)

    async def unverified(self, query: CallbackQuery, press: Press) -> None:
        """A press of data this bot did not sign (``press.data``: what it claims to be).
        Nothing is carried out; the message is redrawn when it shows the claimed table."""
        parts = self.parts
        data = press.data
        redrawn = False
        if data.kind == "h":
            row = await parts.store.hand_message(press.user_id, data.table_id)
            if (
                press.chat_id == press.user_id
                and row is not None
                and row.message_id == press.message_id
            ):
                redrawn = await self._redraw_hand(press, row.sort_mode)
        else:
            row_g = await parts.store.table_message(data.table_id)
            if row_g is not None and (row_g.chat_id, row_g.message_id) == (
                press.chat_id,
                press.message_id,
            ):
                await parts.redraw(data.table_id)
                redrawn = True
        with use_locale(await parts.entry.locale_of(press.user)):
            await query.answer(texts.alert("stale" if redrawn else "malformed"), show_alert=True)

    async def _redraw_hand(self, press: Press, sort: int) -> bool:
        """The presser's hand message of the claimed table drawn anew (their order,
        nothing selected): a ``select`` intent, which changes no table."""
        parts = self.parts
        intent = Intent(
            Select(),
            press.user,
            AtTable(press.data.table_id),
            None,
            Selection(0, SortMode(sort if 0 <= sort < 3 else 0)),
        )
        outcome = await parts.entry.handle(intent)
        info, hand = outcome.info, outcome.hand
        if info is None or hand is None:
            return False
        return await parts.hands.show(info, press.user_id, hand.view, outcome.locale, hand)

    # --- the group's table message ----------------------------------------------------------

    async def _group(self, query: CallbackQuery, press: Press) -> None:
        parts = self.parts
        data = press.data
        row = await parts.store.table_message(data.table_id)
        if row is None or (row.chat_id, row.message_id) != (press.chat_id, press.message_id):
            raise ForeignCallback()
        key = ChatKey.parse(row.chat_key)
        name = data.name
        if name == "join" and not await parts.messenger.reachable(press.user_id):
            seen = await parts.entry.screens(data.table_id, press.user)  # the table and language
            if seen is None:
                raise GameEnded()
            info = seen.table.info
            await parts.waiting(info, press.user_id, press.user.name)
            with use_locale(seen.locale):
                await query.answer(
                    texts.write_me_first(press.user.name)[:ALERT],
                    url=parts.tables.start_link(info.id),
                )
            return
        if name == "leave" and press.user_id in parts.tables.waiting.get(data.table_id, {}):
            parts.notifier.reached(press.user_id)  # left before the private chat worked
            await query.answer()
            return
        intent = Intent(
            self._group_request(data),
            press.user,
            InChat(key, data.table_id),
            None if name in LOBBY_REQUESTS or name == "my_hand" else data.version,
            update_key=press.update_key,
        )
        async with parts.entry.answer_first():
            outcome = await parts.entry.handle(intent)
            with use_locale(outcome.locale):
                if name == "my_hand" and outcome.ok:
                    await self._hand_privately(query, press, outcome)
                    return
                await _answer(query, outcome)
            if outcome.reply.code == "stale_control":
                await parts.redraw(data.table_id)  # the keyboard the press came from

    async def _hand_privately(self, query: CallbackQuery, press: Press, outcome: Outcome) -> None:
        """Show my hand: the hand message anew at the bottom of the private chat, the press
        answered with a toast; a person the bot cannot write to gets the "Start me" link."""
        parts = self.parts
        info, hand = outcome.info, outcome.hand
        if info is None or hand is None:
            await _answer(query, outcome)
            return
        if await parts.hands.show(
            info, press.user_id, hand.view, outcome.locale, hand, repost=True
        ):
            await query.answer(texts.sent_privately())
            return
        await parts.waiting(info, press.user_id, press.user.name)
        await query.answer(url=parts.tables.start_link(info.id))

    @staticmethod
    def _group_request(data: Callback) -> Request:
        name = data.name
        if name == "add_ai":
            return AddAI(data.arg or None)  # the level its button names (old keyboards: none)
        if name in LOBBY_REQUESTS:
            return LOBBY_REQUESTS[name]
        if name == "my_hand":
            return ShowHand()
        if name == "next_deal":
            return Move(action=NextDeal(0))
        return Move((_verb(data),))

    # --- a private hand message -------------------------------------------------------------

    async def _hand(self, query: CallbackQuery, press: Press) -> None:
        parts = self.parts
        data = press.data
        row = await parts.store.hand_message(press.user_id, data.table_id)
        if press.chat_id != press.user_id or row is None or row.message_id != press.message_id:
            raise ForeignCallback()
        name = data.name
        request = HAND_REQUESTS[name]
        if isinstance(request, Select | Sort) and await self._step_here(query, press, row.hand):
            return
        offer = _number(data.arg) if isinstance(request, PressOffer) else None
        selection = Selection(
            0 if name == "clear" else data.mask, SortMode(data.sort), row.hand or None, offer
        )
        intent = Intent(
            request,
            press.user,
            AtTable(data.table_id),
            data.version,
            selection,
            press.update_key,
        )
        screen = "pile" if name == "pile" else "main"
        async with parts.entry.answer_first():
            outcome = await parts.entry.handle(intent)
            with use_locale(outcome.locale):
                await _answer(query, outcome)  # every refusal said, once
            await self._hand_screen(press, outcome, screen)

    async def _hand_screen(self, press: Press, outcome: Outcome, screen: str) -> None:
        """The presser's hand message after a step that changed no table (a selection,
        an order, a hint, a refusal with the fresh hand); a change is drawn by the
        notifier, for every seat, this person's first."""
        info, hand = outcome.info, outcome.hand
        if outcome.update is not None or hand is None or info is None:
            return
        if not await self.parts.hands.show(
            info, press.user_id, hand.view, outcome.locale, hand, screen
        ):
            await self.parts.waiting(info, press.user_id, press.user.name)

    async def _step_here(self, query: CallbackQuery, press: Press, digest: str) -> bool:
        """A card toggled, the selection cleared, the pile screen or the next order, carried
        out on the seat screen this process was last shown (the pure hand session of
        :mod:`bot.interaction.hand_session`): no table load, no engine call. False (nothing
        done) when that screen is not the one the button was drawn on (another worker
        drew it, a restart, a newer change), or the person's flow control is spent: then
        the entry point carries the step out."""
        parts = self.parts
        data = press.data
        screen = parts.notifier.screens.drawn_at(
            data.table_id, press.user.key, data.version, digest
        )
        if screen is None or not await parts.entry.admit(press.user, f"private:{press.user.key}"):
            return False
        mask = 0 if data.name == "clear" else data.mask
        event: HandStep = SortBy() if data.name == "sort" else SelectCards(mask)
        stepped = step_kept(screen, HandSession(SortMode(data.sort), mask), event)
        await query.answer()
        shown = await parts.hands.show(
            screen.info,
            press.user_id,
            screen.view,
            screen.locale,
            stepped.model,
            "pile" if data.name == "pile" else "main",
        )
        if not shown:
            await parts.waiting(screen.info, press.user_id, press.user.name)
        return True


#: Refusals of a control with words of their own on Telegram (the keyboard is redrawn).
CONTROL_ALERTS = {"stale_control": "stale", "unknown_offer": "stale", "no_table": "ended"}


async def _answer(query: CallbackQuery, outcome: Outcome) -> None:
    """``answerCallbackQuery`` for ``outcome``: an alert for a refusal, the reply (a hint)
    as a toast, else nothing to say."""
    reply = outcome.reply
    text = None if reply.text is None else reply.text[:ALERT]
    if not reply.ok and reply.code in CONTROL_ALERTS:
        text = texts.alert(CONTROL_ALERTS[reply.code])
    await query.answer(text, show_alert=(not reply.ok) or None)


def _number(text: str) -> int:
    if not text.isdigit() or len(text) > 4:
        raise MalformedCallback(text)
    return int(text)


def _verb(data: Callback) -> str:
    """The call a call button names (one of :func:`bot.interaction.calls.call_verbs`:
    anything else is no button of ours)."""
    if data.arg not in call_verbs():
        raise MalformedCallback(data.arg)
    return data.arg
