"""The page's own settings (issue 48, "Platform feel"): a four-colour deck for colour-blind
players (diamonds blue, clubs green), a button in the person's language, kept on the
device (localStorage) when the page is opened again."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Browser, Page

from bot.ports.model import UserRef
from tests.web.driver import open_telegram_page, version, wait_screen
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


AUDIO_STUB = """
window.__audio = {contexts: 0, tones: []};
window.AudioContext = class {
  constructor() { window.__audio.contexts += 1; this.currentTime = 0; this.state = 'running';
    this.destination = {}; }
  resume() { return Promise.resolve(); }
  createGain() { const ramp = () => {};
    return {gain: {setValueAtTime: ramp, exponentialRampToValueAtTime: ramp}, connect() {}}; }
  createOscillator() { const tone = {type: '', connect() {}, stop() {},
      frequency: {setValueAtTime(value) { tone.hz = value; }},
      start() { window.__audio.tones.push(tone.hz); }};
    return tone; }
};
"""
"""A WebAudio stand-in that counts the contexts made and the tones started (their
frequencies)."""


async def drawn(page: Page) -> None:
    """Taps the draw offer and waits for the screen after it."""
    before = await version(page)
    await page.click(".offers [data-kind=draw]")
    await page.wait_for_function(
        f"Number(document.querySelector('#app').dataset.version) > {before}"
    )


async def audio(page: Page) -> dict[str, object]:
    found: dict[str, object] = await page.evaluate("window.__audio")
    return found


@pytest.mark.parametrize(("user", "label"), [(BEN, "Sounds"), (ANA, "Töne")], ids=["en", "de"])
async def test_sounds_are_off_until_turned_on_and_kept_on_the_device(
    tmp_path: Path, browser: Browser, user: UserRef, label: str
) -> None:
    async with web_world(tmp_path / "web.sqlite3") as world:
        other = ANA if user is BEN else BEN
        info = await world.table(other, [user], "basic", ais=0)
        opened = await open_telegram_page(browser, world.base, user, info.id)
        page = opened.page
        await opened.context.add_init_script(AUDIO_STUB)
        try:
            await wait_screen(page)
            await page.reload()  # with the stand-in
            await wait_screen(page)
            await page.wait_for_selector(".hand-row .card")
            setting = page.locator("[data-action=sounds]")
            assert (await setting.inner_text()).strip() == label
            assert await setting.get_attribute("aria-pressed") == "false"
            # off: the other seat draws and discards, the person's turn starts, the
            # person draws: no sound, not even an AudioContext
            await world.say(other, "draw")
            stored = await world.service.repo.get_table(info.id)
            assert stored is not None and stored.state is not None
            seat = stored.seat_of(other.key)
            assert seat is not None
            await world.say(other, f"discard {stored.state.hands[seat][0]}")
            await page.wait_for_selector(".phase.my-turn")
            await drawn(page)
            assert await audio(page) == {"contexts": 0, "tones": []}
            # on: the person's discard sounds (a low tick)
            await setting.click()
            await page.wait_for_selector("[data-action=sounds][aria-pressed=true]")
            assert await page.evaluate("localStorage.getItem('rummy.sounds')") == "1"
            await page.locator(".hand-row .card").first.click()
            await page.click(".offers [data-kind=discard]", timeout=20_000)
            await page.wait_for_function("window.__audio.tones.length > 0")
            assert (await audio(page))["tones"] == [330]
            # opened again on this device: still on; the other seat's draw, its discard
            # and the person's turn each sound
            await page.reload()
            await wait_screen(page)
            await page.wait_for_selector("[data-action=sounds][aria-pressed=true]")
            await world.say(other, "draw")
            await page.wait_for_function("window.__audio.tones.length > 0")
            stored = await world.service.repo.get_table(info.id)
            assert stored is not None and stored.state is not None
            await world.say(other, f"discard {stored.state.hands[seat][0]}")
            await page.wait_for_selector(".phase.my-turn")
            await page.wait_for_function("window.__audio.tones.length >= 4")
            assert (await audio(page))["tones"] == [520, 330, 660, 880]
            # off again: nothing more sounds
            await setting.click()
            await page.wait_for_selector("[data-action=sounds][aria-pressed=false]")
            assert await page.evaluate("localStorage.getItem('rummy.sounds')") == "0"
            await drawn(page)
            assert len((await audio(page))["tones"]) == 4  # type: ignore[arg-type]
            assert opened.errors == []
        finally:
            await opened.close()
