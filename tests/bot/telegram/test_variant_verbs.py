"""Variant actions reach Telegram without changes to the adapter: a test variant (Basic
Rummy plus two verbs of its own and a spread discard pile) gets a "Knock" button under
the table message (a verb without required arguments, anyone seated may press it), a
"Show" button on the hand keyboard (a verb that takes the selected cards) and "Take
deeper" (a spread pile)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import engine.variants as registry
from bot.render.cards import card_text
from bot.telegram_bot.identity import chat_key
from engine.cards import Card, parse_card
from engine.commands import CommandHelp
from engine.errors import IllegalMove
from engine.events import Event
from engine.state import GameState, Phase
from engine.variants.base import Apply, VariantCommand, Verify
from engine.variants.basic import BasicRummy
from tests.bot.telegram.support import (
    ALICE,
    BOB,
    GROUP,
    Bot,
    button,
    group_button,
    hand_button,
    running_bot,
)


@dataclass(frozen=True, slots=True)
class Knock:
    """The test verb without arguments (``knock``)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Show:
    """The test verb with cards (``show 7h 8h``)."""

    seat: int
    cards: tuple[Card, ...]


class NotNow(IllegalMove):
    code = "not_now"
    template = "you cannot show cards now"


def verify_knock(state: GameState, action: Knock) -> None:
    if state.phase is not Phase.DRAW:
        raise NotNow()


def apply_knock(state: GameState, action: Knock) -> tuple[GameState, tuple[Event, ...]]:
    return state, ()


def refuse_show(state: GameState, action: Show) -> None:
    raise NotNow()


class KnockRummy(BasicRummy):
    """Basic Rummy with ``knock`` and ``show`` and a spread discard pile."""

    id = "knocktest"
    name = "Knock Rummy (test)"
    commands = (
        VariantCommand(CommandHelp("knock", (), "knock [kh]", "Knock on the table."),
                       lambda verb, args, seat: Knock(seat), Knock, lambda action: "knock"),
        VariantCommand(CommandHelp("show", (), "show 7h", "Show cards."),
                       lambda verb, args, seat: Show(seat, tuple(parse_card(a) for a in args)),
                       Show, lambda action: "show " + " ".join(map(str, action.cards))),
    )

    def handlers(self) -> Mapping[type, tuple[Verify, Apply]]:
        table: dict[type, Any] = dict(super().handlers())
        table[Knock] = (verify_knock, apply_knock)
        table[Show] = (refuse_show, refuse_show)
        return table

    def discard_pile_public(self, rules: Any) -> bool:
        return True


@pytest.fixture
async def bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Bot]:
    monkeypatch.setitem(registry.VARIANTS, KnockRummy.id, KnockRummy())
    async with running_bot(tmp_path / "rummy.sqlite3") as running:
        yield running


async def test_variant_verbs_become_buttons(bot: Bot) -> None:
    await bot.start_private(ALICE)
    await bot.start_private(BOB)
    await bot.say(ALICE, GROUP, "/new knocktest")
    await bot.say(BOB, GROUP, "/join")
    await bot.say(ALICE, GROUP, "/start")
    table = await bot.repo.active_table(chat_key(GROUP, None))
    assert table is not None and table.state is not None
    group = await bot.table_message(table.id)
    assert group.button_texts == ["My hand", "Knock"]

    # The bare verb from the group message; the engine decides who may knock when.
    player = ALICE if table.state.current == 0 else BOB
    answer = await bot.press(player, group, group_button(group, "v"))
    assert (answer.show_alert, answer.text) == (False, None)
    log = await bot.repo.action_log(table.id)
    assert log[-1].command == "knock"

    hand = await bot.hand_message(player, table.id)
    assert "Show" in hand.button_texts
    first = table.state.hands[table.state.current][0]
    await bot.press(player, hand, button(hand, card_text(first)))
    answer = await bot.press(player, hand, hand_button(hand, "v"))
    assert (answer.show_alert, answer.text) == (True, "you cannot show cards now")

    # A spread pile: "Take deeper" appears once the pile holds more than one card.
    assert hand_button_missing(hand, "k")
    await bot.press(player, hand, hand_button(hand, "d"))  # a move clears the selection
    await bot.press(player, hand, button(hand, card_text(first)))
    await bot.press(player, hand, hand_button(hand, "x"))
    nxt = ALICE if player == BOB else BOB
    hand = await bot.hand_message(nxt, table.id)
    await bot.press(nxt, hand, hand_button(hand, "k"))
    deep = [b["text"] for b in hand.buttons if b["callback_data"][:2] == "hK"]
    assert deep == [card_text(table.state.discard[-1])]
    answer = await bot.press(nxt, hand, hand_button(hand, "K"))
    assert answer.show_alert  # Basic Rummy's take refuses deeper cards
    after = await bot.repo.get_table(table.id)
    assert after is not None and after.state is not None and after.state.phase is Phase.DRAW


def hand_button_missing(message: Any, action: str) -> bool:
    try:
        hand_button(message, action)
    except LookupError:
        return True
    return False
