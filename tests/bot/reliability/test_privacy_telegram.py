"""Privacy over many scripted games on the fake Telegram: every game is played to the end
through the real PTB stack (people only, or people and AI seats; Basic Rummy presets,
Rummy 500, German Rommé, Romanian Rummy with a doubla swap; 2-4 seats; English and German
tables; most games by the offered buttons only, three with typed moves too) and
every message version the bot stores is checked at the moment the fake Bot API server
stores it: a group message may show no card that is hidden at that moment (in a hand
or in the stock), a private message no hidden card of another seat, and no button of a
group message carries a hidden card in its callback data (see ``privacy.py``)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.ports.model import Seat, SeatKind, Status
from bot.render.cards import card_text
from bot.service.model import Table
from bot.telegram_bot.callbacks import MalformedCallback, UnverifiedCallback, decode
from bot.telegram_bot.identity import chat_key, user_id_of
from engine.cards import parse_card
from engine.game import new_game
from engine.rules import make_rules
from engine.state import GameState, Phase
from tests.bot.reliability.privacy import (
    PROSE_WORDS,
    Chooser,
    Truth,
    mentioned_cards,
    payload_cards,
    watch_repository,
)
from tests.bot.telegram.game_driver import Driver, PrivacyCheck
from tests.bot.telegram.support import ALICE, BOB, CARL, GROUP, Bot, group_button, running_bot
from tests.fakes.telegram import FakeMessage, FakeTelegram
from tests.fakes.telegram.methods import METHODS

DORA = 1004  # German app
ERIK = 1005
MAX_STEPS = 900
SPECTATOR_STEP = 12  # Carl (no seat) asks for a hand at this step


# --- the watcher: every message version as the fake server stores it --------------------


def viewer_of(chat_id: int) -> str | None:
    """The user key of the only reader of a chat; ``None`` for a group."""
    return f"telegram:{chat_id}" if chat_id > 0 else None


def free_payloads(message: FakeMessage) -> list[str]:
    """The parts of the buttons' data that could carry a card: the ``arg`` of our
    callback data (all of it when it is not ours) and link URLs."""
    out = []
    for entry in message.buttons:
        data = entry.get("callback_data")
        if data is not None:
            try:
                out.append(decode(data).arg)
            except UnverifiedCallback as unsigned:  # what it claims to carry is shown
                out.append(unsigned.claimed.arg)
            except MalformedCallback:
                out.append(str(data))
        if "url" in entry:
            out.append(str(entry["url"]))
    return out


def shown_text(message: FakeMessage) -> str:
    """What the message shows: its text and its button labels."""
    return "\n".join([message.text or "", *message.button_texts])


@dataclass
class Watch:
    """Checks each message version (and each callback answer) when the fake stores it."""

    tg: FakeTelegram
    truth: Truth
    versions: Counter[tuple[int, int]] = field(default_factory=Counter)
    answers: int = 0

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        for name in ("sendmessage", "editmessagetext", "editmessagereplymarkup"):
            monkeypatch.setitem(METHODS, name, self._wrapped(METHODS[name]))
        original = METHODS["answercallbackquery"]

        def answered(world: Any, params: Any) -> Any:
            result = original(world, params)
            if world is self.tg.world:
                answer = world.callback_answers[-1]
                self.answers += 1
                self.truth.check(
                    f"answer to a button press ({answer.data})",
                    viewer_of(answer.user_id),
                    answer.text or "",
                )
            return result

        monkeypatch.setitem(METHODS, "answercallbackquery", answered)

    def _wrapped(self, original: Any) -> Any:
        def handler(world: Any, params: Any) -> Any:
            result = original(world, params)  # raises for a refused call: nothing stored
            if world is self.tg.world and isinstance(result, dict):
                message = world.find_message(result["chat"]["id"], result["message_id"])
                assert message is not None
                self.check(message)
            return result

        return handler

    def check(self, message: FakeMessage) -> None:
        key = (message.chat_id, message.message_id)
        self.versions[key] += 1
        where = f"message {message.message_id} v{self.versions[key]} in chat {message.chat_id}"
        self.truth.check(
            where, viewer_of(message.chat_id), shown_text(message), free_payloads(message)
        )

    def assert_every_version_checked(self, chats: list[int]) -> int:
        """Every version of every bot message in ``chats`` went through :meth:`check`."""
        total = 0
        for chat in chats:
            for message in self.tg.messages(chat, include_deleted=True):
                if not message.from_bot:
                    continue
                key = (message.chat_id, message.message_id)
                assert self.versions[key] == len(message.history) + 1, key
                total += self.versions[key]
        assert total == sum(self.versions.values())
        return total


# --- the players -------------------------------------------------------------------------


@dataclass
class StrictCheck(PrivacyCheck):
    """The driver's per-step hook: the Truth follows the repository by itself, so a step
    only closes the grace for messages about the previous deal."""

    truth: Truth = field(default_factory=lambda: Truth("telegram"))

    def note(self, table: Table) -> None:
        pass

    def scan(self, bot: Bot) -> None:
        self.truth.settled()


class People(Driver):
    """The game driver of the Telegram tests for every variant: every move by the buttons
    the hand model offers (``typed`` 0), or one move in ``typed`` typed as a command."""

    def __init__(
        self, bot: Bot, table_id: int, check: StrictCheck, chooser: Chooser, typed: int
    ) -> None:
        super().__init__(bot, table_id, GROUP, check, typed=typed)
        self.ai = chooser  # type: ignore[assignment]


# --- one game ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """A scripted game: ``new`` is the host's /new line; ``people`` sit in this order (the
    first is the host), then ``ais`` AI seats; ``lang`` set by the host if given;
    ``typed``: one move in that many is typed (0: every move by buttons)."""

    name: str
    new: str
    people: tuple[int, ...]
    ais: int = 0
    lang: str | None = None
    seed: int = 500
    swaps: bool = False
    typed: int = 0


GAMES = [
    Game("basic-2p-en", "/new deals=1", (ALICE, BOB), seed=501, typed=4),
    Game("beginner-3-de-2deals", "/new beginner deals=2 target=none", (BOB, ALICE), 1, seed=502),
    Game("block-3p-de", "/new block deals=1", (BOB, ALICE, DORA), seed=510),
    Game("wrotham-4p-en", "/new wrotham deals=1", (ERIK, ALICE, BOB, DORA), seed=503),
    Game("500-3-de", "/new 500 target=100", (ALICE, DORA), 1, lang="de", seed=504, typed=4),
    Game("500book-4-de", "/new 500 book target=100", (BOB, ALICE), 2, seed=505),
    Game("500-2p-en", "/new 500 target=100", (ALICE, ERIK), seed=511),
    Game("german-3-en", "/new german deals=1 target=none", (ALICE, BOB), 1, seed=506, typed=4),
    Game(
        "german-4-de", "/new german gameduell deals=1 target=none", (DORA, ALICE, BOB), 1, seed=507
    ),
    Game("german-2p-de-2deals", "/new german deals=2 target=none", (DORA, BOB), seed=512),
    Game("romanian-3p-swaps-en", "/new romanian deals=1", (ALICE, BOB, DORA), seed=501, swaps=True),
    Game("romanian-2-de", "/new romanian variations deals=1", (BOB,), 1, seed=509),
]


@asynccontextmanager
async def watched_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int
) -> AsyncIterator[tuple[Bot, Truth, Watch]]:
    async with running_bot(tmp_path / "rummy.sqlite3", first_seed=seed) as bot:
        bot.tg.add_user(DORA, "Dora", "dora", language_code="de")
        bot.tg.add_user(ERIK, "Erik", "erik")
        truth = Truth("telegram")
        watch_repository(bot.repo, truth)
        watch = Watch(bot.tg, truth)
        watch.install(monkeypatch)
        yield bot, truth, watch


async def open_table(bot: Bot, game: Game) -> Table:
    """Everyone presses Start in the private chat; the host opens the table, the others
    join (typed or by button), the host adds the AIs and starts."""
    for user in (*game.people, CARL):
        await bot.start_private(user)
    host = game.people[0]
    await bot.say(host, GROUP, game.new)
    if game.lang:
        await bot.say(host, GROUP, f"/set lang={game.lang}")
    info = await bot.service.entry.table_info(chat_key(GROUP, None))
    assert info is not None, f"{game.new} opened no table"
    for number, user in enumerate(game.people[1:]):
        if number % 2:
            await bot.say(user, GROUP, "/join")
        else:
            message = await bot.table_message(info.id)
            await bot.press(user, message, group_button(message, "j"))
    for _ in range(game.ais):
        await bot.say(host, GROUP, "/addbot")
    message = await bot.table_message(info.id)
    answer = await bot.press(host, message, group_button(message, "s"))
    assert not answer.show_alert, answer.text
    table = await bot.repo.get_table(info.id)
    assert table is not None and table.status is Status.PLAYING, game
    assert len(table.seats) == len(game.people) + game.ais
    return table


async def spectate(bot: Bot, table_id: int) -> None:
    """Carl has no seat: he presses My hand under the table message and types /hand."""
    message = await bot.table_message(table_id)
    try:
        data = group_button(message, "y")
    except LookupError:
        return
    await bot.press(CARL, message, data)
    await bot.say(CARL, GROUP, "/hand")


async def play(bot: Bot, truth: Truth, game: Game) -> dict[str, Any]:
    table = await open_table(bot, game)
    players = {user_id_of(s.user): seat for seat, s in enumerate(table.seats) if s.user}
    chooser = Chooser(seed=table.seed, swaps=game.swaps)
    driver = People(bot, table.id, StrictCheck([GROUP], players, truth=truth), chooser, game.typed)
    steps = 0
    while await driver.step():
        steps += 1
        assert steps < MAX_STEPS, f"{game.name}: the game did not end"
        if steps == SPECTATOR_STEP:
            await spectate(bot, table.id)
    final = await driver.table()
    assert final.status is Status.FINISHED and final.ended_reason == "over", final.status
    assert final.state is not None and final.state.phase is Phase.GAME_OVER
    return {
        "steps": steps,
        "moves": driver.moves,
        "buttons": driver.button_moves,
        "typed": driver.typed_moves,
        "offers pressed": driver.offers_pressed,
        "scripted": dict(chooser.made),
        "deals": len(truth.deals),
        "seats": len(final.seats),
    }


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
async def test_no_hidden_card_reaches_anyone_who_may_not_see_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: Game
) -> None:
    started = time.perf_counter()
    async with watched_bot(tmp_path, monkeypatch, game.seed) as (bot, truth, watch):
        stats = await play(bot, truth, game)
        versions = watch.assert_every_version_checked([GROUP, *game.people, CARL])
    assert truth.problems == [], "\n".join(truth.problems)
    checked = truth.checked
    assert checked["public"] + checked["private"] == versions + watch.answers
    # the table message is edited once a turn (a draw waits for the turn's end), so the
    # short games show fewer public versions than private ones
    assert checked["public while hiding"] >= 12 and checked["private while hiding"] >= 20
    assert checked["public payloads"] > 0
    if game.swaps:
        assert stats["scripted"].get("AnswerDoubla"), "no doubla swap happened"
    if not game.typed:  # the whole game by the buttons the hand model offers
        assert stats["typed"] == 0 and stats["buttons"] == stats["moves"] > 0
    print(
        f"\ntelegram {game.name}: {time.perf_counter() - started:.1f} s, {stats}, "
        f"{versions} message versions + {watch.answers} answers checked {dict(checked)}"
    )


# --- the checks can fail --------------------------------------------------------------------


def test_the_detector_reads_every_rendering_of_a_card() -> None:
    assert mentioned_cards("Alice discarded 7♥, Bob took 10♦ and Q♡") == {"7♥", "10♦", "Q♥"}
    assert mentioned_cards("meld 7h 8h 9h | 10d qs") == {"7♥", "8♥", "9♥", "10♦", "Q♠"}
    assert mentioned_cards("tiles 🔴7 🟡13, typed r7 y13 rot7 red-7 black12") == {
        "🔴7",
        "🟡13",
        "⚫12",
    }
    assert mentioned_cards("🃏(9♥) stands for 9♥") == {"9♥"}
    assert mentioned_cards("🃏(9♥) 🃏 jk=8h jo=r7, as it is") == set()
    assert mentioned_cards("at 24h, 17h and 2m: X7h") == set()
    assert payload_cards("7h,8h") == {"7♥", "8♥"} and payload_cards("r7") == {"🔴7"}
    assert payload_cards("12") == set() and payload_cards("gy0") == set()


def test_the_truth_flags_hidden_cards_and_only_those() -> None:
    from dataclasses import replace

    state = new_game(make_rules("basic", None, {"deals": 1}), ["Ann", "Ben"], seed=3)
    table = Snapshot(
        1,
        (Seat(SeatKind.HUMAN, "Ann", "telegram:1"), Seat(SeatKind.HUMAN, "Ben", "telegram:2")),
        state,
    )
    truth = Truth("test")
    truth.observe(table)  # type: ignore[arg-type]
    ann, ben = state.hands[0][0], state.hands[1][0]
    stock, upcard = state.stock[0], state.discard[-1]
    assert truth.check("t", None, f"upcard {card_text(upcard)} 🃏") == []
    assert truth.check("t", None, f"oops {card_text(ann)}") == [
        f"{card_text(ann)} hidden in seat 0 (Ann)"
    ]
    assert truth.check("t", None, f"stock {card_text(stock)}") == [
        f"{card_text(stock)} hidden in the stock"
    ]
    assert truth.check("t", None, "fine", [str(ben)]) == [
        f"button data {str(ben)!r}: {card_text(ben)} hidden in seat 1 (Ben)"
    ]
    assert truth.check("t", "telegram:1", f"your {card_text(ann)}") == []
    assert truth.check("t", "telegram:1", f"his {card_text(ben)}") == [
        f"{card_text(ben)} hidden in seat 1 (Ben)"
    ]
    assert truth.check("t", "telegram:9", f"{card_text(ann)}")  # a stranger
    assert len(truth.problems) == 5
    # Ann discards: the card is public from then on; a scored deal shows every hand.
    discarded = replace(
        state, hands=(state.hands[0][1:], state.hands[1]), discard=(*state.discard, ann)
    )
    table.state = discarded
    truth.observe(table)  # type: ignore[arg-type]
    assert truth.check("t", None, f"Ann discards {card_text(ann)}.") == []
    over = replace(discarded, phase=Phase.HAND_OVER)
    table.state = over
    truth.observe(table)  # type: ignore[arg-type]
    assert truth.check("t", None, card_text(ben)) == []
    assert truth.check("t", None, card_text(stock))  # the stock stays face down
    # The next deal hides everything again once the step that dealt it has settled;
    # only lines shown verbatim in the earlier deal (the last moves) may stay.
    table.state = replace(state, deal_number=2)
    truth.observe(table)  # type: ignore[arg-type]
    assert truth.check("t", None, f"late {card_text(ben)}") == []
    truth.settled()
    assert truth.check("t", None, f"new {card_text(ben)}")
    assert truth.check("t", None, f"Ann discards {card_text(ann)}.\n{card_text(ben)}") == []
    assert truth.checked["history lines"] == 2  # both lines would leak now


@dataclass
class Snapshot:
    """What :meth:`Truth.observe` reads of a table."""

    id: int
    seats: tuple[Seat, ...]
    state: GameState


async def test_a_leak_through_the_real_stack_is_caught(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Messages sent through PTB to the fake server with a hidden card (in the group, as
    button data, to the wrong private chat) are each reported; public cards are not."""
    game = Game("canary", "/new deals=1", (ALICE, BOB), seed=501)
    async with watched_bot(tmp_path, monkeypatch, game.seed) as (bot, truth, _watch):
        table = await open_table(bot, game)
        state = table.state
        assert state is not None
        seat_of = {user_id_of(s.user): n for n, s in enumerate(table.seats) if s.user}
        alice_card = state.hands[seat_of[ALICE]][0]
        bob_card = state.hands[seat_of[BOB]][0]
        stock_card = next(c for c in state.stock if str(c) not in PROSE_WORDS)
        upcard = state.discard[-1]
        ptb = bot.adapter.app.bot
        await ptb.send_message(GROUP, f"Top card {card_text(upcard)}; 🃏")
        assert truth.problems == []
        await ptb.send_message(GROUP, f"psst: Bob holds {card_text(bob_card)}")
        await ptb.send_message(GROUP, f"next from the stock: {stock_card}")
        keyboard = InlineKeyboardMarkup(
            [[InlineKeyboardButton("Go", callback_data=f"gv0.1.1..{alice_card}")]]
        )
        await ptb.send_message(GROUP, "Press", reply_markup=keyboard)
        await ptb.send_message(ALICE, f"Your hand: {card_text(alice_card)}")
        await ptb.send_message(ALICE, f"Bob's hand: {card_text(bob_card)}")
        problems = list(truth.problems)
    assert len(problems) == 4, "\n".join(problems)
    assert f"{card_text(bob_card)} hidden in seat {seat_of[BOB]} (Bob)" in problems[0]
    assert "everyone" in problems[0]
    assert f"{card_text(stock_card)} hidden in the stock" in problems[1]
    assert f"button data '{alice_card}'" in problems[2]
    assert "telegram:1001" in problems[3] and card_text(bob_card) in problems[3]
    assert parse_card(str(alice_card)) == alice_card
