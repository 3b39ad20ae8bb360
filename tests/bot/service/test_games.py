"""Games through the service: full games with AI seats, concurrency, restarts, timers,
duplicate deliveries and localized refusals (real SQLite file on tmp_path)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from pathlib import Path

import pytest

from bot.i18n import use_locale
from bot.i18n.errors import localize_error
from bot.ports.model import SeatKind, Status
from bot.service.errors import NotSeated, TableBusy
from bot.service.limits import UPDATE_KEY_SECONDS
from bot.service.repository import VersionConflict
from bot.service.scheduling import reschedule
from engine.ai import make_ai
from engine.commands import format_action, parse_action
from engine.dealing import DealSpec, new_game
from engine.errors import EngineError, NotYourTurn, WrongPhase
from engine.events import DealStarted, HandEnded
from engine.fair_check import check_record
from engine.game import apply, legal_actions
from engine.records import replay
from engine.views import public_view, view_for

from .support import ANA, BEN, CEM, CHAT, Harness, make_harness


async def play_out(h: Harness, humans: dict[str, object], limit: int = 5000) -> None:
    """Drive a started game to its end: humans move by the greedy AI's choice through text
    commands, AI seats and the next deal through the clock and ``tick``."""
    s = h.people
    ais = {key: make_ai("greedy", seed=i) for i, key in enumerate(humans)}
    for _ in range(limit):
        table = await s.repo.active_table(CHAT)
        if table is None:
            return
        state = table.state
        assert state is not None
        seat = state.current
        who = table.seats[seat]
        if state.phase.value in ("draw", "play") and who.user in humans and not who.automated:
            user = humans[who.user]
            _, view = await s.player_view(CHAT, user)  # type: ignore[arg-type]
            action = ais[who.user].decide(view, legal_actions(state, seat))
            await s.act(CHAT, user, format_action(action))  # type: ignore[arg-type]
        else:
            h.clock.advance(3)
            assert await s.tick() >= 1
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("preset", ["standard", "beginner", "block", "wrotham"])
async def test_full_game_with_ai_seats(tmp_path: Path, preset: str) -> None:
    h = await make_harness(tmp_path / "db.sqlite3")
    s = h.people
    options = {"deals": 2, "target": "none"} if preset != "wrotham" else {}
    await s.new_table(CHAT, ANA, "basic", preset, options)
    await s.join(CHAT, BEN)
    await s.add_ai(CHAT, ANA)
    info = await s.start(CHAT, ANA)
    await play_out(h, {ANA.key: ANA, BEN.key: BEN})
    table = await s.repo.get_table(info.id)
    assert table is not None and table.status is Status.FINISHED
    assert table.state is not None and table.state.winners
    stats = await s.stats(ANA)
    assert stats["games"] == 1
    board = await s.leaderboard(CHAT)
    assert {row["user"] for row in board} == {ANA.key, BEN.key}
    record = await s.export(info.id)
    result = replay(record)
    assert result["ok"] and result["game_over"], result["error"]
    assert result["state"]["version"] == table.state.version
    await h.db.close()


async def test_a_game_the_bot_starts_deals_fairly_and_its_export_verifies(tmp_path: Path) -> None:
    """Without a chosen seed every deal comes from its own secret: the commitment is in the
    state and the DealStarted of the start, a secret reaches no screen before its deal
    has ended, and the exported record (format 2) passes engine.fair_check."""
    h = await make_harness(tmp_path / "db.sqlite3", seeded=False)
    s = h.people
    await s.new_table(CHAT, ANA, "basic", None, {"deals": 2, "target": "none"})
    await s.join(CHAT, BEN)
    await s.add_ai(CHAT, ANA)
    info = await s.start(CHAT, ANA)
    started = await s.repo.get_table(info.id)
    assert started is not None and started.state is not None
    assert started.state.fair_key is not None and started.state.commitment is not None
    first_events = h.notifier.public[-1][2]
    assert [e.commitment for e in first_events if isinstance(e, DealStarted)] == [
        started.state.commitment
    ]
    await play_out(h, {ANA.key: ANA, BEN.key: BEN})
    table = await s.repo.get_table(info.id)
    assert table is not None and table.state is not None
    results = table.state.results
    assert len(results) == 2 and all(r.secret and r.commitment for r in results)
    for r in results:
        for _info, view, events, notices in h.notifier.public:
            if r.secret in repr((view, events, notices)):
                assert any(
                    isinstance(e, HandEnded) and e.deal_number == r.deal_number for e in events
                ) or (view is not None and r in view.results)
        for _user, _seat, seat_view in h.notifier.hands:
            if r.secret in repr(seat_view):
                assert r in seat_view.table.results
    record = await s.export(info.id)
    assert record["format"] == 2
    check = check_record(record)
    assert check.ok and check.deals == 2, check
    await h.db.close()


async def test_concurrent_actions_apply_exactly_once(harness: Harness) -> None:
    """100 concurrent clicks of "draw" by the player to move: one applies."""
    s = harness.people
    await s.new_table(CHAT, ANA)
    await s.join(CHAT, BEN)
    await s.start(CHAT, ANA)
    table = await s.repo.active_table(CHAT)
    assert table is not None and table.state is not None
    mover = ANA if table.seats[table.state.current].user == ANA.key else BEN
    version = table.version
    results = await asyncio.gather(
        *(s.act(CHAT, mover, "draw") for _ in range(100)), return_exceptions=True
    )
    ok = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(ok) == 1
    assert all(isinstance(r, WrongPhase) for r in refused)
    after = await s.repo.active_table(CHAT)
    assert after is not None and after.version == version + 1
    assert [e.command for e in await s.repo.action_log(after.id)][-1] == "draw"


async def test_duplicate_delivery_is_applied_once(harness: Harness) -> None:
    s = harness.people
    await s.new_table(CHAT, ANA)
    await s.join(CHAT, BEN)
    await s.start(CHAT, ANA)
    table = await s.repo.active_table(CHAT)
    assert table is not None and table.state is not None
    mover = ANA if table.seats[table.state.current].user == ANA.key else BEN
    first = await s.act(CHAT, mover, "draw", update_key="tg:update:42")
    second = await s.act(CHAT, mover, "draw", update_key="tg:update:42")
    assert first.version == second.version == table.version + 1


async def test_restart_mid_game_continues(tmp_path: Path) -> None:
    harness = await make_harness(tmp_path / "db.sqlite3")
    s = harness.people
    await s.new_table(CHAT, ANA)
    await s.join(CHAT, BEN)
    await s.start(CHAT, ANA)
    table = await s.repo.active_table(CHAT)
    assert table is not None and table.state is not None
    mover = ANA if table.seats[table.state.current].user == ANA.key else BEN
    await s.act(CHAT, mover, "draw")
    before = await s.repo.active_table(CHAT)
    again = await harness.reopen()
    after = await again.service.repo.active_table(CHAT)
    assert after == before
    assert after is not None and after.state is not None
    card = after.state.hands[after.state.current][0]
    info = await again.people.act(CHAT, mover, f"discard {card}")
    assert info.version == after.version + 1
    await again.db.close()


async def test_timer_warns_then_autopilot_plays_and_takes_over(harness: Harness) -> None:
    s = harness.people
    clock = harness.clock
    await s.new_table(CHAT, ANA)
    await s.join(CHAT, BEN)
    await s.start(CHAT, ANA)
    table = await s.repo.active_table(CHAT)
    assert table is not None and table.state is not None and table.deadline is not None
    first = table.state.current
    clock.advance(100)  # 2-minute timer: warned at 80% of it
    assert await s.tick() == 1
    assert harness.notifier.warnings and harness.notifier.warnings[0][0] == table.seats[first].user
    clock.advance(21)
    assert await s.tick() >= 1
    assert "autopilot_turn" in harness.notifier.notice_codes()
    table = await s.repo.active_table(CHAT)
    assert table is not None and table.state is not None
    assert table.state.current != first and table.seats[first].missed == 1
    # The other player misses too; then the first misses again and the AI keeps the seat.
    for _ in range(2):
        clock.advance(121)
        await s.tick()
    table = await s.repo.active_table(CHAT)
    assert table is not None
    assert table.seats[first].autopilot
    assert "autopilot_on" in harness.notifier.notice_codes()
    user = ANA if table.seats[first].user == ANA.key else BEN
    info = await s.back(CHAT, user)
    assert not info.seats[first].autopilot


async def test_idle_game_ends_and_is_recorded(harness: Harness) -> None:
    s = harness.people
    await s.new_table(CHAT, ANA)
    await s.add_ai(CHAT, ANA)
    await s.configure(CHAT, ANA, {"timer": "off"})
    info = await s.start(CHAT, ANA)
    harness.clock.advance(6 * 86400)
    await s.tick()
    assert (await s.table_info(CHAT)) is not None
    harness.clock.advance(2 * 86400)
    await s.tick()
    table = await s.repo.get_table(info.id)
    assert table is not None and table.status is Status.FINISHED
    assert table.ended_reason == "idle"
    assert (await s.stats(ANA))["games"] == 1
    assert "game_idle_ended" in harness.notifier.notice_codes()


async def test_bad_input_is_refused_in_the_players_language(harness: Harness) -> None:
    s = harness.people
    await s.new_table(CHAT, ANA)
    await s.join(CHAT, BEN)
    await s.start(CHAT, ANA)
    table = await s.repo.active_table(CHAT)
    assert table is not None and table.state is not None
    mover, other = (ANA, BEN) if table.seats[table.state.current].user == ANA.key else (BEN, ANA)
    await s.act(CHAT, mover, "draw")
    before = await s.repo.active_table(CHAT)
    messages = {}
    for text, user in (("discard 7x", mover), ("draw", other), ("fly away", mover)):
        with pytest.raises(EngineError) as err:
            await s.act(CHAT, user, text)
        for locale in ("en", "de"):
            with use_locale(locale):
                messages[(text, locale)] = localize_error(err.value)
    assert messages[("discard 7x", "en")] != messages[("discard 7x", "de")]
    assert "7x" in messages[("discard 7x", "de")]
    with pytest.raises(NotYourTurn):
        await s.act(CHAT, other, "draw")
    with pytest.raises(NotSeated):
        await s.act(CHAT, CEM, "draw")
    assert await s.repo.active_table(CHAT) == before


async def test_ai_waits_longer_while_a_human_may_call(harness: Harness) -> None:
    """Rummy 500: after a discard any other player may call "Rommé!" before the next player
    draws; when that next player is an AI it waits ``call_window`` seconds, not ``ai_delay``."""
    s = harness.people
    await s.new_table(CHAT, ANA, "500")
    await s.add_ai(CHAT, ANA)
    await s.add_ai(CHAT, ANA)
    await s.start(CHAT, ANA)
    player = make_ai("greedy", 1)
    for _ in range(200):
        now = harness.clock.now()
        table = await s.repo.active_table(CHAT)
        assert table is not None and table.state is not None
        may_call = getattr(public_view(table.state).extra, "may_call", ())
        seat = table.state.current
        if 0 in may_call and table.seats[seat].automated:
            assert reschedule(table, table, now).due_at == now + table.settings.call_window
            return
        if table.seats[seat].automated:
            harness.clock.advance(10)
            await s.tick()
        else:
            action = player.decide(view_for(table.state, seat), legal_actions(table.state, seat))
            await s.act(CHAT, ANA, format_action(action))
    raise AssertionError("no call window for the human opened")


async def test_a_move_that_keeps_losing_the_version_race_is_refused_clearly(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When other moves (e.g. another bot process) win the compare-and-set every time, the
    move is refused with a typed, localized "try again" and nothing is stored."""
    service = harness.people
    await service.new_table(CHAT, ANA)
    before = await service.table_info(CHAT)
    assert before is not None

    async def always_lost(*args: object, **kwargs: object) -> None:
        raise VersionConflict()

    monkeypatch.setattr(service.repo, "commit", always_lost)
    with pytest.raises(TableBusy) as caught:
        await service.join(CHAT, BEN)
    monkeypatch.undo()
    after = await service.table_info(CHAT)
    assert after is not None and after.version == before.version
    assert len(after.seats) == len(before.seats)
    with use_locale("de"):
        assert localize_error(caught.value) == (
            "Am Tisch ist gerade viel los; bitte schick das noch einmal."
        )


async def test_old_update_keys_are_pruned_and_recent_ones_still_deduplicate(
    harness: Harness,
) -> None:
    """Idempotency keys are kept for UPDATE_KEY_SECONDS (two days: no platform redelivers
    later) and then forgotten, so the database does not grow with every click; a key
    inside the window still makes a second delivery change nothing."""
    s = harness.people
    await s.new_table(CHAT, ANA)
    await s.join(CHAT, BEN, update_key="tg:update:1")
    await s.add_ai(CHAT, ANA, update_key="tg:update:2")
    joined = await s.table_info(CHAT)
    assert joined is not None
    now = time.time()
    assert await s.prune_update_keys(now) == 0
    again = await s.add_ai(CHAT, ANA, update_key="tg:update:2")
    assert again.version == joined.version and len(again.seats) == len(joined.seats)
    assert await s.prune_update_keys(now + UPDATE_KEY_SECONDS + 60) == 2
    assert not await s.repo.seen_update("tg:update:1")
    assert not await s.repo.seen_update("tg:update:2")


async def test_an_ai_seat_calls_rumme_before_the_next_ai_draws(harness: Harness) -> None:
    """Rummy 500: "kann, bevor der nächste Spieler eine Karte zieht, außer dem Spieler, der
    gerade eine Karte abgelegt hat, jeder Spieler "Rommé!" rufen". ana melded 7h 8h 9h
    (an AI seat), ben discarded the 10h; when cem (AI) is due to draw, ana's AI calls
    first and plays on; play then continues left of ana."""
    s = harness.people
    await s.new_table(CHAT, BEN, variant="500")
    await s.add_ai(CHAT, BEN)
    await s.add_ai(CHAT, BEN)
    await s.start(CHAT, BEN)
    table = await s.repo.active_table(CHAT)
    assert table is not None and table.state is not None
    ai_seats = [n for n, seat in enumerate(table.seats) if seat.kind is SeatKind.AI]
    human = next(n for n, seat in enumerate(table.seats) if seat.kind is SeatKind.HUMAN)
    # turn order ana (AI), ben (the person), cem (AI), following the seats
    order = [ai_seats[1], human, ai_seats[0]]
    assert [(seat + 1) % 3 for seat in order] == [order[1], order[2], order[0]]
    hands = ["7h 8h 9h 2c 3c 4d kc", "10h 5s 6s 2d 3d jc qc", "6h 4c 5c 8d 9d js qs"]
    by_seat = [""] * 3
    for position, seat in enumerate(order):
        by_seat[seat] = hands[position]
    rules = s.rules_of(table.info())
    state = new_game(
        rules,
        table.state.players,
        seed=5,
        dealer=order[2],
        deal=DealSpec.parse(by_seat, "ks", "ad 2s 3s 4s 6c 7c"),
    )
    assert state.current == order[0]
    for seat, line in (
        (order[0], "draw"),
        (order[0], "meld 7h 8h 9h"),
        (order[0], "discard kc"),
        (order[1], "draw"),
        (order[1], "discard 10h"),
    ):
        state, _ = apply(state, parse_action(line, seat))
    table = replace(table, state=state)
    change = await s.service.automatic._ai_step(table)
    assert change.log[0][:2] == (order[0], "call 10h")
    assert change.table.state is not None and change.table.state.current == order[0]
