"""``layoff 10h`` without a meld number: the one meld that takes the card is meant; with
two candidate melds the player is asked for the number, and nothing changes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from bot.ports.model import ChatKey, UserRef
from engine.commands import parse_action
from engine.dealing import DealSpec, new_game
from engine.game import apply
from tests.bot.people import say
from tests.bot.service.support import make_harness

CHAT = ChatKey("test", "layoff")
ANA = UserRef("test", "1", "ana", "en")
BEN = UserRef("test", "2", "ben", "en")


async def _ana_to_play(tmp_path: Path, ana: str, ben: str, lines: list[tuple[int, str]]):
    harness = await make_harness(tmp_path / "bot.sqlite3")
    s = harness.people
    await s.new_table(CHAT, ANA)
    await s.join(CHAT, BEN)
    await s.start(CHAT, ANA)
    stored = await s.repo.active_table(CHAT)
    assert stored is not None and stored.state is not None
    seat = {name: n for n, name in enumerate(stored.state.players)}
    hands = [""] * 2
    hands[seat["ana"]], hands[seat["ben"]] = ana, ben
    state = new_game(
        stored.state.rules,
        list(stored.state.players),
        dealer=seat["ben"],
        deal=DealSpec.parse(hands, "ks", "2s 3s 4s 5s 6s"),
    )
    for who, line in lines:
        state, _events = apply(state, parse_action(line, seat[("ana", "ben")[who]]))
    await s.repo.commit(replace(stored, state=state, version=stored.version + 1), stored.version)
    return harness, seat


async def test_a_layoff_without_number_goes_to_the_only_meld_it_fits(tmp_path: Path) -> None:
    harness, seat = await _ana_to_play(
        tmp_path,
        "7h 8h 9h 10h 2c 4d 6d 8c jc kc",
        "3c 5c 7d 9d jd qd kd ad 4h 6h",
        [
            (0, "draw"),
            (0, "meld 7h 8h 9h"),
            (0, "discard kc"),
            (1, "draw"),
            (1, "discard 3c"),
            (0, "draw"),
        ],
    )
    try:
        reply = await say(harness.service, CHAT, ANA, "layoff 10h")
        assert reply.ok, reply.text
        table = await harness.service.repo.active_table(CHAT)
        assert table is not None and table.state is not None
        [meld] = table.state.melds
        assert [str(p.card) for p in meld.cards] == ["7h", "8h", "9h", "10h"]
        assert all(str(c) != "10h" for c in table.state.hands[seat["ana"]])
    finally:
        await harness.db.close()


async def test_two_fitting_melds_still_need_the_number(tmp_path: Path) -> None:
    harness, _seat = await _ana_to_play(
        tmp_path,
        "7h 8h 9h 10h 10c 10d 10s 8c jc kc",
        "3c 5c 7d 9d jd qd kd ad 4h 6h",
        [
            (0, "draw"),
            (0, "meld 7h 8h 9h"),
            (0, "discard kc"),
            (1, "draw"),
            (1, "discard 3c"),
            (0, "draw"),
            (0, "meld 10c 10d 10s"),
            (0, "discard 8c"),
            (1, "draw"),
            (1, "discard 5c"),
            (0, "draw"),
        ],
    )
    try:
        before = await harness.service.repo.active_table(CHAT)
        reply = await say(harness.service, CHAT, ANA, "layoff 10h")
        assert not reply.ok and reply.text is not None and "number of the meld" in reply.text
        after = await harness.service.repo.active_table(CHAT)
        assert before is not None and after is not None and after.version == before.version
    finally:
        await harness.db.close()
