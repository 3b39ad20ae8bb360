"""Text forms of cards, melds, card lists and scores, shared by every renderer.

Cards use their display form (``7♥``, ``Q♠``, ``🃏``); a joker on the table
shows what it stands for: ``🃏(9♥)``. Scores are :class:`fractions.Fraction`
(Block Rummy splits ties); halves, thirds and quarters are shown with a
vulgar-fraction sign (``12½``), other fractions with two decimals.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction

from bot.i18n import notation
from engine.cards import Card, sort_cards
from engine.melds import CardSpec, Meld, Placed

__all__ = [
    "card_text",
    "cards_text",
    "hand_by_suit",
    "meld_text",
    "placed_text",
    "points_text",
    "signed_points_text",
    "spec_text",
]

_VULGAR: dict[Fraction, str] = {
    Fraction(1, 2): "½",
    Fraction(1, 3): "⅓",
    Fraction(2, 3): "⅔",
    Fraction(1, 4): "¼",
    Fraction(3, 4): "¾",
}


def card_text(card: Card) -> str:
    """``7♥``, ``10♦``, ``Q♠`` (German ``D♠``), ``🃏``, tiles ``🔴7``, in the current
    language (:func:`bot.i18n.notation.card_text`)."""
    return notation.card_text(card)


def cards_text(cards: Iterable[Card]) -> str:
    """Cards in the given order, space separated; ``—`` for none."""
    text = " ".join(card_text(c) for c in cards)
    return text or "—"


def placed_text(placed: Placed) -> str:
    """A card on the table; a joker shows its face: ``🃏(9♥)`` (``🃏(9)`` in a set of nines)."""
    if placed.card.is_joker:
        return f"{card_text(placed.card)}({notation.face_text(placed.face)})"
    return card_text(placed.card)


def spec_text(spec: CardSpec) -> str:
    """A card named in an action or a hint; a declared joker as ``🃏(9♥)``."""
    if spec.card.is_joker and spec.face is not None:
        return f"{card_text(spec.card)}({notation.face_text(spec.face)})"
    return card_text(spec.card)


def meld_text(meld: Meld) -> str:
    """The cards of a meld in table order: ``7♥ 8♥ 🃏(9♥)``."""
    return " ".join(placed_text(p) for p in meld.cards)


def hand_by_rank(cards: Iterable[Card]) -> str:
    """A hand sorted by rank (then suit), two spaces between ranks, jokers last."""
    ordered = sorted(sort_cards(cards), key=lambda c: (c.is_joker, c.rank, c.sort_key))
    return _spaced(ordered, lambda c: "joker" if c.is_joker else c.rank)


def hand_by_suit(cards: Iterable[Card]) -> str:
    """A hand sorted by suit and rank, two spaces between suits, jokers last."""
    return _spaced(sort_cards(cards), lambda c: "joker" if c.is_joker else c.suit)


def _spaced(ordered: Iterable[Card], key: Callable[[Card], object]) -> str:
    """The cards in the given order, two spaces where ``key`` changes; "—" for none."""
    groups: list[list[str]] = []
    last: object = None
    for card in ordered:
        if not groups or key(card) != last:
            groups.append([])
            last = key(card)
        groups[-1].append(card_text(card))
    return "  ".join(" ".join(g) for g in groups) or "—"


def points_text(value: Fraction | int) -> str:
    """A score: ``12``, ``12½``, ``-3⅓``, ``7.20`` (other fractions, two decimals)."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    sign = "-" if value < 0 else ""
    magnitude = abs(value)
    whole = magnitude.numerator // magnitude.denominator
    rest = magnitude - whole
    if rest in _VULGAR:
        return f"{sign}{whole if whole else ''}{_VULGAR[rest]}"
    return f"{sign}{float(magnitude):.2f}"


def signed_points_text(value: Fraction | int) -> str:
    """A deal score with its sign: ``+35``, ``0``, ``-12½``."""
    text = points_text(value)
    return f"+{text}" if value > 0 else text
