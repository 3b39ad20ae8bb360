"""The group side on Telegram: commands, the one table message per game with its
buttons, "Start me" for players the bot cannot write to, forum topics, group upgrades,
pings, and what may and may not be answered in the group."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Any

from bot.ports.model import Status, TableSettings, UserRef
from bot.telegram_bot.identity import chat_key
from tests.bot.telegram.support import (
    ALICE,
    BOB,
    CARL,
    FORUM,
    GROUP,
    SUPERGROUP,
    Bot,
    group_button,
    running_bot,
    table_view,
    two_people_two_ais,
    url_buttons,
)
from tests.bot.test_storage_ratings import finish_game

LOBBY_TEXTS = ["Join", "Leave", "+🤖 easy", "+🤖 normal", "+🤖 hard", "+🤖 expert", "Start"]
"""The lobby keyboard: join, leave, an AI seat of each level, start."""


async def table_of(bot: Bot, chat: int, thread: int | None = None) -> int:
    info = await bot.service.entry.table_info(chat_key(chat, thread))
    assert info is not None
    return info.id


async def test_the_command_menu_is_set_in_english_and_german(bot: Bot) -> None:
    english = bot.tg.commands(None, "")
    german = bot.tg.commands(None, "de")
    names = [
        "new",
        "join",
        "leave",
        "start",
        "addbot",
        "settings",
        "cancel",
        "hand",
        "rules",
        "stats",
        "top",
        "season",
        "replay",
        "help",
        "lang",
        "coach",
    ]
    assert [c["command"] for c in english] == names
    assert [c["command"] for c in german] == names
    assert english[0]["description"] == "Open a table in this chat"
    assert german[0]["description"] != english[0]["description"]
    assert bot.tg.visible_commands(BOB) == german  # Bob's app speaks German


async def test_one_table_message_per_game_is_edited_in_place(bot: Bot) -> None:
    await bot.start_private(ALICE)
    await bot.start_private(BOB)
    await bot.say(ALICE, GROUP, "/new deals=1")
    table_id = await table_of(bot, GROUP)
    message = await bot.table_message(table_id)
    # signed: the data before the signature
    assert [d.rsplit(".", 1)[0] for d in message.callback_data] == [
        "gj0.1.1..",
        "gl0.1.1..",
        "ga0.1.1..easy",
        "ga0.1.1..normal",
        "ga0.1.1..hard",
        "ga0.1.1..expert",
        "gs0.1.1..",
    ]
    assert message.button_texts == LOBBY_TEXTS

    await bot.say(BOB, GROUP, "/join")
    await bot.press(ALICE, message, group_button(message, "a", "hard"))
    await bot.say(ALICE, GROUP, f"/start@{bot.tg.bot.username}")

    assert [m.message_id for m in bot.tg.messages(GROUP) if m.reply_markup] == [message.message_id]
    assert "Players (2 of 2-6)" in (message.texts[1] or "")
    assert "AI player Ada joined the table." in (message.texts[2] or "")
    assert "Ada (AI, hard)" in (message.texts[2] or "")  # the level its button named
    assert "The game has started. Good luck!" in (message.text or "")
    assert message.button_texts == ["My hand"]
    assert len(message.text or "") <= 4096


async def test_a_player_the_bot_cannot_reach_joins_once_they_press_start(bot: Bot) -> None:
    await bot.start_private(ALICE)
    await bot.say(ALICE, GROUP, "/new")
    table_id = await table_of(bot, GROUP)

    asked = await bot.say(BOB, GROUP, "/join")
    [reply] = [m for m in bot.tg.messages(GROUP) if m.reply_to_id == asked.message_id]
    link = f"https://t.me/{bot.tg.bot.username}?start=t1"
    assert url_buttons(reply) == [link]
    table = await bot.table_message(table_id)
    assert url_buttons(table) == [link]
    assert "I cannot write to Bob yet" in (table.text or "")
    info = await bot.service.entry.table_info(chat_key(GROUP, None))
    assert info is not None and len(info.seats) == 1

    await bot.start_private(BOB, "t1")
    info = await bot.service.entry.table_info(chat_key(GROUP, None))
    assert info is not None and [s.name for s in info.seats] == ["Alice", "Bob"]
    assert url_buttons(table) == []
    [welcome] = bot.tg.private_messages(BOB)
    assert "Rummy night" in (welcome.text or "")


async def test_a_host_who_never_started_the_bot_gets_the_link_and_then_the_hand(bot: Bot) -> None:
    await bot.start_private(BOB)
    await bot.say(ALICE, GROUP, "/new")
    table_id = await table_of(bot, GROUP)
    table = await bot.table_message(table_id)
    assert "I cannot write to Alice yet" in (table.text or "")
    await bot.say(BOB, GROUP, "/join")
    await bot.say(ALICE, GROUP, "/start")
    assert await bot.store.hand_message(ALICE, table_id) is None  # not reachable yet
    assert "I cannot write to Alice yet" in (table.text or "")

    await bot.start_private(ALICE, "t1")
    hand = await bot.hand_message(ALICE, table_id)
    assert "Your hand (10 cards)" in (hand.text or "")
    assert "I cannot write to Alice yet" not in (table.text or "")


async def test_forum_topics_are_separate_tables(bot: Bot) -> None:
    first = bot.tg.add_topic(FORUM, "Table 1")
    second = bot.tg.add_topic(FORUM, "Table 2")
    await bot.start_private(ALICE)
    await bot.start_private(BOB)
    await bot.say(ALICE, FORUM, "/new", thread_id=first)
    await bot.say(BOB, FORUM, "/new wrotham", thread_id=second)

    one, two = await table_of(bot, FORUM, first), await table_of(bot, FORUM, second)
    assert one != two
    assert (await bot.table_message(one)).thread_id == first
    assert (await bot.table_message(two)).thread_id == second
    await bot.say(BOB, FORUM, "/join", thread_id=first)
    info = await bot.service.entry.table_info(chat_key(FORUM, first))
    assert info is not None and [s.name for s in info.seats] == ["Alice", "Bob"]
    assert "preset" not in (info.preset or "")


async def test_a_group_upgraded_to_a_supergroup_keeps_its_table(bot: Bot) -> None:
    await bot.start_private(ALICE)
    await bot.start_private(BOB)
    await bot.say(ALICE, GROUP, "/new")
    table_id = await table_of(bot, GROUP)

    bot.tg.migrate_group(GROUP, SUPERGROUP, by=ALICE)
    await bot.tg.wait_for(lambda: bot.tg.messages(SUPERGROUP), 10)
    await bot.say(BOB, SUPERGROUP, "/join")

    info = await bot.service.entry.table_info(chat_key(GROUP, None))
    assert info is not None and info.id == table_id
    assert [s.name for s in info.seats] == ["Alice", "Bob"]
    moved = await bot.table_message(table_id)
    assert moved.chat_id == SUPERGROUP
    assert moved.button_texts == LOBBY_TEXTS
    assert "Bob joined the table." in (moved.text or "")
    await bot.press(ALICE, moved, group_button(moved, "s"))
    assert (await bot.service.entry.table_info(info.key)).status is Status.PLAYING  # type: ignore


async def test_turn_pings_mention_the_player_once_per_turn(bot: Bot) -> None:
    await bot.start_private(CARL)
    await bot.start_private(BOB)
    await bot.say(CARL, GROUP, "/new")
    await bot.say(BOB, GROUP, "/join")
    await bot.say(CARL, GROUP, "/start")
    pings = [m for m in bot.tg.messages(GROUP) if m.entities]
    [ping] = pings
    [sent] = [c for c in bot.tg.calls_to("sendMessage") if c.params.get("parse_mode")]
    assert (sent.params["parse_mode"], sent.params["chat_id"]) == ("HTML", GROUP)
    assert "Carl &lt;3" in sent.params["text"] or "Bob" in sent.params["text"]
    mention = ping.entities[0]
    assert mention["type"] == "text_mention"
    player = "Carl <3" if mention["user"]["id"] == CARL else "Bob"
    assert ping.text == f"{player}, it is your turn."

    # Drawing is a change inside the same turn: no second ping.
    await bot.say(mention["user"]["id"], GROUP, "/draw")
    assert [m for m in bot.tg.messages(GROUP) if m.entities] == [ping]


GROUP_WRITES = ("sendmessage", "editmessagetext", "editmessagereplymarkup", "deletemessage")


def group_calls(bot: Bot) -> list[str]:
    """The Bot API calls that wrote to the group so far, by method (lower case)."""
    return [
        c.method.lower()
        for c in bot.tg.calls
        if c.method.lower() in GROUP_WRITES and str(c.params.get("chat_id")) == str(GROUP)
    ]


async def test_a_turn_costs_at_most_two_group_calls(bot: Bot) -> None:
    """Telegram allows about 20 calls a minute in a group: a turn edits the table message
    and pings by a new message only when the person to move changed; nothing is deleted.
    Two people and two AI seats play 12 human turns by typed commands."""
    people = await two_people_two_ais(bot)
    key = chat_key(GROUP, None)
    human_turns = 0
    while human_turns < 12:
        info, view = await table_view(bot, key)
        assert view is not None and info.status is Status.PLAYING and view.current is not None
        user = info.seats[view.current].user
        if user not in people:
            await bot.tick(2.0)
            continue
        before = len(group_calls(bot))
        player = people[user]
        ref = UserRef("telegram", str(player), "")
        for _step in range(2):
            commands = await bot.service.entry.legal_commands(key, ref)
            move = (
                "draw"
                if "draw" in commands
                else next(c for c in commands if c.startswith("discard"))
            )
            await bot.say(player, GROUP, f"/{move}")
        human_turns += 1
        calls = group_calls(bot)[before:]
        assert len(calls) <= 2 and "deletemessage" not in calls, calls
    assert "deletemessage" not in group_calls(bot)
    pinged = [m.entities[0]["user"]["id"] for m in bot.tg.messages(GROUP) if m.entities]
    assert set(pinged) == {CARL, BOB}
    assert all(a != b for a, b in pairwise(pinged)), pinged


async def test_private_answers_never_fall_back_to_the_group_when_they_show_cards(bot: Bot) -> None:
    await bot.start_private(BOB)
    await bot.say(ALICE, GROUP, "/new")  # Alice never opened the bot
    await bot.say(BOB, GROUP, "/join")
    await bot.say(ALICE, GROUP, "/start")
    asked = await bot.say(ALICE, GROUP, "/hand")
    [reply] = [m for m in bot.tg.messages(GROUP) if m.reply_to_id == asked.message_id]
    assert reply.text == "Alice, I cannot write to you privately yet: press Start me, then Start."
    assert url_buttons(reply) == [f"https://t.me/{bot.tg.bot.username}?start=t1"]
    assert not any("Your hand" in (m.text or "") for m in bot.tg.messages(GROUP))

    await bot.say(CARL, GROUP, "/hand")  # not seated, and not a secret: said in the group
    await bot.say(BOB, GROUP, "/rules")
    texts = [m.text or "" for m in bot.tg.messages(GROUP)]
    assert "You are not playing at this table." in texts
    assert "Ich habe es dir privat geschickt." in texts  # in Bob's language
    assert any("Einfaches Rommé" in (m.text or "") for m in bot.tg.private_messages(BOB))


async def test_cancel_is_for_the_host_or_a_chat_admin(bot: Bot) -> None:
    await bot.start_private(ALICE)
    await bot.start_private(BOB)
    await bot.say(ALICE, GROUP, "/new")
    table_id = await table_of(bot, GROUP)
    await bot.say(BOB, GROUP, "/cancel")
    assert await bot.service.entry.table_info(chat_key(GROUP, None)) is not None
    await bot.say(CARL, GROUP, "/cancel")  # Carl administers the group
    assert await bot.service.entry.table_info(chat_key(GROUP, None)) is None
    table = await bot.table_message(table_id)
    assert table.buttons == []
    assert "The game was cancelled." in (table.text or "")


async def test_season_new_is_for_the_host_or_a_chat_admin(bot: Bot) -> None:
    """`/season new` typed in the group (issue 47: a chat's host starts a new season):
    anyone else is refused (privately, in their language) and nothing changes; the host's
    answer in the group with the ended season's standings and the new number; a season
    with no rated game goes on (an admin pressing right after is told so)."""
    key = str(chat_key(GROUP, None))
    # a game of the chat rated in its season 1 (a season without one goes on)
    await finish_game(
        bot.service.repo,
        [f"telegram:{ALICE}", f"telegram:{BOB}"],
        [120, 10],
        chat=chat_key(GROUP, None),
    )
    await bot.start_private(ALICE)
    await bot.start_private(BOB)
    await bot.say(ALICE, GROUP, "/new")  # Alice hosts the chat's table

    async def answer(user: int, text: str) -> str:
        asked = await bot.say(user, GROUP, text)
        [reply] = [m for m in bot.tg.messages(GROUP) if m.message_id > asked.message_id]
        return reply.text or ""

    async def refusal(user: int, text: str) -> str | None:
        asked = await bot.say(user, GROUP, text)
        assert [m for m in bot.tg.messages(GROUP) if m.message_id > asked.message_id] == []
        return bot.tg.private_messages(user)[-1].text

    assert await refusal(BOB, "/saison neu") == "Nur der Gastgeber kann eine neue Saison beginnen."
    assert await refusal(ALICE, "/season") == (
        "'season' is not understood; to start a new season: season new"
    )
    assert await bot.service.repo.current_season(0.0, key) == 1
    assert (await answer(ALICE, "/season new")).splitlines() == [
        "Season 1 is over. Final standings:",
        "Nobody had 3 rated games in season 1.",
        "Season 2 begins now; see it with top, the last one with top season 1.",
    ]
    # Carl administers the group; season 2 has no rated game yet, so it goes on. The bot
    # may not write to Carl privately, so he is told in the group
    assert await answer(CARL, f"/season@{bot.tg.bot.username} new") == (
        "Season 2 has no rated game yet, so it goes on; finish a game first."
    )
    assert await bot.service.repo.current_season(0.0, key) == 2
    assert (await answer(ALICE, "/top season 2")).startswith(
        "Nobody has 3 rated games of Basic Rummy in season 2 yet."
    )
    await bot.say(ALICE, ALICE, "/season new")  # the private chat: a group command
    assert await bot.service.repo.current_season(0.0, key) == 2


async def test_settings_are_shown_and_changed(bot: Bot) -> None:
    await bot.start_private(ALICE)
    await bot.say(ALICE, GROUP, "/settings")
    assert "no game here" in (bot.tg.messages(GROUP)[-1].text or "")
    await bot.say(ALICE, GROUP, "/new")
    await bot.say(ALICE, GROUP, "/settings timer=2m deals=3")
    await bot.say(ALICE, GROUP, "/settings")
    shown = bot.tg.messages(GROUP)[-1].text or ""
    assert "Turn timer: 2m" in shown and "deals=3" in shown
    assert "/settings name=value" in shown


async def test_settings_alone_asks_the_service_once_and_shows_them_to_anyone(bot: Bot) -> None:
    """Issue 44 item 5: "A front end asks the entry point at most once per update": Bob, not
    the host, asks for the settings and gets them, in German, from one call."""
    await bot.start_private(ALICE)
    await bot.say(ALICE, GROUP, "/new deals=3")
    entry = bot.service.entry
    calls: list[str] = []
    for name in ("handle", "table_info", "table_by_id", "screens", "locale_of", "tables_of"):
        real = getattr(entry, name)

        def counted(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            calls.append(_name)
            return _real(*args, **kwargs)

        setattr(entry, name, counted)
    try:
        await bot.say(BOB, GROUP, "/settings")
    finally:
        for name in list(vars(entry)):
            if name in ("handle", "table_info", "table_by_id", "screens", "locale_of", "tables_of"):
                delattr(entry, name)
    assert calls == ["handle"]
    shown = bot.tg.messages(GROUP)[-1].text or ""
    assert "deals=3" in shown and "/settings name=value" not in shown  # Bob reads German
    assert "Tisch: " in shown


async def test_export_waits_until_the_game_is_over(bot: Bot) -> None:
    await bot.start_private(ALICE)
    await bot.start_private(BOB)
    await bot.say(ALICE, GROUP, "/new")
    await bot.say(BOB, GROUP, "/join")
    await bot.say(ALICE, GROUP, "/start")
    await bot.say(ALICE, GROUP, "/export")
    texts = [m.text or "" for m in bot.tg.messages(GROUP)] + [
        m.text or "" for m in bot.tg.private_messages(ALICE)
    ]
    assert "A game can be exported once it is over." in texts
    assert not any("seed" in t for t in texts)
    await bot.say(ALICE, GROUP, "/cancel")
    await bot.say(ALICE, GROUP, "/export")
    assert any('"seed"' in (m.text or "") for m in bot.tg.private_messages(ALICE))


async def test_leaving_before_the_private_chat_works_clears_the_link(bot: Bot) -> None:
    await bot.start_private(ALICE)
    await bot.say(ALICE, GROUP, "/new")
    table = await bot.table_message(await table_of(bot, GROUP))
    await bot.press(BOB, table, group_button(table, "j"))
    assert url_buttons(table)
    answer = await bot.press(BOB, table, group_button(table, "l"))
    assert not answer.show_alert
    assert url_buttons(table) == [] and "Bob" not in (table.text or "")


async def test_the_turn_timer_warns_in_the_group_and_the_ai_plays_a_missed_turn(
    tmp_path: Path,
) -> None:
    settings = TableSettings(timer="30s", ai_delay=1.0, next_deal_delay=2.0)
    async with running_bot(tmp_path / "rummy.sqlite3", settings=settings) as bot:
        await bot.start_private(ALICE)
        await bot.start_private(BOB)
        await bot.say(ALICE, GROUP, "/new")
        await bot.say(BOB, GROUP, "/join")
        await bot.say(ALICE, GROUP, "/start")
        table = await bot.repo.active_table(chat_key(GROUP, None))
        assert table is not None and table.state is not None
        name = table.seats[table.state.current].name
        await bot.tick(25)  # 30 s turns are warned 6 s before the end
        # the turn ping stays (nothing is deleted), the warning follows it
        ping, warning = [m for m in bot.tg.messages(GROUP) if m.entities]
        assert ping.text == f"{name}, it is your turn."
        assert warning.text == f"{name}, your turn ends in 5 s."
        await bot.tick(6)
        texts = [m.text or "" for m in bot.tg.messages(GROUP)]
        assert any(f"{name}'s time ran out; the AI played this turn." in t for t in texts)
        after = await bot.repo.active_table(chat_key(GROUP, None))
        assert after is not None and after.state is not None
        assert after.state.current != table.state.current
