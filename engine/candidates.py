"""All single melds a hand can make, with every joker's face declared.

Used by :func:`engine.game.legal_actions`, the hint and the AI search.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations

from engine.cards import JOKER, JOKER_RANK, Card, Suit, shared_card
from engine.melds import (
    AceMode,
    CardSpec,
    Meld,
    MeldKind,
    MeldRules,
    Placed,
    joker_spec,
    natural_spec,
    rank_at,
    run_windows,
)
from engine.memo import ByIdentity, reuse_last_tuple

#: The suit of each code of ``Card._hash`` (0: none; 1..8 in the order of :class:`Suit`).
_SUIT_OF_CODE: tuple[Suit | None, ...] = (None, *Suit)
#: Suit codes in the order runs are listed: by the suit's letter (c d h s; b k r y).
_RUN_CODES: tuple[int, ...] = tuple(
    sorted(range(1, 9), key=lambda code: list(Suit)[code - 1].value)
)


def candidate_melds(hand: Iterable[Card], rules: MeldRules) -> list[tuple[CardSpec, ...]]:
    """Every distinct meld (as card specs) that can be formed from ``hand``.

    Sets: 3..``max_set`` cards of one rank in distinct suits, jokers standing
    for a missing suit. Runs: every window of 3..13 positions the ace rule
    allows, in one suit, gaps filled by jokers; a joker is never used where the
    hand holds the natural card, unless the run holds a place whose card the hand holds
    twice (two packs: ``9c 9c 10c jc qc qc jk jk`` is ``9c 10c jc qc`` and ``9c jk jk qc``). Every
    meld keeps ``min_naturals`` natural cards.
    Shape: a list of tuples, each tuple one meld in table order.
    """
    cards = hand if isinstance(hand, tuple | list) else tuple(hand)
    if holds_no_meld(cards, rules):
        return []
    jokers, suits_of_rank, ranks_of_suit, twice = _hand_masks(cards)
    out = _sets(jokers, suits_of_rank, rules)
    out.extend(_runs(jokers, ranks_of_suit, twice, rules))
    return out


def _hand_masks(cards: Iterable[Card]) -> tuple[int, list[int], list[int], list[int]]:
    """One pass over ``cards``: (jokers, the suits held of each rank as a bit mask by suit
    code (index: rank), the ranks held of each suit as a bit mask by rank (index: suit
    code), the ranks held twice of each suit). Suit codes are those of ``Card._hash``."""
    jokers = 0
    suits_of_rank = [0] * 14
    ranks_of_suit = [0] * 9
    twice = [0] * 9
    for card in cards:
        key = card._hash  # rank << 4 | suit code 1..8 (engine.cards.Card)
        rank = key >> 4
        if rank == JOKER_RANK:
            jokers += 1
            continue
        code = key & 15
        bit = 1 << rank
        if ranks_of_suit[code] & bit:
            twice[code] |= bit
        else:
            ranks_of_suit[code] |= bit
        suits_of_rank[rank] |= 1 << code
    return jokers, suits_of_rank, ranks_of_suit, twice


def holds_no_meld(hand: Sequence[Card], rules: MeldRules) -> bool:
    """True when ``hand`` holds no joker and no meld: no rank in ``rules.min_cards``
    suits, no suit with ``rules.min_cards`` ranks in a row (the ace also after the king,
    and round the corner, where ``rules.ace`` lets it stand there). ``False`` says only
    that a meld may exist. Most hands of a game hold none: this answers them from one
    pass over the cards, before :func:`candidate_melds` builds anything."""
    need = rules.min_cards
    suits_of_rank = [0] * 14
    ranks_of_suit = [0] * 9
    for card in hand:
        key = card._hash  # rank << 4 | suit code 1..8 (engine.cards.Card)
        rank = key >> 4
        if rank == JOKER_RANK:
            return False
        suits = suits_of_rank[rank] | 1 << (key & 15)
        if suits.bit_count() >= need:
            return False
        suits_of_rank[rank] = suits
        ranks_of_suit[key & 15] |= 1 << rank
    for ranks in ranks_of_suit:
        if ranks.bit_count() < need:
            continue
        if rules.ace is not AceMode.LOW:
            ranks |= (ranks & 2) << 13  # the ace after the king: place 14
        if rules.ace is AceMode.AROUND:
            ranks |= ranks << 13  # K-A-2: places 13, 14, 15
        row = ranks
        for _ in range(need - 1):
            row &= row >> 1
        if row:
            return False
    return True


def one_reading_groups(hand: Iterable[Card], rules: MeldRules) -> list[tuple[CardSpec, ...]]:
    """The groups of :func:`candidate_melds` that have exactly one reading
    (``len(engine.melds.readings(group, owner, rules)) == 1``), in its order, without
    reading any group: a candidate's jokers declare their faces (a set's its rank), so it
    reads one way unless it is a run of all 13 ranks that the ace rule reads twice
    (1..13 and 2..13-A), and the variant's check judges it by its kind and its numbers of
    natural cards and jokers (:func:`shape_passes`). Each cached group tuple of a rank or
    suit is filtered once (a property test holds the readings as the oracle)."""
    cards = hand if isinstance(hand, tuple | list) else tuple(hand)
    if holds_no_meld(cards, rules):
        return []
    keep = _one_reading(rules)
    jokers, suits_of_rank, ranks_of_suit, twice = _hand_masks(cards)
    out = _sets(jokers, suits_of_rank, rules, keep)
    out.extend(_runs(jokers, ranks_of_suit, twice, rules, keep))
    return out


@functools.lru_cache(maxsize=4096)
def shape_passes(run: bool, naturals: int, jokers: int, rules: MeldRules) -> bool:
    """True when a candidate run (or set) of ``naturals`` natural cards and ``jokers``
    jokers passes the variant's further condition. A candidate's jokers stand for
    declared faces (a set's for its rank only), so a variant's check judges it by its
    kind and these two numbers (:attr:`engine.melds.MeldRules.check`); it is asked once
    on a meld of that shape."""
    if rules.check is None:
        return True
    suit = Suit.CLUBS
    if run:
        cards = [Placed(Card(r, suit), Card(r, suit), 0) for r in range(1, naturals + 1)]
        cards += [
            Placed(JOKER, Card(r, suit), 0) for r in range(naturals + 1, naturals + jokers + 1)
        ]
        return rules.check(Meld(MeldKind.RUN, tuple(cards), 0)) is None
    suits = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
    cards = [Placed(Card(7, s), Card(7, s), 0) for s in suits[:naturals]]
    cards += [Placed(JOKER, Card(7, None), 0) for _ in range(jokers)]
    return rules.check(Meld(MeldKind.SET, tuple(cards), 0)) is None


_Groups = tuple[tuple[CardSpec, ...], ...]


class _OneReading:
    """The groups with one reading of each cached group tuple (:func:`_rank_sets`,
    :func:`_suit_runs`) under one :class:`MeldRules`, kept per tuple by its identity."""

    __slots__ = ("_kept", "_rules", "_thirteen_reads_twice")

    def __init__(self, rules: MeldRules) -> None:
        self._rules = rules
        self._thirteen_reads_twice = len(run_windows(13, rules.ace)) > 1
        self._kept: ByIdentity[_Groups, _Groups] = ByIdentity(1024)

    def keep(self, groups: _Groups, run: bool) -> _Groups:
        """The groups of ``groups`` (one rank's sets, or one suit's runs: ``run``) that
        pass the check and, for runs, read one way."""
        kept = self._kept.get(groups)
        if kept is None:
            rules = self._rules
            twice = run and self._thirteen_reads_twice
            kept = self._kept.put(
                groups,
                tuple(
                    g
                    for g in groups
                    if not (twice and len(g) == 13)
                    and shape_passes(
                        run,
                        len(g) - (jokers := sum(1 for s in g if s.card.is_joker)),
                        jokers,
                        rules,
                    )
                ),
            )
        return kept


_ONE_READING: dict[int, _OneReading] = {}


def _one_reading(rules: MeldRules) -> _OneReading:
    """The filter of :func:`one_reading_groups` for ``rules`` (one per rules record: the
    variants share their MeldRules records)."""
    found = _ONE_READING.get(id(rules))
    if found is None or found._rules is not rules:
        if len(_ONE_READING) >= 64:
            _ONE_READING.clear()
        found = _ONE_READING[id(rules)] = _OneReading(rules)
    return found


def _sets(
    jokers: int, suits_of_rank: list[int], rules: MeldRules, keep: _OneReading | None = None
) -> list[tuple[CardSpec, ...]]:
    """The sets of :func:`candidate_melds` by rank (:func:`_hand_masks`); ``keep``: only
    those with one reading."""
    out: list[tuple[CardSpec, ...]] = []
    fewest = rules.min_cards - jokers  # suits of a rank a set needs at least
    for rank in range(1, 14):
        suits = suits_of_rank[rank]
        if suits and suits.bit_count() >= fewest:
            found = _rank_sets(
                rank, suits, jokers, rules.min_naturals, rules.max_set, rules.min_cards
            )
            out.extend(found if keep is None else keep.keep(found, False))
    return out


@functools.lru_cache(maxsize=4096)
def _rank_sets(
    rank: int, suits: int, jokers: int, min_naturals: int, max_set: int, min_cards: int
) -> tuple[tuple[CardSpec, ...], ...]:
    """The sets of ``rank`` held in the suits ``suits`` (bit mask by suit code) with
    ``jokers``, as shared spec tuples: naturals in suit order, then the jokers."""
    shapes = _set_shapes(suits.bit_count(), jokers, min_naturals, max_set, min_cards)
    specs = [
        natural_spec(shared_card(rank, _SUIT_OF_CODE[code]))
        for code in range(9)
        if suits >> code & 1
    ]
    joker = (joker_spec(rank, None),)
    return tuple(tuple([specs[i] for i in picked]) + joker * j for picked, j in shapes)


@functools.lru_cache(maxsize=256)
def _set_shapes(
    present: int, jokers: int, min_naturals: int, max_set: int, min_cards: int
) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The sets of one rank held in ``present`` suits with ``jokers``: (the indexes of
    the suits used, in suit order; jokers added), in table order."""
    out: list[tuple[tuple[int, ...], int]] = []
    for k in range(max(1, min_naturals), min(present, max_set) + 1):
        most = min(jokers, max_set - k)
        if k + most < min_cards:
            continue  # too few cards even with every joker
        for combo in combinations(range(present), k):
            for j in range(max(0, min_cards - k), most + 1):
                out.append((combo, j))
    return tuple(out)


def _runs(
    jokers: int,
    ranks_of_suit: list[int],
    twice: list[int],
    rules: MeldRules,
    keep: _OneReading | None = None,
) -> list[tuple[CardSpec, ...]]:
    """The runs of :func:`candidate_melds` by suit (:func:`_hand_masks`), suits in the
    order of their letters; ``keep``: only those with one reading."""
    out: list[tuple[CardSpec, ...]] = []
    fewest = rules.min_cards - jokers  # ranks of a suit a run needs at least
    for code in _RUN_CODES:
        mask = ranks_of_suit[code]
        if not mask or mask.bit_count() < fewest:
            continue
        # in a window with a card held twice (two packs) a joker may stand where the hand
        # holds the card: 9c 9c 10c jc qc qc jk jk melds as 9c 10c jc qc and 9c jk jk qc
        found = _suit_runs(
            code, mask, twice[code], jokers, rules.min_naturals, rules.min_cards, rules.ace
        )
        out.extend(found if keep is None else keep.keep(found, True))
    return out


@functools.lru_cache(maxsize=4096)
def _suit_runs(
    code: int, mask: int, twice: int, jokers: int, min_naturals: int, min_cards: int, ace: AceMode
) -> tuple[tuple[CardSpec, ...], ...]:
    """The runs of :func:`_run_shapes` in the suit of ``code`` as shared spec tuples."""
    natural, joker = _suit_specs(_SUIT_OF_CODE[code])
    return tuple(
        tuple([natural[r] if r > 0 else joker[-r] for r in shape])
        for shape in _run_shapes(mask, twice, jokers, min_naturals, min_cards, ace)
    )


@functools.lru_cache(maxsize=4096)
def _run_shapes(
    mask: int, twice: int, jokers: int, min_naturals: int, min_cards: int, ace: AceMode
) -> tuple[tuple[int, ...], ...]:
    """The runs of one suit whose ranks held are ``mask`` (bit per rank; ``twice``: held
    twice) with ``jokers``, as rank tuples in table order: ``r`` a natural card, ``-r`` a
    joker standing for rank ``r``. Each window as held
    (jokers in its gaps), and where it holds a card twice, also with spare jokers standing
    where the hand holds the card (one natural card at least)."""
    out: list[tuple[int, ...]] = []
    held_count = mask.bit_count()
    least = max(min_naturals, 1)
    for length, window, wmask in _window_table(min_cards, ace):
        if length - held_count > jokers:
            break  # longer windows need even more jokers
        have_mask = mask & wmask
        held = have_mask.bit_count()
        if length - held > jokers:
            continue
        if held >= min_naturals:  # the window as held, jokers in its gaps
            out.append(tuple(r if have_mask >> r & 1 else -r for r in window))
        if not twice & wmask or length - held == jokers:
            continue
        present = [r for r in window if have_mask >> r & 1]
        spare = jokers - (length - held)
        for size in range(1, min(spare, len(present)) + 1):
            if len(present) - size < least:
                break
            for replaced in combinations(present, size):
                out.append(
                    tuple(-r if r in replaced or not have_mask >> r & 1 else r for r in window)
                )
    return tuple(out)


@functools.cache
def _suit_specs(suit: Suit) -> tuple[tuple[CardSpec, ...], tuple[CardSpec, ...]]:
    """The shared specs of ``suit`` by rank (index 0 unused): natural cards, and jokers
    standing for them."""
    return (
        tuple(natural_spec(shared_card(r, suit)) for r in range(14)),
        tuple(joker_spec(r, suit) for r in range(14)),
    )


@functools.cache
def _window_table(min_cards: int, ace: AceMode) -> tuple[tuple[int, tuple[int, ...], int], ...]:
    """Every run window from ``min_cards`` to 13 places under ``ace``, shortest first:
    (length, the ranks in order, their bit mask by rank)."""
    out = []
    for length in range(min_cards, 14):
        for start in run_windows(length, ace):
            window = tuple(rank_at(p) for p in range(start, start + length))
            mask = 0
            for r in window:
                mask |= 1 << r
            out.append((length, window, mask))
    return tuple(out)


def candidate_melds_with(
    card: Card, hand: Sequence[Card], rules: MeldRules
) -> list[tuple[CardSpec, ...]]:
    """The groups of :func:`candidate_melds` over ``hand`` that hold the natural ``card``
    (one of ``hand``), in the same order: the sets of its rank with its suit, then the
    runs of its suit with the card itself at its rank (not a joker standing there). Only
    that rank's sets and that suit's runs are built."""
    jokers, suits_of_rank, ranks_of_suit, twice = _hand_masks(hand)
    rank = card.rank
    code = card._hash & 15  # the suit code (engine.cards.Card)
    out: list[tuple[CardSpec, ...]] = []
    suits = suits_of_rank[rank]
    if suits.bit_count() >= rules.min_cards - jokers:
        out.extend(
            g
            for g in _rank_sets(
                rank, suits, jokers, rules.min_naturals, rules.max_set, rules.min_cards
            )
            if any(s.card == card for s in g)
        )
    mask = ranks_of_suit[code]
    if mask.bit_count() >= rules.min_cards - jokers:
        out.extend(
            g
            for g in _suit_runs(
                code, mask, twice[code], jokers, rules.min_naturals, rules.min_cards, rules.ace
            )
            if any(s.card == card for s in g)
        )
    return out


def may_meld_with(card: Card, cards: Iterable[Card], rules: MeldRules) -> bool:
    """A quick necessary condition for :func:`candidate_melds` over ``cards`` to hold a
    meld with ``card`` (a card of ``cards``): a set needs ``min_cards`` of its rank in
    distinct suits, jokers filling up to ``max_set``; a run a window of ``min_cards`` or
    more places around it that holds ``min_naturals`` of its cards and whose gaps the
    jokers fill. ``False`` means no such meld; ``True`` only that one may exist (always
    for a joker). No enumeration: O(len(cards))."""
    if card.is_joker:
        return True
    jokers = 0
    suits: set[object] = set()
    mask = 0
    for c in cards:
        if c.is_joker:
            jokers += 1
            continue
        if c.rank == card.rank:
            suits.add(c.suit)
        if c.suit is card.suit:
            mask |= 1 << c.rank
    return _may_meld(card.rank, len(suits), mask, jokers, rules)


class MeldReach:
    """:func:`may_meld_with` for a growing multiset of cards, asked card by card: each card
    added and each question cost O(1) (Rummy 500 asks about every card of a long discard
    pile together with the hand and the cards above it).

    ``may_meld(card)`` equals ``may_meld_with(card, cards added so far, rules)`` for a card
    that was added; the run half is read once per suit (:func:`_run_ranks`, cached) until
    a card of that suit or a joker is added."""

    __slots__ = ("_in_runs", "_jokers", "_ranks_of_suit", "_rules", "_suits_of_rank")

    def __init__(self, cards: Iterable[Card], rules: MeldRules) -> None:
        self._rules = rules
        jokers = 0
        suits_of_rank = [0] * 14
        ranks_of_suit = [0] * 9
        for card in cards:  # add() inline: racks of dozens of tiles start here
            key = card._hash  # rank << 4 | suit code 1..8 (engine.cards.Card)
            if card.is_joker:
                jokers += 1
                continue
            suits_of_rank[key >> 4] |= 1 << (key & 15)
            ranks_of_suit[key & 15] |= 1 << (key >> 4)
        self._jokers = jokers
        self._suits_of_rank = suits_of_rank
        self._ranks_of_suit = ranks_of_suit
        self._in_runs: list[int | None] = [None] * 9  # per suit code, until a card is added

    def add(self, card: Card) -> None:
        """Count one more card."""
        key = card._hash  # rank << 4 | suit code 1..8 (engine.cards.Card)
        if card.is_joker:
            self._jokers += 1
            self._in_runs = [None] * 9
            return
        self._suits_of_rank[key >> 4] |= 1 << (key & 15)
        self._ranks_of_suit[key & 15] |= 1 << (key >> 4)
        self._in_runs[key & 15] = None

    def may_meld(self, card: Card) -> bool:
        """:func:`may_meld_with` for ``card`` (one of the cards added)."""
        if card.is_joker:
            return True
        key = card._hash
        rules = self._rules
        code = key & 15
        in_runs = self._in_runs[code]
        if in_runs is None:  # the ranks of the suit that some run window lets through
            in_runs = _run_ranks(
                self._ranks_of_suit[code],
                self._jokers,
                rules.min_naturals,
                rules.min_cards,
                rules.ace,
            )
            self._in_runs[code] = in_runs
        rank = key >> 4
        return bool(in_runs >> rank & 1) or _set_may_meld(
            self._suits_of_rank[rank].bit_count(),
            self._jokers,
            rules.min_naturals,
            rules.max_set,
            rules.min_cards,
        )


@reuse_last_tuple
def unmeldable(cards: Sequence[Card], rules: MeldRules) -> Mapping[Card, int]:
    """The cards of ``cards`` that :func:`may_meld_with` refuses (no meld the cards might
    make holds them), each with its number of copies in ``cards``: the test for every
    card at once (racks of dozens of tiles ask about each tile), read by
    :class:`MeldReach` and counted by integer keys (the rank and suit code of
    :class:`engine.cards.Card`'s hash), so that no Suit is hashed. For a tuple (a state's
    hand, immutable) the last answer is reused while the same object is asked about
    again (:func:`engine.memo.reuse_last_tuple`: a Romanian move list asks for the
    going-out test and the opening test); the mapping is shared: read it, never change
    it."""
    reach = MeldReach(cards, rules)
    copies: dict[int, int] = {}
    first: dict[int, Card] = {}
    for card in cards:
        key = card._hash
        if key in copies:
            copies[key] += 1
        else:
            copies[key] = 1
            first[key] = card
    return {first[key]: n for key, n in copies.items() if not reach.may_meld(first[key])}


def _set_may_meld(suits: int, jokers: int, min_naturals: int, max_set: int, min_cards: int) -> bool:
    """The set half of :func:`_may_meld`."""
    return suits >= min_naturals and min(suits + jokers, max_set) >= min_cards


@functools.lru_cache(maxsize=4096)
def _run_ranks(mask: int, jokers: int, min_naturals: int, min_cards: int, ace: AceMode) -> int:
    """The ranks of ``mask`` (one suit's ranks held, bit per rank) that the run half of
    :func:`_may_meld` lets through with ``jokers``, as a bit mask."""
    longest = jokers + mask.bit_count()
    out = 0
    for rank in range(1, 14):
        if not mask >> rank & 1:
            continue
        for length, window in _windows_with(rank, min_cards, ace):
            if length > longest:
                break
            present = (mask & window).bit_count()
            if present >= min_naturals and length - present <= jokers:
                out |= 1 << rank
                break
    return out


def _may_meld(rank: int, suits: int, mask: int, jokers: int, rules: MeldRules) -> bool:
    """The test of :func:`may_meld_with` for a card of ``rank``: ``suits`` distinct suits of
    its rank held, ``mask`` the ranks held in its suit (bit per rank), ``jokers``."""
    if _set_may_meld(suits, jokers, rules.min_naturals, rules.max_set, rules.min_cards):
        return True
    longest = jokers + mask.bit_count()  # a longer window has more gaps than jokers
    for length, window in _windows_with(rank, rules.min_cards, rules.ace):
        if length > longest:
            break
        present = (mask & window).bit_count()
        if present >= rules.min_naturals and length - present <= jokers:
            return True
    return False


@functools.cache
def _windows_with(rank: int, min_cards: int, ace: AceMode) -> tuple[tuple[int, int], ...]:
    """The rank windows of runs of ``min_cards`` or more under ``ace`` that hold ``rank``,
    as (length, bit mask of the ranks), shortest first: a long run can hold more natural
    cards than any short window around the card (J jk jk A with two naturals needed)."""
    out = []
    for length in range(min_cards, 15):
        for start in run_windows(length, ace):
            window = [rank_at(p) for p in range(start, start + length)]
            if rank in window:
                bits = 0
                for r in window:
                    bits |= 1 << r
                out.append((length, bits))
    return tuple(out)
