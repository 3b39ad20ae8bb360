"""Issue 39, item 2: no input that did not come from the bot's own controls changes a
table. A property test over mutations of the real controls of a running game — Telegram's
callback data and Discord's custom ids and select values, drawn on the group's table
message and a player's private hand message of one table, plus another table's — with
fields swapped, characters and digits altered, fields taken from another control,
another table's id, another version, cut short or unsigned. Each mutation that is not
itself a control the bot drew is pressed on a real message, by the player or by
someone else, through the fake platform and the real client library; the press is
answered, and neither table changes (its version, its state)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bot.ports.model import ChatKey
from bot.service.model import Table

ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ._-:=,"


@dataclass(frozen=True)
class Mutation:
    """A control's text changed by ``steps`` (each a description and the function)."""

    base: str
    steps: tuple[tuple[str, Callable[[str], str]], ...]

    def apply(self) -> str:
        text = self.base
        for _name, step in self.steps:
            text = step(text)
        return text

    def __repr__(self) -> str:
        return f"Mutation({self.base!r} -> {self.apply()!r} by {[n for n, _ in self.steps]})"


Setter = Callable[[str, int], str]
"""Writes a number into a control's field (the field's old text, the number)."""


@st.composite
def mutations(
    draw: st.DrawFn,
    controls: list[str],
    separator: str,
    fields: dict[str, tuple[int, Setter, st.SearchStrategy[int]]],
) -> Mutation:
    """One to three changes of one of ``controls`` (split into fields by ``separator``):
    fields swapped, a field of another control, a character or a digit altered, cut
    short, the signature dropped, or a named field (``fields``: name -> its index, how a
    number is written there, the numbers to write: the table, the version, the selection
    in the hand state, the offer number) set to another value."""
    base = draw(st.sampled_from(controls))
    steps: list[tuple[str, Callable[[str], str]]] = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(
            st.sampled_from(
                ["swap", "splice", "char", "digit", "cut", "unsign", *fields, *fields, *fields]
            )
        )
        count = len(base.split(separator))
        if kind == "swap":
            i, j = draw(st.integers(0, count - 1)), draw(st.integers(0, count - 1))

            def swap(text: str, i: int = i, j: int = j) -> str:
                parts = text.split(separator)
                if max(i, j) < len(parts):
                    parts[i], parts[j] = parts[j], parts[i]
                return separator.join(parts)

            steps.append((f"swap {i} {j}", swap))
        elif kind == "splice":
            other = draw(st.sampled_from(controls))
            k = draw(st.integers(0, count - 1))

            def splice(text: str, other: str = other, k: int = k) -> str:
                parts, theirs = text.split(separator), other.split(separator)
                if k < len(parts) and k < len(theirs):
                    parts[k] = theirs[k]
                return separator.join(parts)

            steps.append((f"field {k} of {other}", splice))
        elif kind in ("char", "digit"):
            at = draw(st.integers(0, 200))
            new = draw(st.sampled_from("0123456789" if kind == "digit" else ALPHABET))

            def alter(text: str, at: int = at, new: str = new) -> str:
                if not text:
                    return new
                at %= len(text)
                return text[:at] + new + text[at + 1 :]

            steps.append((f"{kind} {at} -> {new}", alter))
        elif kind == "cut":
            at = draw(st.integers(0, 200))
            steps.append((f"cut at {at}", lambda text, at=at: text[: at % (len(text) + 1)]))
        elif kind == "unsign":
            steps.append(("unsigned", lambda text: text.rpartition(separator)[0]))
        else:
            index, setter, numbers = fields[kind]
            value = draw(numbers)

            def put(
                text: str, index: int = index, setter: Setter = setter, value: int = value
            ) -> str:
                parts = text.split(separator)
                if index < len(parts):
                    parts[index] = setter(parts[index], value)
                return separator.join(parts)

            steps.append((f"{kind} -> {value}", put))
    return Mutation(base, tuple(steps))


MASKS = st.integers(0, 10).map(lambda i: 1 << i) | st.integers(0, 2**11)
"""Selections to forge: mostly one card (whose moves a screen of that selection would
offer), sometimes any."""


ACTIONS = ("mv", "mc", "o0", "o1", "c0", "c1", "sort", "hint", "draw", "take", "join", "next")
"""Discord actions a forged custom id may name instead of its own."""

OFFERS = st.integers(0, 2) | st.integers(0, 12)
"""Offer numbers to forge: mostly the first few (a selection's moves are few)."""


class Loop:
    """A test's own event loop, so hypothesis can drive a running bot example by example."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.stack = AsyncExitStack()

    def run(self, coroutine: Any) -> Any:
        return self.loop.run_until_complete(coroutine)

    def close(self) -> None:
        try:
            self.run(self.stack.aclose())
        finally:
            self.loop.close()


@dataclass(frozen=True)
class Snapshot:
    version: int
    state: Any

    @staticmethod
    def of(table: Table | None) -> Snapshot:
        assert table is not None
        return Snapshot(table.version, table.state)


def custom_ids(value: Any) -> Iterator[str]:
    """Every ``custom_id`` in a JSON value (the components the bot sent to Discord)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "custom_id" and isinstance(item, str):
                yield item
            else:
                yield from custom_ids(item)
    elif isinstance(value, list):
        for item in value:
            yield from custom_ids(item)


PROPERTY = settings(
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# --- Telegram ---------------------------------------------------------------------------------


def test_no_changed_telegram_button_changes_a_table(tmp_path: Path) -> None:
    from bot.telegram_bot.callbacks import to_base36
    from bot.telegram_bot.identity import chat_key
    from tests.bot.telegram.support import (
        ALICE,
        BOB,
        FORUM,
        GROUP,
        Bot,
        button,
        hand_button,
        running_bot,
    )

    async def tables(bot: Bot) -> list[Snapshot]:
        return [Snapshot.of(await bot.repo.active_table(key)) for key in keys]

    def drawn(bot: Bot) -> set[str]:
        """Every callback data any keyboard of the bot ever carried."""
        out = set()
        for call in bot.tg.calls:
            markup = call.params.get("reply_markup")
            if isinstance(markup, dict):
                for row in markup.get("inline_keyboard", []):
                    out |= {b["callback_data"] for b in row if "callback_data" in b}
        return out

    async def setup(bot: Bot) -> None:
        topic = bot.tg.add_topic(FORUM, "Second table")
        for user in (ALICE, BOB):
            await bot.start_private(user)
        for chat, thread in ((GROUP, None), (FORUM, topic)):
            await bot.say(ALICE, chat, "/new", thread)
            await bot.say(BOB, chat, "/join", thread)
            await bot.say(ALICE, chat, "/start", thread)
            keys.append(chat_key(chat, thread))
        table = await bot.repo.active_table(keys[0])
        assert table is not None and table.state is not None
        player = (ALICE, BOB)[table.state.current]
        hand = await bot.hand_message(player, table.id)
        await bot.press(player, hand, button(hand, "Draw"))
        hand = await bot.hand_message(player, table.id)
        await bot.press(player, hand, hand_button(hand, "s"))  # a card selected: its moves
        players.append(player)

    keys: list[ChatKey] = []
    players: list[int] = []
    loop = Loop()
    try:
        bot: Bot = loop.run(loop.stack.enter_async_context(running_bot(tmp_path / "rummy.sqlite3")))
        loop.run(setup(bot))
        before = loop.run(tables(bot))
        table_ids = [loop.run(bot.repo.active_table(k)).id for k in keys]  # type: ignore[union-attr]
        player = players[0]
        group = loop.run(bot.table_message(table_ids[0]))
        hand = loop.run(bot.hand_message(player, table_ids[0]))
        real = sorted(d for d in drawn(bot) if d)
        now = sorted(hand.callback_data + group.callback_data)  # the current ones: oftener
        assert len(real) > 20 and len(now) > 10
        fields: dict[str, tuple[int, Setter, st.SearchStrategy[int]]] = {
            "table": (
                1,
                lambda _old, n: to_base36(n),
                st.sampled_from([*table_ids, table_ids[-1] + 1]),
            ),
            "version": (2, lambda _old, n: to_base36(n), st.integers(0, 40)),
            "mask": (3, lambda _old, n: to_base36(n) if n else "", MASKS),
            "offer": (4, lambda _old, n: str(n), OFFERS),
        }

        @PROPERTY
        @given(
            mutation=mutations(real + now * 6, ".", fields),
            on_hand=st.booleans(),
            by_player=st.booleans(),
        )
        def press(mutation: Mutation, on_hand: bool, by_player: bool) -> None:
            data = mutation.apply()
            assume(data and len(data.encode("utf-8")) <= 64 and data not in drawn(bot))
            presser = player if by_player else (BOB if player == ALICE else ALICE)
            message = hand if on_hand else group
            start = loop.run(tables(bot))
            answer = loop.run(bot.forge_press(presser, message, data))
            assert answer.show_alert or answer.text is None, mutation
            assert loop.run(tables(bot)) == start == before, mutation

        press()
    finally:
        loop.close()


# --- Discord ----------------------------------------------------------------------------------


def test_no_changed_discord_control_changes_a_table(tmp_path: Path) -> None:
    from tests.bot.discord.players import control
    from tests.bot.discord.support import TIMEOUT, Bot, running_bot

    async def tables(bot: Bot) -> list[Snapshot]:
        return [
            Snapshot.of(await bot.service.repo.active_table(bot.key(channel)))
            for channel in channels
        ]

    def drawn(bot: Bot) -> set[str]:
        """Every custom id any message of the bot ever carried."""
        return {c for call in bot.server.calls for c in custom_ids(call.json)}

    async def setup(bot: Bot) -> Any:
        w = bot.world
        for channel in channels:
            await bot.slash(w.alice, channel, "new")
            table = bot.table_message(channel)
            await bot.click(w.bob, table, control(table, "join"))
            await bot.click(w.alice, table, control(table, "start"))
        stored = await bot.service.repo.active_table(bot.key(w.text))
        assert stored is not None and stored.state is not None
        player = (w.alice, w.bob)[stored.state.current]
        table = bot.table_message(w.text)
        hand = (await bot.click(player, table, control(table, "draw"))).original
        assert hand is not None
        first = control(hand, "c0")
        options = next(
            c for row in hand.components for c in row["components"] if c.get("custom_id") == first
        )["options"]
        await bot.select(player, hand, first, [options[0]["value"]])
        return player, hand

    loop = Loop()
    try:
        bot: Bot = loop.run(loop.stack.enter_async_context(running_bot(tmp_path)))
        w = bot.world
        channels = [w.text, w.thread]
        player, hand = loop.run(setup(bot))
        other = w.bob if player is w.alice else w.alice
        table = bot.table_message(w.text)
        before = loop.run(tables(bot))
        table_ids = [int(c.split(":")[1]) for c in drawn(bot) if c.startswith("rm:")]
        real = sorted(c for c in drawn(bot) if c.startswith("rm:"))
        values = sorted(
            {o["value"] for call in bot.server.calls for o in _options(call.json)}
            | {"0", "1", "2", "99", "-1", "x"}
        )
        now = sorted(hand.custom_ids() + table.custom_ids())  # the current ones: oftener
        assert len(real) > 20 and len(now) > 5
        fields: dict[str, tuple[int, Setter, st.SearchStrategy[int]]] = {
            "table": (
                1,
                lambda _old, n: str(n),
                st.sampled_from([*sorted(set(table_ids)), max(table_ids) + 1]),
            ),
            "version": (2, lambda _old, n: str(n), st.integers(0, 40)),
            "offer": (3, lambda _old, n: f"o{n}", OFFERS),
            "action": (3, lambda _old, n: ACTIONS[n], st.integers(0, len(ACTIONS) - 1)),
            "mask": (4, lambda old, n: old[:5] + format(n, "x"), MASKS),
        }

        @PROPERTY
        @given(
            mutation=mutations(real + now * 12, ":", fields),
            on_hand=st.booleans(),
            by_player=st.booleans(),
            as_select=st.booleans(),
            picked=st.lists(st.sampled_from(values), min_size=1, max_size=3),
        )
        def click(
            mutation: Mutation, on_hand: bool, by_player: bool, as_select: bool, picked: list[str]
        ) -> None:
            custom_id = mutation.apply()
            assume(custom_id and custom_id not in drawn(bot) and len(custom_id) <= 100)
            message = hand if on_hand else table
            clicker = player if by_player else other
            if on_hand:
                assume(by_player)  # an ephemeral message: only its owner can click it
            component: dict[str, Any] = {
                "type": 2,
                "style": 2,
                "label": "?",
                "custom_id": custom_id,
            }
            if as_select:
                component = {
                    "type": 3,
                    "custom_id": custom_id,
                    "min_values": 1,
                    "max_values": len(picked),
                    "options": [{"label": v, "value": v} for v in picked],
                }
            start = loop.run(tables(bot))
            interaction = loop.run(
                bot.server._dispatch_component(
                    clicker, message, component, picked if as_select else None, None
                )
            )
            loop.run(interaction.wait_response(TIMEOUT))
            loop.run(bot.settled(interaction))
            assert loop.run(tables(bot)) == start == before, mutation

        click()
    finally:
        loop.close()


def _options(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "options" and isinstance(item, list):
                yield from (o for o in item if isinstance(o, dict) and "value" in o)
            else:
                yield from _options(item)
    elif isinstance(value, list):
        for item in value:
            yield from _options(item)
