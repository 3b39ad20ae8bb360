"""One run of the press bench (:mod:`benchmarks.press`) on the tree whose ``bot`` package the
interpreter imports: a table of three people, every move made by the person to move as a
press, while ``--busy`` tables of four AI seats play on (no pause between moves) in the
same service, its engine worker pool of two processes and its scheduler.

Measured per press (seconds, ``time.perf_counter``):

- ``answer``: until the presser's answer is ready: their new hand screen (the hand model
  built for them);
- ``others``: until every other screen the change touched is ready: the table screen and
  the hand screen of the person whose turn began.

This file runs as a script (``python benchmarks/press_child.py ...``) so that the same
driver runs against an older tree (``PYTHONPATH``), whose service had no entry point: it
then presses through ``GameService.act`` and builds hand screens with that tree's
``bot.interaction.hand.hand_model`` (an engine call per screen), as its adapters did.
Prints one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path
from typing import Any


async def run(busy: int, presses: int, seed: int) -> dict[str, Any]:
    from bot.ports.model import ChatKey, TableSettings, UserRef
    from bot.service import engine_work
    from bot.service.compute import WorkerPool
    from bot.service.service import GameService
    from bot.storage import open_database
    from bot.storage.repository import SqliteRepository
    from engine.ai import make_ai
    from engine.commands import format_action
    from engine.game import current_player, legal_actions
    from engine.views import view_for

    new = hasattr(GameService, "host")
    folder = Path(tempfile.mkdtemp(prefix="rummy-press-"))
    db = await open_database(folder / "press.sqlite3")
    pool = WorkerPool(2, warm_up=engine_work.warm_up)
    await pool.start()
    marks: dict[str, float] = {}
    others_due: set[str] = set()
    people = [UserRef("bench", str(n), name) for n, name in enumerate(("ana", "ben", "cem"))]
    key = ChatKey("bench", "measured")

    def mark(what: str) -> None:
        marks[what] = time.perf_counter()

    if new:
        from bot.interaction.hand import build_hand_model
        from bot.ports.intents import InChat, Intent, Move
        from bot.service.flow import FlowControl

        class NewNotifier:
            async def publish(self, update: Any) -> None:
                if update.info.key != key:
                    return
                mark("table")
                for screen in update.seats:
                    # the others' screens (the presser's answer is timed on its own)
                    if update.hand_changed(screen.seat) and screen.user_key != update.actor:
                        build_hand_model(screen)
                        mark(f"hand:{screen.user_key}")

            async def warn(self, warning: Any) -> None:
                pass

            async def fault(self, fault: Any) -> None:
                pass

        notifier: Any = NewNotifier()
    else:
        from bot.interaction.hand import hand_model  # type: ignore[attr-defined]

        class OldNotifier:
            service: Any = None

            async def table_changed(self, info: Any, *args: Any) -> None:
                if info.key == key:
                    mark("table")

            async def hand_changed(self, info: Any, seat: int, user_key: str, view: Any) -> None:
                if info.key == key and user_key in others_due:
                    user = next(p for p in people if p.key == user_key)
                    await hand_model(self.service, key, user)
                    mark(f"hand:{user_key}")

            async def turn_started(self, info: Any, seat: int, user_key: str) -> None:
                if info.key == key and user_key in others_due:
                    user = next(p for p in people if p.key == user_key)
                    await hand_model(self.service, key, user)
                    mark(f"hand:{user_key}")

            async def timer_warning(self, *args: Any) -> None:
                pass

        notifier = OldNotifier()
    service = GameService(
        SqliteRepository(db),
        {"bench": notifier},
        compute=pool,
        defaults=TableSettings(timer="off", ai_delay=0.0, next_deal_delay=0.0, call_window=0.0),
        seed_source=iter(range(seed, seed + 10**6)).__next__,
    )
    if new:
        service.flow = FlowControl(limited=False)
        lobby: Any = service.lobby
    else:
        notifier.service = service
        lobby = service
    for n in range(busy):
        host = UserRef("bench", f"h{n}", f"h{n}")
        busy_key = ChatKey("bench", f"busy{n}")
        await lobby.new_table(busy_key, host, "basic", None, {"deals": 50, "target": "none"})
        for _ in range(3):
            await lobby.add_ai(busy_key, host)
        await lobby.start(busy_key, host)
        await lobby.leave(busy_key, host)  # the autopilot plays the host: four AI seats
    await lobby.new_table(key, people[0], "basic", None, {"deals": 50, "target": "none"})
    for person in people[1:]:
        await lobby.join(key, person)
    await lobby.start(key, people[0])
    stop = asyncio.Event()
    background = asyncio.create_task(service.run(stop, max_sleep=0.05))
    ai = make_ai("greedy", seed=seed)
    answers: list[float] = []
    others: list[float] = []
    commands: list[str] = []
    try:
        for _ in range(presses):
            table = await service.repo.active_table(key)
            assert table is not None and table.state is not None
            seat = current_player(table.state)
            if seat is None:
                break
            action = ai.decide(view_for(table.state, seat), legal_actions(table.state, seat))
            presser = people[seat]
            marks.clear()
            others_due.clear()
            others_due.update(p.key for p in people if p.key != presser.key)
            began = time.perf_counter()
            if new:
                async with service.entry.answer_first():
                    outcome = await service.entry.handle(
                        Intent(Move(action=action), presser, InChat(key))
                    )
                    assert outcome.ok, outcome.reply
                    mark("answer")
            else:
                await service.act(key, presser, action)  # type: ignore[attr-defined]
                await hand_model(service, key, presser)
                mark("answer")
            await asyncio.sleep(0)
            answers.append(marks["answer"] - began)
            commands.append(
                f"{presser.name}: {format_action(action)} (deal {table.state.deal_number})"
            )
            others.append(max(t for k, t in marks.items() if k != "answer") - began)
    finally:
        stop.set()
        await background
        await pool.close()
        await db.close()
    return {
        "tree": "new" if new else "old",
        "busy": busy,
        "answer": answers,
        "others": others,
        "commands": commands,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--busy", type=int, default=0)
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.busy, args.presses, args.seed))), flush=True)


if __name__ == "__main__":
    main()
