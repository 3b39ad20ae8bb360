"""The card pictures while cards fly (issue 48, "Motion": no long task during a flight):
the first screen's pictures are drawn on the page, the rest of the deck by a worker
(painter.js), so the moves after the first screen draw no picture on the page's thread and
every card shown has its picture; a browser whose worker cannot draw (no OffscreenCanvas)
gets the rest of the deck drawn on the page in idle time."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, Page

from bot.ports.model import UserRef
from tests.web.driver import OpenPage, open_telegram_page, version, wait_screen
from tests.web.support import WebWorld, web_world

ANA = UserRef("telegram", "1801", "Ana", "en")
BEN = UserRef("telegram", "1802", "Ben", "en")
DECK = 54
"""A deck's pictures: 52 faces, the joker and the back."""

COUNT_DRAWINGS = """
window.__drawn = 0;
const toDataURL = HTMLCanvasElement.prototype.toDataURL;
HTMLCanvasElement.prototype.toDataURL = function (...args) {
  window.__drawn += 1;
  return toDataURL.apply(this, args);
};
"""
"""Counts the pictures drawn on the page's own thread (each one a canvas's toDataURL)."""

NO_WORKER_CANVAS = "delete window.OffscreenCanvas;"

PICTURES = "() => Number(document.documentElement.dataset.pictures || 0)"
"""How many pictures the page holds, drawn or ready (cards.js)."""

WITHOUT_PICTURE = """() => [...document.querySelectorAll('#app .art')]
  .filter((node) => !getComputedStyle(node).backgroundImage.startsWith('url("data:image/png'))
  .length"""
"""How many pictures on the page show no PNG image."""


async def opened_with(browser: Browser, world: WebWorld, script: str) -> tuple[int, OpenPage]:
    info = await world.table(ANA, [BEN], "basic", ais=0)
    opened = await open_telegram_page(browser, world.base, BEN, info.id, script=script)
    await wait_screen(opened.page)
    await opened.page.wait_for_selector(".hand-row .card")
    return info.id, opened


async def next_screen(page: Page, before: int) -> None:
    await page.wait_for_function(
        f"Number(document.querySelector('#app').dataset.version) > {before}"
        " && document.getAnimations().length === 0",
        timeout=15_000,
    )


async def a_round(world: WebWorld, table: int, page: Page) -> None:
    """Ana draws and discards, then Ben (on the page) draws and discards by taps."""
    stored = await world.service.repo.get_table(table)
    assert stored is not None and stored.state is not None
    seat = stored.seat_of(ANA.key)
    assert seat is not None
    if not await page.locator(".phase.my-turn").count():
        before = await version(page)
        await world.say(ANA, "draw")
        stored = await world.service.repo.get_table(table)
        assert stored is not None and stored.state is not None
        await world.say(ANA, f"discard {stored.state.hands[seat][0]}")
        await page.wait_for_selector(".phase.my-turn", timeout=15_000)
        await next_screen(page, before)
    before = await version(page)
    await page.click(".offers [data-kind=draw]")
    await next_screen(page, before)
    await page.locator(".hand-row .card").first.click()
    before = await version(page)
    await page.click(".offers [data-kind=discard]")
    await next_screen(page, before)


async def test_the_deck_is_drawn_by_a_worker_before_cards_fly(
    tmp_path: Path, browser: Browser
) -> None:
    async with web_world(tmp_path / "web.sqlite3") as world:
        table, opened = await opened_with(browser, world, COUNT_DRAWINGS)
        page = opened.page
        try:
            # the whole deck is there soon after the first screen, most of it not drawn
            # on the page: only the first screen's cards were
            await page.wait_for_function(f"({PICTURES})() >= {DECK}", timeout=15_000)
            first = await page.evaluate("window.__drawn")
            shown = await page.evaluate(
                "new Set([...document.querySelectorAll('#app .art')].map((n) => n.className)).size"
            )
            assert 0 < first <= shown < DECK
            for _ in range(2):
                await a_round(world, table, page)
                assert await page.evaluate(WITHOUT_PICTURE) == 0
            # new cards came to the hand and the pile: no picture drawn on the page for them
            assert await page.evaluate("window.__drawn") == first
            assert await page.evaluate(f"({PICTURES})()") == DECK
            assert opened.errors == []
        finally:
            await opened.close()


async def test_without_a_worker_canvas_the_page_draws_the_deck(
    tmp_path: Path, browser: Browser
) -> None:
    async with web_world(tmp_path / "web.sqlite3") as world:
        table, opened = await opened_with(browser, world, COUNT_DRAWINGS + NO_WORKER_CANVAS)
        page = opened.page
        try:
            assert await page.evaluate("typeof OffscreenCanvas") == "undefined"
            await page.wait_for_function(f"({PICTURES})() >= {DECK}", timeout=15_000)
            assert await page.evaluate("window.__drawn") == DECK
            await a_round(world, table, page)
            assert await page.evaluate(WITHOUT_PICTURE) == 0
            assert await page.evaluate("window.__drawn") == DECK
            assert opened.errors == []
        finally:
            await opened.close()
