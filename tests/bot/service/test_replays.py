"""The replay of a table's finished deals through the service (bot.service.replays): who
may see it, what each position holds while the game runs and after it, and the refusals
(an unknown table, a stranger, no deal over, a damaged stored record)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from bot.ports.intents import ReplayGame
from bot.ports.model import Status, TableInfo, UserRef
from bot.service.compute import BudgetExceeded
from bot.service.errors import NoDealOver, NothingToReplay
from engine.records import replay_steps
from engine.views import public_view

from .support import ANA, BEN, CEM, CHAT, Harness, make_harness
from .test_games import play_out


async def _started(tmp_path: Path, deals: int, ai: bool = False) -> tuple[Harness, TableInfo]:
    """A harness and the game of Ana and Ben (and an AI seat) it started, ``deals`` deals."""
    h = await make_harness(tmp_path / "db.sqlite3")
    await h.people.new_table(CHAT, ANA, "basic", None, {"deals": deals, "target": "none"})
    await h.people.join(CHAT, BEN)
    if ai:
        await h.people.add_ai(CHAT, ANA)
    return h, await h.people.start(CHAT, ANA)


async def test_a_finished_game_shows_every_hand_at_every_position(tmp_path: Path) -> None:
    h, info = await _started(tmp_path, 2, ai=True)
    s = h.people
    await play_out(h, {ANA.key: ANA, BEN.key: BEN})
    record = await s.export(info.id)
    steps = list(replay_steps(record))
    replay = await h.service.entry.replay(info.id, BEN, False)
    assert replay.refused is None and replay.over and replay.seat is not None
    assert replay.locale == "de"
    assert len(replay.positions) == len(steps)
    for position, step in zip(replay.positions, steps, strict=True):
        assert (position.deal, position.number) == (step.deal, step.number)
        assert position.hands == step.state.hands
        assert position.table == public_view(step.state)
        assert len(position.events) == len(step.events)
    # someone who may watch (the front end checked it) sees the same after the game
    watched = await h.service.entry.replay(info.id, CEM, True)
    assert watched.seat is None
    assert [(p.table, p.hands) for p in watched.positions] == [
        (p.table, p.hands) for p in replay.positions
    ]
    await h.db.close()


async def test_a_running_game_shows_only_the_persons_own_hand(tmp_path: Path) -> None:
    h, info = await _started(tmp_path, 3)
    s = h.people
    early = await h.service.entry.replay(info.id, ANA, False)
    assert early.refused == "no_deal" and early.text and not early.positions
    # play until the first deal is over, then into the second
    for _ in range(2000):
        table = await s.repo.get_table(info.id)
        assert table is not None and table.state is not None
        if table.state.results and table.state.deal_number == 2:
            break
        await _one_move(h, table)
    table = await s.repo.get_table(info.id)
    assert table is not None and table.status is Status.PLAYING and table.state is not None
    ana_seat = table.seat_of(ANA.key)
    replay = await h.service.entry.replay(info.id, ANA, False)
    assert replay.refused is None and not replay.over and replay.seat == ana_seat
    assert replay.positions and {p.deal for p in replay.positions} == {1}
    for position in replay.positions:
        shown = [seat for seat, hand in enumerate(position.hands) if hand is not None]
        assert shown == [ana_seat]
    watcher = await h.service.entry.replay(info.id, CEM, True)
    assert all(hand is None for p in watcher.positions for hand in p.hands)
    stranger = await h.service.entry.replay(info.id, CEM, False)
    assert stranger.refused == "not_at_table" and not stranger.positions
    assert (await h.service.entry.replay(info.id + 99, ANA, False)).refused == "no_table"
    await h.db.close()


async def _one_move(h, table) -> None:  # type: ignore[no-untyped-def]
    from engine.ai import make_ai
    from engine.commands import format_action
    from engine.game import legal_actions

    state = table.state
    seat = state.current
    if seat is None or state.phase.value not in ("draw", "play"):
        h.clock.advance(3)
        await h.people.tick()
        return
    user = {ANA.key: ANA, BEN.key: BEN}[table.seats[seat].user]
    _info, view = await h.people.player_view(CHAT, user)
    action = make_ai("greedy", seed=1).decide(view, legal_actions(state, seat))
    await h.people.act(CHAT, user, format_action(action))


async def test_a_damaged_record_is_refused_in_one_line(tmp_path: Path) -> None:
    h, info = await _started(tmp_path, 1)
    await play_out(h, {ANA.key: ANA, BEN.key: BEN})
    await h.raw(
        "UPDATE actions SET command = 'discard zz' WHERE id = "
        "(SELECT MIN(id) FROM actions WHERE table_id = ? AND seat IS NOT NULL)",
        (info.id,),
    )
    replay = await h.service.entry.replay(info.id, ANA, False)
    assert replay.refused == "damaged" and not replay.positions
    assert "\n" not in replay.text and replay.text.startswith("The stored record")
    german = await h.service.entry.replay(info.id, UserRef("test", "2", "ben", "de"), False)
    assert german.refused == "damaged" and not german.text.startswith("The stored record")
    assert Counter(p.deal for p in replay.positions) == Counter()
    await h.db.close()


async def test_a_replay_no_worker_made_in_time_is_refused_as_busy(tmp_path: Path) -> None:
    """A replay that no engine worker makes within its budget: "try again", in the person's
    language, and the game is untouched."""
    h, info = await _started(tmp_path, 1)
    await play_out(h, {ANA.key: ANA, BEN.key: BEN})
    before = await h.people.repo.get_table(info.id)
    queries = h.service.queries
    real = queries.compute

    class Slow:
        async def call(self, *args: object, **kwargs: object) -> object:
            raise BudgetExceeded()

    queries.compute = Slow()  # type: ignore[assignment]
    try:
        english = await h.service.entry.replay(info.id, ANA, False)
        german = await h.service.entry.replay(info.id, UserRef("test", "2", "ben", "de"), False)
    finally:
        queries.compute = real
    assert english.refused == german.refused == "busy"
    assert english.text == "The replay could not be prepared now; try again in a moment."
    assert german.text and german.text != english.text and not english.positions
    assert await h.people.repo.get_table(info.id) == before
    assert (await h.service.entry.replay(info.id, ANA, False)).refused is None
    await h.db.close()


async def test_replay_typed_in_a_chat_offers_its_running_or_last_ended_game(
    tmp_path: Path,
) -> None:
    """``replay`` (:class:`ReplayGame`): the chat's running game once a deal of it is over,
    else its last ended game (a new lobby, also once cancelled, does not hide it); nothing
    to replay and no deal over are refused; nothing is stored."""
    h = await make_harness(tmp_path / "db.sqlite3")
    s = h.people
    with pytest.raises(NothingToReplay):
        await s.do(ANA, ReplayGame(), CHAT)
    await s.new_table(CHAT, ANA, "basic", None, {"deals": 2, "target": "none"})
    await s.join(CHAT, BEN)
    info = await s.start(CHAT, ANA)
    with pytest.raises(NoDealOver):
        await s.do(ANA, ReplayGame(), CHAT)
    await play_out(h, {ANA.key: ANA, BEN.key: BEN})
    version = (await s.repo.get_table(info.id)).version  # type: ignore[union-attr]
    ended = await s.do(ANA, ReplayGame(), CHAT)
    assert ended.ok and ended.info is not None and ended.info.id == info.id
    assert ended.reply.text == f"Table {info.id}: its game can be replayed, every hand shown."
    await s.new_table(CHAT, ANA, "basic", None, {"deals": 1})  # a new lobby here
    assert (await s.do(ANA, ReplayGame(), CHAT)).info.id == info.id  # type: ignore[union-attr]
    await s.cancel(CHAT, ANA)
    assert (await s.do(ANA, ReplayGame(), CHAT)).info.id == info.id  # type: ignore[union-attr]
    assert (await s.repo.get_table(info.id)).version == version  # type: ignore[union-attr]
    # a game given up after its deal began is the newest ended game, and is offered
    await s.new_table(CHAT, ANA, "basic", None, {"deals": 1})
    await s.join(CHAT, BEN)
    given_up = await s.start(CHAT, ANA)
    await s.cancel(CHAT, ANA)
    offered = await s.do(BEN, ReplayGame(), CHAT)
    assert offered.info is not None and offered.info.id == given_up.id
    await h.db.close()
