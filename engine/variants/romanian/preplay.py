"""The pre-play step: doubla and the face-up announcement, before the first discard.

romanian-rummy.de.txt: "Bevor das eigentliche Spiel beginnt, kann ein Spieler, der
zwei gleiche Steine (von derselben Farbe und mit der gleichen Zahl) hat, „doubla“
ansagen. Zwei Spieler, die Doublas haben, können – wenn sie wollen – diese tauschen.
Jeder Spieler gibt sein Paar gleicher Steine verdeckt dem anderen Spieler. Die
Spieler dürfen keine genauen Angaben zu Rang und Farbe des Paares machen, das sie
tauschen möchten – sie dürfen nur (wenn sie es wollen) ihre Doublas als „hoch“ oder
„niedrig“ ansagen." and "Wenn man den gleichen Stein wie den aufgedeckten Extrastein
bekommen hat, kann man das vor seinem ersten Spiel ansagen, und dann bekommt man am
Ende des Spiels eine Prämie von 25 Punkten."

The step (a reading of how the table takes turns at it): each player in play order,
from the first player, may announce a doubla (once), offer one doubla swap to a
player who announced a doubla before, announce the face-up tile's twin, and then
says ``ready``. An offer passes the turn to the partner, who accepts (naming the pair
given back, face down) or declines; then the offerer continues. Each player takes
part in one swap at most and offers once. When everybody is ready, the first player
discards. ``low`` is a pair of 1..7, ``high`` a pair of 8..13. A seat that has not
announced the face-up twin may still do so at the start of its own first turn
(:func:`may_announce`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TypeVar

from engine.cards import SORT_KEY, Card
from engine.errors import CommandError
from engine.frozen import replace
from engine.moves import Result, remove_cards
from engine.state import GameState, Phase
from engine.variants.romanian.actions import (
    AnnounceDoubla,
    AnnounceFaceUp,
    AnswerDoubla,
    OfferDoubla,
    Ready,
)
from engine.variants.romanian.errors import (
    AnnounceTooLate,
    DoublaAgain,
    HintMismatch,
    NoDoubla,
    NoDoublaHint,
    NoOffer,
    NoPair,
    NoTwin,
    OfferNotAllowed,
    OfferPending,
    PrePlayOver,
)
from engine.variants.romanian.events import (
    DoublaAnnounced,
    DoublaAnswered,
    DoublaOffered,
    FaceUpAnnounced,
    PlayBegins,
    PlayerReady,
    as_events,
)
from engine.variants.romanian.flow import extra_of, first_turn, with_extra
from engine.variants.romanian.state import Offer, PrePlay
from engine.verbs import find_player

_T = TypeVar("_T")


def hint_of(tile: Card) -> str:
    """``"low"`` for a pair of 1..7, ``"high"`` for 8..13."""
    return "low" if tile.rank <= 7 else "high"


def pairs(hand: tuple[Card, ...]) -> list[Card]:
    """The tiles the hand holds twice (Jolys are no doubla: they have no number)."""
    counts = Counter(hand)
    return sorted((c for c, n in counts.items() if n >= 2 and not c.is_joker), key=SORT_KEY)


def _preplay(state: GameState) -> PrePlay:
    pre = extra_of(state).preplay if state.phase in (Phase.DRAW, Phase.PLAY) else None
    if pre is None:
        raise PrePlayOver()
    return pre


def _free(state: GameState) -> PrePlay:
    """The pre-play step when no offer awaits an answer."""
    pre = _preplay(state)
    if pre.offer is not None:
        raise OfferPending(player=state.players[pre.offer.seat])
    return pre


def _pair_tile(state: GameState, seat: int, tile: Card, hint: str | None) -> None:
    if tile not in pairs(state.hands[seat]):
        raise NoPair(tile=str(tile))
    if hint and hint_of(tile) != hint:
        raise HintMismatch(tile=str(tile), hint=hint)


def _set(values: tuple[_T, ...], seat: int, value: _T) -> tuple[_T, ...]:
    return tuple(value if i == seat else v for i, v in enumerate(values))


def verify_doubla(state: GameState, action: AnnounceDoubla) -> None:
    """A doubla is announced once, by a player holding a pair (that fits its hint)."""
    pre = _free(state)
    if pre.hints[action.seat] is not None:
        raise DoublaAgain()
    held = pairs(state.hands[action.seat])
    if not held:
        raise NoDoubla()
    if action.hint and not any(hint_of(t) == action.hint for t in held):
        raise NoDoublaHint(hint=action.hint)


def apply_doubla(state: GameState, action: AnnounceDoubla) -> Result:
    """Record the announcement (only the hint is public)."""
    pre = _preplay(state)
    hints = _set(pre.hints, action.seat, action.hint)
    state = with_extra(state, preplay=replace(pre, hints=hints))
    return state, as_events([DoublaAnnounced(action.seat, action.hint)])


def _partner(state: GameState, action: OfferDoubla) -> int:
    try:
        return find_player(action.partner, state.players)
    except CommandError:
        raise OfferNotAllowed(player=action.partner) from None


def verify_offer(state: GameState, action: OfferDoubla) -> None:
    """Both players announced a doubla, neither swapped, the offerer offers once, and the
    offered tile is a pair of the offerer's (fitting its hint)."""
    pre = _free(state)
    partner = _partner(state, action)
    seat = action.seat
    if (
        partner == seat
        or pre.hints[seat] is None
        or pre.hints[partner] is None
        or pre.swapped[seat]
        or pre.swapped[partner]
        or pre.offered[seat]
    ):
        raise OfferNotAllowed(player=state.players[partner])
    _pair_tile(state, seat, action.tile, pre.hints[seat])


def apply_offer(state: GameState, action: OfferDoubla) -> Result:
    """The turn of the step passes to the partner, who answers."""
    pre = _preplay(state)
    partner = _partner(state, action)
    offered = _set(pre.offered, action.seat, True)
    pre = replace(pre, offered=offered, offer=Offer(action.seat, partner, action.tile))
    state = replace(with_extra(state, preplay=pre), current=partner)
    return state, as_events([DoublaOffered(action.seat, partner)])


def verify_answer(state: GameState, action: AnswerDoubla) -> None:
    """Only the partner of a pending offer answers; accepting names a pair of its own."""
    pre = _preplay(state)
    if pre.offer is None or pre.offer.partner != action.seat:
        raise NoOffer()
    if action.tile is not None:
        _pair_tile(state, action.seat, action.tile, pre.hints[action.seat])


def apply_answer(state: GameState, action: AnswerDoubla) -> Result:
    """Swap the pairs face down (or not) and give the step back to the offerer."""
    pre = _preplay(state)
    offer = pre.offer
    assert offer is not None
    accepted = action.tile is not None
    if action.tile is not None:
        mine = remove_cards(state.hands[offer.seat], [offer.tile, offer.tile])
        theirs = remove_cards(state.hands[offer.partner], [action.tile, action.tile])
        state = state.with_hand(offer.seat, (*mine, action.tile, action.tile))
        state = state.with_hand(offer.partner, (*theirs, offer.tile, offer.tile))
        swapped = _set(_set(pre.swapped, offer.seat, True), offer.partner, True)
        pre = replace(pre, swapped=swapped)
    pre = replace(pre, offer=None)
    state = replace(with_extra(state, preplay=pre), current=offer.seat)
    return state, as_events([DoublaAnswered(offer.seat, offer.partner, accepted)])


def may_announce(state: GameState, seat: int) -> bool:
    """Whether ``seat`` may still announce the face-up tile's twin by the clock of play:
    "kann man das vor seinem ersten Spiel ansagen". Reading (docs/readings.md): "Spiel" is
    the seat's first turn, not its first meld ("beim Geben bekommt": before that turn the
    rack holds the tiles dealt, and no tile drawn since). In the pre-play step, and after
    it in the seat's first turn before it draws or takes (the first player: before the
    opening discard)."""
    if state.phase is not Phase.DRAW and state.phase is not Phase.PLAY:
        return False
    extra = extra_of(state)
    if extra.preplay is not None:
        return True
    if seat != state.current or seat >= len(extra.played) or extra.played[seat]:
        return False
    return state.phase is Phase.DRAW or first_turn(state)


def verify_announce(state: GameState, action: AnnounceFaceUp) -> None:
    """The seat holds the face-up tile's twin, has not announced it yet and its first turn
    has not begun (:func:`may_announce`)."""
    if extra_of(state).preplay is not None or state.phase not in (Phase.DRAW, Phase.PLAY):
        _free(state)
    elif not may_announce(state, action.seat):
        raise AnnounceTooLate()
    extra = extra_of(state)
    tile = extra.face_up
    if tile is None or extra.announced[action.seat] or tile not in state.hands[action.seat]:
        raise NoTwin(tile=str(tile) if tile is not None else "-")


def apply_announce(state: GameState, action: AnnounceFaceUp) -> Result:
    """Remember the announcement (+25 at the end of the game)."""
    extra = extra_of(state)
    announced = _set(extra.announced, action.seat, True)
    state = with_extra(state, announced=announced)
    assert extra.face_up is not None
    return state, as_events([FaceUpAnnounced(action.seat, extra.face_up)])


def verify_ready(state: GameState, action: Ready) -> None:
    """Any seat whose turn of the step it is may finish."""
    _free(state)


def apply_ready(state: GameState, action: Ready) -> Result:
    """The next player not yet ready continues; when all are, the first player discards."""
    pre = _preplay(state)
    ready = _set(pre.ready, action.seat, True)
    pre = replace(pre, ready=ready)
    events: list[object] = [PlayerReady(action.seat)]
    seat = action.seat
    for _ in range(state.seats):
        seat = state.next_seat(seat)
        if not pre.ready[seat]:
            return replace(with_extra(state, preplay=pre), current=seat), as_events(events)
    first = state.next_seat(state.dealer)
    state = replace(with_extra(state, preplay=None), current=first, phase=Phase.PLAY)
    events.append(PlayBegins(first))
    return state, as_events(events)


def late_announcement(state: GameState, seat: int) -> list[object]:
    """The announcement of the face-up twin that ``seat`` may still make after the pre-play
    step (:func:`may_announce`), as a list of at most one action."""
    extra = extra_of(state)
    if (
        extra.preplay is not None
        or extra.face_up is None
        or extra.announced[seat]
        or not may_announce(state, seat)
        or extra.face_up not in state.hands[seat]
    ):
        return []
    return [AnnounceFaceUp(seat)]


def preplay_actions(state: GameState, seat: int) -> list[object]:
    """The pre-play moves ``seat`` may make now (empty when it is not its turn)."""
    pre = extra_of(state).preplay
    if pre is None or seat != state.current:
        return []
    if pre.offer is not None:
        out: list[object] = [AnswerDoubla(seat, None)]
        hint = pre.hints[seat]
        out += [
            AnswerDoubla(seat, t)
            for t in pairs(state.hands[seat])
            if not hint or hint_of(t) == hint
        ]
        return out
    out = []
    held = pairs(state.hands[seat])
    if held and pre.hints[seat] is None:
        out.append(AnnounceDoubla(seat, ""))
        out += [AnnounceDoubla(seat, h) for h in sorted({hint_of(t) for t in held})]
    out += _offers(state, seat, held)
    extra = extra_of(state)
    if (
        extra.face_up is not None
        and not extra.announced[seat]
        and extra.face_up in state.hands[seat]
    ):
        out.append(AnnounceFaceUp(seat))
    out.append(Ready(seat))
    return out


def _offers(state: GameState, seat: int, held: Sequence[Card]) -> list[object]:
    """The Doubla offers ``seat`` may make: it announced and has neither swapped nor
    offered, to each other seat that announced and has not swapped, a pair of its hint."""
    pre = extra_of(state).preplay
    assert pre is not None
    hint = pre.hints[seat]
    if hint is None or pre.swapped[seat] or pre.offered[seat]:
        return []
    out: list[object] = []
    for partner in range(state.seats):
        if partner != seat and pre.hints[partner] is not None and not pre.swapped[partner]:
            out += [
                OfferDoubla(seat, t, state.players[partner])
                for t in held
                if not hint or hint_of(t) == hint
            ]
    return out
