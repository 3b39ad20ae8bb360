"""Privacy over many scripted games on the fake Discord: every game is played to the end
through discord.py (slash commands, table buttons, the ephemeral hand message with its
card select and move buttons; people only, or people and AI seats; Basic Rummy presets,
Rummy 500, German Rommé, Romanian Rummy; 2-4 seats; English and German tables) and
every message version is checked at the moment the fake Discord stores it: a public
message may show no card that is hidden at that moment (in a hand or in the stock),
an ephemeral message or a DM no hidden card of another seat, and no control of a
public message carries a hidden card in its custom id (see ``privacy.py``)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.discord_bot.components import ControlId
from bot.ports.model import Status
from bot.render.cards import card_text
from engine.actions import Discard, Draw, LayOff, MeldCards, SwapJoker
from engine.state import Phase
from tests.bot.discord.players import Players, action_of, control
from tests.bot.discord.support import Bot, complaints, running_bot
from tests.bot.reliability.privacy import PROSE_WORDS, Chooser, Truth, watch_repository
from tests.fakes.discord import FakeDiscord, FakeMessage, FakeUser
from tests.fakes.discord.components import walk

MAX_STEPS = 900
SPECTATOR_STEP = 12  # someone without a seat asks for a hand at this step
STANDARD = (Draw, Discard, MeldCards, LayOff, SwapJoker)


# --- the watcher: every message version as the fake Discord stores it ---------------------


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def shown_text(message: FakeMessage) -> str:
    """What the message shows: content, embeds, and the components' labels, placeholders,
    texts and option labels/descriptions (one per line)."""
    lines = [message.content, *_strings(message.embeds)]
    for _path, item in walk(message.components):
        lines += [str(item[k]) for k in ("label", "placeholder", "content") if item.get(k)]
        for option in item.get("options") or []:
            lines += [str(option[k]) for k in ("label", "description") if option.get(k)]
    return "\n".join(lines)


def free_payloads(message: FakeMessage) -> list[str]:
    """The parts of the controls' data that could carry a card: the action and state of
    our custom ids (all of a foreign one), select option values, link URLs."""
    out = []
    for _path, item in walk(message.components):
        custom_id = item.get("custom_id")
        if custom_id:
            parsed = ControlId.parse(custom_id)
            out.append(custom_id if parsed is None else f"{parsed.action} {parsed.state}")
        out += [str(o["value"]) for o in item.get("options") or [] if "value" in o]
        if item.get("url"):
            out.append(str(item["url"]))
    return out


@dataclass
class Watch:
    """Checks each message version when the fake Discord stores it (create or edit)."""

    server: FakeDiscord
    truth: Truth
    versions: Counter[int] = field(default_factory=Counter)

    def install(self) -> None:
        create, edit = self.server.create_message, self.server.edit_message

        def created(*args: Any, **kwargs: Any) -> FakeMessage:
            message = create(*args, **kwargs)
            self.check(message)
            return message

        def edited(message: FakeMessage, payload: Any) -> None:
            edit(message, payload)
            self.check(message)

        self.server.create_message = created  # type: ignore[method-assign]
        self.server.edit_message = edited  # type: ignore[method-assign]

    def reader(self, message: FakeMessage) -> FakeUser | None:
        """The only person who sees ``message`` (ephemeral or DM); ``None``: public."""
        if message.viewer is not None:
            return message.viewer
        channel = self.server.world.channels.get(message.channel_id)
        return channel.recipient if channel is not None and channel.is_dm else None

    def check(self, message: FakeMessage) -> None:
        self.versions[message.id] += 1
        reader = self.reader(message)
        where = f"message {message.id} v{self.versions[message.id]}" + (
            " (ephemeral)" if message.ephemeral else ""
        )
        self.truth.check(
            where,
            None if reader is None else f"discord:{reader.id}",
            shown_text(message),
            free_payloads(message),
        )

    def assert_every_version_checked(self) -> int:
        total = 0
        for message in self.server.messages.all():
            assert self.versions[message.id] == len(message.history) + 1, message.id
            total += self.versions[message.id]
        assert total == sum(self.versions.values())
        return total


# --- the players -------------------------------------------------------------------------


class People(Players):
    """:class:`Players` for every variant: the greedy AI chooses among all the seat's legal
    moves, and each is made by the buttons of the hand model (draw and take now and then
    from the table message): no move needs typing."""

    def __init__(
        self, bot: Bot, channel: Any, users: list[FakeUser], seed: int, swaps: bool = False
    ) -> None:
        super().__init__(bot, channel, users)
        self.chooser = Chooser(seed=seed, swaps=swaps)
        self.ai = self.chooser  # type: ignore[assignment]


# --- one game ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """A scripted game: ``/rummy new`` by the first of ``people`` (the host) with
    ``variant``, ``preset`` and ``options``; the others join, then ``ais`` AI seats;
    ``lang`` set by the host if given; ``swaps``: the people announce, offer and accept
    Romanian doubla swaps whenever they can."""

    name: str
    variant: str
    preset: str | None
    options: str
    people: tuple[str, ...]
    ais: int = 0
    lang: str | None = None
    seed: int = 1000
    swaps: bool = False


GAMES = [
    Game("basic-2p-en", "basic", None, "deals=1", ("alice", "bob"), seed=1001),
    Game(
        "beginner-3-de-2deals",
        "basic",
        "beginner",
        "deals=2 target=none",
        ("bob", "alice"),
        1,
        seed=1002,
    ),
    Game("block-3p-en", "basic", "block", "deals=1", ("carol", "erin", "bob"), seed=1003),
    Game(
        "wrotham-4p-de",
        "basic",
        "wrotham",
        "deals=1",
        ("alice", "bob", "carol", "erin"),
        lang="de",
        seed=1004,
    ),
    Game("500-3-en", "500", None, "target=100", ("alice", "bob"), 1, seed=1005),
    Game("500book-4-de", "500", "book", "target=100", ("erin",), 3, seed=1006),
    Game("german-3-de", "german", None, "deals=1 target=none", ("bob", "alice"), 1, seed=1007),
    Game(
        "german-2p-en-2deals",
        "german",
        "gameduell",
        "deals=2 target=none",
        ("alice", "carol"),
        seed=1008,
    ),
    Game(
        "romanian-3p-en",
        "romanian",
        None,
        "deals=1",
        ("alice", "bob", "erin"),
        seed=1009,
        swaps=True,
    ),
    Game("romanian-2-de", "romanian", "variations", "deals=1", ("bob",), 1, seed=1010),
]


@asynccontextmanager
async def watched_bot(
    tmp_path: Path, seed: int
) -> AsyncIterator[tuple[Bot, Truth, Watch, dict[str, FakeUser]]]:
    async with running_bot(tmp_path) as bot:
        w = bot.world
        world = bot.server.world
        erin = world.add_user("erin", global_name="Erin", locale="de")
        frank = world.add_user("frank", global_name="Frank", locale="en-US")
        for user in (erin, frank):
            world.add_member(w.guild, user)
        users = {"alice": w.alice, "bob": w.bob, "carol": w.carol, "erin": erin, "frank": frank}
        bot.seed(seed)  # this game's deal
        truth = Truth("discord")
        watch_repository(bot.service.repo, truth)
        watch = Watch(bot.server, truth)
        watch.install()
        yield bot, truth, watch, users


async def open_table(bot: Bot, game: Game, users: dict[str, FakeUser]) -> int:
    channel = bot.world.thread
    host = users[game.people[0]]
    options: dict[str, Any] = {"variant": game.variant, "options": game.options}
    if game.preset:
        options["preset"] = game.preset
    await bot.slash(host, channel, "new", options)
    if game.lang:
        await bot.slash(host, channel, "settings", {"name": "lang", "value": game.lang})
    for name in game.people[1:]:
        table = bot.table_message(channel)
        await bot.click(users[name], table, control(table, "join"))
    for _ in range(game.ais):
        table = bot.table_message(channel)
        await bot.click(host, table, control(table, "addbot.normal"))
    table = bot.table_message(channel)
    await bot.click(host, table, control(table, "start"))
    info = await bot.entry.table_info(bot.key(channel))
    assert info is not None and info.status is Status.PLAYING, game
    assert len(info.seats) == len(game.people) + game.ais
    return info.id


async def spectate(bot: Bot, user: FakeUser) -> None:
    """Someone without a seat presses Show my hand and types /rummy hand."""
    channel = bot.world.thread
    table = bot.table_message(channel)
    if any(action_of(c) == "hand" for c in table.custom_ids()):
        await bot.click(user, table, control(table, "hand"))
    await bot.slash(user, channel, "hand")


async def play(bot: Bot, truth: Truth, game: Game, users: dict[str, FakeUser]) -> dict[str, Any]:
    channel = bot.world.thread
    table_id = await open_table(bot, game, users)
    people = [users[name] for name in game.people]
    spectator = next(u for n, u in users.items() if n not in game.people)
    players = People(bot, channel, people, seed=game.seed, swaps=game.swaps)
    by_key = {f"discord:{u.id}": u for u in people}
    steps = ticks = next_clicks = 0
    while True:
        truth.settled()
        stored = await bot.service.repo.get_table(table_id)
        assert stored is not None
        if stored.status is not Status.PLAYING:
            break
        steps += 1
        assert steps < MAX_STEPS, f"{game.name}: the game did not end"
        if steps == SPECTATOR_STEP:
            await spectate(bot, spectator)
        state = stored.state
        assert state is not None
        if state.phase is Phase.HAND_OVER:
            table = bot.table_message(channel)
            if next_clicks == 0 and any(action_of(c) == "next" for c in table.custom_ids()):
                await bot.click(people[0], table, control(table, "next"))
                next_clicks += 1
            else:
                ticks += await bot.tick()
            continue
        if stored.seats[state.current].automated:  # the AI moves when its delay is over
            ticks += await bot.tick()
            continue
        user = by_key[stored.seats[state.current].user or ""]
        await players.play(state, user)
        after = await bot.service.repo.get_table(table_id)
        assert after is not None and after.version > stored.version, (
            f"{user.username}'s move did not happen: {players.hands[user.id].content}"
        )
    final = await bot.service.repo.get_table(table_id)
    assert final is not None and final.status is Status.FINISHED, final
    assert final.state is not None and final.state.phase is Phase.GAME_OVER
    return {
        "steps": steps,
        "moves": players.moves,
        "kinds": dict(players.kinds),
        "menu moves": players.menu_moves,
        "scripted": dict(players.chooser.made),
        "interactions": players.interactions,
        "ticks": ticks,
        "next clicks": next_clicks,
        "deals": len(truth.deals),
        "seats": len(final.seats),
    }


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
async def test_no_hidden_card_reaches_anyone_who_may_not_see_it(tmp_path: Path, game: Game) -> None:
    started = time.perf_counter()
    async with watched_bot(tmp_path, game.seed) as (bot, truth, watch, users):
        with complaints("discord", "bot") as logged:
            stats = await play(bot, truth, game, users)
        versions = watch.assert_every_version_checked()
    if game.swaps:  # a Romanian doubla swap made by the buttons of both hand messages
        assert stats["scripted"].get("AnswerDoubla"), "no doubla swap happened"
    assert truth.problems == [], "\n".join(truth.problems)
    errors = [r.getMessage() for r in logged if r.levelname in ("ERROR", "CRITICAL")]
    assert not errors, errors
    checked = truth.checked
    assert checked["public"] + checked["private"] == versions
    assert checked["public while hiding"] >= 10 and checked["private while hiding"] >= 10
    assert checked["public payloads"] > 0
    print(
        f"\ndiscord {game.name}: {time.perf_counter() - started:.1f} s, {stats}, "
        f"{versions} message versions checked {dict(checked)}"
    )


# --- the checks can fail --------------------------------------------------------------------


async def test_a_leak_through_the_real_stack_is_caught(tmp_path: Path) -> None:
    """Messages sent through discord.py to the fake Discord with a hidden card (in the
    channel, in a control's custom id, in another player's DM) are each reported; public
    cards and a player's own cards in their DM are not."""
    game = Game("canary", "basic", None, "deals=1", ("alice", "bob"), seed=1001)
    async with watched_bot(tmp_path, game.seed) as (bot, truth, _watch, users):
        table_id = await open_table(bot, game, users)
        stored = await bot.service.repo.get_table(table_id)
        assert stored is not None and stored.state is not None
        state = stored.state
        seat_of = {s.user: n for n, s in enumerate(stored.seats) if s.user}
        alice, bob = users["alice"], users["bob"]
        alice_card = state.hands[seat_of[f"discord:{alice.id}"]][0]
        bob_card = state.hands[seat_of[f"discord:{bob.id}"]][0]
        stock_card = next(c for c in state.stock if str(c) not in PROSE_WORDS)
        client = bot.adapter.client
        assert client is not None
        channel = client.get_channel(bot.world.thread.id)
        assert isinstance(channel, discord.Thread)
        await channel.send(f"Top card {card_text(state.discard[-1])} 🃏")
        assert truth.problems == []
        await channel.send(f"psst: Bob holds {card_text(bob_card)}")
        await channel.send(f"next from the stock: {stock_card}")
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="Go", custom_id=f"rm:1:1:show:{alice_card}"))
        await channel.send("Press", view=view)
        dm = await (await client.fetch_user(alice.id)).create_dm()
        await dm.send(f"Your hand: {card_text(alice_card)}")
        await dm.send(f"Bob's hand: {card_text(bob_card)}")
        problems = list(truth.problems)
    assert len(problems) == 4, "\n".join(problems)
    bob_seat = seat_of[f"discord:{bob.id}"]
    assert f"{card_text(bob_card)} hidden in seat {bob_seat} (Bob)" in problems[0]
    assert "everyone" in problems[0]
    assert f"{card_text(stock_card)} hidden in the stock" in problems[1]
    assert f"button data 'show {alice_card}'" in problems[2]
    assert f"discord:{alice.id}" in problems[3] and card_text(bob_card) in problems[3]
