"""Cards, decks and the card notation.

Notation (case-insensitive): rank ``a 2 3 4 5 6 7 8 9 10 j q k`` (``t`` for ten
is accepted) followed by a suit ``c d h s`` or one of ``♣ ♦ ♥ ♠``; ``jk`` is a
joker. Examples: ``7h``, ``10d``, ``Qs``, ``A♣``, ``jk``.

German notation is read too, in any language (:data:`NOTATIONS` has both): the ranks
``b`` (Bube), ``d`` (Dame), ``k`` (König), ``a`` (Ass) and two-letter suits ``kr``
(Kreuz ♣), ``ka`` (Karo ♦), ``he`` (Herz ♥), ``pi`` (Pik ♠): ``dhe`` is the Dame of
hearts, ``10ka``, ``bkr``, ``api``. The codes cannot be misread: the rank is the front
of a code and the suit its end; no German suit ends in an English suit letter (``r a
e i`` against ``c d h s``), and a rank letter of one language is no other rank in the
other (``b d`` are no English ranks, ``j q`` no German ones), so every code has at most
one reading (``tests/engine/test_notation.py`` checks every card and tile). Codes in the
records and action logs are always the English ones (:meth:`Card.__str__`).

Identical cards of several decks are equal and interchangeable, so hands are
multisets (tuples that may repeat a card).

Tiles (Romanian Rummy, romanian-rummy.de.txt: "Es gibt vier Farben: rot, gelb,
blau und schwarz, und in jeder Farbe gibt es zwei Steine von jeder Zahl von 1
bis 13") are cards too: ``Card(number, colour)`` with a colour member of
:class:`Suit` (``r y b k``). Tile notation puts the colour first: ``r7``,
``y13``, ``b1``, ``k5`` (k = black), or a colour word ``rot7`` / ``red7``,
``gelb13`` / ``yellow13``, ``blau1`` / ``blue1``, ``schwarz5`` / ``black5``, or
a colour symbol ``🔴7``; German colour letters ``g`` (gelb) and ``s`` (schwarz) are read
too (``r`` rot and ``b`` blau are the same in both; no letter means two colours). The
Joly is the joker card (``jo`` or ``jk``). Card and tile notation cannot be confused: a
card ends with its suit, a tile with its number.
"""

from __future__ import annotations

import copyreg
import enum
import functools
import operator
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from engine.errors import CardParseError


class Suit(enum.Enum):
    """The four card suits, in the sort order used for display (clubs first), and the four
    tile colours (red, yellow, blue, black). Iterate :data:`CARD_SUITS` or
    :data:`TILE_COLOURS`, not the enum, to get one family."""

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"
    RED = "r"
    YELLOW = "y"
    BLUE = "b"
    BLACK = "k"

    # Members are singletons compared by identity: the identity hash (in C) keeps card
    # hashing cheap (Enum's own hashes the member's name in Python, millions of times a
    # second in the move generator).
    __hash__ = object.__hash__

    @property
    def symbol(self) -> str:
        """The Unicode suit symbol, e.g. ``'♥'``."""
        return _SUIT_SYMBOL[self]

    @property
    def order(self) -> int:
        """0..3 within the family: clubs < diamonds < hearts < spades;
        red < yellow < blue < black."""
        return _SUIT_ORDER[self]

    @property
    def is_colour(self) -> bool:
        """True for a tile colour (red, yellow, blue, black)."""
        return self in _COLOUR_SET


#: The four card suits, in display order (what a deck of cards holds).
CARD_SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
#: The four tile colours, in display order (romanian-rummy.de.txt: "rot, gelb, blau und
#: schwarz").
TILE_COLOURS: tuple[Suit, ...] = (Suit.RED, Suit.YELLOW, Suit.BLUE, Suit.BLACK)
_COLOUR_SET = frozenset(TILE_COLOURS)

_SUIT_SYMBOL = {
    Suit.CLUBS: "♣",
    Suit.DIAMONDS: "♦",
    Suit.HEARTS: "♥",
    Suit.SPADES: "♠",
    Suit.RED: "🔴",
    Suit.YELLOW: "🟡",
    Suit.BLUE: "🔵",
    Suit.BLACK: "⚫",
}
_SUIT_CODE: dict[Suit | None, int] = {None: 0} | {s: i + 1 for i, s in enumerate(Suit)}
_SUIT_ORDER = {s: i for family in (CARD_SUITS, TILE_COLOURS) for i, s in enumerate(family)}
_SUIT_BY_TEXT = {s.value: s for s in CARD_SUITS} | {_SUIT_SYMBOL[s]: s for s in CARD_SUITS}
_SUIT_BY_TEXT |= {"♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES}
_COLOUR_BY_TEXT = {s.value: s for s in TILE_COLOURS}
_COLOUR_BY_TEXT |= {_SUIT_SYMBOL[s]: s for s in TILE_COLOURS}
_COLOUR_BY_TEXT |= {
    "rot": Suit.RED,
    "red": Suit.RED,
    "gelb": Suit.YELLOW,
    "yellow": Suit.YELLOW,
    "blau": Suit.BLUE,
    "blue": Suit.BLUE,
    "schwarz": Suit.BLACK,
    "black": Suit.BLACK,
}

JOKER_RANK = 0
ACE, JACK, QUEEN, KING = 1, 11, 12, 13


@dataclass(frozen=True, slots=True)
class Notation:
    """The letters of one language's card and tile codes: ``ranks`` (ace and court cards;
    numbers are written as digits), ``suits`` (code of each card suit), ``colours`` (letter
    of each tile colour) and the ``joker`` and ``joly`` codes. :func:`card_code` writes a
    card in it; :func:`parse_card` reads every language's codes."""

    ranks: dict[int, str]
    suits: dict[Suit, str]
    colours: dict[Suit, str]
    joker: str = "jk"
    joly: str = "jo"


NOTATIONS: dict[str, Notation] = {
    "en": Notation(
        ranks={1: "a", 11: "j", 12: "q", 13: "k"},
        suits={Suit.CLUBS: "c", Suit.DIAMONDS: "d", Suit.HEARTS: "h", Suit.SPADES: "s"},
        colours={Suit.RED: "r", Suit.YELLOW: "y", Suit.BLUE: "b", Suit.BLACK: "k"},
    ),
    # German: Ass, Bube, Dame, König; Kreuz, Karo, Herz, Pik; rot, gelb, blau, schwarz
    "de": Notation(
        ranks={1: "a", 11: "b", 12: "d", 13: "k"},
        suits={Suit.CLUBS: "kr", Suit.DIAMONDS: "ka", Suit.HEARTS: "he", Suit.SPADES: "pi"},
        colours={Suit.RED: "r", Suit.YELLOW: "g", Suit.BLUE: "b", Suit.BLACK: "s"},
    ),
}
"""The card and tile codes of each language (display and input only: records keep the
English codes). ``tests/engine/test_notation.py`` checks that no code of one language
means another card in the other."""

_RANK_TEXT = NOTATIONS["en"].ranks
_RANK_BY_TEXT = {"t": 10} | {
    text: rank for notation in NOTATIONS.values() for rank, text in notation.ranks.items()
}
_RANK_BY_TEXT |= {str(n): n for n in range(2, 11)}
_RANK_BY_TEXT["1"] = 1
_SUIT_BY_TEXT |= {
    text: suit for notation in NOTATIONS.values() for suit, text in notation.suits.items()
}
_COLOUR_BY_TEXT |= {
    text: colour for notation in NOTATIONS.values() for colour, text in notation.colours.items()
}
_LONG_SUITS = {text for text in _SUIT_BY_TEXT if len(text) > 1}


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card.

    ``rank`` is 1 (ace) .. 13 (king), or 0 for a joker. ``suit`` is ``None``
    for a joker; a non-joker with ``suit=None`` is a *suitless face* (only used
    as the declared identity of a joker in a set, e.g. "a nine" in 9-9-joker,
    which rummy-500.de.txt allows: "müssen Sie nicht festlegen, für welche
    Farben die Joker stehen").

    Equality and hashing use ``rank`` and ``suit`` only; the hash and the sort key are
    computed once when the card is made (cards are dict and set keys millions of times a
    second in the move generator).
    """

    rank: int
    suit: Suit | None
    # the hash from ints only, so that it is the same in every process (a card pickled to
    # an engine worker keeps it): rank << 4 | suit code (1..8, 0 for a joker), which
    # engine.candidates.holds_no_meld reads without touching the Suit enum
    _hash: int = field(init=False, repr=False, compare=False)
    _sort: tuple[int, int] = field(init=False, repr=False, compare=False)
    is_joker: bool = field(init=False, repr=False, compare=False)
    """True for a joker card (a slot, not a property: read millions of times a second)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_joker", self.rank == JOKER_RANK)
        object.__setattr__(self, "_hash", self.rank << 4 | _SUIT_CODE[self.suit])
        suit = self.suit
        object.__setattr__(
            self,
            "_sort",
            (4, self.rank)
            if self.rank == JOKER_RANK or suit is None
            else (_SUIT_ORDER[suit], self.rank),
        )

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        # rank and suit compared through the hash key (exact: rank << 4 | suit code), not
        # as two tuples: hands are searched with list.remove and ``in`` on every move
        if self is other:
            return True
        if type(other) is not Card:
            return NotImplemented
        return self._hash == other._hash

    def __str__(self) -> str:
        if self.is_joker:
            return "jk"
        if self.suit is not None and self.suit.is_colour:
            return f"{self.suit.value}{self.rank}"
        rank = _RANK_TEXT.get(self.rank, str(self.rank))
        return rank + (self.suit.value if self.suit else "")

    def __repr__(self) -> str:
        return f"Card({self})"

    def pretty(self) -> str:
        """Display form with a suit symbol and upper-case rank: ``'7♥'``, ``'Q♠'``, ``'🃏'``."""
        if self.is_joker:
            return "🃏"
        if self.suit is not None and self.suit.is_colour:
            return f"{self.suit.symbol}{self.rank}"
        rank = _RANK_TEXT.get(self.rank, str(self.rank)).upper()
        return rank + (self.suit.symbol if self.suit else "")

    @property
    def sort_key(self) -> tuple[int, int]:
        """(suit order, rank); jokers sort last."""
        return self._sort


#: ``Card.sort_key`` as a C-level getter for ``sorted(..., key=SORT_KEY)``: a lambda
#: calling the property costs two Python calls per card in every move list.
SORT_KEY: Callable[[Card], tuple[int, int]] = operator.attrgetter("_sort")


@functools.cache
def shared_card(rank: int, suit: Suit | None) -> Card:
    """The one shared instance of ``Card(rank, suit)``: cards are immutable, so the loops
    that build faces and candidate melds by the thousand share one object per card (fewer
    objects for the garbage collector to walk, equality that is often identity)."""
    return Card(rank, suit)


def _reduce_card(card: Card) -> tuple[Callable[[int, Suit | None], Card], tuple[int, Suit | None]]:
    return shared_card, (card.rank, card.suit)


# Pickled as (rank, suit) and unpickled as the shared instance: every state and every list
# of legal moves an engine worker sends back is unpickled in the bot process, which then
# held a new object per card of each (31,000 cards of 106 tiles after 15 s of four
# Romanian AI tables in the stall benchmark, walked by every full garbage collection).
copyreg.pickle(Card, _reduce_card)

JOKER = shared_card(JOKER_RANK, None)


def parse_card(text: str) -> Card:
    """Parse one card in the notation above.

    Also parses tiles (``r7``, ``rot7``, ``red7``, ``🔴7``; see the module docstring).
    Raises :class:`engine.errors.CardParseError` (code ``bad_card``) for
    anything that is not a card, e.g. ``'11h'``, ``'7x'`` or ``'r14'``.
    """
    raw = text.strip().lower()
    if raw in ("jk", "joker", "jo", "joly", "*", "🃏"):
        return JOKER
    if len(raw) < 2:
        raise CardParseError(text)
    if raw[-1] in _DIGITS:
        return _parse_tile(raw, text)
    rank_text, suit_text = raw[:-1], raw[-1]
    if raw[-2:] in _LONG_SUITS and len(raw) > 2:  # German: dhe, 10ka, bkr
        rank_text, suit_text = raw[:-2], raw[-2:]
    suit = _SUIT_BY_TEXT.get(suit_text)
    rank = _RANK_BY_TEXT.get(rank_text)
    if suit is None or rank is None:
        raise CardParseError(text)
    return shared_card(rank, suit)


_DIGITS = "0123456789"


def _parse_tile(raw: str, text: str) -> Card:
    """A tile: colour (letter, word or symbol) followed by its number 1..13."""
    head = raw.rstrip(_DIGITS)
    number = raw[len(head) :]
    colour = _COLOUR_BY_TEXT.get(head.rstrip("-"))
    if colour is None or number.startswith("0") or not 1 <= int(number) <= 13:
        raise CardParseError(text)
    return shared_card(int(number), colour)


def card_code(card: Card, language: str = "en", tiles: bool = False) -> str:
    """The code of ``card`` in ``language``'s notation (:data:`NOTATIONS`; an unknown
    language writes English): ``dhe`` / ``qh``, ``10ka`` / ``10d``, tiles ``g11`` /
    ``y11``; the joker ``jk``, or ``jo`` (the Joly) with ``tiles``; a suitless face (a
    joker's declared rank in a set) is its rank alone (``d`` / ``q``, tiles ``12``).
    :func:`parse_card` (:func:`parse_face` for a suitless face) reads every code back as
    the same card."""
    notation = NOTATIONS.get(language, NOTATIONS["en"])
    if card.is_joker:
        return notation.joly if tiles else notation.joker
    suit = card.suit
    if suit is not None and suit.is_colour:
        return f"{notation.colours[suit]}{card.rank}"
    if suit is None and (tiles or card.rank not in notation.ranks):
        return str(card.rank)
    rank = notation.ranks.get(card.rank, str(card.rank))
    return rank + (notation.suits[suit] if suit is not None else "")


def parse_face(text: str) -> Card:
    """Parse a declared joker identity: a card (``8h``) or a suitless rank (``8``, ``q``).

    A suitless number 11..13 (a tile set's Joly, ``jo=12``) is accepted too.
    Raises :class:`engine.errors.CardParseError` when it is neither.
    """
    raw = text.strip().lower()
    if raw in _RANK_BY_TEXT:
        return Card(_RANK_BY_TEXT[raw], None)
    if raw in ("11", "12", "13"):
        return Card(int(raw), None)
    card = parse_card(raw)
    if card.is_joker:
        raise CardParseError(text)
    return card


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse a whitespace-separated list (or an iterable) of cards."""
    parts = text.split() if isinstance(text, str) else list(text)
    return tuple(parse_card(p) for p in parts)


def format_cards(cards: Iterable[Card]) -> str:
    """The notation of several cards, space separated: ``'7h 8h jk'``."""
    return " ".join(str(c) for c in cards)


def standard_deck(decks: int = 1, jokers: int = 0) -> list[Card]:
    """``decks`` x 52 cards plus ``jokers`` jokers, in a fixed (unshuffled) order. The cards
    are the shared instances (:func:`shared_card`): a deal builds no new card objects."""
    cards = [
        shared_card(rank, suit)
        for _ in range(decks)
        for suit in CARD_SUITS
        for rank in range(1, 14)
    ]
    cards.extend(JOKER for _ in range(jokers))
    return cards


def shuffled(cards: Iterable[Card], rng: random.Random) -> list[Card]:
    """A shuffled copy of ``cards`` using the game's own ``rng`` (never the global one)."""
    out = list(cards)
    rng.shuffle(out)
    return out


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards sorted by suit then rank, jokers last."""
    return tuple(sorted(cards, key=SORT_KEY))


def distinct_cards(cards: Iterable[Card]) -> list[Card]:
    """The distinct cards of ``cards`` sorted by suit then rank, jokers last (the order of
    :func:`sort_cards`): ``sorted(set(cards))`` without a Python ``__hash__`` call per card
    (the cards are told apart by their integer hash key). Move lists ask it of the hand
    on every play-phase call."""
    return sorted({c._hash: c for c in cards}.values(), key=SORT_KEY)
