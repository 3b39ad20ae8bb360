"""House rule ``closing_layoffs``: "Hat ein Spieler eine Runde beendet, dürfen die Spieler der
Reihe nach eine oder mehrere Karten an (alle) Figuren ergänzen, bevor abgerechnet wird."

After the winner's last discard, each player who has made a first meld and still holds
cards moves once more, from the winner's left: any number of lay-offs on any meld (even
the last card: there is no discard now), then ``done``. Then the deal is scored.
"""

from __future__ import annotations

from typing import Any

from engine.actions import LayOff
from engine.errors import AmbiguousJoker, InvalidLayOff, NoSuchMeld
from engine.events import LaidOff
from engine.frozen import replace
from engine.melds import Meld, extend_readings
from engine.moves import remove_cards, require_phase
from engine.state import GameState, Phase
from engine.variants.german.actions import EndLayOffs
from engine.variants.german.ending import score_hand
from engine.variants.german.errors import NotClosing, NotOpenedYet
from engine.variants.german.events import LayOffsDone
from engine.variants.german.melds import meld_rules
from engine.variants.german.state import game_extra

Result = tuple[GameState, tuple[Any, ...]]


def _plan(state: GameState, action: LayOff) -> tuple[Meld, tuple[Any, ...]]:
    seat = action.seat
    if not state.has_melded[seat]:
        raise NotOpenedYet()
    if not 0 <= action.meld < len(state.melds):
        raise NoSuchMeld(number=action.meld + 1)
    meld = state.melds[action.meld]
    left = remove_cards(state.hands[seat], [s.card for s in action.cards])
    if not action.cards:
        raise InvalidLayOff(cards="", number=action.meld + 1, reason="no cards named")
    found = extend_readings(meld, action.cards, seat, meld_rules(state.rules))
    if not found:
        raise InvalidLayOff(
            cards=" ".join(map(str, action.cards)),
            number=action.meld + 1,
            reason="the meld would not stay a valid set or run",
        )
    if len(found) > 1:
        raise AmbiguousJoker(
            readings=" | ".join(str(m) for m in found), options=[str(m) for m in found]
        )
    return found[0], left


def verify_closing_layoff(state: GameState, action: LayOff) -> None:
    """A lay-off of the closing round: the seat has melded, the meld stays valid."""
    _plan(state, action)


def apply_closing_layoff(state: GameState, action: LayOff) -> Result:
    """Lay off; a seat with no card left is done at once."""
    meld, left = _plan(state, action)
    melds = list(state.melds)
    melds[action.meld] = meld
    state = replace(state, hands=state.hands_with(action.seat, left), melds=tuple(melds))
    event = LaidOff(action.seat, action.meld, tuple(s.card for s in action.cards), meld)
    if left:
        return state, (event,)
    return _advance(state, [event])


def verify_done(state: GameState, action: EndLayOffs) -> None:
    """``done`` only in the closing round, by the seat to move."""
    require_phase(state, Phase.PLAY, "done")
    if game_extra(state).closing is None:
        raise NotClosing()


def apply_done(state: GameState, action: EndLayOffs) -> Result:
    """The next seat of the closing round moves, or the deal is scored."""
    return _advance(state, [LayOffsDone(action.seat)])


def _advance(state: GameState, events: list[Any]) -> Result:
    extra = game_extra(state)
    closing = extra.closing
    assert closing is not None
    queue = closing.queue[1:]
    if not queue:
        return score_hand(state, closing.winner, closing.rummy, events)
    extra = replace(extra, closing=replace(closing, queue=queue))
    return replace(state, extra=extra, current=queue[0]), tuple(events)
