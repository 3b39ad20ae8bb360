"""Variant actions reach Telegram without changes to the adapter: a test variant (Basic
Rummy plus a verb of its own that its legal actions list in the draw phase) gets a
"Knock" button on the hand keyboard exactly while the engine lists the move; the group's
table message offers no move of the player to move."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import engine.variants as registry
from bot.telegram_bot.identity import chat_key
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
    running_bot,
)


@dataclass(frozen=True, slots=True)
class Knock:
    """The test verb without arguments (``knock``)."""

    seat: int


class NotNow(IllegalMove):
    code = "not_now"
    template = "you cannot show cards now"


def verify_knock(state: GameState, action: Knock) -> None:
    if state.phase is not Phase.DRAW:
        raise NotNow()


def apply_knock(state: GameState, action: Knock) -> tuple[GameState, tuple[Event, ...]]:
    return state, ()


class KnockRummy(BasicRummy):
    """Basic Rummy with ``knock``, legal in the draw phase of the player to move."""

    id = "knocktest"
    name = "Knock Rummy (test)"
    commands = (
        VariantCommand(
            CommandHelp("knock", (), "knock [kh]", "Knock on the table."),
            lambda verb, args, seat: Knock(seat),
            Knock,
            lambda action: "knock",
        ),
    )

    def handlers(self) -> Mapping[type, tuple[Verify, Apply]]:
        table: dict[type, Any] = dict(super().handlers())
        table[Knock] = (verify_knock, apply_knock)
        return table

    def legal_actions(self, state: GameState, seat: int) -> list[Any]:
        out: list[Any] = list(super().legal_actions(state, seat))
        if state.phase is Phase.DRAW and state.current == seat:
            out.append(Knock(seat))
        return out


@pytest.fixture
async def bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Bot]:
    monkeypatch.setitem(registry.VARIANTS, KnockRummy.id, KnockRummy())
    async with running_bot(tmp_path / "rummy.sqlite3") as running:
        yield running


async def test_a_legal_variant_move_becomes_a_hand_button(bot: Bot) -> None:
    await bot.start_private(ALICE)
    await bot.start_private(BOB)
    await bot.say(ALICE, GROUP, "/new knocktest")
    await bot.say(BOB, GROUP, "/join")
    await bot.say(ALICE, GROUP, "/start")
    table = await bot.repo.active_table(chat_key(GROUP, None))
    assert table is not None and table.state is not None
    group = await bot.table_message(table.id)
    assert group.button_texts == ["My hand"]

    player = ALICE if table.state.current == 0 else BOB
    hand = await bot.hand_message(player, table.id)
    assert "Knock" in hand.button_texts
    answer = await bot.press(player, hand, button(hand, "Knock"))
    assert (answer.show_alert, answer.text) == (False, None)
    log = await bot.repo.action_log(table.id)
    assert log[-1].command == "knock"

    await bot.press(player, hand, button(hand, "Draw"))
    assert "Knock" not in hand.button_texts  # not legal in the play phase
