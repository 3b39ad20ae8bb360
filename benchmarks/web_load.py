"""The web surface under hostile load (``rummy-bot bench --only web_load``): the bot's
HTTP server and web table in a process limited to 1,024 descriptors
(:mod:`benchmarks.web_load_child`, no per-address limit: the worst case, as behind a
proxy), attacked from this process over loopback by 2,000 WebSockets of one valid page
session and 1,100 slowloris clients (a request line, then one header byte a second);
once with the default of 4 pages per session, once without that limit (as 2,000 people
would), so the process limit holds the sockets.

Figures (printed; the test ``tests/bot/web/test_hostile_load.py`` asserts the bounds):

- **connections held** at the peak, and the limit (the descriptor limit less the
  reserve); the rest were answered 503 at once;
- **memory per connection**: the server's resident memory at the peak less before the
  load, divided by the connections held;
- **another table's command**: p50/p99/max of a ``hand`` command of another table sent
  through the entry point every 20 ms, before and under the load;
- **log lines** the server wrote under the load (bounded: one per kind and minute).

:func:`hostile_load` runs one attack and returns every figure.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.report import BenchConfig, Row, Section

__all__ = ["add_rows", "hostile_load", "run"]

CHILD = Path(__file__).with_name("web_load_child.py")


async def _stats(child: asyncio.subprocess.Process) -> dict[str, Any]:
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(b"stats\n")
    await child.stdin.drain()
    line = await asyncio.wait_for(child.stdout.readline(), 30)
    return dict(json.loads(line))


async def _websocket(http: Any, url: str, held: list[Any], outcome: dict[str, int]) -> None:
    import aiohttp

    try:
        socket = await http.ws_connect(url, timeout=aiohttp.ClientWSTimeout(ws_close=5))
    except aiohttp.WSServerHandshakeError as error:
        outcome["refused" if error.status == 503 else "failed"] += 1
        return
    except (aiohttp.ClientError, OSError, TimeoutError):
        outcome["failed"] += 1
        return
    first = await socket.receive(timeout=30)
    if first.type is aiohttp.WSMsgType.TEXT and json.loads(first.data)["type"] == "screen":
        held.append(socket)
        outcome["held"] += 1
    else:  # refused with a close code (too many pages of this session)
        outcome["closed"] += 1
        await socket.close()


async def _slowloris(
    port: int, writers: list[asyncio.StreamWriter], outcome: dict[str, int], stop: asyncio.Event
) -> None:
    """One slow client: a request line, then a header byte a second until closed."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        outcome["failed"] += 1
        return
    writers.append(writer)
    try:
        writer.write(b"GET /web/tg/ HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        first = asyncio.create_task(reader.read(64))
        while not stop.is_set():
            done, _pending = await asyncio.wait({first}, timeout=1.0)
            if done:
                data = first.result()
                outcome["refused" if data.startswith(b"HTTP/1.1 503") else "closed"] += 1
                return
            writer.write(b"a")
        first.cancel()
        outcome["held to the end"] += 1
    except OSError:
        outcome["closed"] += 1


async def hostile_load(
    websockets: int = 2000,
    slowloris: int = 1100,
    descriptors: int = 1024,
    hold: float = 14.0,
    header_timeout: float = 5.0,
    per_session: int = 4,
) -> dict[str, Any]:
    """One attack (see the module docstring); ``hold``: seconds the load is held after it
    is opened (longer than ``header_timeout``, so the slow clients are closed meanwhile);
    ``per_session``: pages one session may open (4, the default: the 2,000 sockets are
    refused with close code 4003 and the slow clients fill the connections; a large
    number lets the sockets fill them).
    Returns the child's statistics ``before``, at the ``peak`` and ``after``, the
    outcomes of the clients and the server's log ``lines``."""
    import aiohttp

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(CHILD.parent.parent), *filter(None, [env.get("PYTHONPATH")])]
    )
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        str(CHILD),
        "--descriptors",
        str(descriptors),
        "--header-timeout",
        str(header_timeout),
        "--per-session",
        str(per_session),
        env=env,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert child.stdout is not None and child.stderr is not None
    log_lines: list[str] = []

    async def read_log() -> None:
        assert child.stderr is not None
        while line := await child.stderr.readline():
            log_lines.append(line.decode(errors="replace").rstrip())

    logger = asyncio.create_task(read_log())
    result: dict[str, Any] = {}
    held: list[Any] = []
    writers: list[asyncio.StreamWriter] = []
    stop = asyncio.Event()
    try:
        ready = json.loads(await asyncio.wait_for(child.stdout.readline(), 60))
        port, token = ready["port"], ready["token"]
        result["max_connections"] = ready["max_connections"]
        await asyncio.sleep(2.0)
        result["before"] = await _stats(child)
        lines_before = len(log_lines)
        url = f"http://127.0.0.1:{port}/web/tg/ws?token={token}"
        sockets: dict[str, int] = {"held": 0, "refused": 0, "closed": 0, "failed": 0}
        slow: dict[str, int] = {"refused": 0, "closed": 0, "held to the end": 0, "failed": 0}
        started = time.monotonic()
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=connector) as http:
            for start in range(0, websockets, 100):
                await asyncio.gather(
                    *(
                        _websocket(http, url, held, sockets)
                        for _n in range(start, min(start + 100, websockets))
                    )
                )
            slow_tasks = [
                asyncio.create_task(_slowloris(port, writers, slow, stop))
                for _n in range(slowloris)
            ]
            result["opened_in"] = time.monotonic() - started
            peak_at = min(header_timeout * 0.6, hold)  # the slow clients all connected
            await asyncio.sleep(peak_at)
            result["peak"] = await _stats(child)
            await asyncio.sleep(max(hold - peak_at, 0.0))
            result["after"] = await _stats(child)
            stop.set()
            await asyncio.gather(*slow_tasks)
            result["lines_under_load"] = log_lines[lines_before:]
            for socket in held:
                with contextlib.suppress(Exception):
                    await socket.close()
        result["websockets"] = sockets
        result["slowloris"] = slow
        result["held_for"] = time.monotonic() - started
        await asyncio.sleep(0.5)
        result["end"] = await _stats(child)
    finally:
        for writer in writers:
            writer.close()
        if child.returncode is None and child.stdin is not None:
            with contextlib.suppress(Exception):
                child.stdin.write(b"quit\n")
                await child.stdin.drain()
        try:
            await asyncio.wait_for(child.wait(), 20)
        except TimeoutError:
            child.kill()
            await child.wait()
        await logger
    result["lines"] = log_lines
    result["returncode"] = child.returncode
    return result


def add_rows(section: Section, name: str, result: dict[str, Any]) -> None:
    """The rows of one attack's ``result`` (:func:`hostile_load`), each named after
    ``name``, and a note of the clients' outcomes."""
    peak, before, after = result["peak"], result["before"], result["after"]
    held = peak["open"]
    section.add(
        Row(
            f"{name}: connections held",
            held,
            "",
            note=f"limit {result['max_connections']}; "
            f"{sum(peak['refused'].values())} refused (503) by then; "
            f"{peak['descriptors']} descriptors of 1,024 at the peak",
        )
    )
    growth = max(peak["rss_kb"] - before["rss_kb"], 0)
    section.add(
        Row(
            f"{name}: memory per connection",
            growth / max(held, 1),
            "kB",
            note=f"+{growth / 1024:.1f} MB resident for {held} connections",
        )
    )
    section.add(
        Row(
            f"{name}: other table's hand p99, idle",
            before["p99_ms"],
            "ms",
            note=f"p50 {before['p50_ms']:.1f}, max {before['max_ms']:.1f} ms",
        )
    )
    section.add(
        Row(
            f"{name}: other table's hand p99, opening",
            peak["p99_ms"],
            "ms",
            30,
            note=f"p50 {peak['p50_ms']:.1f}, max {peak['max_ms']:.1f} ms, "
            f"loop lag max {peak['lag_max_ms']:.0f} ms, "
            f"{peak['commands']} commands",
        )
    )
    section.add(
        Row(
            f"{name}: other table's hand p99, held",
            after["p99_ms"],
            "ms",
            30,
            note=f"p50 {after['p50_ms']:.1f}, max {after['max_ms']:.1f} ms, "
            f"loop lag max {after['lag_max_ms']:.0f} ms; {after['open']} "
            f"connections left after the header timeout",
        )
    )
    section.add(
        Row(
            f"{name}: log lines under the load",
            len(result["lines_under_load"]),
            "",
            note=f"over {result['held_for']:.0f} s",
        )
    )
    section.notes.append(
        f"{name}: WebSockets {result['websockets']}, slowloris {result['slowloris']}"
    )


def run(config: BenchConfig) -> Section:
    """The figures of two attacks (see the module docstring): with the default of 4
    pages per session, and with no such limit (2,000 distinct pages' worth)."""
    section = Section("Web surface under hostile load (loopback, 1,024 descriptors)")
    load = os.getloadavg()
    sockets, slow = (500, 300) if config.quick else (2000, 1100)
    hold = 8.0 if config.quick else 14.0
    for name, per_session in (("4 pages a session", 4), ("no session limit", 100_000)):
        result = asyncio.run(
            hostile_load(websockets=sockets, slowloris=slow, hold=hold, per_session=per_session)
        )
        add_rows(section, name, result)
    section.notes.append(
        f"{sockets} WebSockets of one page session, then {slow} slowloris "
        f"clients; load average before "
        f"{' '.join(f'{x:.2f}' for x in load)}, after "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} "
        f"(machine shared)"
    )
    return section
