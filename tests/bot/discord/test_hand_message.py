"""The private hand message: selecting cards, the moves the hand model offers for them
(joker readings and lay-off targets as moves of their own), and the answers arriving in
time whether the work is quick or slow (deferred)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from engine.dealing import DealSpec, new_game
from tests.bot.discord.players import action_of, component, control
from tests.bot.discord.support import Bot, running_bot
from tests.fakes.discord import FakeMessage, FakeUser


async def stacked_game(bot: Bot, options: str, hands: list[str], upcard: str, stock: str) -> None:
    """alice and bob at a table in #rummy with a stacked first deal (alice plays first)."""
    w = bot.world
    await bot.slash(w.alice, w.text, "new", {"options": options})
    table = bot.table_message(w.text)
    await bot.click(w.bob, table, control(table, "join"))
    await bot.click(w.alice, table, control(table, "start"))
    stored = await bot.service.repo.active_table(bot.key(w.text))
    assert stored is not None and stored.state is not None
    state = new_game(
        stored.state.rules,
        list(stored.state.players),
        dealer=1,
        deal=DealSpec.parse(hands, upcard, stock),
    )
    await bot.service.repo.commit(
        replace(stored, state=state, version=stored.version + 1), stored.version
    )


async def pick(bot: Bot, user: FakeUser, message: FakeMessage, labels: list[str]) -> None:
    select = component(message, control(message, "c0"))
    wanted = list(labels)
    values = []
    for option in select["options"]:
        if option["label"] in wanted:
            wanted.remove(option["label"])
            values.append(option["value"])
    assert not wanted, (labels, select["options"])
    await bot.select(user, message, control(message, "c0"), values)


def moves(message: FakeMessage) -> dict[str, str]:
    """The moves select's options: label -> value (empty when there is no such select)."""
    ids = [c for c in message.custom_ids() if action_of(c) == "mv"]
    if not ids:
        return {}
    return {o["label"]: o["value"] for o in component(message, ids[0])["options"]}


async def move(bot: Bot, user: FakeUser, message: FakeMessage, label: str) -> None:
    """Choose the move ``label`` in the hand message's moves select."""
    offered = moves(message)
    assert label in offered, (label, offered)
    await bot.select(user, message, control(message, "mv"), [offered[label]])


@pytest.mark.parametrize("defer_after", [1.0, 0.0], ids=["answer", "defer"])
async def test_melds_with_a_joker_reading_then_a_lay_off(
    tmp_path: Path, defer_after: float
) -> None:
    """Select 2♣ 2♦ 2♠: the moves select offers that meld. Select 7♥ 8♥ 🃏: one Meld per
    reading of the joker (the engine lists each). A second joker selected offers a lay-off
    per meld and reading; K♣ offers its discard. Every move is one the engine lists."""
    async with running_bot(tmp_path, defer_after=defer_after) as bot:
        w = bot.world
        await stacked_game(
            bot,
            "jokers=2 multiple_melds=on",
            ["7h 8h jk jk 2c 2d 2s 9s kc 5d", "3c 4c 5c 6d 7d 8d 9d 10d jd qd"],
            "ks",
            "4h 4s 4d 6c 7c 8c",
        )
        table = bot.table_message(w.text)
        drawn = await bot.click(w.alice, table, control(table, "draw"))
        hand = drawn.original
        assert hand is not None and hand.ephemeral and hand.viewer is w.alice
        assert "4♥" in hand.content and not hand.loading
        if defer_after == 0.0:
            assert drawn.response_type == 5
        else:
            assert drawn.response_type == 4

        await pick(bot, w.alice, hand, ["2♣", "2♦", "2♠"])
        assert "Selected: 2♣ 2♦ 2♠" in hand.content
        assert list(moves(hand)) == ["Meld 2♣ 2♦ 2♠"]
        await move(bot, w.alice, hand, "Meld 2♣ 2♦ 2♠")
        await pick(bot, w.alice, hand, ["7♥", "8♥", "🃏"])
        assert set(moves(hand)) == {"Meld 🃏(6♥) 7♥ 8♥", "Meld 7♥ 8♥ 🃏(9♥)"}
        await move(bot, w.alice, hand, "Meld 7♥ 8♥ 🃏(9♥)")
        stored = await bot.service.repo.active_table(bot.key(w.text))
        assert stored is not None and stored.state is not None
        assert [str(m) for m in stored.state.melds] == ["2c 2d 2s", "7h 8h jk=9h"]
        assert "Melds:" in table.content and "🃏(9♥)" in table.content

        await pick(bot, w.alice, hand, ["🃏"])
        layoffs = [label for label in moves(hand) if label.startswith("Lay off")]
        assert layoffs and all("on 2:" in label or "on 1:" in label for label in layoffs)
        wanted = next(label for label in layoffs if "🃏(10♥)" in label)
        await move(bot, w.alice, hand, wanted)
        stored = await bot.service.repo.active_table(bot.key(w.text))
        assert stored is not None and stored.state is not None
        assert str(stored.state.melds[1]) == "7h 8h jk=9h jk=10h"

        await pick(bot, w.alice, hand, ["K♣"])
        await move(bot, w.alice, hand, "Discard K♣")
        assert "Bob to play." in hand.content
        assert [action_of(c) for c in hand.custom_ids()] == ["c0", "sort", "hint", "refresh"], (
            hand.custom_ids()
        )
        for call in bot.server.calls_to("POST", "/interactions/*/callback"):
            assert call.status == 200


async def test_a_selection_that_is_no_move_offers_none_and_stale_hands_say_so(
    tmp_path: Path,
) -> None:
    """A selection that makes no legal move offers no move (nothing to refuse); an old
    hand message explains that the hand changed; Hint selects the suggested cards."""
    async with running_bot(tmp_path) as bot:
        w = bot.world
        await stacked_game(
            bot,
            "",
            ["7h 8h 2c 2d 2s 9s kc 5d 4h 6d", "3c 4c 5c 6c 7d 8d 9d 10d jd qd"],
            "ks",
            "4s 4d 6h 7c 8c",
        )
        table = bot.table_message(w.text)
        shown = await bot.click(w.alice, table, control(table, "hand"))
        old = shown.original
        assert old is not None
        drawn = await bot.click(w.alice, table, control(table, "draw"))
        hand = drawn.original
        assert hand is not None and hand is not old
        await pick(bot, w.alice, hand, ["7♥", "8♥", "K♣"])
        assert moves(hand) == {}
        assert "Selected: K♣ 7♥ 8♥" in hand.content
        # The first hand message still shows the hand before the draw.
        await bot.click(w.alice, old, control(old, "refresh"))
        assert "Your hand has changed" in old.content and "4♠" in old.content
        hint = await bot.click(w.alice, hand, control(hand, "hint"))
        assert hint.original is hand and "Selected: 2♣ 2♦ 2♠" in hand.content


async def test_many_cards_split_into_two_selects(tmp_path: Path) -> None:
    """A hand of 30 cards gets two selects (25 + 5 options); picks in both count."""
    async with running_bot(tmp_path) as bot:
        w = bot.world
        cards = (
            "ac 2c 3c 4c 5c 6c 7c 8c 9c 10c jc qc kc ad 2d 3d 4d 5d 6d 7d 8d 9d 10d jd "
            "qd kd ah 2h 3h 4h"
        )
        await stacked_game(bot, "", [cards, "5h 6h 7h 8h 9h 10h jh qh kh as"], "ks", "2s 3s 4s 5s")
        table = bot.table_message(w.text)
        drawn = await bot.click(w.alice, table, control(table, "draw"))
        hand = drawn.original
        assert hand is not None
        first = component(hand, control(hand, "c0"))
        second = component(hand, control(hand, "c1"))
        assert len(first["options"]) == 25 and len(second["options"]) == 6
        await bot.select(w.alice, hand, control(hand, "c0"), [first["options"][0]["value"]])
        chosen = [o["value"] for o in second["options"] if o["label"] in ("2♥", "3♥")]
        await bot.select(w.alice, hand, control(hand, "c1"), chosen)
        assert "Selected: A♣ 2♥ 3♥" in hand.content
        assert all(len(c) <= 100 for c in hand.custom_ids())
