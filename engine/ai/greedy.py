"""The greedy player: the shared greedy policy (:mod:`engine.ai.greedy_core`) plus each
variant's own moves (:mod:`engine.ai.german`, :mod:`engine.ai.romanian`,
:mod:`engine.ai.rummy500`), chosen by the variant id of the view's rules.

It sees only its :class:`engine.views.PlayerView` and the legal actions, and always
returns one of those actions.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.actions import Action, NextDeal
from engine.ai.base import require_legal
from engine.ai.german import ai_move as german_move
from engine.ai.greedy_core import (
    STUCK_RANDOM_DISCARD,
    GreedyCore,
    deadwood_after_discard,
    takes_upcard,
)
from engine.ai.romanian import ai_move as romanian_move
from engine.ai.rummy500 import ai_move as rummy500_move
from engine.ai.rummy500 import call_choice
from engine.views import PlayerView

__all__ = ["STUCK_RANDOM_DISCARD", "GreedyPlayer", "deadwood_after_discard", "takes_upcard"]

Choice = Callable[[PlayerView, Sequence[Action], random.Random], Action | None]

#: Variant id -> the variant's own greedy choice in turn, or ``None`` to let the shared
#: policy decide (it sees only the view and the legal actions).
VARIANT_MOVES: dict[str, Choice] = {
    "500": rummy500_move,
    "german": german_move,
    "romanian": romanian_move,
}

#: Variant id -> the out-of-turn choice (e.g. Rummy 500's call), or ``None`` to let play go.
VARIANT_INTERRUPTS: dict[str, Callable[[PlayerView, Sequence[Action]], Action | None]] = {
    "500": call_choice,
}


class GreedyPlayer(GreedyCore):
    """The deadwood-minimising player (:mod:`engine.ai.greedy_core`) with the variants'
    own moves. Deterministic: ``seed`` drives only the deadlock breaker."""

    def interrupt(self, view: PlayerView, legal: Sequence[Action]) -> Action | None:
        """The variant's out-of-turn choice (:data:`VARIANT_INTERRUPTS`), or ``None``."""
        choose = VARIANT_INTERRUPTS.get(view.table.rules.variant)
        if not legal or choose is None:
            return None
        return choose(view, legal)

    def decide(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """One element of ``legal`` or a first meld of several of its melds
        (:mod:`engine.ai.base`); raises ``NoLegalAction`` when it is empty."""
        require_legal(view, legal)
        for action in legal:
            if isinstance(action, NextDeal):
                return action
        own = VARIANT_MOVES.get(view.table.rules.variant)
        if own is not None:
            chosen = own(view, legal, self.rng)
            if chosen is not None:
                return chosen
        return self.shared_choice(view, legal)
