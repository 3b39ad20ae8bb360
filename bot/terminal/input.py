"""The human's input lines: a plain reader over a stream, and an awaitable one for the
event loop.

The terminal game awaits its lines (:data:`AsyncLineReader`) so the game service keeps
running on the same event loop while a line is typed. Tests pass an ``async`` function
that answers at once (deterministic); ``rummy-bot play`` wraps ``sys.stdin`` with
:func:`threaded_reader`.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Awaitable, Callable
from typing import TextIO

__all__ = ["AsyncLineReader", "LineReader", "stream_reader", "threaded_reader"]

LineReader = Callable[[], str | None]
"""Returns the next line typed (without its newline), or ``None`` at the end of input."""

AsyncLineReader = Callable[[], Awaitable[str | None]]
"""Like :data:`LineReader`, awaited."""


def stream_reader(stream: TextIO) -> LineReader:
    """A :data:`LineReader` over a text stream such as ``sys.stdin``."""

    def read() -> str | None:
        line = stream.readline()
        if line == "":
            return None
        return line.rstrip("\r\n")

    return read


def threaded_reader(read: LineReader) -> AsyncLineReader:
    """An :data:`AsyncLineReader` that runs the blocking ``read`` on a thread.

    One daemon thread reads one line at a time. A daemon thread rather than
    ``loop.run_in_executor``: a read still waiting when the program ends (Ctrl-C)
    must not keep the process alive, and the default executor would wait for it.
    An await that is cancelled (a prompt with a time limit, see
    ``asyncio.wait_for``) does not lose the line being typed: the next call returns
    it instead of starting a second read. An exception of ``read`` is raised by the
    await.
    """
    pending: list[asyncio.Future[str | None]] = []  # the read in progress, at most one

    def start(loop: asyncio.AbstractEventLoop) -> asyncio.Future[str | None]:
        future: asyncio.Future[str | None] = loop.create_future()

        def deliver(line: str | None, error: BaseException | None) -> None:
            if future.cancelled():
                return
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(line)

        def work() -> None:
            line: str | None = None
            error: BaseException | None = None
            try:
                line = read()
            except Exception as caught:
                error = caught
            with contextlib.suppress(RuntimeError):  # a closed loop waits for no line
                loop.call_soon_threadsafe(deliver, line, error)

        threading.Thread(target=work, name="rummy-input", daemon=True).start()
        return future

    async def read_async() -> str | None:
        if not pending:
            pending.append(start(asyncio.get_running_loop()))
        try:
            # shield: a cancelled await leaves the read running for the next call
            result = await asyncio.shield(pending[0])
        except asyncio.CancelledError:
            raise
        except Exception:
            pending.clear()
            raise
        pending.clear()
        return result

    return read_async
