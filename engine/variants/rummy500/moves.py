"""The moves of Rummy 500: verify and apply, one pair per action kind.

Draw, take (the top card or a deeper one), meld, lay off and discard replace the
shared moves of :mod:`engine.moves`; calling "Rommé!" is the variant's own action.
The joker swap and the next deal are the shared ones. Each ``verify_*`` raises an
:class:`engine.errors.IllegalMove` subclass and changes nothing; each ``apply_*``
assumes a verified action.

The turn, in rummy-500.de.txt's words:

- draw: "Sie müssen entweder die oberste Karte vom Nachziehstapel aufnehmen ... oder
  eine oder mehrere Karten vom Ablagestapel aufnehmen" — a deeper card only when "Sie
  spielen die Karte sofort" and "Sie nehmen auch alle Karten oberhalb". A take and the
  meld of its card are one move: the take is refused when the card could not be played,
  and the turn cannot end (no discard, no move that makes it unplayable) while it is
  still in the hand (:class:`engine.variants.rummy500.state.TurnExtra`).
- meld and lay off, on anyone's meld; the laid-off card is the layer's.
- discard: "Wenn Sie nur die oberste Karte vom Ablagestapel gezogen haben, müssen Sie
  eine andere Karte ablegen. Wenn Sie jedoch mehr als eine Karte vom Ablagestapel
  gezogen haben, dann können Sie ... die Karte, die zuvor als oberste auf dem Stapel lag,
  wieder ablegen." After the discard the call window opens (:mod:`.calls`).
- the hand ends when "ein Spieler keine Karten mehr auf der Hand hat" or "Im
  Nachziehstapel keine Karten mehr sind und der Spieler, der an der Reihe ist, keine
  Karte vom Ablagestapel aufnehmen möchte" (a draw from the empty stock).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.actions import Discard, Draw, LayOff, MeldCards, TakeDiscard
from engine.cards import Card
from engine.errors import (
    CannotDiscardTaken,
    FinalDiscardRequired,
    InvalidLayOff,
    InvalidMeld,
    NoDiscardLeft,
    NoSuchMeld,
    NothingToDraw,
)
from engine.events import Discarded, Drew, LaidOff, Melded, TookDiscard, WentOut
from engine.frozen import replace
from engine.melds import Meld, MeldRules, extend_readings
from engine.moves import EXPECTED, Result, meld_readings, next_turn, remove_cards
from engine.moves import require_phase as shared_require_phase
from engine.options import RuleSet
from engine.state import GameState, Phase, TurnState
from engine.variants.rummy500.errors import (
    LastCardCallable,
    MustPlayPileCard,
    NotInPile,
    PileCardBlocked,
    PileCardNeedsNewMeld,
    PileCardNoNewMeld,
    PileCardUnplayable,
    PlayableLastCard,
)
from engine.variants.rummy500.events import Floated, PileTaken, as_events
from engine.variants.rummy500.melds import one_reading
from engine.variants.rummy500.pile import can_play, layoff_readings, topmost_index
from engine.variants.rummy500.scoring import end_hand
from engine.variants.rummy500.state import CallWindow, GameExtra, TurnExtra

_EXPECTED = {**EXPECTED, Phase.DRAW: "draw a card or take from the discard pile first"}
"""What each phase expects, in Rummy 500's words (the pile is taken, not one upcard)."""


def require_phase(state: GameState, phase: Phase, action: str) -> None:
    """Raise ``WrongPhase`` (saying what is expected now) unless the state is in ``phase``."""
    shared_require_phase(state, phase, action, _EXPECTED)


def meld_rules(state: GameState) -> MeldRules:
    """The variant's meld rules for this game."""
    return state.rules.var.meld_rules(state.rules)


def game_extra(state: GameState) -> GameExtra:
    """The variant's game record (an empty one before the first deal)."""
    return state.extra if isinstance(state.extra, GameExtra) else GameExtra()


def obligation(state: GameState) -> TurnExtra | None:
    """The card the seat to play took from the pile and must still play, if any."""
    extra = state.turn.extra
    return extra if isinstance(extra, TurnExtra) else None


def keep_one(state: GameState) -> bool:
    """``going_out=discard``: "muss der Spieler, der alle Karten auslegt, eine Karte auf der
    Hand behalten, so dass er diese Karte am Ende seines Spielzugs auf den Ablagestapel
    legen kann"."""
    return state.rules.text("going_out") == "discard"


def floats(state: GameState) -> bool:
    """``going_out=float``, ``unplayable`` or ``callable``: melding the last card makes the
    player float ("Bei dieser Variante dürfen Sie alle Ihre Karten melden, aber ... endet
    das Spiel nicht, sondern geht für die anderen Spieler am Tisch weiter, während Sie
    schweben")."""
    return state.rules.text("going_out") in ("float", "unplayable", "callable")


def last_card_called(state: GameState, card: Card, seat: int) -> bool:
    """``going_out=callable``: a last card discarded that could have been laid off opens a
    call window on it instead of ending the hand ("In einer alternativen Variante wird so
    gespielt, dass jeder andere Spieler "Rommé!" rufen und die von Ihnen auf den
    Ablagestapel gelegte Karte melden kann. In diesem Fall werden Sie zu einem
    "Schwebenden""). Not without calls (``calling=off``): then nobody may call it and the
    discard goes out."""
    return (
        state.rules.text("going_out") == "callable"
        and state.rules.text("calling") != "off"
        and bool(layoff_readings(card, state.melds, seat, meld_rules(state)))
    )


def out_window(state: GameState) -> CallWindow | None:
    """The open call window on a last card (:func:`last_card_called`), if any."""
    window = game_extra(state).call_window
    return window if window is not None and window.out else None


def close_window(state: GameState) -> GameState:
    """The state with the call window closed (the next player drew or took, or a call)."""
    if game_extra(state).call_window is None:
        return state
    return replace(state, extra=_CLOSED)


def _set(flags: tuple[bool, ...], seat: int) -> tuple[bool, ...]:
    return tuple(True if i == seat else f for i, f in enumerate(flags))


# --- draw -----------------------------------------------------------------------------------


def verify_draw(state: GameState, action: Draw) -> None:
    """Drawing is legal at the start of a turn; from an empty stock it ends the hand."""
    require_phase(state, Phase.DRAW, "draw")


def apply_draw(state: GameState, action: Draw) -> Result:
    """Draw the top card of the stock; an empty stock ends the hand with nobody out ("Wenn
    ... keine Karten mehr im Stapel verdeckter Karten sind, wenn jemand eine Karte ziehen
    möchte, dann ist das Spiel zu Ende"). While a last card may be called
    (:func:`out_window`) the draw closes the window uncalled instead: the discarder has
    gone out and the hand ends ("Wenn ein Spieler ... seine letzte Karte auf den
    Ablagestapel legt, ist das Spiel sofort beendet")."""
    window = out_window(state)
    if window is not None:
        state, more = end_hand(close_window(state), window.discarder)
        return state, as_events([WentOut(window.discarder, False), *more])
    if not state.stock:
        return end_hand(close_window(state), None)
    seat = action.seat
    # one copy: the card to the hand and the call window closed together
    extra = _CLOSED if game_extra(state).call_window is not None else state.extra
    state = replace(
        state,
        hands=state.hands_with(seat, (*state.hands[seat], state.stock[0])),
        stock=state.stock[1:],
        phase=Phase.PLAY,
        extra=extra,
    )
    return state, (Drew(seat),)


#: The match record with no call window (immutable: one shared instance).
_CLOSED = GameExtra(None)


# --- take from the discard pile -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TakePlan:
    """A verified take: ``index`` of the bottom card taken, the ``cards`` taken (bottom
    first), the card that must be played (``None``: no obligation) and the ``taken``
    top card that may not be discarded this turn (``None`` after a deep take)."""

    index: int
    cards: tuple[Card, ...]
    must_play: TurnExtra | None
    taken: Card | None


def plan_take(state: GameState, action: TakeDiscard) -> TakePlan:
    """Check a take of the top card (``take``) or of a deeper card (``take 7h``: that card
    and every card above it, the topmost such card in the pile).

    An obligation to play the bottom card arises for a deep take, for every take with
    ``take_must_meld`` or ``take_new_meld`` (rummy-500.de.txt: "Wenn Sie Karten vom
    Ablagestapel aufnehmen, muss die unterste Karte, die Sie aufnehmen, in einer neuen
    Auslage aus drei oder mehr Karten verwendet werden": the bottom card of a take of the
    top card alone is that card), and when the hand holds nothing but copies of the top
    card (a floater's take): "Da es nicht regelgerecht ist, nur die oberste Karte vom
    Ablagestapel aufzunehmen und diese sofort wieder abzulegen". The take is refused
    when that card could not be played this turn.
    """
    require_phase(state, Phase.DRAW, "take")
    window = out_window(state)
    if window is not None and window.card is not None:
        raise LastCardCallable(player=state.players[window.discarder], card=str(window.card))
    pile = state.discard
    if not pile:
        raise NothingToDraw()
    top = pile[-1]
    seat = action.seat
    hand = state.hands[seat]
    if action.card is None or action.card == top:
        index = len(pile) - 1
    else:
        found = topmost_index(pile, action.card, below_top=True)
        if found is None:
            raise NotInPile(card=str(action.card))
        index = found
    cards = pile[index:]
    taken = top if len(cards) == 1 else None
    rules = state.rules
    obliged = len(cards) > 1 or top_card_owed(rules) or all(c == top for c in hand)
    if not obliged:
        return TakePlan(index, cards, None, taken)
    card = pile[index]
    new_meld = rules.flag("take_new_meld")
    if not can_play(
        card,
        (*hand, *cards),
        state.melds,
        meld_rules(state),
        seat,
        new_meld_only=new_meld,
        keep_one=keep_one(state),
        taken=taken,
    ):
        if new_meld:
            raise PileCardNoNewMeld(card=str(card))
        raise PileCardUnplayable(card=str(card))
    return TakePlan(index, cards, TurnExtra(card, new_meld), taken)


def top_card_owed(rules: RuleSet) -> bool:
    """Whether the top card taken alone must be played this turn: with
    ``take_must_meld`` ("Diese Regel gilt auch dann, wenn Sie nur die oberste Karte vom
    Ablagestapel aufnehmen") and with ``take_new_meld`` (the bottom card of every take
    goes into a new meld)."""
    return rules.flag("take_must_meld") or rules.flag("take_new_meld")


def verify_take(state: GameState, action: TakeDiscard) -> None:
    """See :func:`plan_take`."""
    plan_take(state, action)


def apply_take(state: GameState, action: TakeDiscard) -> Result:
    """Move the cards to the hand; the call window closes."""
    plan = plan_take(state, action)
    seat = action.seat
    state = close_window(state)
    hand = (*state.hands[seat], *plan.cards)
    state = replace(
        state,
        hands=state.hands_with(seat, hand),
        discard=state.discard[: plan.index],
        phase=Phase.PLAY,
        turn=replace(state.turn, taken=plan.taken, extra=plan.must_play),
    )
    if len(plan.cards) == 1:
        return state, (TookDiscard(seat, plan.cards[0]),)
    return state, as_events([PileTaken(seat, plan.cards[0], plan.cards)])


# --- meld and lay off -----------------------------------------------------------------------


def check_left(state: GameState, left: Sequence[Card]) -> None:
    """What a meld or lay-off may leave in the hand: a card to discard when a final discard
    is required (``going_out=discard``), and not only copies of the top card taken this
    turn (it may not be discarded)."""
    if not left and keep_one(state):
        raise FinalDiscardRequired()
    taken = state.turn.taken
    if taken is not None and left and all(c == taken for c in left):
        raise NoDiscardLeft(card=str(taken))


def pays_owed(owed: TurnExtra, used: Sequence[Card], as_meld: bool) -> bool:
    """True when a move putting ``used`` on the table (``as_meld``: in a new meld) plays
    the card owed from the pile as ``owed`` asks: in a new meld when only a new meld
    counts (``owed.new_meld``), else in a meld or a lay-off."""
    return owed.must_play in used and (as_meld or not owed.new_meld)


def obligation_after(
    state: GameState,
    seat: int,
    used: Sequence[Card],
    left: Sequence[Card],
    melds: Sequence[Meld],
    as_meld: bool,
) -> TurnExtra | None:
    """The obligation after a move that puts ``used`` on the table (``as_meld``: in a new
    meld), leaving ``left`` and ``melds``: ``None`` once the card is played, else the same
    obligation, provided the card can still be played. Raises ``PileCardNeedsNewMeld``
    or ``PileCardBlocked`` for a move that would leave it unplayable."""
    owed = obligation(state)
    if owed is None or pays_owed(owed, used, as_meld):
        return None
    card = owed.must_play
    if can_play(
        card,
        left,
        melds,
        meld_rules(state),
        seat,
        new_meld_only=owed.new_meld,
        keep_one=keep_one(state),
        taken=state.turn.taken,
    ):
        return owed
    if card in used:
        raise PileCardNeedsNewMeld(card=str(card))
    raise PileCardBlocked(card=str(card))


@dataclass(frozen=True, slots=True)
class PlayPlan:
    """A verified meld or lay-off: the table after it, the hand left and the obligation."""

    melds: tuple[Meld, ...]
    left: tuple[Card, ...]
    owed: TurnExtra | None
    new: tuple[Meld, ...] = ()


def plan_meld(state: GameState, action: MeldCards) -> PlayPlan:
    """Each group must be one valid meld (a joker's face declared when several readings
    fit: rummy-500.de.txt "Wenn ein Spieler einen Joker auslegt, muss er ansagen, für
    welchen Wert der Joker steht"); any number of melds per turn."""
    require_phase(state, Phase.PLAY, "meld")
    if not action.groups or any(not g for g in action.groups):
        raise InvalidMeld(cards="", reason="no cards named", reason_code="too_few")
    rules = meld_rules(state)
    seat = action.seat
    used = [s.card for g in action.groups for s in g]
    left = remove_cards(state.hands[seat], used)
    new: list[Meld] = []
    for group in action.groups:
        found = meld_readings(group, seat, rules)
        new.append(one_reading(found, group))
    check_left(state, left)
    melds = (*state.melds, *new)
    owed = obligation_after(state, seat, used, left, melds, as_meld=True)
    return PlayPlan(melds, left, owed, tuple(new))


def verify_meld(state: GameState, action: MeldCards) -> None:
    """See :func:`plan_meld`."""
    plan_meld(state, action)


def apply_meld(state: GameState, action: MeldCards) -> Result:
    """Put the melds on the table; an empty hand goes out or floats."""
    plan = plan_meld(state, action)
    seat = action.seat
    first = len(state.melds)
    events: list[object] = []
    for offset, meld in enumerate(plan.new):
        events.append(Melded(seat, first + offset, meld))
    played = sum(len(m.cards) for m in plan.new)
    state = replace(
        state,
        hands=state.hands_with(seat, plan.left),
        melds=plan.melds,
        has_melded=_set(state.has_melded, seat),
        has_played=_set(state.has_played, seat),
        turn=replace(
            state.turn,
            melds=state.turn.melds + len(plan.new),
            played=state.turn.played + played,
            extra=plan.owed,
        ),
    )
    return after_play(state, seat, events)


def plan_layoff(state: GameState, action: LayOff) -> PlayPlan:
    """The cards must extend meld ``action.meld`` (anyone's) to a valid meld; when a card
    fits several melds the player names the one ("muss der Spieler, der anlegt, sich
    entscheiden, welche Meldung er erweitert")."""
    require_phase(state, Phase.PLAY, "lay off")
    if not 0 <= action.meld < len(state.melds):
        raise NoSuchMeld(number=action.meld + 1)
    seat = action.seat
    used = [s.card for s in action.cards]
    left = remove_cards(state.hands[seat], used)
    if not action.cards:
        raise InvalidLayOff(cards="", number=action.meld + 1, reason="no cards named")
    found = extend_readings(state.melds[action.meld], action.cards, seat, meld_rules(state))
    if not found:
        raise InvalidLayOff(
            cards=" ".join(map(str, action.cards)),
            number=action.meld + 1,
            reason="the meld would not stay a valid set or run",
        )
    meld = one_reading(found, action.cards)
    check_left(state, left)
    melds = list(state.melds)
    melds[action.meld] = meld
    owed = obligation_after(state, seat, used, left, melds, as_meld=False)
    return PlayPlan(tuple(melds), left, owed)


def verify_layoff(state: GameState, action: LayOff) -> None:
    """See :func:`plan_layoff`."""
    plan_layoff(state, action)


def apply_layoff(state: GameState, action: LayOff) -> Result:
    """Extend the meld; the laid-off cards are the layer's. An empty hand goes out or
    floats."""
    plan = plan_layoff(state, action)
    seat = action.seat
    state = replace(
        state,
        hands=state.hands_with(seat, plan.left),
        melds=plan.melds,
        has_played=_set(state.has_played, seat),
        turn=replace(state.turn, played=state.turn.played + len(action.cards), extra=plan.owed),
    )
    event = LaidOff(seat, action.meld, tuple(s.card for s in action.cards), plan.melds[action.meld])
    return after_play(state, seat, [event])


# --- discard, going out, floating -----------------------------------------------------------


def verify_discard(state: GameState, action: Discard) -> None:
    """A card of the hand, not the top card taken alone this turn, not while the card taken
    from the pile is unplayed, and with ``going_out=unplayable`` a last card only when it
    cannot be laid off ("Wenn Ihre letzte Karte bei dieser Variante spielbar ist, dann
    müssen Sie diese, anstatt sie auf den Ablagestapel zu legen ..., melden und zu einem
    Schwebenden werden")."""
    require_phase(state, Phase.PLAY, "discard")
    seat = action.seat
    left = remove_cards(state.hands[seat], [action.card])
    if state.turn.taken is not None and action.card == state.turn.taken:
        raise CannotDiscardTaken(card=str(action.card))
    owed = obligation(state)
    if owed is not None:
        raise MustPlayPileCard(card=str(owed.must_play))
    if (
        not left
        and state.rules.text("going_out") == "unplayable"
        and layoff_readings(action.card, state.melds, seat, meld_rules(state))
    ):
        raise PlayableLastCard(card=str(action.card))
    # going_out=callable: the last card may be discarded whatever it is; see apply_discard


def apply_discard(state: GameState, action: Discard) -> Result:
    """Discard; the last card goes out at once (no call after the hand: "Wenn ein Spieler
    alle seine Karten auslegt oder seine letzte Karte auf den Ablagestapel legt, ist das
    Spiel sofort beendet"), else the turn passes left and the call window opens. With
    ``going_out=callable`` a last card that could have been laid off opens the window on
    it (:func:`last_card_called`): the hand ends only when nobody calls it."""
    seat = action.seat
    left = remove_cards(state.hands[seat], [action.card])
    hands = state.hands_with(seat, left)
    discard = (*state.discard, action.card)
    events: list[object] = [Discarded(seat, action.card)]
    if not left and last_card_called(state, action.card, seat):
        return pass_turn(state, seat, action.card, events, hands=hands, discard=discard, out=True)
    if not left:
        events.append(WentOut(seat, False))
        state, more = end_hand(replace(state, hands=hands, discard=discard), seat)
        return state, as_events([*events, *more])
    return pass_turn(state, seat, action.card, events, hands=hands, discard=discard)


def after_play(state: GameState, seat: int, events: list[object]) -> Result:
    """After a meld or lay-off: an empty hand goes out ("Falls sie es geschafft haben, alle
    Karten Ihres Blattes auszulegen, ist das Spiel zu Ende") or, with floating, passes the
    turn while the player floats."""
    if state.hands[seat]:
        return state, as_events(events)
    if floats(state):
        events.append(Floated(seat))
        return pass_turn(state, seat, None, events)
    events.append(WentOut(seat, False))
    state, more = end_hand(state, seat)
    return state, as_events([*events, *more])


def pass_turn(
    state: GameState,
    seat: int,
    card: Card | None,
    events: list[object],
    out: bool = False,
    **changes: object,
) -> Result:
    """The turn passes to the left and the call window opens for the other seats (with
    ``calling=last_layoff`` only after a discard; never with ``calling=off``); ``out``: on
    the discarder's last card (:func:`last_card_called`). ``changes``: more fields of the
    state changed in the same copy (a discard's hand and pile)."""
    nxt = state.next_seat(seat)
    mode = state.rules.text("calling")
    open_window = mode == "any" or (mode == "last_layoff" and card is not None)
    state = next_turn(
        state,
        nxt,
        _NEW_TURN[not state.has_played[nxt]],
        extra=GameExtra(CallWindow(seat, card, out)) if open_window else _CLOSED,
        **changes,
    )
    return state, as_events(events)


#: The turn records a turn starts with, by ``fresh`` (immutable: shared).
_NEW_TURN = {fresh: TurnState(fresh=fresh) for fresh in (False, True)}
