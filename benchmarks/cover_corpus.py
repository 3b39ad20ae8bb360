"""The stored corpus of the slowest Romanian going-out questions, and the search that found
them.

A going-out question (:func:`engine.variants.romanian.cover.cover`: may the seat meld and
lay off every tile but one this turn?) is asked by the legal list whenever a rack may go
out. The legal-moves section (:mod:`benchmarks.legal`) times whole ``legal_actions``
calls; this module keeps the questions themselves: :func:`search` plays the section's
random-option Romanian games (game ``i``: seed ``first + i``, the options drawn as
:mod:`benchmarks.legal` draws them, both seats random players), times every question
the planner asks and keeps the slowest, each with the seed and action of the position
that asked it. The corpus (:data:`CORPUS`, JSON) was made once with::

    PYTHONPATH=$PWD python -m benchmarks.cover_corpus --search 2026 1000

(the bench's seeds) and is timed again with ``python -m benchmarks.cover_corpus`` (process
time, the least of three rounds, on an engine worker's heap: :func:`timed_as_workers`)
and by the legal section (:func:`timed`, wall time).

romanian-rummy.de.txt: "Um das Spiel zu gewinnen, muss man alle Steine, die man noch
hat, melden bis auf einen Stein – dieser letzte Stein muss abgelegt werden."
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest.mock import patch

import engine.variants.romanian.plan as plan_module
from engine.ai import make_ai
from engine.cards import Card, parse_card
from engine.dealing import new_game
from engine.game import apply_legal, legal_actions
from engine.melds import Meld, MeldKind, Placed
from engine.rules import make_rules
from engine.state import Phase
from engine.variants.romanian.cover import cover
from engine.variants.romanian.state import Obligation
from engine.views import view_for

__all__ = ["CORPUS", "Question", "load", "save", "search", "timed", "timed_as_workers"]

#: The stored corpus: the 50 slowest questions of the bench's 1,000 Romanian games.
CORPUS = Path(__file__).with_name("romanian_cover_corpus.json")
KEEP = 50


@dataclass(frozen=True)
class Question:
    """One going-out question as :func:`cover` takes it, with where it was asked (game
    ``seed``, ``action`` index), its time when found (``ms``, on the machine of the
    search) and whether it had a way out (``found``)."""

    seed: int
    action: int
    hand: tuple[Card, ...]
    melds: tuple[Meld, ...]
    targets: tuple[int, ...]
    need: int | None
    keep: Card | None
    owed: Obligation | None
    only: Card | None
    ms: float = 0.0
    found: bool = False

    def ask(self) -> bool:
        """Ask the question again: whether there is a way out."""
        return (
            cover(
                self.hand,
                self.melds,
                self.targets,
                need=self.need,
                keep=self.keep,
                owed=self.owed,
                only=self.only,
            )
            is not None
        )


def _card(text: str | None) -> Card | None:
    return None if text is None else parse_card(text)


def _face(card: Card) -> str | int:
    """A face as text, or its number alone for a Joly in a set (a face of no colour)."""
    return card.rank if card.suit is None else str(card)


def _parse_face(face: str | int) -> Card:
    return Card(face, None) if isinstance(face, int) else parse_card(face)


def _to_json(q: Question) -> dict[str, Any]:
    owed = q.owed
    return {
        "seed": q.seed,
        "action": q.action,
        "ms": round(q.ms, 1),
        "found": q.found,
        "hand": " ".join(map(str, q.hand)),
        "melds": [
            {
                "kind": m.kind.value,
                "owner": m.owner,
                "cards": [[str(p.card), _face(p.face), p.owner] for p in m.cards],
            }
            for m in q.melds
        ],
        "targets": list(q.targets),
        "need": q.need,
        "keep": None if q.keep is None else str(q.keep),
        "only": None if q.only is None else str(q.only),
        "owed": None
        if owed is None
        else {
            "kind": owed.kind,
            "tile": str(owed.tile),
            "rack": " ".join(map(str, owed.rack)),
            "track": owed.track,
        },
    }


def _from_json(d: dict[str, Any]) -> Question:
    owed = d["owed"]
    melds = tuple(
        Meld(
            MeldKind(m["kind"]),
            tuple(Placed(parse_card(c), _parse_face(f), o) for c, f, o in m["cards"]),
            m["owner"],
        )
        for m in d["melds"]
    )
    return Question(
        d["seed"],
        d["action"],
        tuple(parse_card(t) for t in d["hand"].split()),
        melds,
        tuple(d["targets"]),
        d["need"],
        _card(d["keep"]),
        None
        if owed is None
        else Obligation(
            owed["kind"],
            parse_card(owed["tile"]),
            tuple(parse_card(t) for t in owed["rack"].split()),
            owed["track"],
        ),
        _card(d["only"]),
        d["ms"],
        d["found"],
    )


def save(questions: Sequence[Question], path: Path = CORPUS) -> None:
    """Store ``questions``, one a line."""
    lines = ",\n".join(json.dumps(_to_json(q)) for q in questions)
    path.write_text(f"[\n{lines}\n]\n", encoding="utf-8")


def load(path: Path = CORPUS) -> list[Question]:
    """The stored questions, slowest first."""
    return [_from_json(d) for d in json.loads(path.read_text(encoding="utf-8"))]


def search(first: int, games: int, keep: int = KEEP) -> list[Question]:
    """Play ``games`` random-option Romanian games from seed ``first`` (as the legal-moves
    section does) and return the ``keep`` slowest going-out questions, slowest first."""
    from benchmarks.legal import MAX_ACTIONS, _options

    asked: list[Question] = []
    where = [0, 0]

    def timed_cover(
        hand: Sequence[Card], melds: Sequence[Meld] = (), targets: Sequence[int] = (), **kw: Any
    ) -> Any:
        start = time.perf_counter()
        out = cover(hand, melds, targets, **kw)
        ms = (time.perf_counter() - start) * 1000
        asked.append(
            Question(
                where[0],
                where[1],
                tuple(hand),
                tuple(melds),
                tuple(targets),
                kw["need"],
                kw["keep"],
                kw["owed"],
                kw["only"],
                ms,
                out is not None,
            )
        )
        return out

    with patch.object(plan_module, "cover", timed_cover):
        for seed in range(first, first + games):
            options = _options("romanian", random.Random(seed))
            state = new_game(make_rules("romanian", options=options), ["ana", "ben"], seed=seed)
            seats = [make_ai("random", seed * 2 + s) for s in range(2)]
            for action in range(MAX_ACTIONS):
                if state.phase not in (Phase.DRAW, Phase.PLAY):
                    break
                where[:] = [seed, action]
                seat = state.current
                legal = legal_actions(state, seat)
                state, _ = apply_legal(state, seats[seat].decide(view_for(state, seat), legal))
    asked.sort(key=lambda q: -q.ms)
    return asked[:keep]


def timed(
    questions: Sequence[Question], clock: Callable[[], float] = time.perf_counter
) -> list[tuple[float, Question]]:
    """Each question asked once more: (ms by ``clock``, question), in the corpus order.
    Raises ``AssertionError`` when an answer differs from the stored one."""
    out = []
    for q in questions:
        start = clock()
        found = q.ask()
        out.append(((clock() - start) * 1000, q))
        assert found == q.found, f"seed {q.seed} action {q.action}: answer changed"
    return out


def timed_as_workers(
    questions: Sequence[Question], rounds: int = 3
) -> list[tuple[float, Question]]:
    """Each question's least process time over ``rounds`` rounds, on the heap of an engine
    worker (frozen, the collector off inside a question and run between questions,
    :func:`benchmarks.heap.worker_heap`): the figure that a shared machine's load moves
    least."""
    from benchmarks.heap import worker_heap

    best: dict[int, float] = {}
    with worker_heap() as heap:
        for _ in range(rounds):
            for i, q in enumerate(questions):
                ms = timed([q], time.process_time)[0][0]
                heap.after_call()
                best[i] = min(best.get(i, ms), ms)
    return [(best[i], q) for i, q in enumerate(questions)]


def main(argv: Sequence[str]) -> None:
    """``--search FIRST GAMES``: make the corpus again; else time the stored one
    (:func:`timed_as_workers`), with the load average of the machine."""
    if argv[:1] == ["--search"]:
        found = search(int(argv[1]), int(argv[2]))
        save(found)
        print(f"{len(found)} questions written to {CORPUS}")
        return
    load_before = os.getloadavg()[0]
    figures = timed_as_workers(load())
    ms = sorted(m for m, _ in figures)
    worst, q = max(figures, key=lambda f: f[0])
    print(
        f"{len(ms)} questions, process time, least of 3 rounds: p50 {ms[len(ms) // 2]:.1f} ms, "
        f"p99 {ms[min(len(ms) - 1, len(ms) * 99 // 100)]:.1f} ms, max {worst:.1f} ms "
        f"(seed {q.seed}, action {q.action}, {len(q.hand)} tiles); "
        f"load average {load_before:.2f} before, {os.getloadavg()[0]:.2f} after"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
