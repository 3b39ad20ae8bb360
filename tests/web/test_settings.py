"""The page's own settings (issue 48, "Platform feel"): a four-colour deck for colour-blind
players (diamonds blue, clubs green), a button in the person's language, kept on the
device (localStorage) when the page is opened again."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Browser, Page

from bot.ports.model import UserRef
from tests.web.driver import open_telegram_page, wait_screen
from tests.web.support import web_world

ANA = UserRef("telegram", "1601", "Ana", "de")
BEN = UserRef("telegram", "1602", "Ben", "en")
RED, BLACK, BLUE, GREEN = "#c62828", "#1d1d1f", "#1f5fbf", "#2e7d32"


PICTURE_COLOURS = """async (colours) => {
  const found = [];
  for (const node of document.querySelectorAll('.hand-row .card')) {
    const image = new Image();
    image.src = getComputedStyle(node.querySelector('.art')).backgroundImage
      .slice(5, -2);
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const g = canvas.getContext('2d');
    g.drawImage(image, 0, 0);
    const data = g.getImageData(0, 0, canvas.width, canvas.height).data;
    const counts = colours.map(() => 0);
    for (let i = 0; i < data.length; i += 4) {
      const hex = '#' + [data[i], data[i + 1], data[i + 2]]
        .map((v) => v.toString(16).padStart(2, '0')).join('');
      const at = colours.indexOf(hex);
      if (at >= 0 && data[i + 3] === 255) counts[at] += 1;
    }
    found.push([node.dataset.card, colours[counts.indexOf(Math.max(...counts))]]);
  }
  return found;
}"""
"""Per card of the hand: its code and which of the given colours most pixels of its picture
have exactly (the suit's ink: the pips and indices are filled with it)."""


async def suit_colours(page: Page) -> dict[str, set[str]]:
    """The colour each suit's cards of the hand are drawn in (from their pictures)."""
    found = await page.evaluate(PICTURE_COLOURS, [RED, BLACK, BLUE, GREEN])
    colours: dict[str, set[str]] = {}
    for code, colour in found:
        if code == "jk":
            continue
        colours.setdefault(code[-1], set()).add(colour)
    return colours


@pytest.mark.parametrize(
    ("user", "label"), [(BEN, "Four-colour deck"), (ANA, "Vierfarbiges Blatt")], ids=["en", "de"]
)
async def test_the_four_colour_deck_is_a_setting_kept_on_the_device(
    tmp_path: Path, browser: Browser, user: UserRef, label: str
) -> None:
    async with web_world(tmp_path / "web.sqlite3") as world:
        info = await world.table(ANA, [BEN], "basic", ais=0)
        opened = await open_telegram_page(browser, world.base, user, info.id)
        page = opened.page
        try:
            await wait_screen(page)
            await page.wait_for_selector(".hand-row .card")
            two = {"h": RED, "d": RED, "c": BLACK, "s": BLACK}
            four = {"h": RED, "d": BLUE, "c": GREEN, "s": BLACK}
            assert all(found == {two[s]} for s, found in (await suit_colours(page)).items())
            setting = page.locator("[data-action=four-colours]")
            assert (await setting.inner_text()).strip() == label
            assert await setting.get_attribute("aria-pressed") == "false"
            await setting.click()
            await page.wait_for_selector("[data-action=four-colours][aria-pressed=true]")
            colours = await suit_colours(page)
            assert len(colours) >= 2
            assert all(found == {four[s]} for s, found in colours.items())
            # opened again on this device: still four colours
            await page.reload()
            await wait_screen(page)
            await page.wait_for_selector("[data-action=four-colours][aria-pressed=true]")
            assert all(found == {four[s]} for s, found in (await suit_colours(page)).items())
            await page.click("[data-action=four-colours]")
            await page.wait_for_selector("[data-action=four-colours][aria-pressed=false]")
            assert all(found == {two[s]} for s, found in (await suit_colours(page)).items())
            assert await page.evaluate("localStorage.getItem('rummy.fourColours')") == "0"
            assert opened.errors == []
        finally:
            await opened.close()
