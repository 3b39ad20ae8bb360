"""The table's layouts (issue 48, "Layouts"): a phone held upright (390x844) and sideways
(844x390), and a desktop (1280x800) with the seats around the felt and bigger cards; a
Romanian rack of 40 tiles in two rows on a desktop. Measured from the element boxes, in
German and English."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page

from bot.ports.model import ChatKey, UserRef
from tests.web.driver import open_telegram_page, wait_screen
from tests.web.support import ARTIFACTS, web_world

ANA = UserRef("telegram", "1301", "Ana", "de")
BEN = UserRef("telegram", "1302", "Ben", "en")
PHONE = (390, 844)
LANDSCAPE = (844, 390)
DESKTOP = (1280, 800)

BOXES = """() => {
  const box = (node) => {
    if (!node) return null;
    const r = node.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width,
      height: r.height};
  };
  return {
    width: document.scrollingElement.scrollWidth, inner: innerWidth, innerHeight,
    felt: box(document.querySelector('.table-area')),
    hand: box(document.querySelector('.hand')),
    cards: [...document.querySelectorAll('.hand-row .card')].map(box),
    seats: [...document.querySelectorAll('.seat')].map((n) => ({...box(n),
      seat: Number(n.dataset.seat), mine: n.classList.contains('mine'), text: n.innerText})),
  };
}"""


async def boxes(page: Page, size: tuple[int, int]) -> dict[str, Any]:
    await page.set_viewport_size({"width": size[0], "height": size[1]})
    await page.evaluate("new Promise(r => requestAnimationFrame(() => r()))")
    found: dict[str, Any] = await page.evaluate(BOXES)
    # nothing sticks out sideways: no horizontal scrolling
    assert found["width"] <= found["inner"], (size, found["width"])
    return found


def centre(box: dict[str, float]) -> tuple[float, float]:
    return (box["left"] + box["right"]) / 2, (box["top"] + box["bottom"]) / 2


@pytest.mark.parametrize("user", [ANA, BEN], ids=["de", "en"])
async def test_phone_landscape_and_desktop_layouts(
    tmp_path: Path, browser: Browser, user: UserRef
) -> None:
    async with web_world(tmp_path / "web.sqlite3") as world:
        info = await world.table(ANA, [BEN], "basic", ais=2)
        opened = await open_telegram_page(browser, world.base, user, info.id)
        page = opened.page
        try:
            await wait_screen(page)
            await page.wait_for_selector(".hand-row .card")
            assert await page.get_attribute("html", "lang") == user.locale
            word = "Karten" if user.locale == "de" else "cards"

            # a phone held upright: the seats, the felt, the hand below each other
            phone = await boxes(page, PHONE)
            felt, hand = phone["felt"], phone["hand"]
            assert all(s["bottom"] <= felt["top"] + 1 for s in phone["seats"])
            assert hand["top"] >= felt["bottom"] - 1
            assert all(c["width"] >= 40 and c["right"] <= PHONE[0] for c in phone["cards"])

            # held sideways: the felt on the left, the hand beside it on the first screen
            side = await boxes(page, LANDSCAPE)
            felt, hand = side["felt"], side["hand"]
            assert hand["left"] >= felt["right"] - 1
            assert hand["top"] < LANDSCAPE[1] / 2 and felt["top"] < LANDSCAPE[1] / 2
            assert all(c["width"] >= 40 for c in side["cards"])

            # a desktop: big cards, the other seats left, top and right of the felt with
            # their names and counts, the own seat and hand below it
            desk = await boxes(page, DESKTOP)
            felt, hand = desk["felt"], desk["hand"]
            assert min(c["height"] for c in desk["cards"]) >= 120
            assert felt["width"] >= 600 and felt["height"] >= 250
            others = [s for s in desk["seats"] if not s["mine"]]
            assert len(others) == 3
            names = {s["seat"]: s for s in desk["seats"]}
            for seat in others:
                assert word in seat["text"]
            mine = next(s for s in desk["seats"] if s["mine"])
            left, top, right = (names[(mine["seat"] + step) % 4] for step in (1, 2, 3))
            middle = centre(felt)[0]
            assert left["right"] <= felt["left"] <= right["left"] - felt["width"]
            for side_seat in (left, right):
                assert felt["top"] <= centre(side_seat)[1] <= felt["bottom"]
            assert top["bottom"] <= felt["top"] and abs(centre(top)[0] - middle) < 60
            assert mine["top"] >= felt["bottom"] and hand["top"] >= felt["bottom"]
            assert user.name in mine["text"]
            assert opened.errors == []
        finally:
            await opened.close()


async def test_a_romanian_rack_of_40_tiles_in_two_rows_on_a_desktop(
    tmp_path: Path, browser: Browser
) -> None:
    key = ChatKey("telegram", "-100998")
    async with web_world(tmp_path / "web.sqlite3") as world:
        info = await world.table(ANA, [BEN], "romanian deals=1 preplay=off", key=key)
        repo = world.service.repo
        table = await repo.get_table(info.id)
        assert table is not None and table.state is not None
        state = table.state
        seat = table.seat_of(BEN.key)
        assert seat is not None
        more = 40 - len(state.hands[seat])
        hands = list(state.hands)
        hands[seat] = (*hands[seat], *state.stock[:more])
        # 40 tiles on one rack (a long game's rack, made at once): from the wall
        grown = replace(
            table,
            state=replace(state, hands=tuple(hands), stock=state.stock[more:]),
            version=table.version + 1,
        )
        await repo.commit(grown, table.version)
        opened = await open_telegram_page(browser, world.base, BEN, info.id)
        page = opened.page
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        try:
            await page.wait_for_selector(".hand-row .card")
            assert await page.locator(".hand-row .card").count() == 40
            desk = await boxes(page, DESKTOP)
            rows = {round(c["top"]) for c in desk["cards"]}
            assert len(rows) == 2, rows
            assert min(c["width"] for c in desk["cards"]) >= 40
            await page.screenshot(path=ARTIFACTS / "romanian-rack-40-1280x800.png")
            for size in (PHONE, LANDSCAPE):  # wraps in more rows, never sideways
                found = await boxes(page, size)
                assert all(c["right"] <= size[0] for c in found["cards"])
                assert min(c["width"] for c in found["cards"]) >= 40
        finally:
            await opened.close()
