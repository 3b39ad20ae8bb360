"""Accessibility of the web table (issue 48 item 5): axe-core (through
``axe-playwright-python``, which bundles it) finds no serious or critical violation in the
lobby, a turn's start, a selection, the rules panel and the coach's panel, on a phone
and a desktop, in English and German."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.async_playwright import Axe
from playwright.async_api import Browser, Page

from bot.ports.model import UserRef
from tests.web.driver import open_telegram_page, wait_screen
from tests.web.support import GROUP, web_world

ANA = UserRef("telegram", "941", "Ana", "de")
BEN = UserRef("telegram", "942", "Ben", "en")
SERIOUS = ("serious", "critical")


async def serious(page: Page, where: str) -> list[str]:
    """The serious and critical violations axe-core finds on ``page`` now."""
    results: Any = await Axe().run(page)
    return [
        f"{where}: {v['id']} ({v['impact']}): {v['help']} at "
        + ", ".join(str(n["target"]) for n in v["nodes"][:3])
        for v in results.response["violations"]
        if v["impact"] in SERIOUS
    ]


@pytest.mark.parametrize("viewport", [(390, 844), (1280, 800)])
async def test_no_serious_violation_on_the_tables_screens(
    tmp_path: Path, browser: Browser, viewport: tuple[int, int]
) -> None:
    found: list[str] = []
    async with web_world(tmp_path / "web.sqlite3") as world:
        world.service.coaching.enabled = True
        # a lobby
        await world.say(BEN, "new", GROUP)
        lobby = await world.service.entry.table_info(GROUP)
        assert lobby is not None
        opened = await open_telegram_page(browser, world.base, BEN, lobby.id, viewport=viewport)
        try:
            await opened.page.wait_for_selector("main")
            await opened.page.wait_for_timeout(300)
            found += await serious(opened.page, "lobby (en)")
        finally:
            await opened.close()
        await world.say(BEN, "cancel", GROUP)
        info = await world.table(ANA, [BEN], "basic", ais=0)
        for user, language in ((ANA, "de"), (BEN, "en")):
            opened = await open_telegram_page(browser, world.base, user, info.id, viewport=viewport)
            page = opened.page
            try:
                await wait_screen(page)
                await page.wait_for_selector(".hand-row .card")
                await page.wait_for_timeout(400)  # the cards have landed
                found += await serious(page, f"a turn's start ({language})")
                await page.locator(".hand-row .card").first.click()
                await page.wait_for_selector(".hand-row .card[aria-pressed=true]")
                found += await serious(page, f"a selection ({language})")
                rules = "Regeln dieses Tisches" if user is ANA else "Rules of this table"
                await page.click(f"nav.bottom button:has-text('{rules}')")
                await page.wait_for_selector(".panel pre")
                found += await serious(page, f"the rules panel ({language})")
                await page.click(".panel .close")
                world.service.coaching.deals_ended(info.id, (1,))
                await world.service.coaching.settled()
                await page.wait_for_selector("#coach")
                found += await serious(page, f"the coach's panel ({language})")
            finally:
                await opened.close()
    assert found == [], "\n".join(found)
