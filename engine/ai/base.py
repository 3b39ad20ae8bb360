"""What an AI player is: a :class:`Player` decides one action from a view and the legal list.

An AI never sees the game state, only the :class:`engine.views.PlayerView` of
its seat (its own hand and the public table) and the legal actions of
:func:`engine.game.legal_actions`; it must return one of those actions, or a move the
list names in parts: a German Rommé first meld of several melds at once, which the list
names meld by meld (callers apply what is not in the list through the verifying
:func:`engine.game.apply`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from engine.actions import Action
from engine.errors import N_, EngineError
from engine.views import PlayerView


class Player(Protocol):
    """An automatic player. ``name`` says which kind it is (``"greedy"``, ``"random"``)."""

    name: str

    def decide(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """One element of ``legal`` (non-empty) for the seat ``view.seat``, or several of
        its German Rommé melds as one first meld (see the module docstring).

        Raises :class:`NoLegalAction` when ``legal`` is empty.
        """
        ...

    def interrupt(self, view: PlayerView, legal: Sequence[Action]) -> Action | None:
        """An action of ``legal`` to take out of turn (the seat is not the one to play;
        e.g. a call), or ``None`` to let play go on."""
        ...


class NoLegalAction(EngineError, ValueError):
    """An AI was asked to act with no legal action (the seat may not act now)."""

    code = "no_legal_action"
    template = N_("Seat {seat} has no legal action.")

    def __init__(self, seat: int) -> None:
        super().__init__(seat=seat)


class UnknownAI(EngineError, ValueError):
    """An AI kind that does not exist."""

    code = "unknown_ai"
    template = N_("Unknown AI '{kind}'; kinds: {kinds}.")

    def __init__(self, kind: str, kinds: Sequence[str]) -> None:
        super().__init__(kind=kind, kinds=", ".join(kinds))


def require_legal(view: PlayerView, legal: Sequence[Action]) -> None:
    """Raise :class:`NoLegalAction` when ``legal`` is empty."""
    if not legal:
        raise NoLegalAction(view.seat)
