"""A whole deal of every variant played through the web table by two people in two
browser contexts (Chromium), with an AI seat: every move is a tap on the page (Hint, the
suggested cards one by one, the offered move). The stored action log replays to the stored
state, and every payload and DOM snapshot of each page holds only what that seat may see
(tests/web/privacy.py)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from playwright.async_api import Browser

from bot.ports.model import TableSettings, UserRef
from engine.state import Phase
from engine.variants import get_variant
from tests.bot.reliability.support import all_cards, replay
from tests.web.driver import open_telegram_page, play_deal
from tests.web.privacy import Reader, Views, check_dom, check_frames
from tests.web.support import web_world

ANA = UserRef("telegram", "501", "ana", "de")
BEN = UserRef("telegram", "502", "ben", "en")

DEALS = [
    pytest.param("basic deals=1", id="basic"),
    pytest.param("500", id="500"),
    pytest.param("german deals=1", id="german"),
    pytest.param("romanian deals=1 preplay=on", id="romanian-preplay"),
]


@pytest.mark.parametrize("words", DEALS)
async def test_a_whole_deal_through_the_page(browser: Browser, tmp_path: Path, words: str) -> None:
    # the score sheet stays up: the next deal (Rummy 500 plays to 500 points) waits
    settings = TableSettings(timer="off", ai_delay=0.05, next_deal_delay=3600.0, call_window=0.3)
    async with web_world(tmp_path / "web.sqlite3", settings=settings) as world:
        info = await world.table(ANA, [BEN], words, ais=1)
        ana = await open_telegram_page(browser, world.base, ANA, info.id)
        ben = await open_telegram_page(browser, world.base, BEN, info.id, start_param=True)
        try:
            await play_deal([ana, ben])
            # the score sheet is a table: a row per seat (issue: "the score sheet as a real
            # table"; it was monospaced chat text that wrapped on a phone)
            sheet = ana.page.locator(".sheet table.scores")
            await sheet.wait_for()
            rest = "Rest auf dem Ständer" if "romanian" in words else "Rest auf der Hand"
            assert await sheet.locator("thead th").all_inner_texts() == [
                "Spieler",
                "Diese Runde",
                "Gesamt",
                rest,
            ]
            names = await sheet.locator("tbody th").all_inner_texts()
            assert sorted(names) == sorted(s.name for s in info.seats)
            assert (await sheet.locator("caption").inner_text()).startswith("Runde 1 ")
        finally:
            await ana.close()
            await ben.close()
        repo = world.service.repo
        table = await repo.get_table(info.id)
        assert table is not None and table.state is not None
        assert table.state.results, "no deal was scored"
        assert table.state.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
        log = await repo.action_log(info.id)
        assert [e.version for e in log] == list(range(2, table.version + 1))
        assert replay(table, log) == table.state, "the action log replays to the state"
        state = table.state
        cards = all_cards(state)
        face_up = getattr(state.extra, "face_up", None)  # Romanian: the face-up tile
        if face_up is not None:
            cards[face_up] += 1
        assert cards == Counter(get_variant(state.rules.variant).deck(state.rules, state.seats))
        actors = {entry.actor for entry in log}
        assert {ANA.key, BEN.key} <= actors, "both people moved through their pages"
        assert ana.moves and ben.moves and ana.taps + ben.taps > 0
        views = Views(world.recorder.updates, info.id)
        for page, seat, locale in (
            (ana, table.seat_of(ANA.key), "de"),
            (ben, table.seat_of(BEN.key), "en"),
        ):
            reader = Reader(locale)
            assert check_frames(page.frames, views, seat, reader) > 0
            assert sum(check_dom(dom, views, seat, reader) for dom in page.doms) > 0
            # the HTTP answers (session, strings) name no card at all
            assert page.api and all(
                not reader.in_text(json.dumps(body, ensure_ascii=False)) for _url, body in page.api
            )
