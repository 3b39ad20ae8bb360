"""The page as a person uses it: the cards are buttons with labels in the person's language
(keyboard: Enter selects, Alt+arrows move a card), dragging reorders, the sort buttons
change the order, and the rules and how-to-play panels show the table's texts."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.async_api import Browser

from bot.ports.model import SeatKind, UserRef
from bot.render.howto import TOPICS
from tests.web.driver import hand_order, open_telegram_page, version, wait_screen
from tests.web.privacy import Reader
from tests.web.support import init_data, web_world

ANA = UserRef("telegram", "901", "Ana", "de")
BEN = UserRef("telegram", "902", "Ben", "en")


async def test_cards_are_labelled_buttons_for_touch_and_keyboard(
    tmp_path: Path, browser: Browser
) -> None:
    async with web_world(tmp_path / "web.sqlite3") as world:
        info = await world.table(ANA, [BEN], "basic", ais=0)
        opened = await open_telegram_page(browser, world.base, ANA, info.id)
        page = opened.page
        try:
            await wait_screen(page)
            await page.wait_for_selector(".hand-row .card")
            reader = Reader("de")
            cards = await hand_order(page)
            labels = await page.eval_on_selector_all(
                ".hand-row .card", "nodes => nodes.map(n => n.getAttribute('aria-label'))"
            )
            assert [reader.names[label] for label in labels] == cards  # "Herz Dame"
            assert all(" " in label for label in labels)
            # keyboard: Enter selects the focused card, Alt+ArrowRight moves it
            first = page.locator(".hand-row .card").first
            await first.focus()
            await page.keyboard.press("Enter")
            await page.wait_for_selector(".hand-row .card[aria-pressed=true]")
            await page.locator(".hand-row .card").first.focus()
            await page.keyboard.press("Alt+ArrowRight")
            moved = await hand_order(page)
            assert moved[1] == cards[0] and moved[0] == cards[1]
            # dragging the last card to the front (once the moved cards stopped sliding)
            await page.wait_for_function("document.getAnimations().length === 0")
            box = await page.locator(".hand-row .card").last.bounding_box()
            target = await page.locator(".hand-row .card").first.bounding_box()
            assert box is not None and target is not None
            await page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 20)
            await page.mouse.down()
            await page.mouse.move(target["x"] + 5, target["y"] + 20, steps=8)
            await page.mouse.up()
            dragged = await hand_order(page)
            assert dragged[0] == moved[-1] and sorted(dragged) == sorted(cards)
            # sorting by rank is the server's order again
            await page.click("[data-sort=rank]")
            await page.wait_for_selector("[data-sort=rank][aria-pressed=true]")
            ranked = await hand_order(page)
            assert sorted(ranked) == sorted(cards)
            assert opened.errors == []
        finally:
            await opened.close()


async def test_the_rules_and_how_to_play_panels(tmp_path: Path, browser: Browser) -> None:
    async with web_world(tmp_path / "web.sqlite3") as world:
        info = await world.table(ANA, [BEN], "german", ais=0)
        for user, title in ((ANA, "So wird gespielt"), (BEN, "How to play")):
            opened = await open_telegram_page(browser, world.base, user, info.id)
            page = opened.page
            try:
                await wait_screen(page)
                await page.click(f"nav.bottom button:has-text('{title}')")
                await page.wait_for_selector(".panel details")
                assert await page.locator(".panel details").count() == len(TOPICS)
                await page.locator(".panel summary").first.click()
                assert await page.locator(".panel details[open] p").count() > 0
                await page.click(".panel .close")
                rules = "Regeln dieses Tisches" if user is ANA else "Rules of this table"
                await page.click(f"nav.bottom button:has-text('{rules}')")
                text = await page.inner_text(".panel pre")
                assert "40" in text  # German Rommé's first meld of 40 points
            finally:
                await opened.close()


async def test_the_turn_timer_counts_down(tmp_path: Path, browser: Browser) -> None:
    async with web_world(tmp_path / "web.sqlite3") as world:
        await world.say(ANA, "new basic")
        await world.say(BEN, "join")
        await world.say(ANA, "set timer=2m")
        info = (await world.say(ANA, "start")).info
        assert info is not None
        opened = await open_telegram_page(browser, world.base, BEN, info.id)
        try:
            await wait_screen(opened.page)
            timer = opened.page.locator("header .timer")
            first = await timer.text_content()
            assert first is not None and re.fullmatch(r"Turn time: (2:00|1:5\d)", first)
            await opened.page.wait_for_function(
                f"document.querySelector('header .timer').textContent !== {first!r}", timeout=3000
            )
        finally:
            await opened.close()


async def test_the_main_mini_app_without_a_table_lists_the_persons_tables(
    tmp_path: Path, browser: Browser
) -> None:
    """Issue: "the Main Mini App without a table lists the person's tables (or says there
    is none) and opens one with a tap" (it said "This table is not open (any more)")."""
    carl = UserRef("telegram", "903", "Carl", "en")
    async with web_world(tmp_path / "web.sqlite3") as world:
        info = await world.table(ANA, [BEN], "basic", ais=0)
        for user, expected in ((BEN, "Your tables:"), (carl, "You sit at no open table.")):
            opened = await open_telegram_page(
                browser, world.base, user, 0, start_param=True, data=init_data(user)
            )
            page = opened.page
            try:
                await page.wait_for_selector(f"#status:has-text('{expected}')")
                buttons = page.locator(".choose button")
                if user is carl:
                    assert await buttons.count() == 0
                    continue
                assert await buttons.all_inner_texts() == [f"Basic Rummy · table {info.id}"]
                await buttons.first.click()
                await wait_screen(page)
                assert await version(page) >= 0
                assert await page.locator(".hand-row .card").count() > 0  # Ben's own hand
                assert opened.errors == []
            finally:
                await opened.close()


async def test_focus_stays_where_it_was_pressed_and_only_changes_are_announced(
    tmp_path: Path, browser: Browser
) -> None:
    """Issue: "focus stays on what was pressed; a polite live region announces only the
    change" (the page was one live region, redrawn whole on each update)."""
    async with web_world(tmp_path / "web.sqlite3") as world:
        info = await world.table(ANA, [BEN], "basic", ais=0)
        opened = await open_telegram_page(browser, world.base, BEN, info.id)
        page = opened.page
        try:
            await wait_screen(page)
            assert await page.get_attribute("#app", "aria-live") is None
            assert await page.get_attribute("#announce", "aria-live") == "polite"
            third = page.locator(".hand-row .card").nth(2)
            index = await third.get_attribute("data-index")
            await third.focus()
            await page.keyboard.press("Enter")
            await page.wait_for_selector(
                f".hand-row .card[data-index='{index}'][aria-pressed=true]"
            )
            focused = await page.evaluate("document.activeElement.dataset.index")
            assert focused == index  # not the page body after the redraw
            await page.locator("[data-sort=rank]").focus()
            await page.keyboard.press("Enter")
            await page.wait_for_selector("[data-sort=rank][aria-pressed=true]")
            assert await page.evaluate("document.activeElement.dataset.sort") == "rank"
            # Ana moves: Ben's page announces her move, not the whole page
            before = await version(page)
            await world.say(ANA, "draw")
            await page.wait_for_function(
                f"Number(document.querySelector('#app').dataset.version) > {before}"
            )
            said = await page.inner_text("#announce")
            assert "Ana" in said and "Players" not in said and len(said) < 200
            assert opened.errors == []
        finally:
            await opened.close()


async def test_counts_and_the_turn_clock_read_right(tmp_path: Path, browser: Browser) -> None:
    """Issue: "the turn timer reads '1439:58' for a 24-hour turn; '1 cards', '1 Karten' (no
    plurals on the page)"; wanted: "the timer as '23:59:58'", "plurals from the
    catalogues"."""
    async with web_world(tmp_path / "web.sqlite3") as world:
        info = await world.table(ANA, [BEN], "basic", ais=0)
        opened = await open_telegram_page(browser, world.base, ANA, info.id)
        page = opened.page
        try:
            await wait_screen(page)
            clock = await page.evaluate(
                """async () => {
                    const f = await import("./static/format.js");
                    return [86398, 3600, 599, 61, 0, -5].map(f.clockText);
                }"""
            )
            assert clock == ["23:59:58", "1:00:00", "9:59", "1:01", "0:00", "0:00"]
            counts = await page.evaluate(
                """async () => {
                    const f = await import("./static/format.js");
                    const strings = await (await fetch("./api/strings?lang=de")).json();
                    const t = (id) => strings.strings[id] ?? id;
                    return [f.countText(t, 1, false), f.countText(t, 2, false),
                            f.countText(t, 1, true), f.countText(t, 0, true)];
                }"""
            )
            assert counts == ["1 Karte", "2 Karten", "1 Stein", "0 Steine"]
            assert opened.errors == []
        finally:
            await opened.close()


async def test_a_page_opened_mid_game_shows_the_last_moves_and_tiles_sort_by_colour(
    tmp_path: Path, browser: Browser
) -> None:
    """Issue: "a page opened mid-game ... shows no 'last moves'"; "Romanian says 'by suit'
    for tiles"."""
    async with web_world(tmp_path / "web.sqlite3") as world:
        info = await world.table(ANA, [BEN], "romanian", ais=0)
        for _ in range(3):  # a few moves before Ben opens the page
            for user in (ANA, BEN):
                commands = await world.service.entry.legal_commands(info.key, user)
                if commands:
                    await world.say(user, commands[0])
        opened = await open_telegram_page(browser, world.base, BEN, info.id)
        page = opened.page
        try:
            await wait_screen(page)
            moves = await page.locator(".last-moves li").all_inner_texts()
            assert moves and len(moves) <= 5
            assert await page.inner_text("[data-sort=suit]") == "by colour"
            assert opened.errors == []
        finally:
            await opened.close()


async def test_telegram_haptics_back_button_swipes_and_live_theme(
    tmp_path: Path, browser: Browser
) -> None:
    """Issue: "Telegram haptics on selection, on a refusal and when the turn comes;
    `disableVerticalSwipes` while dragging; BackButton closes panels; theme changes apply
    live" (the refusal's haptic is not provoked here: a page offers only legal moves)."""
    async with web_world(tmp_path / "web.sqlite3") as world:
        info = await world.table(ANA, [BEN], "basic", ais=0)
        opened = await open_telegram_page(browser, world.base, BEN, info.id)
        page = opened.page
        try:
            await wait_screen(page)

            async def calls() -> list[str]:
                return await page.evaluate("window.__tgCalls.slice()")  # type: ignore[no-any-return]

            await page.locator(".hand-row .card").first.click()
            await page.wait_for_function("window.__tgCalls.includes('haptic:selection')")
            # dragging a card: vertical swipes off, and on again after the drop
            box = await page.locator(".hand-row .card").last.bounding_box()
            target = await page.locator(".hand-row .card").first.bounding_box()
            assert box is not None and target is not None
            await page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 20)
            await page.mouse.down()
            await page.mouse.move(target["x"] + 5, target["y"] + 20, steps=8)
            await page.mouse.up()
            made = await calls()
            assert made.index("swipes:off") < made.index("swipes:on")
            # a panel: the BackButton shows, and pressing it closes the panel
            await page.click("[data-panel=rules]")
            await page.wait_for_selector(".panel")
            assert (await calls())[-1] == "back:show"
            await page.evaluate("window.__tgBack()")
            await page.wait_for_selector(".panel", state="detached")
            assert (await calls())[-1] == "back:hide"
            # Ana moves, then Ben's turn comes: a notification haptic
            turn = await world.say(ANA, "draw")
            if turn.ok:
                discard = next(
                    c
                    for c in await world.service.entry.legal_commands(info.key, ANA)
                    if c.startswith("discard")
                )
                await world.say(ANA, discard)
                await page.wait_for_function("window.__tgCalls.includes('haptic:success')")
            # Telegram changes its theme: the page takes the new colours at once
            await page.evaluate(
                """() => {
                    window.Telegram.WebApp.themeParams = {bg_color: '#102030'};
                    window.__tgEvents.themeChanged();
                }"""
            )
            bg = await page.evaluate(
                "getComputedStyle(document.documentElement).getPropertyValue('--bg').trim()"
            )
            assert bg == "#102030"
            assert opened.errors == []
        finally:
            await opened.close()


async def test_the_lobby_on_the_page_adds_an_ai_seat_of_a_level_and_starts(
    tmp_path: Path, browser: Browser
) -> None:
    """Issue 46: "`expert` as an AI level wherever a level is chosen (the chat commands
    and buttons, the terminal's `--ai`, the web table's lobby)"."""
    async with web_world(tmp_path / "web.sqlite3") as world:
        opened_lobby = await world.say(ANA, "new basic deals=1")
        assert opened_lobby.info is not None
        table_id = opened_lobby.info.id
        await world.say(BEN, "join")  # a page signs in the people of the table
        ana = await open_telegram_page(browser, world.base, ANA, table_id)
        ben = await open_telegram_page(browser, world.base, BEN, table_id)
        try:
            await wait_screen(ana.page)
            await wait_screen(ben.page)
            assert await ana.page.inner_text("[data-action=addbot-expert]") == "+🤖 Experte"
            await ben.page.click("[data-action=leave]")
            await ana.page.wait_for_selector("pre.lobby:not(:has-text('Ben'))")
            await ben.page.click("[data-action=join]")
            await ana.page.wait_for_selector("pre.lobby:has-text('Ben')")
            await ana.page.click("[data-action=addbot-expert]")
            await ana.page.wait_for_selector("pre.lobby:has-text('KI, Experte')")
            info = await world.service.entry.table_by_id(table_id)
            assert info is not None and [s.name for s in info.seats][:2] == ["Ana", "Ben"]
            assert [s.ai for s in info.seats if s.kind is SeatKind.AI] == ["expert"]
            # a guest may not start: the refusal is said on Ben's page, nothing changes
            await ben.page.click("[data-action=start]")
            await ben.page.wait_for_selector("#toast.refused")
            await ana.page.click("[data-action=start]")
            await ana.page.wait_for_selector(".hand-row .card")
            await ben.page.wait_for_selector(".hand-row .card")
            assert ana.errors == [] and ben.errors == []
        finally:
            await ana.close()
            await ben.close()
