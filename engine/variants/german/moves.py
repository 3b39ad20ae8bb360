"""The turn of German Rommé: verify/apply for draw, meld, lay off, discard, take back, the
plain swap (refused) and the next deal. Each ``verify_*`` raises an IllegalMove and changes
nothing; each ``apply_*`` assumes a verified action.

Rule sentences (german-romme.de.txt):
- "Der Spieler an der Reihe hat die Wahl entweder die oberste aufgedeckte Karte des
  Abwurfstapels oder aber die oberste verdeckte Karte des Talons in sein Blatt aufzunehmen."
- First meld: "wenn die Punktsumme der gemeldeten Karten zusammen 40 (30) oder mehr Punkte
  beträgt oder in einem früheren Spielzug diese Bedingung (Erstmeldung) bereits erfüllt
  hat". Melds of a turn are summed; while the sum is below the minimum they are
  *provisional*: the turn cannot end with a discard (``OpeningTooLow``) unless the discard
  goes out with hand rummy ("Die Mindestpunktzahl für die Erstmeldung kommt bei Rummy gehen
  nicht zur Anwendung"), and ``takeback`` returns them to the hand.
- "Er muss eine Karte aus seinem Blatt offen auf den Abwurfstapel abwerfen, um seinen
  Spielzug zu beenden." Going out: "Er wirft eine Karte verdeckt auf den Abwurfstapel ab und
  hat alle restlichen Karten ... in Figuren gemeldet oder an bestehende ergänzt".
- "Ist der Talon aufgebraucht ..., wird der Abwurfstapel mit Ausnahme der obersten
  (sichtbaren) Karte neu gemischt und dient nun als Talon."
"""

from __future__ import annotations

import functools
from itertools import chain
from typing import Any

from engine.actions import Discard, Draw, LayOff, MeldCards, NextDeal, SwapJoker
from engine.cards import Card
from engine.dealing import DealSpec, deal_key, start_deal
from engine.errors import CannotDiscardTaken
from engine.events import Discarded, WentOut
from engine.frozen import replace
from engine.melds import Meld
from engine.moves import apply_draw as shared_apply_draw
from engine.moves import apply_layoff as shared_apply_layoff
from engine.moves import apply_meld as shared_apply_meld
from engine.moves import next_turn, remove_cards, renewable, require_phase
from engine.moves import verify_draw as shared_verify_draw
from engine.moves import verify_layoff as shared_verify_layoff
from engine.moves import verify_meld as shared_verify_meld
from engine.moves import verify_next as shared_verify_next
from engine.options import RuleSet
from engine.search import any_layoff
from engine.state import GameState, Phase, TurnState
from engine.variants.german.actions import TakeBack
from engine.variants.german.chips import pay, stakes
from engine.variants.german.closing import apply_closing_layoff, verify_closing_layoff
from engine.variants.german.dealing import deal_cards
from engine.variants.german.ending import finish_out, score_hand
from engine.variants.german.errors import (
    BuyBackPending,
    ClosingLayOffsOnly,
    DealerDiscardsFirst,
    ExchangeNeedsMeld,
    NoRummyFirstTurn,
    NothingToTakeBack,
    NotOpenedYet,
    OneLayOffPerTurn,
    OpeningTooLow,
)
from engine.variants.german.events import (
    ChipsMoved,
    DealBlocked,
    JokerStolen,
    OpeningProgress,
    OpeningWithdrawn,
)
from engine.variants.german.state import (
    GermanTurn,
    active_seats,
    game_extra,
    next_active,
    turn_extra,
    with_flag,
)
from engine.variants.german.values import melds_value

Result = tuple[GameState, tuple[Any, ...]]


# --- helpers ----------------------------------------------------------------------------------


def opening_needed(state: GameState) -> int:
    """Points a first meld needs: ``opening`` (+1 with ``opening_exceed``: "es benötigt also
    41 Punkte, 40 Punkte reichen nicht"); at least 51 when two players hold 14 or 15 cards
    ("bei 2 Spielern 14 oder 15 Karten und die zu erreichende Punktzahl für eine
    Erstmeldung beträgt 51 oder mehr Punkte")."""
    needed, more_cards = _opening_terms(state.rules)
    if more_cards and len(active_seats(state)) == 2:
        needed = max(needed, 51)
    return needed


@functools.lru_cache(maxsize=64)
def _opening_terms(rules: RuleSet) -> tuple[int, bool]:
    """``opening`` (+1 with ``opening_exceed``) and whether two players get more than 13
    cards (read per rule set once: every view and move list asks)."""
    needed = (rules.number("opening") or 0) + (1 if rules.flag("opening_exceed") else 0)
    return needed, (rules.number("two_player_cards") or 13) > 13


def may_play_on_table(state: GameState, seat: int) -> bool:
    """Lay-offs and joker exchanges need the first meld in an earlier turn ("Wenn er bereits
    seine erste Figur(en) in einem vorherigen Spielzug melden konnte"), or in this turn with
    the house rule ``open_turn_play``."""
    if not state.has_melded[seat]:
        return False
    return not turn_extra(state).opened_now or state.rules.flag("open_turn_play")


def is_rummy(state: GameState) -> bool:
    """Going out now is hand rummy: nothing melded or laid off in earlier turns, and no
    lay-off or exchange this turn ("Rummy gehen bedeutet in jedem Fall, alle seine Karten
    auf einmal zu melden ... ohne vorherige Meldung oder Ergänzung von Figuren und ohne
    Jokeraustausch")."""
    turn = turn_extra(state)
    return state.turn.fresh and not turn.laid_off and not turn.exchanged


def normal_play(state: GameState, action: str) -> None:
    """The checks of every move in the play phase of a normal turn."""
    require_phase(state, Phase.PLAY, action)
    extra = game_extra(state)
    if extra.buyback:
        raise BuyBackPending()
    if extra.closing is not None:
        raise ClosingLayOffsOnly()
    if turn_extra(state).dealer_discard and action != "discard":
        raise DealerDiscardsFirst()


def _with_turn(state: GameState, turn: GermanTurn) -> GameState:
    return replace(state, turn=replace(state.turn, extra=turn))


# --- draw ---------------------------------------------------------------------------------------


def verify_draw(state: GameState, action: Draw) -> None:
    """Draw at the start of a turn."""
    shared_verify_draw(state, action)


def apply_draw(state: GameState, action: Draw) -> Result:
    """Draw; an empty stock is renewed from the discard pile but its top card. When even
    that is impossible (the pile holds one card) the deal ends with nobody out."""
    if not state.stock and renewable(state) <= 0:
        return score_hand(state, None, False, [])
    return shared_apply_draw(state, action)


# --- meld / take back ---------------------------------------------------------------------------


def verify_meld(state: GameState, action: MeldCards) -> None:
    """New melds: valid groups of cards in hand, one card kept for the final discard. With
    ``no_rummy_first_turn`` a first-turn meld may not leave the one card whose discard
    would be hand rummy (that turn could not end)."""
    normal_play(state, "meld")
    shared_verify_meld(state, action)
    used = sum(len(g) for g in action.groups)
    if (
        state.rules.flag("no_rummy_first_turn")
        and turn_extra(state).first
        and is_rummy(state)
        and len(state.hands[action.seat]) - used == 1
    ):
        raise NoRummyFirstTurn()


def apply_meld(state: GameState, action: MeldCards) -> Result:
    """Put the melds down. Before the first meld stands, they count towards it
    (:class:`OpeningProgress`) and stay provisional until the minimum is reached."""
    seat = action.seat
    opened = state.has_melded[seat]
    start = len(state.melds)
    new, events = shared_apply_meld(state, action)
    if opened:
        return new, events
    turn = turn_extra(state)
    total = turn.total + melds_value(state.rules, new.melds[start:])
    needed = opening_needed(state)
    reached = total >= needed
    if reached:
        turn = replace(turn, total=total, provisional=0, opened_now=True)
    else:
        turn = replace(turn, total=total, provisional=turn.provisional + len(action.groups))
        new = replace(new, has_melded=state.has_melded, has_played=state.has_played)
    progress = OpeningProgress(seat, total, needed, reached, len(new.hands[seat]))
    return _with_turn(new, turn), (*events, progress)


def verify_takeback(state: GameState, action: TakeBack) -> None:
    """Only melds of an unfinished first meld (this turn) can be taken back."""
    normal_play(state, "take back")
    if not turn_extra(state).provisional:
        raise NothingToTakeBack()


def apply_takeback(state: GameState, action: TakeBack) -> Result:
    """The provisional melds (the last ones on the table) go back to the hand."""
    turn = turn_extra(state)
    count = turn.provisional
    removed = state.melds[-count:]
    cards = tuple(p.card for m in removed for p in m.cards)
    hand = (*state.hands[action.seat], *cards)
    base = replace(
        state.turn,
        melds=state.turn.melds - count,
        played=state.turn.played - len(cards),
        extra=replace(turn, provisional=0, total=0),
    )
    state = replace(
        state, hands=state.hands_with(action.seat, hand), melds=state.melds[:-count], turn=base
    )
    return state, (OpeningWithdrawn(action.seat, cards, count),)


# --- lay off ------------------------------------------------------------------------------------


def verify_layoff(state: GameState, action: LayOff) -> None:
    """ "Ergänzen: Wenn er bereits seine erste Figur(en) in einem vorherigen Spielzug melden
    konnte, darf er eine oder mehrere Karten an seinen oder vom Gegner gemeldeten Figuren
    ergänzen". House rule ``one_layoff``: one card per turn."""
    if game_extra(state).closing is not None and state.phase is Phase.PLAY:
        verify_closing_layoff(state, action)
        return
    normal_play(state, "lay off")
    if not may_play_on_table(state, action.seat):
        raise NotOpenedYet()
    if state.rules.flag("one_layoff") and turn_extra(state).laid_off + len(action.cards) > 1:
        raise OneLayOffPerTurn()
    shared_verify_layoff(state, action)


def apply_layoff(state: GameState, action: LayOff) -> Result:
    """Extend the meld; the turn remembers how many cards were laid off."""
    if game_extra(state).closing is not None:
        return apply_closing_layoff(state, action)
    turn = turn_extra(state)
    new, events = shared_apply_layoff(state, action)
    return _with_turn(new, replace(turn, laid_off=turn.laid_off + len(action.cards))), events


# --- the plain swap ---------------------------------------------------------------------------


def verify_swap(state: GameState, action: SwapJoker) -> None:
    """Refused: "Ein ausgetauschter Joker darf also nicht für spätere Spielzüge in sein Blatt
    eingegliedert werden, sondern muss sofort mit einer Figur ausgelegt werden." (the
    ``exchange`` verb does both in one move)."""
    normal_play(state, "swap")
    raise ExchangeNeedsMeld()


def apply_swap(state: GameState, action: SwapJoker) -> Result:
    """Never applied (see :func:`verify_swap`)."""
    raise ExchangeNeedsMeld()


# --- discard ------------------------------------------------------------------------------------


def verify_discard(state: GameState, action: Discard) -> None:
    """End the turn with a discard (not the card just taken from the pile). While the first
    meld of this turn is below the minimum only a discard that goes out (hand rummy) is
    allowed. House rule ``no_rummy_first_turn``: no hand rummy in the first turn."""
    normal_play(state, "discard")
    left = remove_cards(state.hands[action.seat], [action.card])
    if state.turn.taken is not None and action.card == state.turn.taken:
        raise CannotDiscardTaken(card=str(action.card))
    turn = turn_extra(state)
    if not left:
        if state.rules.flag("no_rummy_first_turn") and turn.first and is_rummy(state):
            raise NoRummyFirstTurn()
        return
    if turn.provisional:
        raise OpeningTooLow(total=turn.total, needed=opening_needed(state))


def apply_discard(state: GameState, action: Discard) -> Result:
    """Discard; the last card goes out (hand rummy when :func:`is_rummy`). Otherwise the
    next player still in the match moves."""
    seat = action.seat
    left = remove_cards(state.hands[seat], [action.card])
    turn = turn_extra(state)
    hands = state.hands_with(seat, left)
    discard = (*state.discard, action.card)
    events: list[Any] = [Discarded(seat, action.card)]
    if not left:
        state = replace(state, hands=hands, discard=discard)
        rummy = is_rummy(state)
        state = replace(
            state,
            has_melded=with_flag(state.has_melded, seat),
            has_played=with_flag(state.has_played, seat),
        )
        events.append(WentOut(seat, rummy))
        return finish_out(state, seat, rummy, events)
    if len(left) <= 2 and blocked(state, hands, discard):
        events.append(DealBlocked(state.deal_number))
        return score_hand(replace(state, hands=hands, discard=discard), None, False, events)
    extra = game_extra(state)
    if not turn.dealer_discard and not extra.played[seat]:
        extra = replace(extra, played=with_flag(extra.played, seat))
    nxt = next_active(state, seat)
    starts = _NEW_TURNS[not state.has_played[nxt], not extra.played[nxt]]
    return next_turn(state, nxt, starts, hands=hands, discard=discard, extra=extra), tuple(events)


#: The turn records a turn starts with, by (fresh, first): records are immutable, so one
#: shared instance each instead of two records built per discard.
_NEW_TURNS = {
    (fresh, first): TurnState(fresh=fresh, extra=GermanTurn(first=first))
    for fresh in (False, True)
    for first in (False, True)
}


def blocked(
    state: GameState, hands: tuple[tuple[Card, ...], ...], discard: tuple[Card, ...]
) -> bool:
    """True when the deal can never end once the hands are ``hands`` and the pile
    ``discard`` (a discard's result, asked before the state is copied). The text renews
    the stock without limit, but a player holding two cards at most can neither meld
    (three cards and one kept for the discard) nor exchange a joker (the new meld needs
    two more cards); so when every player holds two cards at most and no card in play
    (hands, stock, pile) fits any meld, hands never shrink and nobody can go out."""
    active = active_seats(state)
    if any(len(hands[s]) > 2 for s in active):
        return False
    # The cards in play (hands, pile, stock) are the game's cards that are not on the
    # table (a deal from a record may hold fewer than the pack), so within a game the
    # answer depends on the table alone (not on who lays off): reused while the table is
    # the same object (random play with small hands asks after every discard). Not
    # engine.memo.reuse_last_tuple: the cards are read on a miss but are no part of the key.
    global _LAST_BLOCKED
    last = _LAST_BLOCKED
    if last is not None and last[0] is state.melds and last[1] is state.rules:
        return last[2]
    # the hands first: a card that fits ends the search, and it is often near
    cards = chain(*(hands[s] for s in active), discard, state.stock)
    stuck = not any_layoff(cards, state.melds, state.rules, state.current)
    _LAST_BLOCKED = (state.melds, state.rules, stuck)
    return stuck


_LAST_BLOCKED: tuple[tuple[Meld, ...], RuleSet, bool] | None = None


# --- next deal ----------------------------------------------------------------------------------


def verify_next(state: GameState, action: NextDeal) -> None:
    """The next deal starts once the deal is scored and the match goes on; any seat (also
    an eliminated one) may say ``next``."""
    shared_verify_next(state, action)


def apply_next(state: GameState, action: NextDeal) -> Result:
    """The next player still in the match deals; eliminated seats get no cards. Announces a
    joker kept by the cutter and, in pot play, the stakes paid by :func:`on_deal`."""
    dealer = next_active(state, state.dealer)
    number = state.deal_number + 1
    active = tuple(s in active_seats(state) for s in range(state.seats))
    key = deal_key(state, number)
    spec = deal_cards(state.rules, state.seats, dealer, key, number, active)
    new, events = start_deal(state, dealer, spec, key if isinstance(key, bytes) else None)
    more: list[Any] = list(events)
    if isinstance(spec.extra, int):
        more.append(JokerStolen(spec.extra))
    payments = stakes(new.rules, active_seats(new))
    if payments:
        extra = game_extra(new)
        more.append(ChipsMoved("stakes", tuple(payments), extra.chips, extra.pot))
    return new, tuple(more)


def on_deal(state: GameState, spec: DealSpec) -> GameState:
    """Set up a freshly dealt state: the first player left of the dealer who is still in
    (with ``dealer_extra`` and no upcard the dealer, who opens by discarding), the deal's
    records reset, the joker kept by the cutter (``spec.extra``), and in pot play the
    stakes of the remaining players paid into the pot."""
    extra = game_extra(state)
    extra = replace(
        extra,
        played=(False,) * state.seats,
        closing=None,
        buyback=(),
        stolen=spec.extra
        if isinstance(spec.extra, int) and 0 <= spec.extra < state.seats
        else None,
    )
    extra, _ = pay(extra, stakes(state.rules, active_seats(state)), "stakes")
    if state.rules.flag("dealer_extra") and spec.upcard is None:
        return replace(
            state,
            extra=extra,
            current=state.dealer,
            phase=Phase.PLAY,
            turn=TurnState(fresh=True, extra=GermanTurn(dealer_discard=True)),
        )
    first = TurnState(fresh=True, extra=GermanTurn(first=True))
    return next_turn(state, next_active(state, state.dealer), first, extra=extra)
