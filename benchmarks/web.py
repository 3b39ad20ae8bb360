"""The web table (``rummy-bot bench --only web``): the real service on a temporary SQLite
file with its engine worker pool, the real HTTP server and web front end on loopback.

Figures (printed, never asserted):

- **page ready**: from opening the page in Chromium (Debian's, through Playwright) to its
  first view drawn (the hand's cards on screen), p50 and p99 (target <= 1 s);
- **move to the other pages**: with 50 tables open (two seated people each, the first on
  two pages: every page a WebSocket client), the time from a press of an offered move to the
  moment every other page of that table has the new version, p50, p99 and the worst
  (target <= 100 ms p99);
- **bytes per update**: the screen frames those pages received, mean and largest
  (target <= 10 kB);
- **assets**: the bytes a page loads (HTML, CSS, its ES modules) and Discord's SDK
  bundle, which only the Activity loads;
- **longest task during the flights**: a phone's page (390x844) with Chromium's CPU
  throttled 4x (Chrome DevTools Protocol ``Emulation.setCPUThrottlingRate``) while the other
  seat and the page's own taps draw and discard, every card flying: the longest task a
  ``PerformanceObserver`` of ``longtask`` entries reported from each move to the end of its
  flights (target <= 50 ms: a longer one makes a flight stutter). With
  ``RUMMY_BENCH_WEB_BEFORE`` set to another tree's ``bot/web/static`` folder (e.g. one
  made by ``git archive <commit> bot/web/static | tar -x -C /tmp/before``), the page's files
  of that tree and of this one take turns (A B A B, the load average printed), so a change
  is compared within one run on a busy machine; ``RUMMY_BENCH_WEB_ROUNDS`` rounds of A B
  (default 2), each a new table of ten turns (four with ``--quick``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from benchmarks.report import BenchConfig, Row, Section, median, percentile

__all__ = ["flight_long_tasks", "run"]

TABLES = 50
TOKEN = "123456:bench-token"
BEFORE = "RUMMY_BENCH_WEB_BEFORE"
"""The environment variable naming a ``bot/web/static`` folder to compare the flights with."""
ROUNDS = "RUMMY_BENCH_WEB_ROUNDS"
"""The environment variable giving how many A B rounds the comparison runs (default 2)."""


def _assets() -> tuple[int, int]:
    """(bytes of the page without the Discord SDK, bytes of the SDK bundle)."""
    from bot.web.server.html import page_html
    from bot.web.server.routes import STATIC

    page = len(page_html("tg").encode())
    sdk = 0
    for path in STATIC.rglob("*"):
        if not path.is_file() or path.suffix in (".md", ".txt"):
            continue
        if "vendor" in path.parts:
            sdk += path.stat().st_size if path.suffix == ".js" else 0
        else:
            page += path.stat().st_size
    return page, sdk


async def _world(path: Path) -> tuple[Any, ...]:
    from bot.http import HttpLimits, HttpServer
    from bot.ports.model import TableSettings
    from bot.service import engine_work
    from bot.service.compute import WorkerPool
    from bot.service.flow import FlowControl
    from bot.service.service import GameService
    from bot.storage import open_database
    from bot.storage.repository import SqliteRepository
    from bot.web import WebConfig, WebFrontEnd

    db = await open_database(path)
    pool = WorkerPool(2, warm_up=engine_work.warm_up)
    await pool.start()
    service = GameService(
        SqliteRepository(db),
        defaults=TableSettings(timer="off"),
        compute=pool,
        seed_source=iter(range(1, 10**9)).__next__,
    )
    service.flow = FlowControl(user_rate=(10_000, 1.0), chat_rate=(10_000, 1.0))
    web = WebFrontEnd(WebConfig("https://bench.invalid", telegram_token=TOKEN))
    service.register(web.platform, web.notifier, web.every_platform)
    # Every page of the bench comes from one address (loopback), as every page comes from
    # the proxy's behind a reverse proxy: no per-address limit (docs/operating.md).
    http = HttpServer("127.0.0.1", 0, HttpLimits(per_address=0))
    await http.start()
    await web.start(service.host(http))
    return db, pool, service, web, http


def _init_data(user_id: int, name: str) -> str:
    from bot.web.auth.telegram import sign_init_data

    return sign_init_data(
        {
            "auth_date": str(int(time.time())),
            "user": json.dumps({"id": user_id, "first_name": name}),
        },
        TOKEN,
    )


class _Client:
    """One page as a WebSocket client: the newest screen and every frame's size."""

    def __init__(self, socket: Any) -> None:
        self.socket = socket
        self.screen: dict[str, Any] | None = None
        self.version = -1
        self.sizes: list[int] = []
        self.changed = asyncio.Event()
        self.replies: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def read(self) -> None:
        async for message in self.socket:
            frame = json.loads(message.data)
            if frame["type"] == "screen":
                self.sizes.append(len(message.data.encode()))
                self.screen = frame
                self.version = frame["version"]
                self.changed.set()
            elif (
                frame["type"] == "hand"
                and self.screen is not None
                and frame["version"] == self.version
            ):
                self.screen["hand"] = frame["hand"]
                await self.replies.put(frame)

    async def until(self, version: int, timeout: float = 20.0) -> None:
        deadline = time.perf_counter() + timeout
        while self.version < version:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), max(deadline - time.perf_counter(), 0.01))


async def _open(http: Any, base: str, user_id: int, name: str, table: int) -> _Client:
    async with http.post(
        f"{base}/api/session/telegram",
        json={"init_data": _init_data(user_id, name), "table": table},
    ) as response:
        token = (await response.json())["token"]
    socket = await http.ws_connect(f"{base}/ws?token={token}")
    return _Client(socket)


async def _moves(
    base: str, service: Any, moves: int, rng: random.Random
) -> tuple[list[float], list[int], tuple[float, str]]:
    """Latencies (seconds) from a press to the table's other pages updated, the frame
    sizes they received, and the worst move."""
    import aiohttp

    from bot.interaction.commands import parse
    from bot.ports.intents import InChat, Intent
    from bot.ports.model import ChatKey, UserRef

    latencies: list[float] = []
    worst = (0.0, "")
    # no limit on connections: 150 WebSockets stay open at once
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        tables = []
        for n in range(TABLES):
            key = ChatKey("telegram", f"-100{n}")
            people = [
                UserRef("telegram", str(1000 + 3 * n + k), f"p{n}{k}", "en") for k in range(2)
            ]
            for user, line in ((people[0], "new basic"), (people[1], "join"), (people[0], "start")):
                outcome = await service.entry.handle(Intent(parse(line), user, InChat(key)))
            info = outcome.info
            clients = [await _open(http, base, int(u.user_id), u.name, info.id) for u in people]
            # the first person's second page (a phone and a desktop)
            clients.append(await _open(http, base, 1000 + 3 * n, people[0].name, info.id))
            tables.append(clients)
        readers = [asyncio.create_task(c.read()) for clients in tables for c in clients]
        for clients in tables:
            for client in clients:
                await client.until(0)
        for _ in range(moves):
            clients = rng.choice(tables)
            mover = next(
                (
                    c
                    for c in clients[:2]
                    if c.screen and c.screen["hand"] and c.screen["hand"]["turn"]
                ),
                None,
            )
            if mover is None or mover.screen is None:
                continue
            screen = mover.screen
            await mover.socket.send_json({"type": "hint", "table": screen["table"]})
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(mover.replies.get(), 5)
            hand = mover.screen["hand"] if mover.screen else None
            if not hand:
                continue
            number = next((i for i, o in enumerate(hand["offers"]) if o["hint"]), None)
            if number is None:
                continue
            version = screen["version"]
            others = [c for c in clients if c is not mover]
            start = time.perf_counter()
            await mover.socket.send_json(
                {
                    "type": "offer",
                    "table": screen["table"],
                    "version": version,
                    "digest": hand["digest"],
                    "selected": hand["selected"],
                    "sort": hand["sort"],
                    "offer": number,
                    "id": f"b{rng.randrange(10**9)}",
                }
            )
            try:
                for other in others:
                    await other.until(version + 1)
            except TimeoutError:
                continue
            spent = time.perf_counter() - start
            latencies.append(spent)
            if spent > worst[0]:
                worst = (
                    spent,
                    f"table {screen['table']} v{version}: {hand['offers'][number]['label']}",
                )
        sizes = [s for t in tables for c in t for s in c.sizes[1:]]
        for clients in tables:
            for client in clients:
                await client.socket.close()
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
    return latencies, sizes, worst


async def _ready(base: str, service: Any, loads: int) -> list[float]:
    """Seconds from opening the page to its hand drawn, ``loads`` times."""
    from playwright.async_api import async_playwright

    from bot.interaction.commands import parse
    from bot.ports.intents import InChat, Intent
    from bot.ports.model import ChatKey, UserRef

    key = ChatKey("telegram", "-100ready")
    ana = UserRef("telegram", "90001", "ana", "en")
    ben = UserRef("telegram", "90002", "ben", "en")
    for user, line in ((ana, "new basic"), (ben, "join"), (ana, "start")):
        outcome = await service.entry.handle(Intent(parse(line), user, InChat(key)))
    table = outcome.info.id
    stub = (
        "window.Telegram={WebApp:{initData:window.__initData,themeParams:{},"
        "ready(){},expand(){},onEvent(){}}};"
    )
    times = []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=[
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        try:
            for _ in range(loads + 1):  # the first load warms the browser up
                context = await browser.new_context(viewport={"width": 390, "height": 844})
                await context.route(
                    "https://telegram.org/**",
                    lambda route: route.fulfill(body=stub, content_type="text/javascript"),
                )
                await context.add_init_script(
                    f"window.__initData = {json.dumps(_init_data(90001, 'ana'))};"
                )
                page = await context.new_page()
                start = time.perf_counter()
                await page.goto(f"{base}/tg/?t={table}")
                await page.wait_for_selector(".hand-row .card")
                times.append(time.perf_counter() - start)
                await context.close()
        finally:
            await browser.close()
    return times[1:]


LONG_TASKS = """() => {
  window.__long = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__long.push([entry.startTime, entry.duration]);
  }).observe({type: 'longtask'});
}"""
"""Collects the page's long tasks (over 50 ms: Chromium's ``longtask`` entries) in
``window.__long`` as [start, duration] in ms."""

SETTLED = """(before) => Number(document.querySelector('#app').dataset.version) > before &&
  document.getAnimations().length === 0"""


async def flight_long_tasks(
    page: Any, other_turn: Callable[[], Awaitable[Any]], turns: int = 4, rate: float = 4
) -> list[tuple[str, float, int]]:
    """With the CPU throttled ``rate`` times, ``turns`` turns on a seat's ``page`` (a
    Playwright page showing that seat's hand): the page's own (tap draw, tap a card, tap
    discard) or the other seat's (``other_turn``: its draw and discard); per turn
    ("own"/"other", the longest long task in ms from the turn's first move to the end of its
    last flight, 0 when none, and how many long tasks)."""
    cdp = await page.context.new_cdp_session(page)
    await page.evaluate(LONG_TASKS)
    await cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    found = []
    try:
        for _ in range(turns):
            start = await page.evaluate("performance.now()")
            before = int(await page.get_attribute("#app", "data-version") or -1)
            if await page.locator(".phase.my-turn").count():
                who = "own"
                await page.click(".offers [data-kind=draw]")
                await page.wait_for_function(SETTLED, arg=before, polling=100, timeout=20_000)
                before = int(await page.get_attribute("#app", "data-version") or -1)
                await page.locator(".hand-row .card").first.click()
                await page.click(".offers [data-kind=discard]", timeout=20_000)
            else:
                who = "other"
                await other_turn()
                await page.wait_for_selector(".phase.my-turn", timeout=20_000)
            await page.wait_for_function(SETTLED, arg=before, polling=100, timeout=20_000)
            tasks = await page.evaluate(
                "(start) => window.__long.filter(([at]) => at >= start).map(([, d]) => d)", start
            )
            found.append((who, max(tasks, default=0.0), len(tasks)))
    finally:
        await cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        await cdp.detach()
    return found


async def _flights(
    base: str, service: Any, turns: int, run: int = 0, static: Path | None = None
) -> list[tuple[str, float, int]]:
    """:func:`flight_long_tasks` on a new table of two (the page's seat and a seat that
    moves by typed commands), in Chromium at 390x844; ``run`` numbers the table's chat and
    people (each run a new table); ``static``: the page's files from that folder instead
    of this tree's."""
    from playwright.async_api import async_playwright

    from bot.interaction.commands import parse
    from bot.ports.intents import InChat, Intent
    from bot.ports.model import ChatKey, UserRef

    key = ChatKey("telegram", f"-100flights{run}")
    ana = UserRef("telegram", str(90011 + 2 * run), "ana", "en")
    ben = UserRef("telegram", str(90012 + 2 * run), "ben", "en")

    async def say(user: UserRef, line: str) -> Any:
        return await service.entry.handle(Intent(parse(line), user, InChat(key)))

    for user, line in ((ana, "new basic"), (ben, "join"), (ana, "start")):
        outcome = await say(user, line)
    table = outcome.info.id

    async def ana_turn() -> None:
        await say(ana, "draw")
        stored = await service.repo.get_table(table)
        seat = stored.seat_of(ana.key)
        await say(ana, f"discard {stored.state.hands[seat][0]}")

    async def other_files(route: Any) -> None:
        assert static is not None
        name = route.request.url.split("/static/", 1)[1].split("?")[0]
        kind = "text/css" if name.endswith(".css") else "text/javascript"
        await route.fulfill(body=(static / name).read_bytes(), content_type=kind)

    stub = (
        "window.Telegram={WebApp:{initData:window.__initData,themeParams:{},"
        "ready(){},expand(){},onEvent(){}}};"
    )
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
        )
        try:
            context = await browser.new_context(viewport={"width": 390, "height": 844})
            await context.route(
                "https://telegram.org/**",
                lambda route: route.fulfill(body=stub, content_type="text/javascript"),
            )
            if static is not None:
                await context.route("**/static/**", other_files)
            await context.add_init_script(
                f"window.__initData = {json.dumps(_init_data(int(ben.user_id), 'ben'))};"
            )
            page = await context.new_page()
            await page.goto(f"{base}/tg/?t={table}")
            await page.wait_for_selector(".hand-row .card")
            return await flight_long_tasks(page, ana_turn, turns)
        finally:
            await browser.close()


def _flight_row(
    name: str, flights: list[tuple[str, float, int]], turns: int, loads: list[float]
) -> Row:
    """The row of the longest task over ``flights`` (runs of ``turns`` turns each): how
    many turns, long tasks and turns with any, the worst turn (which run, which turn), and
    the load averages seen (1 minute, before and after each run)."""
    worst = max(range(len(flights)), key=lambda i: flights[i][1])
    who, longest, _count = flights[worst]
    return Row(
        name,
        longest,
        "ms",
        50,
        note=f"390x844, CPU 4x slower, {len(flights)} turns, "
        f"{sum(f[2] for f in flights)} long tasks in {sum(1 for f in flights if f[2])} "
        f"turns; worst in an {who} turn (run {worst // turns + 1}, turn "
        f"{worst % turns + 1}); load {min(loads):.1f}-{max(loads):.1f}",
    )


async def _flight_rows(config: BenchConfig, section: Section, base: str, service: Any) -> None:
    """The flights' rows: this tree's, and with :data:`BEFORE` set the other tree's, the
    two alternating (A B A B)."""
    turns = 4 if config.quick else 10
    before = os.environ.get(BEFORE)
    trees: list[tuple[str, Path | None]] = [("", None)]
    if before:
        trees = [(" (before)", Path(before)), (" (this tree)", None)]
    found: dict[str, list[tuple[str, float, int]]] = {name: [] for name, _ in trees}
    loads: dict[str, list[float]] = {name: [] for name, _ in trees}
    run = 0
    for _round in range(max(1, int(os.environ.get(ROUNDS, "2"))) if before else 1):
        for name, static in trees:
            loads[name].append(os.getloadavg()[0])
            found[name] += await _flights(base, service, turns, run, static)
            loads[name].append(os.getloadavg()[0])
            run += 1
    for name, _static in trees:
        section.add(
            _flight_row(f"longest task during the flights{name}", found[name], turns, loads[name])
        )


async def _measure(config: BenchConfig, section: Section) -> None:
    rng = random.Random(config.seed)
    with tempfile.TemporaryDirectory() as folder:
        db, pool, service, web, http = await _world(Path(folder) / "bench.sqlite3")
        base = f"http://127.0.0.1:{http.port}/web"
        stop = asyncio.Event()
        background = asyncio.create_task(service.run(stop, max_sleep=0.2))
        try:
            try:
                ready = await _ready(base, service, 5 if config.quick else 30)
            except Exception as error:  # no Chromium here: the other figures still count
                section.notes.append(
                    f"page ready not measured: {type(error).__name__}: "
                    f"{str(error).splitlines()[0][:120]}"
                )
            else:
                section.add(
                    Row(
                        "page ready p50",
                        median(ready) * 1000,
                        "ms",
                        1000,
                        note=f"{len(ready)} loads in Chromium, 390x844",
                    )
                )
                section.add(
                    Row(
                        "page ready p99",
                        percentile(ready, 99) * 1000,
                        "ms",
                        1000,
                        note=f"max {max(ready) * 1000:.0f} ms",
                    )
                )
            try:
                await _flight_rows(config, section, base, service)
            except Exception as error:
                section.notes.append(
                    f"flights not measured: {type(error).__name__}: "
                    f"{str(error).splitlines()[0][:120]}"
                )
            latencies, sizes, worst = await _moves(base, service, 40 if config.quick else 300, rng)
            if latencies:
                section.add(
                    Row(
                        "move to the other pages p50",
                        median(latencies) * 1000,
                        "ms",
                        100,
                        note=f"{TABLES} tables, 3 pages each, WebSocket clients",
                    )
                )
                section.add(
                    Row(
                        "move to the other pages p99",
                        percentile(latencies, 99) * 1000,
                        "ms",
                        100,
                        note=f"{len(latencies)} moves; max {worst[0] * 1000:.0f} ms ({worst[1]})",
                    )
                )
            if sizes:
                section.add(
                    Row(
                        "bytes per update (mean)",
                        sum(sizes) / len(sizes),
                        "B",
                        10_000,
                        note=f"{len(sizes)} screen frames",
                    )
                )
                section.add(Row("bytes per update (max)", max(sizes), "B", 10_000))
        finally:
            stop.set()
            await web.stop()
            await http.stop()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(background, 10)
            await pool.close()
            await db.close()


def run(config: BenchConfig) -> Section:
    """The web table's figures (see the module docstring)."""
    section = Section("Web table (loopback, Chromium)")
    page, sdk = _assets()
    section.add(
        Row("assets of a page", page / 1000, "kB", note="HTML, CSS and ES modules, uncompressed")
    )
    section.add(Row("Discord SDK bundle", sdk / 1000, "kB", note="loaded by the Activity only"))
    asyncio.run(_measure(config, section))
    return section
