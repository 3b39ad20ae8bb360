"""The moves of the shared turn flow: verify and apply, one pair per action kind.

Each ``verify_*`` raises an :class:`engine.errors.IllegalMove` subclass and
changes nothing; each ``apply_*`` assumes a verified action and returns the new
state and its events. :mod:`engine.game` dispatches to them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.actions import Discard, Draw, LayOff, MeldCards, NextDeal, SwapJoker, TakeDiscard
from engine.cards import JOKER, Card, shuffled
from engine.dealing import deal_rng, reuse_key, start_deal
from engine.errors import (
    AllAtOnceRequired,
    AmbiguousJoker,
    CannotDiscardTaken,
    CardNotInHand,
    DeepTakeNotAllowed,
    FinalDiscardRequired,
    InvalidJokerSwap,
    InvalidLayOff,
    InvalidMeld,
    MeldLimit,
    MustMeldFirst,
    NoDiscardLeft,
    NoSuchMeld,
    NothingToDraw,
    WrongPhase,
)
from engine.events import (
    Discarded,
    Drew,
    Event,
    JokerSwapped,
    LaidOff,
    Melded,
    StockRenewed,
    TookDiscard,
    WentOut,
)
from engine.frozen import replace
from engine.melds import (
    CardSpec,
    Meld,
    MeldProblem,
    MeldRules,
    Placed,
    check_meld,
    extend_readings,
    joker_swap_target,
)
from engine.scoring import end_hand
from engine.state import GameState, Phase, TurnState

Result = tuple[GameState, tuple[Event, ...]]


def remove_cards(hand: Sequence[Card], cards: Sequence[Card]) -> tuple[Card, ...]:
    """``hand`` without ``cards`` (as a multiset). Raises ``CardNotInHand`` naming the first
    card that is missing."""
    left = list(hand)
    for card in cards:
        try:
            left.remove(card)
        except ValueError:
            raise CardNotInHand(card=str(card)) from None
    return tuple(left)


def meld_readings(group: Sequence[CardSpec], seat: int, rules: MeldRules) -> list[Meld]:
    """The readings of ``group`` as a meld of ``seat`` under ``rules``
    (:func:`engine.melds.check_meld`). Raises :class:`InvalidMeld` with the reason when
    there is none."""
    try:
        return check_meld(group, seat, rules)
    except MeldProblem as problem:
        raise InvalidMeld(
            cards=" ".join(map(str, group)), reason=problem.detail, reason_code=problem.reason
        ) from None


EXPECTED: Mapping[Phase, str] = {
    Phase.DRAW: "draw a card or take the upcard first",
    Phase.PLAY: "you have already drawn; meld, lay off or discard",
    Phase.HAND_OVER: "the hand is over; the next deal starts with 'next'",
    Phase.GAME_OVER: "the game is over",
}


def require_phase(
    state: GameState, phase: Phase, action: str, expected: Mapping[Phase, str] = EXPECTED
) -> None:
    """Raise ``WrongPhase`` (saying what is expected now: ``expected`` of the state's phase,
    a variant may word its own) unless the state is in ``phase``."""
    if state.phase is not phase:
        raise WrongPhase(action=action, expected=expected[state.phase], phase=state.phase.value)


# --- draw / take --------------------------------------------------------------------------


def verify_draw(state: GameState, action: Draw) -> None:
    """Draw is legal at the start of a turn. basic-rummy.de.txt: "Sie müssen beginnen,
    indem Sie eine Karte entweder von der Oberseite des Ablagestapels oder von der
    obersten Karte auf dem Ablagestapel nehmen"."""
    require_phase(state, Phase.DRAW, "draw")


def renewable(state: GameState) -> int:
    """How many discards could become a new stock now (0: the hand ends instead)."""
    mode, limit = state.rules.var.stock_end(state.rules)
    if limit is not None and state.reuses >= limit:
        return 0
    return len(state.discard) - (1 if mode == "shuffle_keep_top" else 0)


def apply_draw(state: GameState, action: Draw) -> Result:
    """Draw the top of the stock; an empty stock is first renewed from the discard pile or,
    when that is no longer allowed, ends the hand with nobody out.

    basic-rummy.de.txt: "Wenn der [Vorrat] aufgebraucht ist und der nächste Spieler den
    Ablagestapel nicht [nehmen] möchte, wird der Ablagestapel umgedreht, ohne zu mischen";
    Block Rummy: "Wenn der Vorrat aufgebraucht ist und der nächste Spieler den Ablagestapel
    nicht ablegen möchte, endet das Spiel an diesem Punkt."
    """
    events: list[Event] = []
    if not state.stock:
        if renewable(state) <= 0:
            return end_hand(state, None)
        state, event = _renew_stock(state)
        events.append(event)
    card = state.stock[0]
    hand = (*state.hands[action.seat], card)
    state = replace(
        state, hands=state.hands_with(action.seat, hand), stock=state.stock[1:], phase=Phase.PLAY
    )
    events.append(Drew(action.seat))
    return state, tuple(events)


def _renew_stock(state: GameState) -> tuple[GameState, StockRenewed]:
    mode, _ = state.rules.var.stock_end(state.rules)
    reuse = state.reuses + 1
    if mode == "turn_over":
        # Turning the face-up pile over puts its bottom card on top of the new stock.
        return replace(state, stock=state.discard, discard=(), reuses=reuse), StockRenewed(
            len(state.discard), False, reuse
        )
    keep = state.discard[-1:] if mode == "shuffle_keep_top" else ()
    pool = state.discard[:-1] if keep else state.discard
    rng = deal_rng(reuse_key(state), state.deal_number, f"reuse{reuse}")
    stock = tuple(shuffled(pool, rng))
    return replace(state, stock=stock, discard=keep, reuses=reuse), StockRenewed(
        len(stock), True, reuse
    )


def verify_take(state: GameState, action: TakeDiscard) -> None:
    """Taking the upcard is legal at the start of a turn when the discard pile has one."""
    require_phase(state, Phase.DRAW, "take")
    if not state.discard:
        raise NothingToDraw()
    upcard = state.discard[-1]
    if action.card is not None and action.card != upcard:
        raise DeepTakeNotAllowed(card=str(action.card))
    if all(c == upcard for c in state.hands[action.seat]):
        # Copies of one card never meld together, so the turn could not end with a discard.
        raise NoDiscardLeft(card=str(upcard))


def apply_take(state: GameState, action: TakeDiscard) -> Result:
    """Move the upcard to the hand and remember it (it may not be discarded this turn)."""
    card = state.discard[-1]
    hand = (*state.hands[action.seat], card)
    state = replace(
        state,
        hands=state.hands_with(action.seat, hand),
        discard=state.discard[:-1],
        phase=Phase.PLAY,
        turn=replace(state.turn, taken=card),
    )
    return state, (TookDiscard(action.seat, card),)


# --- meld / lay off / swap -----------------------------------------------------------------


class Leftover:
    """What a move may leave in a hand of ``size`` cards, from counts: the condition of
    :func:`_check_left` computed once for a move list and asked per move (the melds,
    lay-offs and swaps the legal-move lists build never leave the hand to count).
    ``final``: a card must stay for the last discard; ``taken``: the card taken from the
    pile, which may not be discarded this turn, so not only copies of it may stay.
    ``others``: the hand's cards that are not copies of ``taken``."""

    __slots__ = ("final", "others", "size", "taken")

    def __init__(self, hand: Sequence[Card], taken: Card | None, final: bool) -> None:
        self.size = len(hand)
        self.others = self.size - hand.count(taken) if taken is not None else self.size
        self.taken = taken
        self.final = final

    def ok(self, used: int, used_others: int) -> bool:
        """A move that plays ``used`` cards of the hand, ``used_others`` of them not copies
        of the taken card."""
        if used == self.size:
            return not self.final
        return self.taken is None or self.others - used_others > 0

    def ok_group(self, group: Sequence[CardSpec]) -> bool:
        """:meth:`ok` for a new meld of the hand's cards (jokers included); its cards other
        than the taken one (at most all of them) are counted only when that many would
        leave none."""
        used = len(group)
        if used < self.size and (self.taken is None or self.others > used):
            return True
        taken = self.taken
        return self.ok(used, used if taken is None else sum(1 for s in group if s.card != taken))


def _check_left(state: GameState, seat: int, left: tuple[Card, ...]) -> None:
    """Rules on what a meld or lay-off may leave in the hand."""
    var = state.rules.var
    if not left and var.final_discard_required(state.rules):
        raise FinalDiscardRequired()
    taken = state.turn.taken
    if taken is not None and left and all(c == taken for c in left):
        raise NoDiscardLeft(card=str(taken))


@dataclass(frozen=True, slots=True)
class _MeldPlan:
    melds: tuple[Meld, ...]
    left: tuple[Card, ...]


def _plan_meld(state: GameState, action: MeldCards) -> _MeldPlan:
    require_phase(state, Phase.PLAY, "meld")
    if not action.groups or any(not g for g in action.groups):
        raise InvalidMeld(cards="", reason="no cards named", reason_code="too_few")
    var = state.rules.var
    rules = var.meld_rules(state.rules)
    seat = action.seat
    left = remove_cards(state.hands[seat], [s.card for g in action.groups for s in g])
    melds = []
    for group in action.groups:
        found = meld_readings(group, seat, rules)
        if len(found) > 1:
            raise AmbiguousJoker(
                readings=" | ".join(str(m) for m in found), options=[str(m) for m in found]
            )
        melds.append(found[0])
    if var.all_at_once(state.rules, state.deal_number):
        if len(left) > 1 or state.turn.played:
            raise AllAtOnceRequired()
    else:
        limit = var.max_melds_per_turn(state.rules)
        if limit is not None and state.turn.melds + len(melds) > limit:
            raise MeldLimit(limit=limit)
    _check_left(state, seat, left)
    return _MeldPlan(tuple(melds), left)


def verify_meld(state: GameState, action: MeldCards) -> None:
    """A meld needs its cards in hand, each group exactly one valid reading, and the
    turn's limits (one meld per turn unless ``multiple_melds``; all at once in Wrotham
    deals 4-6; a final discard when required)."""
    _plan_meld(state, action)


def apply_meld(state: GameState, action: MeldCards) -> Result:
    """Put the melds on the table; going out ends the hand."""
    plan = _plan_meld(state, action)
    seat = action.seat
    events: list[Event] = []
    melds = list(state.melds)
    for meld in plan.melds:
        melds.append(meld)
        events.append(Melded(seat, len(melds) - 1, meld))
    played = sum(len(m.cards) for m in plan.melds)
    state = replace(
        state,
        hands=state.hands_with(seat, plan.left),
        melds=tuple(melds),
        has_melded=_set(state.has_melded, seat),
        has_played=_set(state.has_played, seat),
        turn=replace(
            state.turn, melds=state.turn.melds + len(plan.melds), played=state.turn.played + played
        ),
    )
    return _maybe_out(state, seat, events)


def _meld_at(state: GameState, index: int) -> Meld:
    if not 0 <= index < len(state.melds):
        raise NoSuchMeld(number=index + 1)
    return state.melds[index]


def _plan_layoff(state: GameState, action: LayOff) -> tuple[Meld, tuple[Card, ...]]:
    require_phase(state, Phase.PLAY, "lay off")
    var = state.rules.var
    seat = action.seat
    meld = _meld_at(state, action.meld)
    if var.all_at_once(state.rules, state.deal_number):
        raise AllAtOnceRequired()
    if var.layoff_needs_own_meld(state.rules) and meld.owner != seat and not state.has_melded[seat]:
        raise MustMeldFirst()
    left = remove_cards(state.hands[seat], [s.card for s in action.cards])
    cards = " ".join(map(str, action.cards))
    if not action.cards:
        raise InvalidLayOff(cards="", number=action.meld + 1, reason="no cards named")
    found = extend_readings(meld, action.cards, seat, var.meld_rules(state.rules))
    if not found:
        raise InvalidLayOff(
            cards=cards, number=action.meld + 1, reason="the meld would not stay a valid set or run"
        )
    if len(found) > 1:
        raise AmbiguousJoker(
            readings=" | ".join(str(m) for m in found), options=[str(m) for m in found]
        )
    _check_left(state, seat, left)
    return found[0], left


def verify_layoff(state: GameState, action: LayOff) -> None:
    """basic-rummy.de.txt: "Das Ablegen fügt einer Meldung bereits eine Karte oder Karten
    aus Ihrer Hand hinzu ... Die zu einer Meldung hinzugefügten Karten müssen eine andere
    gültige Meldung vornehmen." Optional: only after an own meld."""
    _plan_layoff(state, action)


def apply_layoff(state: GameState, action: LayOff) -> Result:
    """Extend the meld; the laid-off cards record their owner. Going out ends the hand."""
    new_meld, left = _plan_layoff(state, action)
    seat = action.seat
    melds = list(state.melds)
    melds[action.meld] = new_meld
    state = replace(
        state,
        hands=state.hands_with(seat, left),
        melds=tuple(melds),
        has_played=_set(state.has_played, seat),
        turn=replace(state.turn, played=state.turn.played + len(action.cards)),
    )
    event = LaidOff(seat, action.meld, tuple(s.card for s in action.cards), new_meld)
    return _maybe_out(state, seat, [event])


def _plan_swap(state: GameState, action: SwapJoker) -> tuple[Meld, int]:
    require_phase(state, Phase.PLAY, "swap")
    if not state.rules.var.joker_swap(state.rules):
        raise InvalidJokerSwap(
            reason="these rules have no joker exchange", reason_code="not_allowed"
        )
    meld = _meld_at(state, action.meld)
    remove_cards(state.hands[action.seat], [action.card])
    index = joker_swap_target(meld, action.card)
    if index < 0:
        raise InvalidJokerSwap(
            reason=f"no joker in meld {action.meld + 1} stands for {action.card}",
            reason_code="no_joker",
        )
    # The joker comes to the hand: a hand of nothing but copies of the card taken from the
    # pile could not end the turn (that card may not be discarded), as after a lay-off.
    _check_left(state, action.seat, (*remove_cards(state.hands[action.seat], [action.card]), JOKER))
    return meld, index


def verify_swap(state: GameState, action: SwapJoker) -> None:
    """Wrotham Rummy: "Ein Spieler, der die Karte hält, die ein gemeldeter Joker darstellt,
    kann während seines Zuges die echte Karte gegen den Joker eintauschen.\""""
    _plan_swap(state, action)


def apply_swap(state: GameState, action: SwapJoker) -> Result:
    """The natural card takes the joker's place; the joker goes to the hand."""
    meld, index = _plan_swap(state, action)
    seat = action.seat
    cards = list(meld.cards)
    cards[index] = Placed(action.card, action.card, seat)
    melds = list(state.melds)
    melds[action.meld] = replace(meld, cards=tuple(cards))
    hand = (*remove_cards(state.hands[seat], [action.card]), JOKER)
    state = replace(state, hands=state.hands_with(seat, hand), melds=tuple(melds))
    return state, (JokerSwapped(seat, action.meld, action.card),)


# --- discard / going out / next deal -------------------------------------------------------


def verify_discard(state: GameState, action: Discard) -> None:
    """basic-rummy.de.txt: "Am Ende deines Zuges muss eine Karte von deiner Hand abgeworfen
    ... werden. Wenn Sie Ihren Zug mit der obersten Karte des Ablagestapels begonnen haben,
    dürfen Sie diesen Zug nicht beenden, indem Sie dieselbe Karte ablegen"."""
    require_phase(state, Phase.PLAY, "discard")
    remove_cards(state.hands[action.seat], [action.card])
    if state.turn.taken is not None and action.card == state.turn.taken:
        raise CannotDiscardTaken(card=str(action.card))


def apply_discard(state: GameState, action: Discard) -> Result:
    """Discard and pass the turn to the left; discarding the last card goes out."""
    seat = action.seat
    left = remove_cards(state.hands[seat], [action.card])
    hands = state.hands_with(seat, left)
    discard = (*state.discard, action.card)
    events: list[Event] = [Discarded(seat, action.card)]
    if not left:
        return _maybe_out(replace(state, hands=hands, discard=discard), seat, events)
    nxt = state.next_seat(seat)
    turn = _FRESH_TURN if not state.has_played[nxt] else _TURN
    return next_turn(state, nxt, turn, hands=hands, discard=discard), tuple(events)


def next_turn(state: GameState, seat: int, turn: TurnState, **changes: Any) -> GameState:
    """``state`` with the turn passed to ``seat``, who begins it by drawing: the draw
    phase, the turn record ``turn`` (the one a turn starts with: ``fresh`` for a seat that
    has not played yet, a variant's own ``extra``), and ``changes`` (more fields: the hands
    and the discard pile a discard left, a variant's ``GameState.extra``) in the same copy.
    Raises ``TypeError`` for a field the state does not have."""
    return replace(state, current=seat, phase=Phase.DRAW, turn=turn, **changes)


# the turn records a turn starts with (immutable: shared instead of built per discard)
_FRESH_TURN = TurnState(fresh=True)
_TURN = TurnState(fresh=False)


def _maybe_out(state: GameState, seat: int, events: list[Event]) -> Result:
    """basic-rummy.de.txt: "Sobald jemand ausgeht, hört das Spiel auf."""
    if state.hands[seat]:
        return state, tuple(events)
    rummy = state.turn.fresh
    events.append(WentOut(seat, rummy))
    state, more = end_hand(state, seat, rummy)
    return state, (*events, *more)


def verify_next(state: GameState, action: NextDeal) -> None:
    """The next deal can start once the hand is scored and the match goes on."""
    require_phase(state, Phase.HAND_OVER, "deal")


def apply_next(state: GameState, action: NextDeal) -> Result:
    """basic-rummy.de.txt: "die Runde zum Austeilen ... dreht sich im Uhrzeigersinn"."""
    return start_deal(state, state.next_seat(state.dealer))


def _set(flags: tuple[bool, ...], seat: int) -> tuple[bool, ...]:
    return tuple(True if i == seat else f for i, f in enumerate(flags))


Handler = tuple[Callable[[GameState, Any], None], Callable[[GameState, Any], Result]]

#: Action type -> (verify, apply) of the shared flow; variants extend a copy of it.
BASE_HANDLERS: dict[type, Handler] = {
    Draw: (verify_draw, apply_draw),
    TakeDiscard: (verify_take, apply_take),
    MeldCards: (verify_meld, apply_meld),
    LayOff: (verify_layoff, apply_layoff),
    SwapJoker: (verify_swap, apply_swap),
    Discard: (verify_discard, apply_discard),
    NextDeal: (verify_next, apply_next),
}


def handler_table(replaced: Mapping[type, Handler]) -> dict[type, Handler]:
    """A variant's table: :data:`BASE_HANDLERS` with the entries of ``replaced`` put in or
    added. Variants build it once, at import (every applied move looks its handler up)."""
    return {**BASE_HANDLERS, **replaced}
