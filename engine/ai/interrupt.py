"""Out-of-turn moves of AI seats: who interrupts the seat to play, and with what."""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Action
from engine.ai.base import Player
from engine.game import legal_actions
from engine.state import GameState, Phase
from engine.views import view_for


def interrupt(state: GameState, players: Sequence[Player | None], seat: int) -> Action | None:
    """The first out-of-turn action another seat's AI takes before ``seat`` acts, or
    ``None``: the seats after ``seat`` in turn order are asked (``players[s]`` is that
    seat's AI, ``None`` for a person, who is not asked) when they have legal actions while
    not the seat to play. Rummy 500: rummy-500.de.txt "kann, bevor der nächste Spieler
    eine Karte zieht, außer dem Spieler, der gerade eine Karte abgelegt hat, jeder Spieler
    "Rommé!" rufen"."""
    if state.phase not in (Phase.DRAW, Phase.PLAY):
        return None
    for step in range(1, state.seats):
        other = (seat + step) % state.seats
        player = players[other]
        if player is None:
            continue
        legal = legal_actions(state, other)
        if legal:
            chosen = player.interrupt(view_for(state, other), legal)
            if chosen is not None:
                return chosen
    return None
