"""The discard pile of Rummy 500: finding a card in it, whether a card taken from it can
be played this turn, and which cards may be called ("Rommé!").

Readings chosen (README): a card "playable without more cards from a hand" (rummy-500.de.txt:
"Karten enthält, die ohne weitere Karten von einem der Spieler ausgelegbar sind") is a
card that can be laid off directly on a meld on the table, or that makes a new meld
together with cards lying above it in the pile (those are taken along). Chains (a card
that fits only after another pile card has been laid off) do not count.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.candidates import MeldReach, candidate_melds, candidate_melds_with, may_meld_with
from engine.cards import Card
from engine.melds import CardSpec, Meld, MeldRules, extend_readings, layoff_index
from engine.moves import Leftover


def topmost_index(pile: Sequence[Card], card: Card, below_top: bool = False) -> int | None:
    """The index (0 = bottom) of the topmost ``card`` in ``pile``; with ``below_top`` the
    top card itself is not searched. ``None`` when it is not there."""
    last = len(pile) - (2 if below_top else 1)
    for index in range(last, -1, -1):
        if pile[index] == card:
            return index
    return None


def layoff_readings(
    card: Card, melds: Sequence[Meld], seat: int, rules: MeldRules
) -> list[tuple[int, list[Meld]]]:
    """Every meld ``card`` can be laid off on: (meld index, the readings after it); only
    the melds whose open ends take the card are tried (:class:`engine.melds.LayoffIndex`)."""
    out: list[tuple[int, list[Meld]]] = []
    for index in layoff_index(melds, rules).targets(card):
        found = extend_readings(melds[index], (CardSpec(card),), seat, rules)
        if found:
            out.append((index, found))
    return out


def melds_with(card: Card, cards: Sequence[Card], rules: MeldRules) -> list[tuple[CardSpec, ...]]:
    """Every single meld of :func:`engine.candidates.candidate_melds` over ``cards`` that
    holds ``card`` (only cards of its rank or suit, and jokers, can share a meld)."""
    if not may_meld_with(card, cards, rules):
        return []
    if not card.is_joker:
        return candidate_melds_with(card, cards, rules)
    return [g for g in candidate_melds(cards, rules) if any(s.card == card for s in g)]


def can_play(
    card: Card,
    hand: Sequence[Card],
    melds: Sequence[Meld],
    rules: MeldRules,
    seat: int,
    *,
    new_meld_only: bool = False,
    keep_one: bool = False,
    taken: Card | None = None,
) -> bool:
    """True when ``card`` (in ``hand``) can be played in one move now: in a new meld from
    ``hand``, or (unless ``new_meld_only``) laid off on one of ``melds``, leaving a hand
    the turn can go on with: with a final discard required (``keep_one``) a card must
    stay, and not only copies of the card ``taken`` from the top of the pile, which may not
    be discarded this turn."""
    left = Leftover(hand, taken, keep_one)  # a group of melds_with is part of the hand
    for group in melds_with(card, hand, rules):
        if left.ok_group(group):
            return True
    if new_meld_only:
        return False
    return left.ok(1, 1 if card != taken else 0) and bool(layoff_readings(card, melds, seat, rules))


def callable_indices(
    pile: Sequence[Card], melds: Sequence[Meld], rules: MeldRules, seat: int
) -> list[int]:
    """Indices of the pile cards that may be called, top first: the card can be laid off
    on the table, or makes a new meld with cards above it in the pile."""
    out: list[int] = []
    # the cards from the top down to ``index``, counted once they are enough for a meld
    reach: MeldReach | None = None
    where = layoff_index(melds, rules)
    size = len(pile)
    for index in range(size - 1, -1, -1):
        card = pile[index]
        if reach is not None:
            reach.add(card)
        elif size - index >= rules.min_cards:
            reach = MeldReach(pile[index:], rules)
        if (where.targets(card) and layoff_readings(card, melds, seat, rules)) or (
            reach is not None and reach.may_meld(card) and melds_with(card, pile[index:], rules)
        ):
            out.append(index)
    return out
