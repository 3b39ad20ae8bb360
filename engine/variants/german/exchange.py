"""Joker exchange (Jokeraustausch), german-romme.de.txt: "Wenn ein Spieler bereits seine erste
Figur/en (Erstmeldung) in einem vorherigen Spielzug melden konnte, kann er einen Joker in
einer gemeldeten Figur irgend eines Spielers durch die zutreffende natürliche Karte
austauschen, sofern er mit dem ausgetauschten Joker sogleich eine Figur auslegen kann. Ein
ausgetauschter Joker darf also nicht für spätere Spielzüge in sein Blatt eingegliedert
werden, sondern muss sofort mit einer Figur ausgelegt werden."

So the exchange is one move, :class:`ExchangeJoker`: the natural card replaces the joker,
and the freed joker goes into a new meld with cards from the hand
(``exchange 8h 3 | jk 9h 10h``). House rule ``set_swap_four``: "Ein Joker in einem
gemeldeten Drilling darf nur ausgetauscht werden, wenn er beide fehlenden Karten der selben
Ranghöhe ergänzt werden, also nach dem Tausch ein Vierling ohne Joker da liegt." — a joker
in a set is exchanged only for all the set's missing cards at once; every joker of the set
is freed and goes into the new meld.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.cards import CARD_SUITS, Card, sort_cards
from engine.errors import (
    AmbiguousJoker,
    FinalDiscardRequired,
    InvalidMeld,
    NoDiscardLeft,
    NoSuchMeld,
)
from engine.events import Melded
from engine.frozen import replace
from engine.melds import Meld, MeldKind, MeldProblem, Placed, check_meld, joker_swap_target
from engine.moves import remove_cards
from engine.state import GameState
from engine.variants.german.actions import ExchangeJoker
from engine.variants.german.errors import (
    ExchangeNeedsFour,
    ExchangeNoJoker,
    FreedJokerNotMelded,
    NotOpenedYet,
)
from engine.variants.german.events import JokerExchanged
from engine.variants.german.melds import meld_rules
from engine.variants.german.moves import may_play_on_table, normal_play
from engine.variants.german.state import turn_extra, with_flag

Result = tuple[GameState, tuple[Any, ...]]


@dataclass(frozen=True, slots=True)
class _Plan:
    table_meld: Meld
    new_meld: Meld
    left: tuple[Card, ...]
    freed: int


def missing_cards(meld: Meld) -> tuple[Card, ...]:
    """The natural cards a set lacks to be a four of all suits (house rule
    ``set_swap_four``)."""
    have = {p.card.suit for p in meld.cards if not p.card.is_joker}
    return tuple(Card(meld.rank, s) for s in CARD_SUITS if s not in have)


def exchange_target(
    meld: Meld, cards: tuple[Card, ...], seat: int, number: int, four: bool
) -> tuple[tuple[Placed, ...], int]:
    """The cards of ``meld`` after ``seat`` exchanges ``cards`` for its joker(s), and how many
    jokers that frees; ``four``: the house rule ``set_swap_four``. Raises
    :class:`ExchangeNoJoker` / :class:`ExchangeNeedsFour` (``number``: the 1-based meld)."""
    shown = " ".join(map(str, cards)) or "-"
    if four and meld.kind is MeldKind.SET and any(p.card.is_joker for p in meld.cards):
        want = missing_cards(meld)
        if sort_cards(cards) != sort_cards(want):
            raise ExchangeNeedsFour(number=number, cards=" ".join(map(str, want)))
        naturals = [p for p in meld.cards if not p.card.is_joker]
        placed = naturals + [Placed(c, c, seat) for c in cards]
        placed.sort(key=lambda p: p.face.sort_key)
        return tuple(placed), len(meld.cards) - len(naturals)
    if len(cards) != 1 or cards[0].is_joker:
        raise ExchangeNoJoker(card=shown, number=number)
    index = joker_swap_target(meld, cards[0])
    if index < 0:
        raise ExchangeNoJoker(card=shown, number=number)
    placed_list = list(meld.cards)
    placed_list[index] = Placed(cards[0], cards[0], seat)
    return tuple(placed_list), 1


def cards_from_hand(action: ExchangeJoker, freed: int) -> list[Card]:
    """The cards an exchange takes from the hand: the natural card(s) that replace the
    joker(s) and the new meld's cards but the ``freed`` joker(s) from the table."""
    out = list(action.cards)
    skipped = 0
    for spec in action.group:
        if spec.card.is_joker and skipped < freed:
            skipped += 1
        else:
            out.append(spec.card)
    return out


def _plan(state: GameState, action: ExchangeJoker) -> _Plan:
    normal_play(state, "exchange")
    seat = action.seat
    if not may_play_on_table(state, seat):
        raise NotOpenedYet()
    if not 0 <= action.meld < len(state.melds):
        raise NoSuchMeld(number=action.meld + 1)
    meld = state.melds[action.meld]
    placed, freed = exchange_target(
        meld, action.cards, seat, action.meld + 1, state.rules.flag("set_swap_four")
    )
    group_jokers = sum(1 for s in action.group if s.card.is_joker)
    if group_jokers < freed:
        raise FreedJokerNotMelded(jokers=freed)
    left = remove_cards(state.hands[seat], cards_from_hand(action, freed))
    rules = meld_rules(state.rules)
    try:
        found = check_meld(action.group, seat, rules)
    except MeldProblem as problem:
        raise InvalidMeld(
            cards=" ".join(map(str, action.group)),
            reason=problem.detail,
            reason_code=problem.reason,
        ) from None
    if len(found) > 1:
        raise AmbiguousJoker(
            readings=" | ".join(str(m) for m in found), options=[str(m) for m in found]
        )
    if not left:
        raise FinalDiscardRequired()
    taken = state.turn.taken
    if taken is not None and all(c == taken for c in left):
        raise NoDiscardLeft(card=str(taken))
    return _Plan(replace(meld, cards=placed), found[0], left, freed)


def verify_exchange(state: GameState, action: ExchangeJoker) -> None:
    """An exchange needs the first meld in an earlier turn (or this turn with
    ``open_turn_play``), a joker standing for the card, and a valid new meld holding the
    freed joker(s) and cards from the hand; one card stays for the discard."""
    _plan(state, action)


def apply_exchange(state: GameState, action: ExchangeJoker) -> Result:
    """Replace the joker(s), put the new meld down; no hand rummy after an exchange."""
    plan = _plan(state, action)
    seat = action.seat
    melds = list(state.melds)
    melds[action.meld] = plan.table_meld
    melds.append(plan.new_meld)
    played = len(action.cards) + len(action.group) - plan.freed
    turn = state.turn
    state = replace(
        state,
        hands=state.hands_with(seat, plan.left),
        melds=tuple(melds),
        has_played=with_flag(state.has_played, seat),
        turn=replace(
            turn,
            melds=turn.melds + 1,
            played=turn.played + played,
            extra=replace(turn_extra(state), exchanged=True),
        ),
    )
    return state, (
        JokerExchanged(seat, action.meld, action.cards, plan.table_meld, plan.freed),
        Melded(seat, len(melds) - 1, plan.new_meld),
    )
