"""Direct manipulation (issue 48): a card dragged onto the pile is discarded (with a mouse
and with a finger), a drop the server's offers do not allow springs back with the reason
in the person's language, and Telegram's vertical swipes are off while a card is
dragged. The taps and the offered buttons stay (tests/web/test_page.py)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page

from bot.ports.model import UserRef
from tests.web.driver import OpenPage, open_telegram_page, version, wait_screen
from tests.web.support import WebWorld, web_world
from tests.web.test_motion import flights, slow_down, timed

ANA = UserRef("telegram", "1501", "Ana", "de")
BEN = UserRef("telegram", "1502", "Ben", "en")


async def centre(page: Page, selector: str) -> tuple[float, float]:
    box = await page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


async def drag(page: Page, source: str, target: str, touch: bool = False) -> None:
    """Press on ``source``, move onto ``target`` and let go: a mouse, or a finger (touch
    events through the Chrome DevTools Protocol, as a phone's screen sends them)."""
    x0, y0 = await centre(page, source)
    x1, y1 = await centre(page, target)
    steps = [(x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * i / 10) for i in range(1, 11)]
    if not touch:
        await page.mouse.move(x0, y0)
        await page.mouse.down()
        for x, y in steps:
            await page.mouse.move(x, y)
        await page.mouse.up()
        return
    cdp = await page.context.new_cdp_session(page)

    async def touch_event(kind: str, points: list[dict[str, float]]) -> None:
        await cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    await touch_event("touchStart", [{"x": x0, "y": y0}])
    for x, y in steps:
        await touch_event("touchMove", [{"x": x, "y": y}])
    await touch_event("touchEnd", [])
    await cdp.detach()


async def hand_of(world: WebWorld, table: int, user: UserRef) -> list[str]:
    stored = await world.service.repo.get_table(table)
    assert stored is not None and stored.state is not None
    seat = stored.seat_of(user.key)
    assert seat is not None
    return [str(card) for card in stored.state.hands[seat]]


async def open_page(
    browser: Browser, world: WebWorld, user: UserRef, table: int, size: tuple[int, int], **kw: Any
) -> OpenPage:
    opened = await open_telegram_page(browser, world.base, user, table, viewport=size, **kw)
    await wait_screen(opened.page)
    await opened.page.wait_for_selector(".hand-row .card")
    return opened


async def refused(page: Page, text: str) -> None:
    """The page says ``text`` and the dragged card is back in its place in the hand."""
    await page.wait_for_selector(f"#toast.refused:has-text({text!r})")
    await page.wait_for_function("document.getAnimations().length === 0")
    assert await page.locator(".hand-row .card.dragging").count() == 0
    transforms = await page.eval_on_selector_all(
        ".hand-row .card", "nodes => nodes.map(n => n.style.transform)"
    )
    assert set(transforms) <= {""}, transforms


SIZES = [((390, 844), True), ((844, 390), False), ((1280, 800), False)]


@pytest.mark.parametrize(
    ("size", "touch"), SIZES, ids=["390x844-touch", "844x390-mouse", "1280x800-mouse"]
)
async def test_a_card_dragged_onto_the_pile_is_discarded(
    tmp_path: Path, browser: Browser, size: tuple[int, int], touch: bool
) -> None:
    async with web_world(tmp_path / "web.sqlite3") as world:
        info = await world.table(ANA, [BEN], "basic", ais=0)
        await world.say(ANA, "draw")
        await world.say(ANA, f"discard {(await hand_of(world, info.id, ANA))[0]}")
        opened = await open_page(browser, world, BEN, info.id, size, has_touch=touch)
        page = opened.page
        try:
            before = await version(page)
            await page.click(".offers [data-kind=draw]")
            await page.wait_for_function(
                f"Number(document.querySelector('#app').dataset.version) > {before}"
            )
            # the drawn card has landed and the others slid aside
            await page.wait_for_function("document.getAnimations().length === 0")
            card = ".hand-row .card[data-index='2']"
            code = await page.get_attribute(card, "data-card")
            held = len(await hand_of(world, info.id, BEN))
            before = await version(page)
            await drag(page, card, ".pile-box.discard", touch=touch)
            # the card lies on the pile: on the page and at the server's table
            await page.wait_for_selector(f".discard .card[data-card='{code}']")
            await page.wait_for_function(
                f"Number(document.querySelector('#app').dataset.version) > {before}"
            )
            hand = await hand_of(world, info.id, BEN)
            assert len(hand) == held - 1
            stored = await world.service.repo.get_table(info.id)
            assert stored is not None and stored.state is not None
            assert str(stored.state.discard[-1]) == code
            assert "swipes:off" in await page.evaluate("window.__tgCalls")
            assert (await page.evaluate("window.__tgCalls"))[-1] != "swipes:off"
            assert opened.errors == []
        finally:
            await opened.close()


async def test_a_refused_drop_springs_back_with_the_reason(
    tmp_path: Path, browser: Browser
) -> None:
    async with web_world(tmp_path / "web.sqlite3") as world:
        info = await world.table(ANA, [BEN], "basic", ais=0)
        ben = await open_page(browser, world, BEN, info.id, (1280, 800))
        ana = await open_page(browser, world, ANA, info.id, (390, 844))
        try:
            first = ".hand-row .card[data-index='0']"
            # Ben out of turn
            before = await version(ben.page)
            await drag(ben.page, first, ".pile-box.discard")
            await refused(ben.page, "It is not your turn.")
            assert await version(ben.page) == before
            # let go where nothing takes it: back in place, and the next tap selects it
            await drag(ben.page, first, "header.top h1")
            await ben.page.wait_for_function("document.getAnimations().length === 0")
            assert await ben.page.get_attribute(first, "style") in (None, "")
            await ben.page.click(first)
            await ben.page.wait_for_selector(f"{first}[aria-pressed=true]")
            # Ana has to draw first: no discard yet (German)
            await drag(ana.page, first, ".pile-box.discard")
            await refused(ana.page, "Das kannst du jetzt nicht abwerfen.")
            # she draws; one card is no meld
            before = await version(ana.page)
            await ana.page.click(".offers [data-kind=draw]")
            await ana.page.wait_for_function(
                f"Number(document.querySelector('#app').dataset.version) > {before}"
            )
            await ana.page.wait_for_function("document.getAnimations().length === 0")
            held = await hand_of(world, info.id, ANA)
            await drag(ana.page, first, ".melds")
            await refused(ana.page, "Das ist keine Meldung, die du jetzt auslegen kannst.")
            assert await hand_of(world, info.id, ANA) == held
            assert ben.errors == [] and ana.errors == []
        finally:
            await ben.close()
            await ana.close()


async def four_of_a_kind(world: WebWorld, table: int, user: UserRef) -> list[str]:
    """Gives ``user`` the four cards of a rank that lie in the stock or their hand (swapped
    with other cards of their hand, below the stock's top card: every card stays
    accounted for); their codes."""
    stored = await world.service.repo.get_table(table)
    assert stored is not None and stored.state is not None
    state = stored.state
    seat = stored.seat_of(user.key)
    assert seat is not None
    hand, stock = list(state.hands[seat]), list(state.stock)
    for rank in range(1, 14):
        wanted = [c for c in hand + stock[1:] if c.rank == rank]
        if len(wanted) == 4 and len(hand) >= 5:
            break
    else:
        raise AssertionError("no rank to gather")
    others = [i for i, c in enumerate(hand) if c.rank != rank]
    for at, card in enumerate(stock):
        if at > 0 and card.rank == rank:
            swap = others.pop()
            hand[swap], stock[at] = card, hand[swap]
    hands = list(state.hands)
    hands[seat] = tuple(hand)
    grown = replace(
        stored,
        state=replace(state, hands=tuple(hands), stock=tuple(stock)),
        version=stored.version + 1,
    )
    await world.service.repo.commit(grown, stored.version)
    return [str(c) for c in hand if c.rank == rank]


async def test_a_selection_dragged_onto_the_table_melds_and_a_card_onto_a_meld_lays_off(
    tmp_path: Path, browser: Browser
) -> None:
    async with web_world(tmp_path / "web.sqlite3") as world:
        info = await world.table(ANA, [BEN], "basic", ais=0)
        await world.say(ANA, "draw")
        await world.say(ANA, f"discard {(await hand_of(world, info.id, ANA))[0]}")
        codes = await four_of_a_kind(world, info.id, BEN)
        opened = await open_page(browser, world, BEN, info.id, (1280, 800))
        page = opened.page
        try:
            held = await page.locator(".hand-row .card").count()
            await page.click(".offers [data-kind=draw]")
            await page.wait_for_function(
                f"document.querySelectorAll('.hand-row .card').length === {held + 1}"
            )
            for code in codes[:3]:
                await page.click(f".hand-row .card[data-card='{code}']")
            await page.wait_for_selector(".offers [data-kind=meld]")
            await page.wait_for_function("document.getAnimations().length === 0")
            await slow_down(page)
            await drag(page, f".hand-row .card[data-card='{codes[0]}']", ".melds")
            # the three cards fly from the hand to the table
            found = await flights(page, ".melds .meld[data-meld='0'] .card")
            timed(found)
            assert sorted(f["card"] for f in found) == sorted(codes[:3])
            await page.wait_for_selector(".melds .meld[data-meld='0'] .card >> nth=2")
            stored = await world.service.repo.get_table(info.id)
            assert stored is not None and stored.state is not None
            assert sorted(str(c.card) for c in stored.state.melds[0].cards) == sorted(codes[:3])
            await page.wait_for_function("document.getAnimations().length === 0", timeout=20_000)
            # the fourth card (not selected: it goes alone) onto that meld, flying there
            await drag(page, f".hand-row .card[data-card='{codes[3]}']", ".meld[data-meld='0']")
            found = await flights(page, f".meld[data-meld='0'] .card[data-card='{codes[3]}']")
            timed(found)
            await page.wait_for_selector(".melds .meld[data-meld='0'] .card >> nth=3")
            stored = await world.service.repo.get_table(info.id)
            assert stored is not None and stored.state is not None
            assert len(stored.state.melds[0].cards) == 4
            assert codes[3] not in await hand_of(world, info.id, BEN)
            assert opened.errors == []
        finally:
            await opened.close()
