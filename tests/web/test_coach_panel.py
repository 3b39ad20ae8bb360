"""The coach's word on the web table (issue 46: "a panel of the web table"): after a deal,
the person's own page shows the coach's notes in a panel of its own, in their language,
above the table and kept across the table's redraws until closed; the page of a player
who said ``coach off`` shows nothing of it."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser

from bot.ports.model import UserRef
from tests.web.driver import open_telegram_page, wait_screen
from tests.web.support import web_world

ANA = UserRef("telegram", "931", "Ana", "de")
BEN = UserRef("telegram", "932", "Ben", "en")


async def test_the_coach_panel_shows_the_persons_notes_only_to_them(
    tmp_path: Path, browser: Browser
) -> None:
    async with web_world(tmp_path / "web.sqlite3") as world:
        world.service.coaching.enabled = True
        await world.say(BEN, "coach off")  # Ana, in her first game, is coached; Ben not
        info = await world.table(ANA, [BEN], "basic", ais=0)
        ana = await open_telegram_page(browser, world.base, ANA, info.id)
        ben = await open_telegram_page(browser, world.base, BEN, info.id)
        try:
            await wait_screen(ana.page)
            await wait_screen(ben.page)
            # the coach's review of deal 1 so far, as the service starts it after a deal
            world.service.coaching.deals_ended(info.id, (1,))
            await world.service.coaching.settled()
            panel = ana.page.locator("#coach")
            await panel.wait_for()
            assert await panel.locator("h2").inner_text() == "Trainer"
            text = await panel.locator(".coach-text").inner_text()
            assert text.startswith("Runde 1, Ana: ")  # Ana reads German
            assert await ben.page.locator("#coach").count() == 0
            # the table redraws (a select on the page): the panel stays until closed
            await ana.page.locator(".hand-row .card").first.click()
            await ana.page.wait_for_selector(".hand-row .card[aria-pressed=true]")
            assert await panel.count() == 1
            await panel.locator("button").click()
            assert await ana.page.locator("#coach").count() == 0
            assert ana.errors == [] and ben.errors == []
        finally:
            await ana.close()
            await ben.close()
