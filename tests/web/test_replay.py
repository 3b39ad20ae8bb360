"""The replay of finished deals in the web table (Chromium): a finished game is stepped
through position by position and each one the page shows is checked against the engine's
replay of the game record; the replay of a running game holds nothing hidden from the
person (only their own hand, only the deals already over)."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

from playwright.async_api import Browser

from bot.ports.model import Status, TableInfo, UserRef
from engine.ai import make_ai
from engine.commands import format_action
from engine.game import legal_actions
from engine.records import replay_steps
from engine.views import public_view, view_for
from tests.web.driver import open_telegram_page
from tests.web.privacy import Reader, event_cards, table_cards
from tests.web.support import WebWorld, web_world

ANA = UserRef("telegram", "501", "ana", "en")


async def play_until(world: WebWorld, info: TableInfo, done: object) -> None:
    """ANA moves by the greedy AI's choice (typed in the group), the AI seat by itself,
    until ``done(table)``."""
    ai = make_ai("greedy", seed=3)
    for _ in range(3000):
        table = await world.service.repo.get_table(info.id)
        assert table is not None
        if done(table):  # type: ignore[operator]
            return
        state = table.state
        assert state is not None
        seat = state.current
        if (
            seat is not None
            and table.seats[seat].user == ANA.key
            and state.phase.value
            in (
                "draw",
                "play",
            )
        ):
            action = ai.decide(view_for(state, seat), legal_actions(state, seat))
            await world.say(ANA, format_action(action))
        else:
            await asyncio.sleep(0.05)
    raise AssertionError("the game did not get there")


async def shown(page) -> dict[str, object]:  # type: ignore[no-untyped-def]
    return await page.evaluate(
        """() => {
      const app = document.getElementById('app');
      const codes = (sel) => [...document.querySelectorAll(sel)].map((n) => n.dataset.card);
      const hands = {};
      for (const node of document.querySelectorAll('[data-hand-seat]')) {
        hands[node.dataset.handSeat] = [...node.querySelectorAll('[data-card]')]
          .map((n) => n.dataset.card);
      }
      return {deal: Number(app.dataset.replayDeal), move: Number(app.dataset.replayMove),
        at: Number(app.dataset.replayAt), melds: codes('.melds [data-card]'),
        discard: codes('.discard [data-card]'), hands};
    }"""
    )


async def test_a_finished_game_steps_as_the_engine_replays_it(
    browser: Browser, tmp_path: Path
) -> None:
    async with web_world(tmp_path / "web.sqlite3") as world:
        info = await world.table(ANA, [], "basic deals=1", ais=1)
        await play_until(world, info, lambda t: t.status is not Status.PLAYING)
        record = await world.service.queries.export(info.id)
        steps = list(replay_steps(record))
        opened = await open_telegram_page(browser, world.base, ANA, info.id)
        try:
            # a replay button's page (?r=): the table has ended
            page = await opened.context.new_page()
            page.on("pageerror", lambda error: opened.errors.append(str(error)))
            await page.goto(f"{world.base}/tg/?r={info.id}")
            opened.page = page
            await opened.page.wait_for_selector("#app[data-replay-at='0']")
            for at, step in enumerate(steps):
                if at:
                    await opened.page.click("[data-action='replay-next']")
                    await opened.page.wait_for_selector(f"#app[data-replay-at='{at}']")
                seen = await shown(opened.page)
                assert (seen["deal"], seen["move"]) == (step.deal, step.number)
                state = step.state
                assert Counter(seen["melds"]) == Counter(  # type: ignore[arg-type]
                    str(p.card) for m in public_view(state).melds for p in m.cards
                )
                assert seen["hands"] == {
                    str(seat): [str(c) for c in hand] for seat, hand in enumerate(state.hands)
                }, "after the game every hand is shown"
            await opened.page.click("[data-action='replay-back']")
            await opened.page.wait_for_selector(f"#app[data-replay-at='{len(steps) - 2}']")
            await opened.page.click("[data-action='replay-speed-4']")
            assert (
                await opened.page.get_attribute("[data-action='replay-speed-4']", "aria-pressed")
                == "true"
            )
            assert not opened.errors
        finally:
            await opened.close()


async def test_a_running_games_replay_shows_nothing_hidden(
    browser: Browser, tmp_path: Path
) -> None:
    async with web_world(tmp_path / "web.sqlite3") as world:
        info = await world.table(ANA, [], "basic deals=3", ais=1)
        await play_until(world, info, lambda t: t.state is not None and t.state.deal_number >= 2)
        table = await world.service.repo.get_table(info.id)
        assert table is not None and table.status is Status.PLAYING
        mine = table.seat_of(ANA.key)
        record = await world.service.queries.game_record(table)
        steps = [s for s in replay_steps(record) if s.deal == 1]
        opened = await open_telegram_page(browser, world.base, ANA, info.id)
        try:
            await opened.page.wait_for_selector("[data-action='replay']")
            await opened.page.click("[data-action='replay']")
            await opened.page.wait_for_selector("#app[data-replay-at='0']")
            answers = [body for url, body in opened.api if "/api/replay" in url]
            assert len(answers) == 1 and not answers[0]["over"]
            positions = answers[0]["positions"]
            assert len(positions) == len(steps), "only the deal that is over"
            reader = Reader("en")
            named: set[str] = set()  # the cards public events named so far
            for position, step in zip(positions, steps, strict=True):
                hands = position["hands"]
                assert [seat for seat, hand in enumerate(hands) if hand is not None] == [mine]
                assert hands[mine] == [str(c) for c in step.state.hands[mine]]
                named |= {str(c) for event in step.events for c in event_cards(event)}
                allowed = set(table_cards(public_view(step.state))) | named
                allowed |= {str(c) for c in step.state.hands[mine]}
                public = position["public"]
                assert [p["cards"] for p in public["players"]] == [len(h) for h in step.state.hands]
                texts = [*position["events"], *public["lines"]]
                if position["sheet"]:
                    texts.append(position["sheet"]["text"])
                for text in texts:
                    for code in reader.in_text(text):
                        assert code in allowed, f"{code} in {text!r} is hidden from the person"
            seen = await shown(opened.page)
            assert list(seen["hands"]) == [str(mine)]  # type: ignore[arg-type]
            # every card element the page shows at the deal's start is public or the
            # person's own
            first = steps[0].state
            dom = await opened.page.evaluate(
                "() => [...document.querySelectorAll('#app [data-card]')]"
                ".map((n) => n.dataset.card)"
            )
            visible = set(table_cards(public_view(first))) | {str(c) for c in first.hands[mine]}
            assert dom and set(dom) <= visible
            await opened.page.click("[data-action='replay-close']")
            await opened.page.wait_for_selector("#app:not([data-replay-at])")
            assert not opened.errors
        finally:
            await opened.close()
