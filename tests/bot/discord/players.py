"""Playing as Discord users: moves chosen by the engine's AI, made through components.

The AI only CHOOSES (from the stored state, as a player looking at their cards would);
every move is then made the way a person does it: Draw / Take on the table message, or
the card select of the private hand message and the offer of the hand model for those
cards (a button, or an option of the moves select).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bot.discord_bot.hand import HandState
from bot.i18n import use_locale
from bot.interaction.hand import build_hand_model, hand_cards
from bot.ports.model import UserRef
from bot.ports.screens import CoachAdvice, TableFault, TableUpdate, TimerWarning
from bot.render.cards import card_text
from engine.actions import Action, Draw, TakeDiscard
from engine.ai import make_ai
from engine.cards import Card, parse_card
from engine.events import DealStarted, TookDiscard
from engine.game import legal_actions
from engine.state import GameState, Phase
from engine.views import view_for
from tests.bot.discord.support import Bot
from tests.fakes.discord import FakeInteraction, FakeMessage, FakeUser


def action_of(custom_id: str) -> str:
    """The action part of one of our custom ids."""
    return custom_id.split(":")[3]


def control(message: FakeMessage, action: str, reading: bool = False) -> str:
    """The custom id of the control for ``action`` on ``message`` (a reading button when
    ``reading``: its state ends with ``r<n>``)."""
    found = [
        c
        for c in message.custom_ids()
        if action_of(c) == action and bool(re.search(r"r\d+$", c)) == reading
    ]
    assert found, f"no {action!r} on the message: {message.custom_ids()}"
    return found[0]


def component(message: FakeMessage, custom_id: str) -> dict[str, Any]:
    for row in message.components:
        for item in row.get("components", []):
            if item.get("custom_id") == custom_id:
                return dict(item)
    raise AssertionError(f"{custom_id} not on the message")


@dataclass
class Truth:
    """What is hidden right now (from the stored state): each seat's cards that were
    never face up in this deal, the deal's secret while the deal runs (docs/fairness.md:
    revealed when the deal ends), and who sits where."""

    hidden: dict[int, set[Card]] = field(default_factory=dict)
    known: set[Card] = field(default_factory=set)
    seat_of_user: dict[int, int] = field(default_factory=dict)
    deal: int = 0
    checked_versions: int = 0
    checked_while_hidden: int = 0
    secret: str | None = None
    revealed: set[str] = field(default_factory=set)

    def update(self, state: GameState | None, seats: Any, events: Any) -> None:
        for number, seat in enumerate(seats):
            if seat.user is not None:
                self.seat_of_user[int(seat.user.partition(":")[2])] = number
        if state is None:
            return
        if state.deal_number != self.deal:
            self.deal, self.known = state.deal_number, set()
        for event in events:
            if isinstance(event, TookDiscard):
                self.known.add(event.card)
            if isinstance(event, DealStarted) and event.upcard is not None:
                self.known.add(event.upcard)
        self.known |= {p.card for meld in state.melds for p in meld.cards}
        self.known |= set(state.discard)
        self.revealed |= {r.secret for r in state.results if r.secret}
        self.secret = None if state.deal_secret is None else state.deal_secret.hex()
        if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            self.hidden = {}
            self.secret = None
            return
        self.hidden = {
            seat: {c for c in hand if not c.is_joker and c not in self.known}
            for seat, hand in enumerate(state.hands)
        }

    def leaks(self, text: str, viewer_seat: int | None) -> list[str]:
        """Card texts in ``text`` that are hidden in a hand other than the viewer's, and
        the running deal's secret."""
        found = []
        if self.secret is not None and self.secret in text:
            found.append("the running deal's secret")
        for seat, cards in self.hidden.items():
            if seat == viewer_seat:
                continue
            for card in cards:
                if any(
                    re.search(r"(?<![0-9A-Za-z])" + re.escape(form), text)
                    for form in card_forms(card)
                ):
                    found.append(f"{card_text(card)} of seat {seat}")
        return found


class PrivacySpy:
    """Stands between the service and the adapter's notifier: keeps :class:`Truth` up to
    date before each published change is drawn. ``watch(server)`` checks every message the
    fake Discord stores, at the moment it is created or edited."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.truth = Truth()
        self.problems: list[str] = []

    @property
    def inner(self) -> Any:
        return self.bot.adapter.notifier

    async def publish(self, update: TableUpdate) -> None:
        table = await self.bot.service.repo.get_table(update.info.id)
        assert table is not None
        self.truth.update(table.state, table.seats, update.table.events)
        await self.inner.publish(update)

    async def warn(self, warning: TimerWarning) -> None:
        await self.inner.warn(warning)

    async def fault(self, fault: TableFault) -> None:
        await self.inner.fault(fault)

    async def coach(self, advice: CoachAdvice) -> None:
        await self.inner.coach(advice)

    def watch(self) -> None:
        server = self.bot.server
        create, edit = server.create_message, server.edit_message

        def created(*args: Any, **kwargs: Any) -> FakeMessage:
            message = create(*args, **kwargs)
            self.check(message)
            return message

        def edited(message: FakeMessage, payload: Any) -> None:
            edit(message, payload)
            self.check(message)

        server.create_message = created  # type: ignore[method-assign]
        server.edit_message = edited  # type: ignore[method-assign]

    def check(self, message: FakeMessage) -> None:
        self.truth.checked_versions += 1
        if any(self.truth.hidden.values()):
            self.truth.checked_while_hidden += 1
        text = message.content + json.dumps(message.components, ensure_ascii=False)
        if message.viewer is None:
            leaks = self.truth.leaks(text, None)
            if "Your hand" in message.content or "Deine Hand" in message.content:
                leaks.append("a hand message in public")
        else:
            leaks = self.truth.leaks(text, self.truth.seat_of_user.get(message.viewer.id))
        if leaks:
            self.problems.append(
                f"message {message.id} ({message.viewer}): {leaks}: {message.content!r}"
            )


class Players:
    """Makes the chosen moves of the human seats through Discord."""

    def __init__(self, bot: Bot, channel: Any, users: list[FakeUser]) -> None:
        self.bot = bot
        self.channel = channel
        self.users = {u.id: u for u in users}
        self.hands: dict[int, FakeMessage] = {}
        self.ai = make_ai("greedy", seed=5)
        self.moves = 0
        self.kinds: Counter[str] = Counter()
        self.interactions = 0
        self.menu_moves = 0

    async def _do(self, interaction: FakeInteraction, user: FakeUser) -> FakeInteraction:
        self.interactions += 1
        original = interaction.original
        if (
            original is not None
            and original.ephemeral
            and original.viewer is user
            and any(action_of(c) in ("c0", "refresh") for c in original.custom_ids())
        ):
            self.hands[user.id] = original
        return interaction

    async def click(self, user: FakeUser, message: FakeMessage, custom_id: str) -> FakeInteraction:
        return await self._do(await self.bot.click(user, message, custom_id), user)

    async def pick(
        self, user: FakeUser, message: FakeMessage, custom_id: str, values: list[str]
    ) -> FakeInteraction:
        return await self._do(await self.bot.select(user, message, custom_id, values), user)

    async def hand(self, user: FakeUser) -> FakeMessage:
        """The user's hand message (opened with Show my hand when there is none)."""
        message = self.hands.get(user.id)
        if message is None or not message.custom_ids():
            table = self.bot.table_message(self.channel)
            await self.click(user, table, control(table, "hand"))
            message = self.hands[user.id]
        return message

    async def select_cards(self, user: FakeUser, cards: list[Card]) -> FakeMessage:
        """Select exactly ``cards`` in the user's hand message."""
        message = await self.hand(user)
        select = component(message, control(message, "c0"))
        wanted = Counter(card_text(c) for c in cards)
        values = []
        for option in select["options"]:
            label = card_text(parse_card(option["label"]))  # the label in either language
            if wanted[label] > 0:
                wanted[label] -= 1
                values.append(option["value"])
        assert not +wanted, f"cards {wanted} not in the select"
        await self.pick(user, message, control(message, "c0"), values)
        return message

    async def play(self, state: GameState, user: FakeUser) -> Action:
        """Choose and make the move of the seat to play (a human): Draw and Take every
        other time from the table message, else select the move's cards on the hand
        message and press the offer the hand model numbers for it (a button, or an
        option of the moves select)."""
        seat = state.current
        action = self.ai.decide(view_for(state, seat), legal_actions(state, seat))
        self.moves += 1
        self.kinds[type(action).__name__] += 1
        table = self.bot.table_message(self.channel)
        if (
            isinstance(action, Draw | TakeDiscard)
            and self.moves % 2 == 0
            and (isinstance(action, Draw) or action.card is None)
        ):
            verb = "draw" if isinstance(action, Draw) else "take"
            await self.click(user, table, control(table, verb))
            return action
        message = await self.select_cards(user, list(hand_cards(action) or ()))
        number = await self._offer_number(user, message, action)
        buttons = [c for c in message.custom_ids() if action_of(c) == f"o{number}"]
        if buttons:
            await self.click(user, message, buttons[0])
            return action
        for custom_id in message.custom_ids():
            if action_of(custom_id) in ("mv", "mc") and any(
                o["value"] == str(number) for o in component(message, custom_id).get("options", [])
            ):
                await self.pick(user, message, custom_id, [str(number)])
                self.menu_moves += 1
                return action
        raise AssertionError(f"offer {number} ({action}) is not on the message")

    async def _offer_number(self, user: FakeUser, message: FakeMessage, action: Action) -> int:
        """The number of ``action`` among the offers of the message's hand model (built
        from the user's seat screen, as the message was)."""
        state = HandState.decode(message.custom_ids()[0].split(":")[4])
        ref = UserRef("discord", str(user.id), user.username)
        info = await self.bot.entry.table_info(self.bot.key(self.channel))
        assert info is not None
        found = await self.bot.entry.screens(info.id, ref)
        assert found is not None and found[1] is not None
        screen = found[1]
        with use_locale(screen.locale):
            model = build_hand_model(screen, mask=state.mask, sort=state.sort)
        numbers = [n for n, offer in enumerate(model.offers) if offer.action == action]
        assert numbers, f"{action} not offered: {[o.label for o in model.offers]}"
        return numbers[0]


def card_forms(card: Card) -> set[str]:
    """How a screen writes ``card`` in every language (``Q♥`` and ``D♥``)."""
    forms = set()
    for locale in ("en", "de"):
        with use_locale(locale):
            forms.add(card_text(card))
    return forms
