"""Automatic players: :func:`make_ai` builds one by kind.

Kinds: ``"expert"`` (:class:`engine.ai.expert.ExpertPlayer`, the hard player's draws and
discards checked by playouts on determinised deals), ``"greedy"``
(:class:`engine.ai.greedy.GreedyPlayer`, deadwood-minimising),
``"hard"`` (:class:`engine.ai.hard.HardPlayer`, the greedy player racing to go out:
discards by live outs among the unseen cards) and ``"random"``
(:class:`engine.ai.random_ai.RandomPlayer`, the baseline).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.ai.base import NoLegalAction, Player, UnknownAI
from engine.ai.expert import ExpertPlayer
from engine.ai.greedy import GreedyPlayer
from engine.ai.hard import HardPlayer
from engine.ai.random_ai import RandomPlayer

__all__ = [
    "KINDS",
    "ExpertPlayer",
    "GreedyPlayer",
    "HardPlayer",
    "NoLegalAction",
    "Player",
    "RandomPlayer",
    "UnknownAI",
    "make_ai",
]

_FACTORIES: dict[str, Callable[[int | None], Player]] = {
    "greedy": GreedyPlayer,
    "hard": HardPlayer,
    "random": RandomPlayer,
    "expert": ExpertPlayer,
}

KINDS: tuple[str, ...] = tuple(_FACTORIES)


def make_ai(kind: str = "greedy", seed: int | None = None) -> Player:
    """A new AI player of ``kind`` (``"greedy"``, ``"hard"``, ``"random"`` or
    ``"expert"``) with its own
    ``seed``.

    Raises :class:`engine.ai.base.UnknownAI` for any other kind.
    """
    factory = _FACTORIES.get(kind.strip().lower())
    if factory is None:
        raise UnknownAI(kind, KINDS)
    return factory(seed)
