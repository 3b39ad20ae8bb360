"""Driving the web table's page as a person does: open it as a Telegram Mini App, tap
Hint, tap the suggested cards one by one, press the offered move; record every WebSocket
frame and API answer the page receives (the privacy checks read them)."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any, Literal

from playwright.async_api import Browser, BrowserContext, Page, WebSocket
from playwright.async_api import TimeoutError as PlaywrightTimeout

from bot.ports.model import UserRef
from tests.web.privacy import DOM_SNAPSHOT
from tests.web.support import TELEGRAM_STUB, init_data


@dataclass
class OpenPage:
    """A person's page and everything it received."""

    user: UserRef
    context: BrowserContext
    page: Page
    frames: list[dict[str, Any]] = field(default_factory=list)
    api: list[tuple[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    moves: int = 0
    taps: int = 0
    doms: list[dict[str, Any]] = field(default_factory=list)

    async def close(self) -> None:
        await self.context.close()


async def open_telegram_page(
    browser: Browser,
    base: str,
    user: UserRef,
    table: int,
    *,
    viewport: tuple[int, int] = (390, 844),
    data: str | None = None,
    start_param: bool = False,
    theme: dict[str, str] | None = None,
    reduced_motion: Literal["reduce", "no-preference"] | None = None,
    has_touch: bool = False,
    script: str = "",
) -> OpenPage:
    """``user``'s page on ``table`` as Telegram opens it: the stub of Telegram's script
    with signed ``initData`` (or ``data``); the table named in the URL (a ``web_app``
    button) or, with ``start_param``, in the signed start parameter (the group's link);
    ``script`` runs before the page's own (a stand-in or a counter of a test)."""
    context = await browser.new_context(
        viewport={"width": viewport[0], "height": viewport[1]},
        reduced_motion=reduced_motion,
        has_touch=has_touch,
    )
    await context.route(
        "https://telegram.org/**",
        lambda route: route.fulfill(body=TELEGRAM_STUB, content_type="text/javascript"),
    )
    signed = data if data is not None else init_data(user, table=table if start_param else None)
    init = f"window.__initData = {json.dumps(signed)};"
    if theme is not None:
        init += f"window.__themeParams = {json.dumps(theme)};"
    await context.add_init_script(init + script)
    page = await context.new_page()
    opened = OpenPage(user, context, page)
    page.on("pageerror", lambda error: opened.errors.append(str(error)))

    def on_socket(socket: WebSocket) -> None:
        def received(payload: str | bytes) -> None:
            opened.frames.append(json.loads(payload))

        socket.on("framereceived", received)

    page.on("websocket", on_socket)

    async def on_response(response: Any) -> None:
        if "/api/" in response.url:
            try:
                opened.api.append((response.url, await response.json()))
            except Exception:
                opened.api.append((response.url, await response.text()))

    page.on("response", on_response)
    url = f"{base}/tg/" if start_param else f"{base}/tg/?t={table}"
    await page.goto(url)
    return opened


async def version(page: Page) -> int:
    """The table version the page shows (-1 before its first screen)."""
    text = await page.get_attribute("#app", "data-version")
    return int(text) if text is not None else -1


async def hand_order(page: Page) -> list[str]:
    """The codes of the hand's cards as the page shows them, left to right."""
    codes: list[str] = await page.eval_on_selector_all(
        ".hand-row .card", "nodes => nodes.map(n => n.dataset.card)"
    )
    return codes


async def wait_screen(page: Page, timeout: float = 15.0) -> None:
    await page.wait_for_selector("#app[data-version]", timeout=timeout * 1000)


async def deal_over(page: Page) -> bool:
    phase = await page.get_attribute("#app", "data-phase")
    status = await page.get_attribute("#app", "data-status")
    return phase in ("hand_over", "game_over") or status in ("finished", "cancelled")


STEP_WAIT = 3000
"""Milliseconds a step of :func:`take_turn` waits for an element of the screen it read."""


async def take_turn(opened: OpenPage) -> bool:
    """One step of play if the page offers one: Hint, then tap the suggested cards one by
    one and press the offered move (a move without cards is pressed at once). True when
    a move was pressed; False when there was nothing to do, or when the screen changed
    under the step (an AI seat moved, a call window closed: the hinted offer is gone) —
    the caller tries again on the new screen."""
    try:
        return await _take_turn(opened)
    except PlaywrightTimeout:
        return False


async def _take_turn(opened: OpenPage) -> bool:
    """:func:`take_turn`, whose waits may time out when the screen changes under it."""
    page = opened.page
    offers = page.locator(".offers button.offer:not([disabled])")
    if await offers.count() == 0 and await page.locator(".phase.my-turn").count() == 0:
        return False
    before = await version(page)
    await page.click("[data-action=hint]", timeout=STEP_WAIT)
    try:
        await page.wait_for_selector(".offers [data-hint]", timeout=1500)
    except Exception:
        return False
    hinted = page.locator(".offers [data-hint]").first
    label = (await hinted.text_content(timeout=STEP_WAIT) or "").strip()
    chosen = await page.eval_on_selector_all(
        ".hand-row .card[aria-pressed=true]", "nodes => nodes.map(n => n.dataset.index)"
    )
    if chosen and await version(page) == before:
        await page.click("[data-action=clear]", timeout=STEP_WAIT)
        await page.wait_for_selector(
            ".hand-row .card[aria-pressed=true]", state="detached", timeout=3000
        )
        for index in chosen:
            await page.click(f".hand-row .card[data-index='{index}']", timeout=STEP_WAIT)
            opened.taps += 1
        target = page.locator(".offers button.offer:not([disabled])", has_text=label)
        try:
            await target.first.wait_for(timeout=3000)
        except Exception:
            return False
        if await deal_over(page):  # the deal ended meanwhile: its sheet offers the next
            return False
        await target.first.click(timeout=STEP_WAIT)
    else:
        if await deal_over(page):
            return False
        await hinted.click(timeout=STEP_WAIT)
    opened.moves += 1
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and await version(page) == before:
        await asyncio.sleep(0.05)
    return True


async def play_deal(pages: list[OpenPage], timeout: float = 240.0) -> None:
    """Both people play until the deal is over (the score sheet shows). Once one page
    shows the sheet, nobody presses again: the sheet offers the next deal, and a press
    still under way on the other page must not start it."""
    over = asyncio.Event()

    async def play(opened: OpenPage) -> None:
        await wait_screen(opened.page)
        deadline = time.monotonic() + timeout
        while not over.is_set() and not await deal_over(opened.page):
            assert time.monotonic() < deadline, f"{opened.user.name}: the deal did not end"
            assert not opened.errors, opened.errors
            if not await take_turn(opened):
                await asyncio.sleep(0.1)
            opened.doms.append(await opened.page.evaluate(DOM_SNAPSHOT))
        over.set()
        while not await deal_over(opened.page):  # this page's sheet is on its way
            assert time.monotonic() < deadline, f"{opened.user.name}: no score sheet"
            await asyncio.sleep(0.05)
        opened.doms.append(await opened.page.evaluate(DOM_SNAPSHOT))

    await asyncio.gather(*(play(p) for p in pages))
