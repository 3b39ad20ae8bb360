"""What every seat sees of a Rummy 500 deal beyond the shared table (``PublicView.extra``).

A module of its own, not a method body of the variant class: the compiled build
(README "Compiled engine") compiles this module but not the variant classes, and the
record is built for every view, so for every action of a simulation.
"""

from __future__ import annotations

from engine.state import GameState, Phase
from engine.variants.rummy500.state import GameExtra, PublicExtra, TurnExtra
from engine.variants.rummy500.values import melded_points


def public_extra(state: GameState) -> PublicExtra:
    """The call window, who may call (every seat but the discarder while it is open), the
    card the seat to play owes, the floaters and each seat's melded points this deal
    (rummy-500.de.txt: "Da alle ausgelegten Karten dem Spieler Punkte bringen, der sie
    ausgelegt hat")."""
    extra = state.extra
    phase = state.phase
    playing = phase is Phase.DRAW or phase is Phase.PLAY
    window = extra.call_window if playing and isinstance(extra, GameExtra) else None
    owed = state.turn.extra
    hands = state.hands
    # positional, in field order
    return PublicExtra(
        state.rules.text("calling"),
        window,
        ()
        if window is None
        else (*range(window.discarder), *range(window.discarder + 1, len(hands))),
        owed.must_play if playing and isinstance(owed, TurnExtra) else None,
        tuple(
            s
            for s, hand in enumerate(hands)
            if not hand and not (window is not None and window.out and s == window.discarder)
        )
        if playing and not all(hands)
        else (),
        melded_points(state.rules, state.melds, len(hands)),
    )
