"""The greedy and the hard player's choices side by side over whole games (shared by the
hard AI tests)."""

from __future__ import annotations

from engine.actions import Action, MeldCards
from engine.ai import HardPlayer
from engine.ai.greedy import GreedyPlayer
from engine.dealing import new_game
from engine.game import apply, can, legal_actions
from engine.rules import make_rules
from engine.state import GameState, Phase
from engine.views import view_for


def decisions(variant: str, games: int) -> list[tuple[GameState, Action, Action]]:
    """(state, greedy choice, hard choice) at every decision of two-player games of
    ``variant`` played by greedy players (up to 300 actions each). Every hard choice is
    in the legal list, or is a first meld of several melds at once, one move the list
    names meld by meld (German Rommé), which the rules accept."""
    rules = make_rules(variant)
    out = []
    for seed in range(games):
        state = new_game(rules, ["ana", "ben"], seed=seed)
        for _ in range(300):
            if state.phase not in (Phase.DRAW, Phase.PLAY):
                break
            seat = state.current
            view, legal = view_for(state, seat), legal_actions(state, seat)
            greedy = GreedyPlayer(seed).decide(view, legal)
            hard = HardPlayer(seed).decide(view, legal)
            assert hard in legal or (
                isinstance(hard, MeldCards) and len(hard.groups) > 1 and can(state, hard)
            )
            out.append((state, greedy, hard))
            state, _ = apply(state, greedy)
    return out
