"""The fake Telegram Bot API server (tests/fakes/telegram), checked two ways.

1. The real python-telegram-bot 22 stack (``Application`` + ``Updater`` long
   polling) runs against it through ``ApplicationBuilder().base_url(...)``, exactly
   as the bot will run against Telegram.
2. Plain HTTP calls check Telegram's limits and error texts directly.

Every wait is bounded (``FakeTelegram.wait_for``, a few seconds); nothing sleeps.
"""

from __future__ import annotations

import asyncio
import html
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import pytest
from hypothesis import given
from hypothesis import strategies as st
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import BadRequest, ChatMigrated, Forbidden, InvalidToken
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from tests.fakes.telegram import DEFAULT_TOKEN, FakeTelegram, running_fake_telegram
from tests.fakes.telegram.errors import ApiError
from tests.fakes.telegram.formatting import format_text

ALICE = 1001
BOB = 1002
GROUP = -4001  # a basic group
SUPERGROUP = -1001234567890
FORUM = -1009876543210
WAIT = 5.0  # seconds; every wait in this file is bounded by it

BUTTON_64_BYTES = "é" * 32  # 32 characters, 64 UTF-8 bytes: the maximum
BUTTON_65_BYTES = "é" * 32 + "x"


def keyboard(*data: str) -> InlineKeyboardMarkup:
    """One row of buttons labelled and keyed by ``data``."""
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(d[:10] or "?", callback_data=d) for d in data]]
    )


@dataclass
class PingBot:
    """A PTB application polling the fake, and what its handlers observed."""

    app: Application[Any, Any, Any, Any, Any, Any]
    errors: list[BaseException] = field(default_factory=list)
    migrations: list[tuple[int, int]] = field(default_factory=list)


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    """A running fake Telegram with Alice, Bob, a basic group and a forum."""
    async with running_fake_telegram() as server:
        server.add_user(ALICE, "Alice", "alice")
        server.add_user(BOB, "Bob", "bob", language_code="de")
        server.add_group(GROUP, "Rummy night")
        server.add_group(FORUM, "Rummy club", forum=True)
        yield server


@pytest.fixture
async def bot(tg: FakeTelegram) -> AsyncIterator[PingBot]:
    """The real PTB stack, long polling the fake."""
    app = (
        ApplicationBuilder()
        .token(tg.token)
        .base_url(tg.base_url)
        .base_file_url(tg.base_file_url)
        .build()
    )
    probe = PingBot(app)

    async def ping(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None
        await update.effective_message.reply_text("pong", reply_markup=keyboard("again"))

    async def pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None
        await query.answer("Counted!")
        await query.edit_message_text("pong ×2", reply_markup=keyboard("stop"))

    async def long(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None
        await update.effective_message.reply_text("x" * 4097)

    async def fat(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None
        await update.effective_message.reply_text("max", reply_markup=keyboard(BUTTON_64_BYTES))
        await update.effective_message.reply_text("over", reply_markup=keyboard(BUTTON_65_BYTES))

    async def dm(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_user is not None
        await context.bot.send_message(update.effective_user.id, "Your hand: 7♥ 8♥ 9♥")

    async def migrated(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        assert message is not None
        if message.migrate_to_chat_id:
            probe.migrations.append((message.chat_id, message.migrate_to_chat_id))

    async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert context.error is not None
        probe.errors.append(context.error)

    app.add_handler(CommandHandler("ping", ping))
    app.add_handler(CommandHandler("long", long))
    app.add_handler(CommandHandler("fat", fat))
    app.add_handler(CommandHandler("dm", dm))
    app.add_handler(CallbackQueryHandler(pressed, pattern="^again$"))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, migrated))
    app.add_error_handler(on_error)

    await app.initialize()
    await app.start()
    assert app.updater is not None
    await app.updater.start_polling(poll_interval=0, timeout=1)
    try:
        yield probe
    finally:
        await app.updater.stop()
        await app.stop()
        await app.shutdown()


# --- the real PTB stack against the fake ---------------------------------------------------


async def test_ping_in_a_group_gets_pong_with_a_button(tg: FakeTelegram, bot: PingBot) -> None:
    asked = tg.send_text(ALICE, GROUP, "/ping")

    [pong] = await tg.wait_for(lambda: tg.messages(GROUP), WAIT)

    assert pong.text == "pong"
    assert pong.callback_data == ["again"]
    assert pong.reply_to_id == asked.message_id  # PTB quotes in groups by default
    assert bot.errors == []
    # PTB 22 sends form-encoded bodies (JSON-encoded values), not application/json.
    [call] = tg.calls_to("sendMessage")
    assert call.content_type == "application/x-www-form-urlencoded"
    assert call.params["chat_id"] == GROUP


async def test_pressing_the_button_answers_the_query_and_edits_the_message(
    tg: FakeTelegram, bot: PingBot
) -> None:
    tg.send_text(ALICE, GROUP, "/ping")
    [pong] = await tg.wait_for(lambda: tg.messages(GROUP), WAIT)

    query_id = tg.press_button(ALICE, pong, "again")
    await tg.wait_for(lambda: tg.callback_answers and pong.history, WAIT)

    [answer] = tg.callback_answers
    assert (answer.query_id, answer.user_id, answer.text) == (query_id, ALICE, "Counted!")
    assert pong.texts == ["pong", "pong ×2"]
    assert pong.callback_data == ["stop"]
    with pytest.raises(LookupError):  # the old button is gone from the current keyboard
        tg.press_button(ALICE, pong, "again")


async def test_a_too_long_message_surfaces_ptbs_bad_request(tg: FakeTelegram, bot: PingBot) -> None:
    tg.send_text(ALICE, GROUP, "/long")

    [error] = await tg.wait_for(lambda: bot.errors, WAIT)

    assert isinstance(error, BadRequest)
    assert error.message == "Message is too long"  # PTB strips "Bad Request: ", capitalizes
    assert tg.messages(GROUP) == []


async def test_callback_data_is_limited_to_64_bytes(tg: FakeTelegram, bot: PingBot) -> None:
    tg.send_text(ALICE, GROUP, "/fat")

    [error] = await tg.wait_for(lambda: bot.errors, WAIT)

    assert isinstance(error, BadRequest)
    assert error.message == "Button_data_invalid"  # str.capitalize() of BUTTON_DATA_INVALID
    [sent] = tg.messages(GROUP)
    assert sent.callback_data == [BUTTON_64_BYTES]


async def test_the_bot_cannot_write_first_to_a_user_who_never_started_it(
    tg: FakeTelegram, bot: PingBot
) -> None:
    tg.send_text(ALICE, GROUP, "/dm")
    [error] = await tg.wait_for(lambda: bot.errors, WAIT)
    assert isinstance(error, Forbidden)
    assert error.message == "Forbidden: bot can't initiate conversation with a user"

    tg.start_private(ALICE, payload="join-4001")
    tg.send_text(ALICE, GROUP, "/dm")
    [hand] = await tg.wait_for(lambda: tg.private_messages(ALICE), WAIT)
    assert hand.text == "Your hand: 7♥ 8♥ 9♥"


async def test_forum_topic_thread_ids_are_preserved(tg: FakeTelegram, bot: PingBot) -> None:
    table = tg.add_topic(FORUM, "Table 1")
    other = tg.add_topic(FORUM, "Table 2")

    tg.send_text(BOB, FORUM, "/ping", thread_id=table)
    [pong] = await tg.wait_for(lambda: tg.messages(FORUM, table), WAIT)

    assert (pong.thread_id, pong.is_topic_message) == (table, True)
    assert tg.messages(FORUM, other) == []
    assert tg.calls_to("sendMessage")[0].params["message_thread_id"] == table
    tg.press_button(BOB, pong, "again")
    await tg.wait_for(lambda: pong.history, WAIT)
    assert pong.thread_id == table


async def test_group_migration_reaches_the_bot_and_the_old_id_raises_chat_migrated(
    tg: FakeTelegram, bot: PingBot
) -> None:
    tg.send_text(ALICE, GROUP, "/ping")
    await tg.wait_for(lambda: tg.messages(GROUP), WAIT)

    tg.migrate_group(GROUP, SUPERGROUP, by=ALICE)
    await tg.wait_for(lambda: bot.migrations, WAIT)

    assert bot.migrations == [(GROUP, SUPERGROUP)]
    with pytest.raises(ChatMigrated) as caught:
        await bot.app.bot.send_message(GROUP, "still there?")
    assert caught.value.new_chat_id == SUPERGROUP


async def test_ptb_rejects_a_foreign_token(tg: FakeTelegram) -> None:
    stranger = Bot("987654321:SomeoneElsesToken", base_url=tg.base_url)
    with pytest.raises(InvalidToken):
        async with stranger:  # initialize() calls getMe
            pass
    assert tg.calls_to("getMe")[0].status == 401


# --- simulated users (no HTTP) --------------------------------------------------------------


async def test_privacy_mode_hides_ordinary_group_messages(tg: FakeTelegram) -> None:
    chatter = tg.send_text(ALICE, GROUP, "anyone for a round?")
    other_bot = tg.send_text(ALICE, GROUP, "/ping@SomeOtherBot")
    addressed = tg.send_text(ALICE, GROUP, f"/new@{tg.bot.username} 4 players")

    assert chatter.update_id is None
    assert other_bot.update_id is None
    assert addressed.update_id is not None
    assert addressed.entities == [{"type": "bot_command", "offset": 0, "length": 17}]


async def test_users_cannot_act_where_telegram_would_not_let_them(tg: FakeTelegram) -> None:
    with pytest.raises(ValueError, match="start_private"):
        tg.send_text(ALICE, ALICE, "hello bot")
    with pytest.raises(ValueError, match="forum topic"):
        tg.send_text(ALICE, FORUM, "/ping", thread_id=999)
    with pytest.raises(ValueError, match="payload"):
        tg.start_private(ALICE, payload="not allowed!")


# --- plain HTTP: Telegram's answers and limits ----------------------------------------------


async def call(
    tg: FakeTelegram,
    method: str,
    encoding: str = "json",
    token: str | None = None,
    **params: Any,
) -> tuple[int, dict[str, Any]]:
    """POST one Bot API call; ``encoding`` is "json", "form" or "multipart"."""
    url = tg.method_url(method, token)
    async with aiohttp.ClientSession() as session:
        if encoding == "json":
            request = session.post(url, json=params)
        else:
            fields = {k: v if isinstance(v, str) else json.dumps(v) for k, v in params.items()}
            if encoding == "form":
                request = session.post(url, data=fields)
            else:
                form = aiohttp.FormData()
                for name, value in fields.items():
                    form.add_field(name, value)
                form.add_field("unused_upload", b"\x00", filename="x.bin")  # forces multipart
                request = session.post(url, data=form)
        async with request as response:
            return response.status, await response.json()


def bad(description: str) -> tuple[int, dict[str, Any]]:
    """Telegram's 400 answer."""
    return 400, {"ok": False, "error_code": 400, "description": f"Bad Request: {description}"}


@pytest.mark.parametrize("encoding", ["json", "form", "multipart"])
async def test_every_encoding_sends_the_same_message(tg: FakeTelegram, encoding: str) -> None:
    status, body = await call(
        tg,
        "sendMessage",
        encoding,
        chat_id=GROUP,
        text="<b>Round 1</b>",
        parse_mode="HTML",
        reply_markup={"inline_keyboard": [[{"text": "Draw", "callback_data": "draw"}]]},
    )

    assert status == 200 and body["ok"] is True
    message = body["result"]
    assert message["text"] == "Round 1"
    assert message["entities"] == [{"type": "bold", "offset": 0, "length": 7}]
    assert message["reply_markup"] == {
        "inline_keyboard": [[{"text": "Draw", "callback_data": "draw"}]]
    }
    assert message["from"]["id"] == tg.bot.id and message["from"]["is_bot"] is True
    assert message["chat"] == {"id": GROUP, "type": "group", "title": "Rummy night"}


async def test_unknown_methods_and_tokens_are_answered_like_telegram(tg: FakeTelegram) -> None:
    assert await call(tg, "sendCarrierPigeon") == (
        404,
        {"ok": False, "error_code": 404, "description": "Not Found"},
    )
    assert await call(tg, "getMe", token="987654321:NotThisBot") == (
        401,
        {"ok": False, "error_code": 401, "description": "Unauthorized"},
    )
    assert (await call(tg, "getMe", token="malformed"))[0] == 404
    status, body = await call(tg, "GETME")  # method names are case-insensitive
    assert status == 200 and body["result"]["username"] == "RummyTestBot"


async def test_message_text_must_have_1_to_4096_characters(tg: FakeTelegram) -> None:
    assert (await call(tg, "sendMessage", chat_id=GROUP, text="x" * 4096))[0] == 200
    assert (await call(tg, "sendMessage", chat_id=GROUP, text="🂡" * 4096))[0] == 200
    assert await call(tg, "sendMessage", chat_id=GROUP, text="x" * 4097) == bad(
        "message is too long"
    )
    long_markup = "<b>" + "x" * 4096 + "</b>"  # the limit applies after entity parsing
    assert (await call(tg, "sendMessage", chat_id=GROUP, text=long_markup, parse_mode="HTML"))[
        0
    ] == 200
    assert await call(tg, "sendMessage", chat_id=GROUP, text="") == bad("message text is empty")
    assert await call(tg, "sendMessage", chat_id=GROUP, text=" \n ") == bad("message text is empty")
    assert await call(tg, "sendMessage", chat_id=GROUP, text="<b></b>", parse_mode="HTML") == bad(
        "message text is empty"
    )


@pytest.mark.parametrize(
    ("text", "parse_mode", "reason"),
    [
        ("<foo>x</foo>", "HTML", 'Unsupported start tag "foo" at byte offset 0'),
        ("<b>x", "HTML", 'Can\'t find end tag corresponding to start tag "b"'),
        ("<b>x</i>", "HTML", 'Unmatched end tag at byte offset 4, expected "</b>", found "</i>"'),
        ("3 < 4", "HTML", 'Unsupported start tag "" at byte offset 2'),
        ("x <", "HTML", "Unclosed start tag at byte offset 2"),
        (
            "Meld 7♥ 8♥ 9♥.",
            "MarkdownV2",
            "Character '.' is reserved and must be escaped with the preceding '\\'",
        ),
        ("*bold", "MarkdownV2", "Can't find end of Bold entity at byte offset 0"),
        ("_x", "Markdown", "Can't find end of the entity starting at byte offset 0"),
    ],
)
async def test_markup_errors_use_telegrams_words(
    tg: FakeTelegram, text: str, parse_mode: str, reason: str
) -> None:
    answer = await call(tg, "sendMessage", chat_id=GROUP, text=text, parse_mode=parse_mode)
    assert answer == bad(f"can't parse entities: {reason}")


async def test_valid_markup_becomes_entities(tg: FakeTelegram) -> None:
    _, body = await call(
        tg, "sendMessage", chat_id=GROUP, text="*Meld* 7♥ 8♥ 9♥\\!", parse_mode="MarkdownV2"
    )
    assert body["result"]["text"] == "Meld 7♥ 8♥ 9♥!"
    assert body["result"]["entities"] == [{"type": "bold", "offset": 0, "length": 4}]
    _, body = await call(tg, "sendMessage", chat_id=GROUP, text="🂡 <i>ace</i>", parse_mode="html")
    assert body["result"]["entities"] == [{"type": "italic", "offset": 3, "length": 3}]


@pytest.mark.parametrize(
    ("data", "status", "description"),
    [
        (BUTTON_64_BYTES, 200, None),
        (BUTTON_65_BYTES, 400, "Bad Request: BUTTON_DATA_INVALID"),
        ("", 400, "Bad Request: BUTTON_DATA_INVALID"),
    ],
)
async def test_callback_data_is_1_to_64_bytes(
    tg: FakeTelegram, data: str, status: int, description: str | None
) -> None:
    markup = {"inline_keyboard": [[{"text": "Go", "callback_data": data}]]}
    answer = await call(tg, "sendMessage", chat_id=GROUP, text="t", reply_markup=markup)
    assert (answer[0], answer[1].get("description")) == (status, description)


async def test_a_button_without_an_action_is_refused(tg: FakeTelegram) -> None:
    markup = {"inline_keyboard": [[{"text": "Go"}]]}
    assert await call(tg, "sendMessage", chat_id=GROUP, text="t", reply_markup=markup) == bad(
        "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"
    )


async def test_editing_follows_telegrams_rules(tg: FakeTelegram) -> None:
    markup = {"inline_keyboard": [[{"text": "Draw", "callback_data": "draw"}]]}
    _, body = await call(tg, "sendMessage", chat_id=GROUP, text="Your turn", reply_markup=markup)
    message_id = body["result"]["message_id"]
    edit = {"chat_id": GROUP, "message_id": message_id}

    assert await call(tg, "editMessageText", text="Your turn", reply_markup=markup, **edit) == bad(
        "message is not modified: specified new message content and reply markup are exactly "
        "the same as a current content and reply markup of the message"
    )
    assert await call(tg, "editMessageReplyMarkup", reply_markup=markup, **edit) == bad(
        "message is not modified: specified new message content and reply markup are exactly "
        "the same as a current content and reply markup of the message"
    )
    assert await call(tg, "editMessageText", chat_id=GROUP, message_id=999, text="x") == bad(
        "message to edit not found"
    )
    # Omitting reply_markup removes the keyboard, as on Telegram.
    status, body = await call(tg, "editMessageText", text="Bob's turn", **edit)
    assert status == 200 and "reply_markup" not in body["result"]
    assert body["result"]["edit_date"] >= body["result"]["date"]
    [message] = tg.messages(GROUP)
    assert message.texts == ["Your turn", "Bob's turn"]
    assert message.history[0].reply_markup == markup
    assert await call(tg, "deleteMessage", **edit) == (200, {"ok": True, "result": True})
    assert await call(tg, "deleteMessage", **edit) == bad("message to delete not found")
    assert tg.messages(GROUP) == []


async def test_callback_queries_are_answered_once(tg: FakeTelegram) -> None:
    markup = {"inline_keyboard": [[{"text": "Draw", "callback_data": "draw"}]]}
    _, body = await call(tg, "sendMessage", chat_id=GROUP, text="Your turn", reply_markup=markup)
    query_id = tg.press_button(BOB, (GROUP, body["result"]["message_id"]), "draw")
    too_old = bad("query is too old and response timeout expired or query ID is invalid")

    assert await call(tg, "answerCallbackQuery", callback_query_id=query_id, text="x" * 201) == bad(
        "MESSAGE_TOO_LONG"
    )
    assert await call(tg, "answerCallbackQuery", callback_query_id=query_id, text="x" * 200) == (
        200,
        {"ok": True, "result": True},
    )
    assert await call(tg, "answerCallbackQuery", callback_query_id=query_id) == too_old
    assert await call(tg, "answerCallbackQuery", callback_query_id="12345") == too_old
    [answer] = tg.callback_answers
    assert (answer.user_id, answer.data, answer.chat_id) == (BOB, "draw", GROUP)


async def test_callback_queries_expire() -> None:
    now = [1_700_000_000.0]
    async with running_fake_telegram(clock=lambda: now[0]) as tg:
        tg.add_user(ALICE, "Alice")
        tg.add_group(GROUP, "Rummy night")
        markup = {"inline_keyboard": [[{"text": "Draw", "callback_data": "draw"}]]}
        _, body = await call(tg, "sendMessage", chat_id=GROUP, text="t", reply_markup=markup)
        assert body["result"]["date"] == 1_700_000_000
        query_id = tg.press_button(ALICE, (GROUP, body["result"]["message_id"]), "draw")
        now[0] += 15.5  # Telegram gives the bot about 15 seconds
        assert await call(tg, "answerCallbackQuery", callback_query_id=query_id) == bad(
            "query is too old and response timeout expired or query ID is invalid"
        )


async def test_private_chats_need_start_and_stop_on_block(tg: FakeTelegram) -> None:
    forbidden = (
        403,
        {
            "ok": False,
            "error_code": 403,
            "description": "Forbidden: bot can't initiate conversation with a user",
        },
    )
    assert await call(tg, "sendMessage", chat_id=ALICE, text="hi") == forbidden
    assert await call(tg, "sendChatAction", chat_id=ALICE, action="typing") == forbidden
    tg.start_private(ALICE)
    assert (await call(tg, "sendMessage", chat_id=ALICE, text="hi"))[0] == 200
    tg.block_bot(ALICE)
    status, body = await call(tg, "sendMessage", chat_id=ALICE, text="hi")
    assert (status, body["description"]) == (403, "Forbidden: bot was blocked by the user")
    assert await call(tg, "sendMessage", chat_id=424242, text="hi") == bad("chat not found")


async def test_migrated_groups_answer_with_the_new_id(tg: FakeTelegram) -> None:
    tg.migrate_group(GROUP, SUPERGROUP)
    assert await call(tg, "sendMessage", chat_id=GROUP, text="hi") == (
        400,
        {
            "ok": False,
            "error_code": 400,
            "description": "Bad Request: group chat was upgraded to a supergroup chat",
            "parameters": {"migrate_to_chat_id": SUPERGROUP},
        },
    )
    kinds = [next(k for k in u if k != "update_id") for u in tg.updates.pending]
    service = [u["message"] for u in tg.updates.pending]
    assert kinds == ["message", "message"]
    assert service[0]["migrate_to_chat_id"] == SUPERGROUP
    assert service[1]["migrate_from_chat_id"] == GROUP


async def test_forum_threads_must_exist(tg: FakeTelegram) -> None:
    table = tg.add_topic(FORUM, "Table 1")
    status, body = await call(tg, "sendMessage", chat_id=FORUM, text="t", message_thread_id=table)
    assert status == 200
    assert (body["result"]["message_thread_id"], body["result"]["is_topic_message"]) == (
        table,
        True,
    )
    assert await call(tg, "sendMessage", chat_id=FORUM, text="t", message_thread_id=77) == bad(
        "message thread not found"
    )


async def test_get_updates_long_polls_and_confirms_with_offset(tg: FakeTelegram) -> None:
    poll = asyncio.create_task(call(tg, "getUpdates", timeout=30))
    await tg.wait_for(lambda: tg.updates.waiting, WAIT)
    tg.start_private(ALICE)
    status, body = await asyncio.wait_for(poll, WAIT)  # returns early, not after 30 s

    assert status == 200
    [update] = body["result"]
    assert update["message"]["text"] == "/start"
    first_id = update["update_id"]
    tg.send_text(ALICE, ALICE, "hello")
    tg.send_text(ALICE, ALICE, "again")
    assert len((await call(tg, "getUpdates"))[1]["result"]) == 3  # nothing confirmed yet
    _, body = await call(tg, "getUpdates", offset=first_id + 1, limit=1)
    assert [u["message"]["text"] for u in body["result"]] == ["hello"]
    _, body = await call(tg, "getUpdates", offset=-1)
    assert [u["message"]["text"] for u in body["result"]] == ["again"]
    assert len(tg.updates.pending) == 1


async def test_allowed_updates_filters_later_updates(tg: FakeTelegram) -> None:
    await call(tg, "getUpdates", allowed_updates=["callback_query"])
    tg.start_private(ALICE)
    assert tg.updates.pending == []
    await call(tg, "getUpdates", allowed_updates=[])  # back to Telegram's default
    tg.start_private(ALICE)
    assert len(tg.updates.pending) == 1


async def test_a_second_poller_ends_the_first_with_conflict(tg: FakeTelegram) -> None:
    first = asyncio.create_task(call(tg, "getUpdates", timeout=30))
    await tg.wait_for(lambda: tg.updates.waiting, WAIT)
    second = await call(tg, "getUpdates", timeout=0)
    status, body = await asyncio.wait_for(first, WAIT)

    assert second[0] == 200
    assert (status, body["description"]) == (
        409,
        "Conflict: terminated by other getUpdates request; make sure that only one bot "
        "instance is running",
    )


async def test_webhooks_are_recorded_and_block_polling(tg: FakeTelegram) -> None:
    assert await call(tg, "setWebhook", url="http://insecure") == bad(
        "bad webhook: An HTTPS URL must be provided for webhook"
    )
    assert (await call(tg, "setWebhook", url="https://rummy.example/hook"))[0] == 200
    assert tg.webhook_url == "https://rummy.example/hook"
    _, info = await call(tg, "getWebhookInfo")
    assert info["result"]["url"] == "https://rummy.example/hook"
    status, body = await call(tg, "getUpdates")
    assert status == 409 and body["description"].startswith("Conflict: can't use getUpdates")
    assert (await call(tg, "deleteWebhook", drop_pending_updates=True))[0] == 200
    assert (await call(tg, "getUpdates"))[0] == 200


async def test_commands_are_kept_per_scope_and_language(tg: FakeTelegram) -> None:
    english = [{"command": "new", "description": "Start a game"}]
    german = [{"command": "new", "description": "Neues Spiel"}]
    group_scope = {"type": "all_group_chats"}
    assert (await call(tg, "setMyCommands", commands=english))[0] == 200
    assert (await call(tg, "setMyCommands", commands=german, language_code="de"))[0] == 200
    assert (await call(tg, "setMyCommands", commands=english, scope=group_scope))[0] == 200

    assert (await call(tg, "getMyCommands", language_code="de"))[1]["result"] == german
    assert (await call(tg, "getMyCommands", scope=group_scope, language_code="de"))[1][
        "result"
    ] == []  # exact lookup, no fallback
    assert tg.visible_commands(BOB) == german  # Bob's client speaks German
    assert tg.visible_commands(BOB, GROUP) == english  # all_group_chats beats default+de
    assert (await call(tg, "deleteMyCommands", language_code="de"))[0] == 200
    assert tg.visible_commands(BOB) == english
    assert await call(tg, "setMyCommands", commands=[{"command": "New", "description": "x"}]) == (
        bad("BOT_COMMAND_INVALID")
    )
    assert await call(tg, "setMyCommands", commands=[{"command": "new", "description": ""}]) == (
        bad("command description must be non-empty")
    )
    assert await call(tg, "getMyCommands", language_code="deu") == bad(
        "invalid language code specified"
    )


async def test_chat_and_member_lookups(tg: FakeTelegram) -> None:
    tg.send_text(ALICE, GROUP, "/ping")
    _, chat = await call(tg, "getChat", chat_id=FORUM)
    assert chat["result"]["is_forum"] is True and chat["result"]["type"] == "supergroup"
    _, member = await call(tg, "getChatMember", chat_id=GROUP, user_id=ALICE)
    assert member["result"]["status"] == "member"
    _, member = await call(tg, "getChatMember", chat_id=GROUP, user_id=BOB)
    assert member["result"]["status"] == "left"
    assert await call(tg, "getChatMember", chat_id=GROUP, user_id=5) == bad("user not found")
    assert await call(tg, "sendChatAction", chat_id=GROUP, action="dancing") == bad(
        "wrong parameter action in request"
    )
    assert (await call(tg, "sendChatAction", chat_id=GROUP, action="typing"))[0] == 200
    assert [a.action for a in tg.chat_actions] == ["typing"]
    assert (await call(tg, "close"))[1] == {"ok": True, "result": True}
    assert (await call(tg, "logOut"))[1] == {"ok": True, "result": True}


# --- invariants of the formatting parsers --------------------------------------------------

MDV2_SPECIAL = "_*[]()~`>#+-=|{}.!\\"


@given(st.text(min_size=1, max_size=200).filter(lambda s: s.strip(" \t\r\n\v\f") == s))
def test_escaped_text_parses_back_to_itself(text: str) -> None:
    """Whatever a user types, escaping it for HTML or MarkdownV2 shows it verbatim."""
    escaped_md = "".join("\\" + c if c in MDV2_SPECIAL else c for c in text)
    assert format_text(html.escape(text, quote=False), "HTML") == (text, [])
    assert format_text(escaped_md, "MarkdownV2") == (text, [])


@given(st.text(alphabet="ab🂡é<>&", min_size=1, max_size=40))
def test_parsed_entities_stay_inside_the_text(text: str) -> None:
    """Entity offsets/lengths are UTF-16 units within the text, whatever the markup."""
    try:
        plain, entities = format_text(f"<b>{html.escape(text)}</b> x", "HTML")
    except ApiError:
        return
    units = len(plain.encode("utf-16-le")) // 2
    for entity in entities:
        assert entity["offset"] >= 0 and entity["offset"] + entity["length"] <= units


def test_the_default_token_names_the_bot() -> None:
    assert FakeTelegram().bot.id == int(DEFAULT_TOKEN.split(":")[0])
