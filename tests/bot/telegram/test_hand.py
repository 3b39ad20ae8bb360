"""The private hand message: cards as toggle buttons, moves from the selection, joker
readings, sort and hint, refusals of stale, foreign and malformed buttons, typed commands
in the private chat, and a restart of the adapter in the middle of a game."""

from __future__ import annotations

import asyncio
from pathlib import Path

from telegram.ext import AIORateLimiter

from bot.ports.message_store import TelegramHandMessage
from bot.ports.model import ChatKey
from bot.render.cards import card_text
from bot.service.model import Table
from bot.telegram_bot import TelegramAdapter
from bot.telegram_bot.callbacks import Callback
from bot.telegram_bot.identity import chat_key
from engine.cards import Card
from engine.dealing import new_game
from engine.melds import MeldKind
from engine.rules import make_rules
from tests.bot.telegram.support import (
    ALICE,
    BOB,
    FORUM,
    GROUP,
    Bot,
    button,
    group_button,
    hand_button,
    running_bot,
)
from tests.fakes.telegram import FakeMessage

KEY = chat_key(GROUP, None)


async def two_player_game(bot: Bot, options: str = "") -> Table:
    """Alice (host, seat 0) and Bob, both reachable, playing in the group."""
    await bot.start_private(ALICE)
    await bot.start_private(BOB)
    await bot.say(ALICE, GROUP, f"/new {options}".strip())
    await bot.say(BOB, GROUP, "/join")
    await bot.say(ALICE, GROUP, "/start")
    table = await bot.repo.active_table(KEY)
    assert table is not None and table.state is not None
    return table


async def alice_to_play(bot: Bot, table: Table) -> Table:
    """Let Bob draw and discard by typed commands until it is Alice's turn."""
    assert table.state is not None
    if table.state.current == 1:
        await bot.say(BOB, BOB, "draw")
        current = await bot.repo.active_table(KEY)
        assert current is not None and current.state is not None
        await bot.say(BOB, BOB, f"discard {current.state.hands[1][0]}")
    current = await bot.repo.active_table(KEY)
    assert current is not None and current.state is not None and current.state.current == 0
    return current


async def test_cards_are_toggle_buttons_and_the_selection_is_shown(bot: Bot) -> None:
    table = await alice_to_play(bot, await two_player_game(bot))
    assert table.state is not None
    hand = await bot.hand_message(ALICE, table.id)
    cards = [card_text(c) for c in sorted(table.state.hands[0], key=lambda c: c.sort_key)]
    assert hand.button_texts[: len(cards)] == cards
    assert hand.button_texts[len(cards) :] == [
        "Draw",
        f"Take {card_text(table.state.discard[-1])}",
        "Sort",
        "Hint",
    ]
    assert "Rummy night · table 1" in (hand.text or "")
    assert "Your turn: draw from the stock or take the upcard." in (hand.text or "")

    first, second = cards[0], cards[1]
    await bot.press(ALICE, hand, button(hand, first))
    await bot.press(ALICE, hand, button(hand, second))
    assert f"Selected: {first} {second}" in (hand.text or "")
    assert hand.button_texts[:2] == [f"✓{first}", f"✓{second}"]
    assert "Clear" in hand.button_texts
    await bot.press(ALICE, hand, button(hand, f"✓{first}"))
    assert f"Selected: {second}" in (hand.text or "")

    # Sort keeps the selection; the selection lives in the buttons only.
    await bot.press(ALICE, hand, hand_button(hand, "r"))
    assert "Order: by rank" in (hand.text or "")
    assert f"✓{second}" in hand.button_texts
    await bot.press(ALICE, hand, hand_button(hand, "c"))
    assert "Selected" not in (hand.text or "")
    after = await bot.repo.active_table(KEY)
    assert after is not None and after.version == table.version  # nothing was played


async def test_draw_then_discard_by_buttons(bot: Bot) -> None:
    table = await alice_to_play(bot, await two_player_game(bot))
    hand = await bot.hand_message(ALICE, table.id)
    await bot.press(ALICE, hand, button(hand, "Draw"))
    drawn = await bot.repo.active_table(KEY)
    assert drawn is not None and drawn.state is not None and len(drawn.state.hands[0]) == 11
    assert "Your turn: discard a card." in (hand.text or "")  # nothing to meld: seed fixed
    card = drawn.state.hands[0][-1]
    await bot.press(ALICE, hand, button(hand, card_text(card)))
    assert f"Discard {card_text(card)}" in hand.button_texts
    answer = await bot.press(ALICE, hand, button(hand, f"Discard {card_text(card)}"))
    assert answer.text is None and not answer.show_alert
    done = await bot.repo.active_table(KEY)
    assert done is not None and done.state is not None
    assert done.state.discard[-1] == card and done.state.current == 1
    assert "Bob to play." in (hand.text or "")
    assert all(not t.startswith(("Draw", "Discard")) for t in hand.button_texts)


async def test_hint_selects_the_suggested_cards(bot: Bot) -> None:
    table = await alice_to_play(bot, await two_player_game(bot))
    hand = await bot.hand_message(ALICE, table.id)
    answer = await bot.press(ALICE, hand, hand_button(hand, "h"))
    assert answer.text in ("Hint: Draw", f"Hint: Take {card_text(table.state.discard[-1])}")  # type: ignore
    await bot.press(ALICE, hand, button(hand, "Draw"))
    answer = await bot.press(ALICE, hand, hand_button(hand, "h"))
    assert answer.text is not None
    assert answer.text.startswith(("Hint: Meld", "Hint: Discard", "Hint: Lay off"))
    assert "Selected: " in (hand.text or "")


async def test_a_second_press_on_an_outdated_keyboard_is_refused(bot: Bot) -> None:
    table = await alice_to_play(bot, await two_player_game(bot))
    hand = await bot.hand_message(ALICE, table.id)
    draw, take = button(hand, "Draw"), button(hand, "Take ")
    first = bot.tg.press_button(ALICE, hand, draw)  # both pressed before the bot answers
    second = bot.tg.press_button(ALICE, hand, take)
    await bot.tg.wait_for(lambda: len(bot.tg.callback_answers) >= 2, 10)
    await bot.settle()
    answers = {a.query_id: a for a in bot.tg.callback_answers}
    assert answers[first].text is None
    assert answers[second].show_alert
    assert answers[second].text == (
        "This keyboard is out of date; I have refreshed it. Please try again."
    )
    after = await bot.repo.active_table(KEY)
    assert after is not None and after.version == table.version + 1
    assert after.state is not None and after.state.turn.taken is None  # drawn, not taken


async def test_forged_and_foreign_buttons_get_an_alert_and_change_nothing(bot: Bot) -> None:
    table = await alice_to_play(bot, await two_player_game(bot))
    group = await bot.table_message(table.id)
    await bot.start_private(ALICE)  # brings the hand message down: a new message
    hand = await bot.hand_message(ALICE, table.id)
    topic = bot.tg.add_topic(FORUM, "Other")
    await bot.say(BOB, FORUM, "/new", thread_id=topic)
    other = await bot.service.entry.table_info(chat_key(FORUM, topic))
    assert other is not None
    version = (await bot.repo.active_table(KEY)).version  # type: ignore[union-attr]

    unreadable = "I cannot read this button. Send /hand for a fresh keyboard."
    foreign = "This button belongs to another table or player."
    refreshed = "This keyboard is out of date; I have refreshed it. Please try again."
    cases = [
        (group, "not-a-button", unreadable),
        (group, "gj0.1.1..%", unreadable),
        (hand, "hd0.1.3..", unreadable),
        # buttons this bot drew (signed), pressed on a message that is not theirs
        (group, Callback("g", "j", other.id, 1).encode(), foreign),
        (group, Callback("h", "a", 1, 3, arg="0").encode(), foreign),
        (hand, Callback("h", "a", 9, 3, arg="0").encode(), foreign),
        # data this bot did not sign: never carried out; the message it names is redrawn
        (group, f"gj0.{other.id}.1..", unreadable),
        (hand, "ha0.9.3..0", unreadable),
        (group, "gn0.1.1..", refreshed),
        (hand, "ha0.1.3..0", refreshed),
    ]
    for message, data, alert in cases:
        answer = await bot.forge_press(ALICE, message, data)
        assert (answer.show_alert, answer.text) == (True, alert), data
    after = await bot.repo.active_table(KEY)
    assert after is not None and after.version == version

    await bot.say(ALICE, GROUP, "/cancel")
    answer = await bot.forge_press(
        ALICE,
        group,
        group_button(group, "y") if group.buttons else Callback("g", "y", 1, 1).encode(),
    )
    assert answer.text == "This game is over."
    ended = await bot.forge_press(ALICE, hand, Callback("h", "a", 1, 1, arg="0").encode())
    assert ended.text == "This game is over."
    # answered once: a second answerCallbackQuery would be refused ("query is too old");
    # it came within a few milliseconds of the first before the fix
    await asyncio.sleep(1.0)
    for query_id in (answer.query_id, ended.query_id):
        calls = [
            c
            for c in bot.tg.calls_to("answerCallbackQuery")
            if str(c.params.get("callback_query_id")) == query_id
        ]
        assert [c.status for c in calls] == [200], query_id


def joker_seed() -> tuple[int, Card, Card]:
    """A seed whose deal gives Alice (seat 0, first to play) a joker and two cards of a
    run that the joker can extend at either end."""
    rules = make_rules("basic", None, {"jokers": "2"})
    for seed in range(500, 5000):
        state = new_game(rules, ["Alice", "Bob"], seed=seed)
        hand = state.hands[0]
        if state.current != 0 or not any(c.is_joker for c in hand):
            continue
        for low in hand:
            high = Card(low.rank + 1, low.suit) if low.suit is not None else None
            if high in hand and 2 <= low.rank <= 11:
                return seed, low, high
    raise AssertionError("no suitable seed")


async def test_an_ambiguous_joker_offers_one_meld_per_reading(tmp_path: Path) -> None:
    """A joker that could stand for two cards: the selection offers one Meld button per
    reading (the engine lists each as its own legal move), nothing to ask afterwards."""
    seed, low, high = joker_seed()
    async with running_bot(tmp_path / "rummy.sqlite3", first_seed=seed) as bot:
        table = await two_player_game(bot, "jokers=2")
        hand = await bot.hand_message(ALICE, table.id)
        await bot.press(ALICE, hand, button(hand, "Draw"))
        for card in (low, high, Card(0, None)):
            await bot.press(ALICE, hand, button(hand, card_text(card)))
        below = Card(low.rank - 1, low.suit)
        above = Card(high.rank + 1, high.suit)
        readings = sorted(t for t in hand.button_texts if t.startswith("Meld "))
        assert readings == sorted(
            [
                f"Meld 🃏({below.pretty()}) {low.pretty()} {high.pretty()}",
                f"Meld {low.pretty()} {high.pretty()} 🃏({above.pretty()})",
            ]
        )

        answer = await bot.press(ALICE, hand, button(hand, f"Meld {low.pretty()} "))
        assert not answer.show_alert, answer.text
        after = await bot.repo.active_table(KEY)
        assert after is not None and after.state is not None
        [meld] = after.state.melds
        assert meld.kind is MeldKind.RUN and meld.faces == (low, high, above)


async def test_typed_commands_in_the_private_chat_name_the_table(bot: Bot) -> None:
    table = await alice_to_play(bot, await two_player_game(bot))
    topic = bot.tg.add_topic(FORUM, "Second table")
    await bot.say(ALICE, FORUM, "/new", thread_id=topic)
    await bot.say(ALICE, FORUM, "/addbot", thread_id=topic)
    await bot.say(ALICE, FORUM, "/start", thread_id=topic)
    second = await bot.service.entry.table_info(chat_key(FORUM, topic))
    assert second is not None and second.id > table.id

    asked = await bot.say(ALICE, ALICE, f"#{table.id} draw")
    replies = [m for m in bot.tg.private_messages(ALICE) if m.message_id > asked.message_id]
    assert replies[0].text == "(table: Rummy night · table 1)"
    after = await bot.repo.active_table(KEY)
    assert after is not None and after.state is not None and len(after.state.hands[0]) == 11
    # The hand message moved below the command, with its buttons.
    hand = await bot.hand_message(ALICE, table.id)
    assert hand.message_id > asked.message_id and hand.buttons

    await bot.say(ALICE, ALICE, "help")
    assert "(table: Rummy club · table 2)" in (bot.tg.private_messages(ALICE)[-1].text or "")
    await bot.say(ALICE, ALICE, "/new")
    assert bot.tg.private_messages(ALICE)[-1].text == (
        "Open or join tables in a group: add me to a group and send /new there."
    )


async def test_the_hand_keyboard_works_after_a_restart(bot: Bot) -> None:
    table = await alice_to_play(bot, await two_player_game(bot))
    hand = await bot.hand_message(ALICE, table.id)
    await bot.adapter.stop()

    tg = bot.tg
    again = TelegramAdapter(
        tg.token,
        base_url=tg.base_url,
        base_file_url=tg.base_file_url,
        rate_limiter=AIORateLimiter(overall_max_rate=0, group_max_rate=0),
        poll_timeout=1,
    )
    bot.service.notifiers["telegram"] = again.notifier
    await again.start(bot.service.host())
    bot.adapter = again
    try:
        await bot.press(ALICE, hand, button(hand, "Draw"))
        after = await bot.repo.active_table(ChatKey("telegram", str(GROUP)))
        assert after is not None and after.state is not None and len(after.state.hands[0]) == 11
        assert (await bot.hand_message(ALICE, table.id)).message_id == hand.message_id
        assert "Your turn: discard a card." in (hand.text or "")
    finally:
        await again.stop()


async def test_a_hand_message_whose_worker_died_before_noting_it_is_sent_again_and_counted(
    bot: Bot,
) -> None:
    """A private hand message is a keyed send (issue 35 item 8: "sends (pings, new
    messages) carry a key so a retry after a crash between sending and marking is
    detected"): sent, then its worker died before storing it. The next drawing of that hand
    sends it again (nothing to edit) and counts the repeat; from then on it is edited."""
    store = bot.store
    saved = store.save_hand_message

    async def dies_before_noting(row: TelegramHandMessage) -> None:
        if row.user_id == ALICE:
            raise ConnectionError("the worker is killed here")
        await saved(row)

    store.save_hand_message = dies_before_noting  # type: ignore[method-assign]
    table = await two_player_game(bot)
    store.save_hand_message = saved  # type: ignore[method-assign]

    def hands() -> list[FakeMessage]:
        return [m for m in bot.tg.private_messages(ALICE) if "table 1" in (m.text or "")]

    assert len(hands()) == 1 and await store.hand_message(ALICE, table.id) is None
    keyed = bot.handlers.parts.hands.keyed
    assert table.state is not None and table.state.current == 0
    await bot.say(ALICE, ALICE, "draw")  # her hand is drawn again
    assert len(hands()) == 2 and keyed.repeated == 1
    hand = await bot.hand_message(ALICE, table.id)
    assert hand.message_id == hands()[-1].message_id
    card = hand.button_texts[0]
    await bot.press(ALICE, hand, button(hand, card))  # a card selected: edited, not sent
    assert f"Selected: {card}" in (hand.text or "")
    assert len(hands()) == 2 and keyed.repeated == 1
