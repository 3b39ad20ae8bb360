"""Screenshots of the web table, saved as test artifacts (test-artifacts/web, ignored by
git): the table in German and English at a phone viewport (390x844) and a desktop one
(1280x800) and a phone held sideways (844x390), and a Romanian rack of 40 tiles (the
copies in docs/images come from here). Each is also checked for what a phone needs:
nothing wider than the screen, and every control of the hand at least 40 px."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page

from bot.ports.model import ChatKey, UserRef
from tests.web.driver import OpenPage, open_telegram_page, take_turn, wait_screen
from tests.web.support import ARTIFACTS, WebWorld, web_world

ANA = UserRef("telegram", "801", "Ana", "de")
BEN = UserRef("telegram", "802", "Ben", "en")
SIZES = [(390, 844), (844, 390), (1280, 800)]


async def fits(page: Page) -> None:
    """Nothing sticks out sideways; the hand's cards and buttons are >= 40 px."""
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= await page.evaluate("window.innerWidth"), "wider than the screen"
    sizes = await page.eval_on_selector_all(
        ".hand button, .offers button, nav.bottom button",
        "nodes => nodes.map(n => [n.getBoundingClientRect().width,"
        " n.getBoundingClientRect().height])",
    )
    assert sizes and all(w >= 40 and h >= 40 for w, h in sizes), sizes


async def played(world: WebWorld, pages: list[OpenPage], steps: int = 60) -> None:
    """A few moves, until melds lie on the table (a screenshot worth looking at)."""
    for _ in range(steps):
        for opened in pages:
            await take_turn(opened)
        if await pages[0].page.locator(".melds .meld").count() >= 2:
            return


async def test_the_table_in_both_languages(tmp_path: Path, browser: Browser) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    async with web_world(tmp_path / "web.sqlite3") as world:
        info = await world.table(ANA, [BEN], "basic multiple_melds=on", ais=2)
        pages = [
            await open_telegram_page(browser, world.base, user, info.id) for user in (ANA, BEN)
        ]
        try:
            for opened in pages:
                await wait_screen(opened.page)
            await played(world, pages)
            for opened, lang in zip(pages, ("de", "en"), strict=True):
                for width, height in SIZES:
                    await opened.page.set_viewport_size({"width": width, "height": height})
                    await opened.page.evaluate(  # no passing message in the picture
                        "document.getElementById('toast')?.classList.add('hidden');"
                        "window.scrollTo(0, 0);"
                        "new Promise(r => requestAnimationFrame(r))"
                    )
                    await opened.page.wait_for_function("document.getAnimations().length === 0")
                    assert await opened.page.get_attribute("html", "lang") == lang
                    await fits(opened.page)
                    path = ARTIFACTS / f"table-{lang}-{width}x{height}.png"
                    await opened.page.screenshot(path=path, full_page=True)
                    await opened.page.screenshot(path=path.with_suffix(".screen.png"))
                    assert path.stat().st_size > 10_000
        finally:
            for opened in pages:
                await opened.close()


@pytest.mark.parametrize("tiles", [40])
async def test_a_romanian_rack_of_40_tiles_wraps(
    tmp_path: Path, browser: Browser, tiles: int
) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    key = ChatKey("telegram", "-100999")
    async with web_world(tmp_path / "web.sqlite3") as world:
        info = await world.table(ANA, [BEN], "romanian deals=1 preplay=off", key=key)
        repo = world.service.repo
        table = await repo.get_table(info.id)
        assert table is not None and table.state is not None
        state = table.state
        seat = table.seat_of(BEN.key)
        assert seat is not None
        more = tiles - len(state.hands[seat])
        hands = list(state.hands)
        hands[seat] = (*hands[seat], *state.stock[:more])
        # 40 tiles on one rack (a long game's rack, made at once): tiles move from the
        # wall to the rack, so every tile is still accounted for
        grown = replace(
            table,
            state=replace(state, hands=tuple(hands), stock=state.stock[more:]),
            version=table.version + 1,
        )
        await repo.commit(grown, table.version)
        page = await open_telegram_page(browser, world.base, BEN, info.id)
        try:
            await page.page.wait_for_selector(".hand-row .card")
            assert await page.page.locator(".hand-row .card").count() == tiles
            await fits(page.page)
            rows = await page.page.eval_on_selector_all(
                ".hand-row .card",
                "nodes => new Set(nodes.map(n => Math.round(n.getBoundingClientRect().top))).size",
            )
            assert rows >= 4, "40 tiles wrap into rows on a phone"
            await page.page.screenshot(
                path=ARTIFACTS / "romanian-rack-40-390x844.png", full_page=True
            )
        finally:
            await page.close()
