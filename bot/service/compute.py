"""Engine work off the event loop: a pool of worker processes with a time budget per call.

Every engine call the service makes for a move, an AI decision, a hint or the list of
legal moves can cost far more than a chat may wait for (a Romanian rack of 50 tiles with
two Jolys, or ``opening=200 opening_take=on``, took seconds per call). Run on the event
loop, one such call freezes every chat on every platform. So the service hands each call
to :class:`WorkerPool`:

- worker processes from the standard library (:mod:`multiprocessing`, started by the
  ``forkserver`` method with the engine preloaded, so a replacement is a cheap fork and
  no thread of the bot's process is copied): CPU work under the GIL needs processes;
- a budget per call (seconds): a call that overruns raises :class:`BudgetExceeded`, and
  its worker is killed (SIGKILL) and replaced, so a runaway call never holds a worker;
- two lanes: background work (AI decisions, hints, legal-move lists) takes a worker
  only while another one stays idle, so a person's move always finds a worker within
  about one move's time, whatever AI tables and hint requests do meanwhile (also while
  a killed worker is being replaced).

A worker collects garbage between calls, never inside one
(:mod:`bot.service.collector`).

States travel pickled (protocol 5): measured on a Romanian state, pickling there and back
costs 0.45 ms against 0.59 ms for the JSON of :mod:`engine.serialize` (which stays the
storage format: no pickles in the database). Errors the engine raises on purpose
(:class:`engine.errors.EngineError`) come back as themselves, with their ``params``.

:class:`InlineCompute` runs the same calls in-process on the caller's thread, for unit
tests (and can pretend a budget ran out, to test what callers do then).
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import multiprocessing
import os
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, Protocol, TypeVar

from bot.service.collector import BetweenCalls
from engine.errors import EngineError

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Modules the forkserver imports once, so every worker starts with the engine loaded.
PRELOAD = [
    "engine.game",
    "engine.ai",
    "engine.search",
    "engine.commands",
    "bot.service.engine_work",
]


WARM_UP_BUDGET = 10.0
"""Seconds a new worker may spend on its warm-up call."""


class Lane(enum.Enum):
    """Who waits for a call: ``MOVE`` a person who sent a move (may use every worker),
    ``BACKGROUND`` AI decisions, hints and legal-move lists (only while another worker
    stays idle for moves)."""

    MOVE = "move"
    BACKGROUND = "background"


class BudgetExceeded(Exception):
    """The call did not finish within its budget; its worker was replaced. Nothing the
    call would have produced is used."""


class WorkerLost(Exception):
    """The worker process died during the call (killed from outside, out of memory)."""


class Compute(Protocol):
    """Where the service runs engine work."""

    async def call(
        self, fn: Callable[..., T], *args: Any, budget: float, lane: Lane = Lane.MOVE
    ) -> T:
        """``fn(*args)`` within ``budget`` seconds. ``fn`` and the arguments must be
        picklable (module-level functions). Raises what ``fn`` raised (engine errors with
        their params), :class:`BudgetExceeded` or :class:`WorkerLost`."""

    async def close(self) -> None:
        """Stop every worker; calls still running raise :class:`WorkerLost`."""


class InlineCompute:
    """Runs each call on the caller's thread (no budget is enforced): unit tests and
    tools that own the process. ``exhaust(fn)``, when given and true for a call's
    function, makes that call raise :class:`BudgetExceeded` without running it, so tests
    can check what callers do when a budget runs out."""

    def __init__(self, exhaust: Callable[[Callable[..., Any]], bool] | None = None) -> None:
        self.exhaust = exhaust
        self.calls = 0

    async def call(
        self, fn: Callable[..., T], *args: Any, budget: float, lane: Lane = Lane.MOVE
    ) -> T:
        """Run ``fn(*args)`` now (see :class:`Compute`)."""
        self.calls += 1
        if self.exhaust is not None and self.exhaust(fn):
            raise BudgetExceeded(getattr(fn, "__name__", str(fn)))
        return fn(*args)

    async def close(self) -> None:
        """Nothing to stop."""


def default_workers() -> int:
    """Worker processes for this machine: the CPU count, at least 2 (one stays free for
    people's moves) and at most 4 (the bot's own process needs a core too)."""
    return min(max(os.cpu_count() or 2, 2), 4)


class _Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(self, process: BaseProcess, conn: Connection) -> None:
        self.process = process
        self.conn = conn
        self.calls = 0

    def kill(self) -> None:
        with contextlib.suppress(Exception):
            self.process.kill()
        with contextlib.suppress(Exception):
            self.conn.close()

    def reap(self) -> None:
        """Wait for the killed process (blocking: run it on a thread)."""
        with contextlib.suppress(Exception):
            self.process.join(5)


class WorkerPool:
    """``size`` worker processes (:func:`default_workers` by default) running engine
    calls with a budget each (see the module docs). ``await start()`` before use,
    ``await close()`` at the end. Counters for operators and benchmarks: ``replaced``
    (workers killed after overrunning or dying) and ``exhausted`` (calls over budget)."""

    def __init__(
        self,
        size: int | None = None,
        start_method: str = "forkserver",
        warm_up: Callable[[], object] | None = None,
    ) -> None:
        self.size = max(size or default_workers(), 1)
        #: Run once by every new worker before it takes calls (a fresh process pays for
        #: lazy imports and first-use caches: measured 30 ms on its first move).
        self.warm_up = warm_up
        self._ctx = multiprocessing.get_context(start_method)
        if start_method == "forkserver":
            self._ctx.set_forkserver_preload(PRELOAD)
        self._idle: list[_Worker] = []
        self._available = asyncio.Condition()
        #: Idle workers background work must leave to people's moves.
        self._reserve = 1 if self.size > 1 else 0
        self._all: set[_Worker] = set()
        self._closed = False
        self._spawning: set[asyncio.Task[None]] = set()
        self.replaced = 0
        self.exhausted = 0
        self._early_deaths = 0

    async def start(self) -> None:
        """Start the workers (process start-up runs on a thread, off the event loop)."""
        await asyncio.gather(*(self._add_worker() for _ in range(self.size)))

    async def _add_worker(self) -> None:
        worker = await asyncio.to_thread(self._spawn)
        if self._closed:
            worker.kill()
            await asyncio.to_thread(worker.reap)
            return
        self._all.add(worker)
        if self.warm_up is not None:
            deadline = asyncio.get_running_loop().time() + WARM_UP_BUDGET
            try:
                await self._run(worker, self.warm_up, (), deadline)  # releases it
            except Exception as error:  # replaced already; it never took a call
                log.warning("engine worker failed to warm up: %s", error)
            return
        await self._release(worker)

    def _spawn(self) -> _Worker:
        parent, child = self._ctx.Pipe(duplex=True)
        process = self._ctx.Process(  # type: ignore[attr-defined]
            target=_worker_main, args=(child,), daemon=True, name="rummy-engine"
        )
        process.start()
        child.close()
        return _Worker(process, parent)

    async def call(
        self, fn: Callable[..., T], *args: Any, budget: float, lane: Lane = Lane.MOVE
    ) -> T:
        """Run ``fn(*args)`` in a worker (see :class:`Compute`). Waiting for a free worker
        counts against the budget too: the caller hears back within ``budget``."""
        if self._closed:
            raise WorkerLost("the engine pool is closed")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + budget
        try:
            async with asyncio.timeout_at(deadline):
                worker = await self._acquire(lane)
        except TimeoutError:
            self.exhausted += 1
            raise BudgetExceeded(getattr(fn, "__name__", str(fn))) from None
        return await self._run(worker, fn, args, deadline)

    async def _acquire(self, lane: Lane) -> _Worker:
        keep = self._reserve if lane is Lane.BACKGROUND else 0
        async with self._available:
            await self._available.wait_for(lambda: len(self._idle) > keep or self._closed)
            if self._closed:
                raise WorkerLost("the engine pool is closed")
            return self._idle.pop()

    async def _release(self, worker: _Worker) -> None:
        if worker not in self._all:  # closed meanwhile
            return
        async with self._available:
            self._idle.append(worker)
            self._available.notify_all()  # a move may wait behind background waiters

    async def _run(
        self, worker: _Worker, fn: Callable[..., T], args: tuple[Any, ...], deadline: float
    ) -> T:
        loop = asyncio.get_running_loop()
        reply: asyncio.Future[tuple[str, Any]] = loop.create_future()
        fd = worker.conn.fileno()

        def readable() -> None:
            if reply.done():
                return
            try:
                reply.set_result(worker.conn.recv())
            except (EOFError, OSError) as error:
                reply.set_exception(WorkerLost(str(error) or "worker exited"))
            except Exception as error:  # a result that does not unpickle
                reply.set_exception(error)

        try:
            worker.conn.send((fn, args))
        except (OSError, ValueError) as error:
            self._replace(worker)
            raise WorkerLost(str(error)) from None
        worker.calls += 1
        loop.add_reader(fd, readable)
        try:
            async with asyncio.timeout_at(deadline):
                kind, value = await reply
        except TimeoutError:
            loop.remove_reader(fd)
            self.exhausted += 1
            self._replace(worker)
            raise BudgetExceeded(getattr(fn, "__name__", str(fn))) from None
        except BaseException:  # cancelled, or the worker died: its state is unknown
            loop.remove_reader(fd)
            self._replace(worker)
            raise
        loop.remove_reader(fd)
        await self._release(worker)
        if kind == "ok":
            return value  # type: ignore[no-any-return]
        if kind == "engine":
            cls, params, message = value
            raise _rebuild(cls, params, message)
        raise value

    def _replace(self, worker: _Worker) -> None:
        """Kill ``worker`` and start a new one in the background."""
        worker.kill()
        self._all.discard(worker)
        self.replaced += 1
        log.warning("engine worker %s replaced after %d calls", worker.process.pid, worker.calls)
        if self._closed:
            return
        # A worker that dies before finishing a call (a broken install, a main module
        # without its __main__ guard) would be replaced in a tight loop: wait longer
        # after each such death.
        self._early_deaths = self._early_deaths + 1 if worker.calls <= 1 else 0
        pause = min(0.5 * 2**self._early_deaths, 30.0) if self._early_deaths > 2 else 0.0

        async def renew() -> None:
            await asyncio.to_thread(worker.reap)
            if pause:
                await asyncio.sleep(pause)
            await self._add_worker()

        task = asyncio.get_running_loop().create_task(renew())
        self._spawning.add(task)
        task.add_done_callback(self._spawning.discard)

    def pids(self) -> list[int]:
        """Process ids of the live workers (tests, operators)."""
        return sorted(w.process.pid for w in self._all if w.process.pid is not None)

    async def close(self) -> None:
        """Stop every worker (idle ones are asked to exit, busy ones are killed)."""
        self._closed = True
        async with self._available:
            self._available.notify_all()
        for task in list(self._spawning):
            with contextlib.suppress(BaseException):
                await task
        workers = list(self._all)
        self._all.clear()
        idle = set(self._idle)
        self._idle.clear()
        for worker in workers:
            if worker in idle:
                with contextlib.suppress(Exception):
                    worker.conn.send(None)
            else:
                worker.kill()

        def reap_all() -> None:
            for worker in workers:
                worker.process.join(2)
                if worker.process.is_alive():
                    worker.kill()
                    worker.process.join(2)
                with contextlib.suppress(Exception):
                    worker.conn.close()

        await asyncio.to_thread(reap_all)


def _rebuild(cls: type[EngineError], params: dict[str, Any], message: str) -> EngineError:
    """An engine error as the worker raised it (its constructor takes keywords, which
    pickle cannot call)."""
    error = cls.__new__(cls)
    error.params = params
    Exception.__init__(error, message)
    return error


def _worker_main(conn: Connection) -> None:
    """A worker's loop: receive ``(fn, args)``, answer ``(kind, value)``, collect garbage
    (:class:`bot.service.collector.BetweenCalls`); ``None`` ends."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the parent, which stops us
    collector = BetweenCalls()
    collector.start()
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        fn, args = message
        try:
            reply: tuple[str, Any] = ("ok", fn(*args))
        except EngineError as error:
            reply = ("engine", (type(error), dict(error.params), str(error)))
        except Exception as error:
            reply = ("error", error)
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
        except Exception as error:  # the result or the error does not pickle
            conn.send(("error", RuntimeError(f"{type(error).__name__}: {error}")))
        del reply, message, fn, args  # dead before the collection, not walked by it
        collector.after_call()
