"""A redraw keeps what did not change (issue 48, the long tasks while cards fly): after
another seat's move the page's unchanged elements are the same elements (their style and
layout are not worked out again), the changed ones show the new table; a tapped card stays
the same element with its new state, and so does every card of the hand when a card is
drawn into it or discarded from it (only that card is added or taken away); a card of a
hand redrawn that way can still be dragged within the hand."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser

from bot.ports.model import UserRef
from tests.web.driver import hand_order, open_telegram_page, version, wait_screen
from tests.web.support import web_world

ANA = UserRef("telegram", "1701", "Ana", "en")
BEN = UserRef("telegram", "1702", "Ben", "en")

MARK = """() => {
  const marked = [document.querySelector('nav.bottom [data-panel=rules]'),
    document.querySelector('.melds'), ...document.querySelectorAll('.hand-row .card')];
  marked.forEach((node) => { node.__kept = true; });
  return marked.length;
}"""
KEPT = """() => [document.querySelector('nav.bottom [data-panel=rules]'),
  document.querySelector('.melds'), ...document.querySelectorAll('.hand-row .card')]
  .filter((node) => node.__kept).length"""


async def test_a_redraw_keeps_the_unchanged_elements(tmp_path: Path, browser: Browser) -> None:
    async with web_world(tmp_path / "web.sqlite3") as world:
        info = await world.table(ANA, [BEN], "basic", ais=0)
        opened = await open_telegram_page(browser, world.base, BEN, info.id)
        page = opened.page
        try:
            await wait_screen(page)
            await page.wait_for_selector(".hand-row .card")
            cards = await hand_order(page)
            marked = await page.evaluate(MARK)
            assert marked == len(cards) + 2
            stored = await world.service.repo.get_table(info.id)
            assert stored is not None and stored.state is not None
            seat = stored.seat_of(ANA.key)
            assert seat is not None
            before = await version(page)
            await world.say(ANA, "draw")
            code = str((await world.service.repo.get_table(info.id)).state.hands[seat][0])  # type: ignore[union-attr]
            await world.say(ANA, f"discard {code}")
            await page.wait_for_selector(".phase.my-turn")
            assert await version(page) > before
            # the new table is shown: Ana's discard on the pile, Ben's turn, his offers
            await page.wait_for_selector(f".discard .card[data-card='{code}']")
            assert await page.locator(".offers [data-kind=draw]").count() == 1
            # what did not change is the same element: the nav, the melds, Ben's cards
            assert await page.evaluate(KEPT) == marked
            assert await hand_order(page) == cards
            # a tap changes that card in place: it is still the same element
            await page.wait_for_function("document.getAnimations().length === 0")
            await page.locator(".hand-row .card").first.click()
            await page.wait_for_selector(".hand-row .card.selected[aria-pressed=true]")
            assert await page.evaluate(KEPT) == marked
            await page.click("[data-action=clear]")
            await page.wait_for_function(
                "document.querySelectorAll('.hand-row .card.selected').length === 0"
            )
            await page.wait_for_function("document.getAnimations().length === 0")
            box = await page.locator(".hand-row .card").first.bounding_box()
            target = await page.locator(".hand-row .card").nth(3).bounding_box()
            assert box is not None and target is not None
            await page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 20)
            await page.mouse.down()
            await page.mouse.move(target["x"] + target["width"] - 4, target["y"] + 20, steps=8)
            await page.mouse.up()
            await page.wait_for_function(
                f"document.querySelector('.hand-row .card').dataset.card !== {cards[0]!r}"
            )
            moved = await hand_order(page)
            assert moved[0] != cards[0] and sorted(moved) == sorted(cards)
            # Ben draws: his cards stay the same elements, the drawn one is new; the
            # discard takes that card's element away, the others stay
            await page.evaluate(MARK)
            before = await version(page)
            await page.click(".offers [data-kind=draw]")
            await page.wait_for_function(
                f"Number(document.querySelector('#app').dataset.version) > {before}"
            )
            await page.wait_for_function(
                f"document.querySelectorAll('.hand-row .card').length === {len(cards) + 1}"
            )
            assert await page.evaluate(KEPT) == marked
            fresh = await page.eval_on_selector_all(
                ".hand-row .card", "nodes => nodes.filter(n => !n.__kept).map(n => n.dataset.card)"
            )
            assert len(fresh) == 1 and sorted(await hand_order(page)) == sorted([*cards, *fresh])
            await page.wait_for_function("document.getAnimations().length === 0")
            await page.locator(".hand-row .card").first.click()
            await page.click(".offers [data-kind=discard]")
            await page.wait_for_function(
                f"document.querySelectorAll('.hand-row .card').length === {len(cards)}"
            )
            assert await page.evaluate(KEPT) == marked - 1
            assert await page.locator("#participants").count() == 0  # a Discord list only
            assert opened.errors == []
        finally:
            await opened.close()
