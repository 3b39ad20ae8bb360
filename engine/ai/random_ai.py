"""The baseline: a player that picks uniformly at random among the legal actions."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import Action
from engine.ai.base import require_legal
from engine.views import PlayerView


class RandomPlayer:
    """Chooses uniformly among ``legal`` with its own ``random.Random(seed)``.

    This is "random play", the baseline that benchmarks compare other players
    against; it does nothing else (it may meld, lay off, swap or discard,
    whatever the draw of the dice says).
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def interrupt(self, view: PlayerView, legal: Sequence[Action]) -> Action | None:
        """Never: random play acts only in turn (it would call at random otherwise)."""
        return None

    def decide(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """A uniformly random element of ``legal``; raises ``NoLegalAction`` when empty."""
        require_legal(view, legal)
        return legal[self.rng.randrange(len(legal))]
