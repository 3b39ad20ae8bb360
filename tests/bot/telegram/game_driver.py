"""A test driver that plays humans' turns through Telegram and checks privacy.

Moves are *chosen* with the greedy AI from the player's view (read from the service's
repository, which a test may do), but every move is *made* the way a person would:
card buttons and move buttons on the private hand message, or typed commands.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from bot.i18n import use_locale
from bot.interaction.hand import Group, SortMode, build_hand_model, hand_cards
from bot.ports.model import UserRef
from bot.render.cards import card_text
from bot.service.model import Table
from bot.telegram_bot.callbacks import decode
from bot.telegram_bot.identity import user_id_of
from engine.actions import Action, Draw, NextDeal, TakeDiscard
from engine.ai import make_ai
from engine.cards import Card
from engine.game import current_player, legal_actions
from engine.state import Phase
from engine.views import view_for
from tests.bot.telegram.support import CARD_TEXT, Bot, group_button, hand_button
from tests.fakes.telegram import FakeMessage

JOKER_ROLE = re.compile(r"🃏\((?:10|[2-9AJQKBD])[♣♦♥♠]\)")
"""A joker with the card it stands for (``🃏(5♥)``): names a role, not a card held."""


def cards_in(text: str | None) -> Counter[str]:
    """Card texts (``7♥``, ``10♦``, ``🃏``) mentioned in ``text`` (a joker's role, ``🃏(5♥)``,
    counts as the joker only)."""
    text = JOKER_ROLE.sub("🃏", text or "")
    return Counter(m.group(0) for m in CARD_TEXT.finditer(text))


def versions_of(message: FakeMessage) -> list[str]:
    """Each version of a message, oldest first: its text and its button labels."""
    out = []
    for version in message.history:
        markup = version.reply_markup or {}
        labels = [b["text"] for row in markup.get("inline_keyboard", []) for b in row]
        out.append("\n".join([version.text or "", *labels]))
    out.append("\n".join([message.text or "", *(b["text"] for b in message.buttons)]))
    return out


@dataclass
class PrivacyCheck:
    """What was public and what each player held, updated after every step; group
    messages may only show public cards, private ones only the owner's cards too. No
    message shows a deal's secret before the deal ended (docs/fairness.md: "When the deal
    ends, the secret is revealed"); ``revealed`` collects the secrets of ended deals."""

    group_chats: list[int]
    players: dict[int, int]  # Telegram user id -> seat
    public: set[str] = field(default_factory=set)
    held: dict[int, set[str]] = field(default_factory=dict)
    checked: dict[tuple[int, int], int] = field(default_factory=dict)
    group_versions: int = 0
    private_versions: int = 0
    secrets: set[str] = field(default_factory=set)
    revealed: set[str] = field(default_factory=set)

    def note(self, table: Table) -> None:
        """Take in the state after a step (cards that became public stay public)."""
        state = table.state
        if state is None:
            return
        self.revealed.update(r.secret for r in state.results if r.secret)
        if state.deal_secret is not None:
            secret = state.deal_secret.hex()
            if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
                self.revealed.add(secret)
            elif secret not in self.revealed:
                self.secrets.add(secret)
        self.secrets -= self.revealed
        self.public.update(f for m in state.melds for p in m.cards for f in card_forms(p.card))
        self.public.update(f for c in state.discard for f in card_forms(c))
        if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            self.public.update(f for hand in state.hands for c in hand for f in card_forms(c))
        for user, seat in self.players.items():
            self.held.setdefault(user, set()).update(
                f for c in state.hands[seat] for f in card_forms(c)
            )

    def scan(self, bot: Bot) -> None:
        """Check every message version not checked yet, and that every message the bot
        sent or edited in a private chat went to a player of this table."""
        for call in bot.tg.calls:
            chat = call.params.get("chat_id")
            if (
                call.method in ("sendMessage", "editMessageText", "editMessageReplyMarkup")
                and isinstance(chat, int)
                and chat > 0
            ):
                assert chat in self.players, f"{call.method} to {chat}, not a player"
        for chat in self.group_chats:
            for message in bot.tg.messages(chat, include_deleted=True):
                for text in self._new_texts(message):
                    self.group_versions += 1
                    leaked = set(cards_in(text)) - self.public
                    assert not leaked, f"group message shows hidden {leaked}: {text!r}"
                    self._no_secret(text)
        for user in self.players:
            for message in bot.tg.messages(user, include_deleted=True):
                assert message.chat_id == user
                allowed = self.public | self.held.get(user, set())
                for text in self._new_texts(message):
                    self.private_versions += 1
                    leaked = set(cards_in(text)) - allowed
                    assert not leaked, f"{user} was shown others' cards {leaked}: {text!r}"
                    self._no_secret(text)

    def _no_secret(self, text: str) -> None:
        shown = [secret for secret in self.secrets if secret in text]
        assert not shown, f"a deal's secret before the deal ended: {text!r}"

    def _new_texts(self, message: FakeMessage) -> Iterable[str]:
        key = (message.chat_id, message.message_id)
        versions = versions_of(message)
        start = self.checked.get(key, 0)
        self.checked[key] = len(versions)
        return versions[start:]


class Driver:
    """Plays the humans of table ``table_id`` through Telegram (see the module docstring).

    ``typed``: how moves alternate between buttons and typed commands (one in ``typed``
    moves is typed: in the group for draw/take, in the private chat otherwise; 0: every
    move by the buttons the hand model offers).
    """

    def __init__(
        self,
        bot: Bot,
        table_id: int,
        group: int,
        check: PrivacyCheck,
        typed: int = 4,
        seed: int = 99,
    ) -> None:
        self.bot = bot
        self.table_id = table_id
        self.group = group
        self.check = check
        self.typed = typed
        self.moves = 0
        self.button_moves = 0
        self.typed_moves = 0
        self.offers_pressed = 0
        self.next_deals = 0
        self.ai = make_ai("greedy", seed=seed)
        self._count = itertools.count()

    async def table(self) -> Table:
        table = await self.bot.repo.get_table(self.table_id)
        assert table is not None
        return table

    async def step(self) -> bool:
        """One step of the game: a human move through Telegram, or the clock for the AI.
        Returns False once the game is over."""
        table = await self.table()
        state = table.state
        if table.status.value != "playing" or state is None:
            return False
        seat = current_player(state)
        if state.phase is Phase.HAND_OVER:
            await self.next_deal()
        elif seat is None or table.seats[seat].automated:
            await self.bot.tick(2.5)
        else:
            user = table.seats[seat].user
            assert user is not None
            view = view_for(state, seat)
            action = self.ai.decide(view, legal_actions(state, seat))
            await self.play(user_id_of(user), action)
        self.check.note(await self.table())
        self.check.scan(self.bot)
        return True

    async def next_deal(self) -> None:
        """Between deals a player presses Next deal under the group's table message."""
        message = await self.bot.table_message(self.table_id)
        user = next(iter(self.check.players))
        answer = await self.bot.press(user, message, group_button(message, "n"))
        assert not answer.show_alert, answer.text
        self.next_deals += 1

    async def hand(self, user: int) -> FakeMessage:
        return await self.bot.hand_message(user, self.table_id)

    async def play(self, user: int, action: Action) -> None:
        """Make ``action`` as ``user`` would."""
        self.moves += 1
        typed = self.typed > 0 and next(self._count) % self.typed == self.typed - 1
        before = (await self.table()).version
        if typed:
            await self.type_move(user, action)
            self.typed_moves += 1
        else:
            await self.press_move(user, action)
            self.button_moves += 1
        after = await self.table()
        assert after.version > before, f"{action} did not change the game"

    async def type_move(self, user: int, action: Action) -> None:
        from engine.commands import format_action

        text = format_action(action)
        if isinstance(action, Draw | TakeDiscard | NextDeal):
            await self.bot.say(user, self.group, "/" + text)
        else:
            await self.bot.say(user, user, text)

    async def press(self, user: int, action: str, arg: str | None = None) -> None:
        """Press the hand button of ``action`` (a letter of ``HAND_ACTIONS``)."""
        message = await self.hand(user)
        answer = await self.bot.press(user, message, hand_button(message, action, arg))
        assert not answer.show_alert, f"{action}: {answer.text}"

    async def select(self, user: int, cards: Iterable[Card]) -> None:
        for card in cards:
            message = await self.hand(user)
            label = card_text(card)
            labels = card_forms(card)  # the button speaks the player's language
            free = [b for b in message.buttons if b.get("text") in labels]
            assert free, f"no unselected {label} among {message.button_texts}"
            answer = await self.bot.press(user, message, str(free[0]["callback_data"]))
            assert not answer.show_alert, answer.text

    async def press_move(self, user: int, action: Action) -> None:
        """Select the action's cards, then press the offer the hand model numbers for it
        (the deeper cards of a spread pile are on the pile screen)."""
        await self.select(user, hand_cards(action) or ())
        message = await self.hand(user)
        drawn = decode(hand_button(message, "r"))  # Sort carries the drawn selection
        table = await self.table()
        found = await self.bot.service.entry.screens(table.id, UserRef("telegram", str(user), ""))
        assert found is not None and found[1] is not None
        model = build_hand_model(found[1], mask=drawn.mask, sort=SortMode(drawn.sort))
        numbers = [i for i, offer in enumerate(model.offers) if offer.action == action]
        assert numbers, f"{action} is not offered: {[o.label for o in model.offers]}"
        if model.offers[numbers[0]].group is Group.PILE:
            await self.press(user, "k")
        await self.press(user, "a", str(numbers[0]))
        self.offers_pressed += 1


def card_forms(card: Card) -> set[str]:
    """How a screen writes ``card`` in every language (``Q♥`` and ``D♥``)."""
    forms = set()
    for locale in ("en", "de"):
        with use_locale(locale):
            forms.add(card_text(card))
    return forms
