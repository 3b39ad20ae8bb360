"""Best partition of a hand into melds (hints, AI, going-out checks).

:func:`best_melds` is the exact "best-meld search": it splits a hand into
disjoint melds so that the deadwood (cards left over) is worth as few points as
possible. The melds it may use are exactly those of
:func:`engine.candidates.candidate_melds`, so every group it proposes is a
legal meld action in the game.

How it is fast (a 15-card hand with two jokers in well under a millisecond):

- cards are small integer codes (``suit * 16 + rank``, joker ``64``), the hand
  a sorted tuple of codes, the remaining cards of the search a few bitmasks
  (one per copy level: identical cards of several packs are never told apart);
- candidate melds are generated directly on rank bitmasks, one entry per
  distinct (natural cards, jokers) resource use, and runs of ``2 * min_cards``
  or more are left out when they split into two shorter valid runs (same cards
  melded, so the optimum is unchanged; with a variant's further condition both
  parts must pass it; adjacent runs are merged back into one meld at the end);
- a depth-first search over the lowest unassigned card (it is deadwood, or it
  is in one of the melds containing it) with memoisation on the remaining
  cards and jokers;
- results are cached per (hand, rules).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from engine.candidates import candidate_melds, shape_passes
from engine.cards import (
    CARD_SUITS,
    JOKER,
    TILE_COLOURS,
    Card,
    Suit,
    distinct_cards,
    shared_card,
)
from engine.frozen import picklable
from engine.melds import (
    AceMode,
    CardSpec,
    Meld,
    MeldRules,
    joker_spec,
    layoff_choices,
    layoff_index,
    natural_spec,
    rank_at,
    run_windows,
)
from engine.options import RuleSet

Groups = tuple[tuple[CardSpec, ...], ...]


def going_out_partitions(hand: Sequence[Card], rules: MeldRules, limit: int = 64) -> list[Groups]:
    """Ways to meld the whole ``hand`` at once, or all of it but one card (kept to discard).

    Shape: a list (at most ``limit``) of group tuples, each group one meld.
    """
    candidates = candidate_melds(hand, rules)
    out: list[Groups] = []
    need = Counter(hand)

    def walk(start: int, left: Counter[Card], chosen: list[tuple[CardSpec, ...]]) -> None:
        if len(out) >= limit:
            return
        remaining = sum(left.values())
        if chosen and remaining <= 1:
            out.append(tuple(chosen))
        if remaining < rules.min_cards:
            return
        for i in range(start, len(candidates)):
            group = candidates[i]
            use = Counter(s.card for s in group)
            if all(left[c] >= n for c, n in use.items()):
                chosen.append(group)
                walk(i + 1, left - use, chosen)
                chosen.pop()

    walk(0, need, [])
    return out


def cards_of(groups: Iterable[tuple[CardSpec, ...]]) -> list[Card]:
    """The physical cards of several groups."""
    return [s.card for g in groups for s in g]


# --- the best partition --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Partition:
    """A hand split into melds and deadwood.

    ``melds``: disjoint groups, each one meld in table order with every joker's
    face declared (``CardSpec(JOKER, face)``), each an element of
    :func:`engine.candidates.candidate_melds` of the hand. ``deadwood``: the
    cards in no meld, sorted (:func:`engine.cards.sort_cards`).
    ``deadwood_points``: their penalty value under the variant's card values.
    """

    melds: Groups
    deadwood: tuple[Card, ...]
    deadwood_points: int

    @property
    def melded(self) -> int:
        """How many cards the melds use."""
        return sum(len(g) for g in self.melds)

    def melded_cards(self) -> list[Card]:
        """The physical cards of the melds."""
        return cards_of(self.melds)


picklable(Partition)

_JOKER_CODE = 64
_SUITS: tuple[Suit, ...] = CARD_SUITS
_CARD_OF: dict[int, Card] = {_JOKER_CODE: JOKER}
for _suit in _SUITS:
    for _rank in range(1, 14):
        _CARD_OF[_suit.order * 16 + _rank] = Card(_rank, _suit)

# Cost of a deadwood card in the search: points first, then the number of cards
# (fewer deadwood cards = more cards melded wins a tie).
_POINT_UNIT = 256


@dataclass(frozen=True, eq=False)
class _Setup:
    """Everything the search needs from the rules, computed once per rule set."""

    meld_rules: MeldRules
    points: dict[int, int]


@functools.lru_cache(maxsize=64)
def _make_setup(meld_rules: MeldRules, points: Callable[[Card], int]) -> _Setup:
    return _Setup(meld_rules, {code: points(card) for code, card in _CARD_OF.items()})


@functools.lru_cache(maxsize=64)
def _setup_by_value(rules: RuleSet) -> _Setup:
    var = rules.var
    return _make_setup(var.meld_rules(rules), lambda card: var.card_points(rules, card))


# The same RuleSet object is passed again and again; finding it by identity saves hashing
# it (the entry holds the object, so its id cannot be reused while it is here).
_SETUP_BY_ID: dict[int, tuple[RuleSet, _Setup]] = {}


def _setup_for(rules: RuleSet) -> _Setup:
    hit = _SETUP_BY_ID.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    setup = _setup_by_value(rules)
    if len(_SETUP_BY_ID) >= 256:
        _SETUP_BY_ID.clear()
    _SETUP_BY_ID[id(rules)] = (rules, setup)
    return setup


_SUIT_BASE = {s._value_: s.order * 16 for s in Suit}


def _codes(hand: Iterable[Card]) -> tuple[int, ...]:
    """The hand as sorted card codes (suit-major, jokers last)."""
    out = []
    for card in hand:
        suit = card.suit
        if suit is None:
            if card.rank:
                raise ValueError(f"not a playing card: {card!r}")
            out.append(_JOKER_CODE)
        else:
            out.append(_SUIT_BASE[suit._value_] + card.rank)
    out.sort()
    return tuple(out)


def best_melds(hand: Sequence[Card], rules: RuleSet) -> Partition:
    """The best partition of ``hand`` into disjoint melds under ``rules``.

    Minimises the deadwood points (the variant's ``card_points``); among equal
    points it melds more cards, then takes the first in a fixed search order,
    so the answer is deterministic. Melds are those of
    :func:`engine.candidates.candidate_melds` with the variant's meld rules;
    runs that touch are returned as one meld. basic-rummy.de.txt: "Das Ziel
    des Spiels ist es, alle Karten in der Hand zu entsorgen" and "Wenn ein
    Spieler ausgeht, addieren die anderen Spieler den Wert aller Karten, die
    noch in ihren Händen sind". Raises ``ValueError`` for a card that is not a
    playing card (a suitless face).
    """
    return _in_family(_best_cached(_codes(hand), _setup_for(rules)), hand)


def best_partition(
    hand: Sequence[Card], meld_rules: MeldRules, points: Callable[[Card], int]
) -> Partition:
    """:func:`best_melds` for explicit meld rules and card values (the answer is not
    cached; the card values are, per ``points`` function: pass the same function again)."""
    return _in_family(_solve(_codes(hand), _make_setup(meld_rules, points)), hand)


def _in_family(part: Partition, hand: Sequence[Card]) -> Partition:
    """``part`` with its cards in the family of ``hand``: the search codes a tile colour
    like the card suit of the same ``order``, so a hand of tiles gets its colours back."""
    if not any(c.suit is not None and c.suit.is_colour for c in hand):
        return part

    def tile(card: Card) -> Card:
        if card.suit is None:
            return card
        return shared_card(card.rank, TILE_COLOURS[card.suit.order])

    melds = tuple(
        tuple(CardSpec(tile(s.card), None if s.face is None else tile(s.face)) for s in group)
        for group in part.melds
    )
    return Partition(melds, tuple(tile(c) for c in part.deadwood), part.deadwood_points)


def card_value(card: Card, rules: RuleSet) -> int:
    """The variant's penalty value of ``card`` (``card_points``), from a per-rules table."""
    suit = card.suit
    if suit is None:
        return _setup_for(rules).points[_JOKER_CODE]
    return _setup_for(rules).points[_SUIT_BASE[suit._value_] + card.rank]


def deadwood_points(hand: Sequence[Card], rules: RuleSet) -> int:
    """The deadwood points of the best partition of ``hand`` (:func:`best_melds`)."""
    return best_melds(hand, rules).deadwood_points


@functools.lru_cache(maxsize=4096)
def _best_cached(codes: tuple[int, ...], setup: _Setup) -> Partition:
    return _solve(codes, setup)


# A run window: (start position, length, ranks of the natural cards in it, jokers needed).
_Window = tuple[int, int, tuple[int, ...], int]


# 4,096 entries (here and in _suit_candidates): 16,384 held 30,000 objects for the
# garbage collector to walk, and the best-meld bench ran as fast with 4,096.
@functools.lru_cache(maxsize=4096)
def _suit_runs(
    ranks: int,
    jokers: int,
    ace: AceMode,
    min_cards: int,
    min_naturals: int,
    twice: int = 0,
    checked: MeldRules | None = None,
) -> tuple[_Window, ...]:
    """Run windows of one suit whose natural ranks are the bits of ``ranks`` (bit r = rank r).

    Only windows with at least one natural card; a window of ``2 * min_cards`` or more
    positions is left out when it splits into two valid runs (the same cards melded).
    With a variant's further condition (``checked``: meld rules with ``check``) every
    window and both parts of a split must pass it (:func:`engine.candidates.shape_passes`).
    In a window with a rank of ``twice`` (bit r: the hand holds that card twice, two
    packs), a joker may also stand where the hand holds the card: with
    ``9c 9c 10c jc qc qc jk jk`` both ``9c 10c jc qc`` and ``9c jk jk qc`` are melds.
    """
    held = ranks.bit_count()
    posmask = twicemask = 0
    for pos in range(1, 26):
        if ranks >> rank_at(pos) & 1:
            posmask |= 1 << pos
        if twice >> rank_at(pos) & 1:
            twicemask |= 1 << pos
    out: list[_Window] = []
    for length in range(min_cards, 14):
        if length - jokers > held:
            break
        full = (1 << length) - 1
        for start in run_windows(length, ace):
            window = posmask >> start & full
            have = window.bit_count()
            if have == 0 or length - have > jokers:
                continue
            spare = jokers - (length - have) if twicemask >> start & full else 0
            for naturals_mask in _fewer(window, spare):
                count = naturals_mask.bit_count()
                if count == 0 or count < min_naturals:
                    continue
                if checked is not None and not shape_passes(True, count, length - count, checked):
                    continue
                if length >= 2 * min_cards and _splits(
                    naturals_mask, count, length, min_cards, min_naturals, checked
                ):
                    continue
                naturals = tuple(
                    rank_at(start + k) for k in range(length) if naturals_mask >> k & 1
                )
                out.append((start, length, naturals, length - count))
    return tuple(out)


def _fewer(mask: int, spare: int) -> list[int]:
    """``mask`` and every mask with up to ``spare`` of its bits cleared."""
    out = [mask]
    bits = [1 << k for k in range(mask.bit_length()) if mask >> k & 1]
    for size in range(1, min(spare, len(bits)) + 1):
        for combo in combinations(bits, size):
            out.append(mask & ~sum(combo))
    return out


def _splits(
    window: int,
    have: int,
    length: int,
    min_cards: int,
    min_naturals: int,
    checked: MeldRules | None,
) -> bool:
    """True when the run window (natural positions = bits of ``window``) cuts into two
    runs that both hold ``min_naturals`` natural cards (and pass ``checked``)."""
    for cut in range(min_cards, length - min_cards + 1):
        left = (window & ((1 << cut) - 1)).bit_count()
        right = have - left
        if (
            left >= min_naturals
            and right >= min_naturals
            and (
                checked is None
                or (
                    shape_passes(True, left, cut - left, checked)
                    and shape_passes(True, right, length - cut - right, checked)
                )
            )
        ):
            return True
    return False


# A candidate meld: (mask of its natural cards, natural codes, jokers, builder). Masks are
# rank-major (bit ``rank * 4 + suit``) so that the search, which always settles the lowest
# remaining card, meets a set's cards one after another. Builders:
# ("set", rank, suit orders, jokers) or ("run", suit order, start, length, ranks).
_Builder = tuple[object, ...]
_Cand = tuple[int, tuple[int, ...], int, _Builder]


@functools.lru_cache(maxsize=65536)
def _rank_candidates(
    rank: int, suits: tuple[int, ...], jokers: int, max_set: int, min_cards: int, min_naturals: int
) -> tuple[_Cand, ...]:
    """Sets of ``rank`` from the natural ``suits`` present plus up to ``jokers`` jokers."""
    out: list[_Cand] = []
    for k in range(max(1, min_naturals), min(len(suits), max_set) + 1):
        for combo in combinations(suits, k):
            codes = tuple(s * 16 + rank for s in combo)
            mask = 0
            for s in combo:
                mask |= 1 << (rank * 4 + s)
            for j in range(0, min(jokers, max_set - k) + 1):
                if k + j >= min_cards:
                    out.append((mask, codes, j, ("set", rank, combo, j)))
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def _suit_candidates(
    suit: int,
    ranks: int,
    jokers: int,
    ace: AceMode,
    min_cards: int,
    min_naturals: int,
    max_set: int,
    twice: int = 0,
    checked: MeldRules | None = None,
) -> tuple[_Cand, ...]:
    """Runs of ``suit`` (natural ranks = bits of ``ranks``), one per distinct resource use
    (``twice`` as in :func:`_suit_runs`).

    A run with one natural card is left out when the set of that card with the same
    jokers exists (same cards used). A run that splits into two shorter runs is left
    out (the two parts meld the same cards); with a variant's further condition
    (``checked``: the meld rules with ``check``) only when both parts pass it, and every
    run is checked.
    """
    out: list[_Cand] = []
    seen: set[tuple[int, int]] = set()
    for start, length, naturals, j in _suit_runs(
        ranks, jokers, ace, min_cards, min_naturals, twice, checked
    ):
        if len(naturals) == 1 and min_naturals <= 1 and length <= max_set:
            continue
        builder: _Builder = ("run", suit, start, length, naturals)
        mask = 0
        for r in naturals:
            mask |= 1 << (r * 4 + suit)
        if (mask, j) in seen:
            continue
        seen.add((mask, j))
        codes = tuple(sorted(suit * 16 + r for r in naturals))
        out.append((mask, codes, j, builder))
    return tuple(out)


def _candidates(naturals: Sequence[int], jokers: int, rules: MeldRules) -> list[_Cand]:
    """Every distinct resource use (natural cards, jokers) of a candidate meld of the hand."""
    suits_of_rank: dict[int, list[int]] = {}
    ranks_of_suit = [0, 0, 0, 0]
    twice = [0, 0, 0, 0]
    for code in naturals:
        suit, rank = code >> 4, code & 15
        if ranks_of_suit[suit] >> rank & 1:
            twice[suit] |= 1 << rank
        ranks_of_suit[suit] |= 1 << rank
        present = suits_of_rank.get(rank)
        if present is None:
            suits_of_rank[rank] = [suit]
        elif present[-1] != suit:
            present.append(suit)
    max_set, min_cards, min_naturals = rules.max_set, rules.min_cards, rules.min_naturals
    out: list[_Cand] = []
    for rank, present in suits_of_rank.items():
        if len(present) + jokers >= min_cards:
            out.extend(
                _rank_candidates(rank, tuple(present), jokers, max_set, min_cards, min_naturals)
            )
    checked = rules if rules.check is not None else None
    if checked is not None:
        out = [c for c in out if shape_passes(False, len(c[1]), c[2], checked)]
    for suit in range(4):
        if ranks_of_suit[suit]:
            out.extend(
                _suit_candidates(
                    suit,
                    ranks_of_suit[suit],
                    jokers,
                    rules.ace,
                    min_cards,
                    min_naturals,
                    max_set,
                    twice[suit] if jokers else 0,
                    checked,
                )
            )
    return out


# The search state: the cards left as count levels (``levels[k]``: the mask of the cards
# held more than ``k`` times, rank-major bits as in the candidates) and the jokers left.
# Identical cards of several packs are one bit at two levels, so the search never tells
# their copies apart.
_WIDTH = 56  # rank-major bits: rank * 4 + suit, ranks 1..13


def _remove(levels: tuple[int, ...], mask: int) -> tuple[int, ...]:
    """``levels`` with one copy of each card of ``mask`` taken away (all present)."""
    if len(levels) == 1:  # one pack, or no card twice: the common case, spelled out
        return (levels[0] & ~mask,)
    if len(levels) == 2:
        once, twice = levels
        return (once & ~(mask & ~twice), twice & ~mask)
    out = []
    for k, level in enumerate(levels):
        above = levels[k + 1] if k + 1 < len(levels) else 0
        out.append(level & ~(mask & ~above))
    return tuple(out)


SMALL_HAND = 28
"""Hands of up to this many natural cards are searched exhaustively (every state of the
search once, deadwood tried first); bigger ones by branch and bound (melds first)."""

_INFINITE = 1 << 60

SEARCH_STEPS = 2000
"""The guard of the branch and bound: after this many search states it stops and answers
the best partition met so far (a valid one, found early since melds are tried first;
exact whenever the search ends before). About 25 ms on this machine."""


class _OutOfSteps(Exception):
    """The branch and bound reached :data:`SEARCH_STEPS`."""


def _solve(codes: tuple[int, ...], setup: _Setup) -> Partition:
    rules = setup.meld_rules
    points = setup.points
    jokers = codes.count(_JOKER_CODE)
    naturals = codes[: len(codes) - jokers]
    cands = _candidates(naturals, jokers, rules)
    by_low: dict[int, list[tuple[int, int, int]]] = {}
    used = 0
    for cid, (mask, _, j, _) in enumerate(cands):
        by_low.setdefault(mask & -mask, []).append((mask, j, cid))
        used |= mask
    if len(naturals) > SMALL_HAND:
        # the branch and bound tries melds without jokers and with more cards first
        for entries in by_low.values():
            entries.sort(key=lambda e: (e[1], -e[0].bit_count()))
    counts = Counter(naturals)
    depth = max(counts.values(), default=1)
    code_of: dict[int, int] = {}
    levels = [0] * depth
    dead: list[int] = []
    for code, n in counts.items():
        bit = 1 << ((code & 15) * 4 + (code >> 4))
        code_of[bit] = code
        if bit & used:
            for k in range(n):
                levels[k] |= bit
        else:
            dead.extend([code] * n)

    # Leftover jokers at the end are deadwood: every meld holds a natural card, whatever
    # ``min_naturals`` says (as :func:`engine.candidates.candidate_melds` and the readings).
    joker_cost = points[_JOKER_CODE] * _POINT_UNIT + 1
    end_cost = [j * joker_cost for j in range(jokers + 1)]

    dead_cost = {bit: points[code] * _POINT_UNIT + 1 for bit, code in code_of.items()}
    memo: dict[tuple[tuple[int, ...], int], int] = {}
    picks: dict[tuple[tuple[int, ...], int], int] = {}
    nothing: list[tuple[int, int, int]] = []

    def best(state: tuple[int, ...], j: int) -> int:
        """Least cost of the cards in ``state`` with ``j`` jokers (memoised)."""
        key = (state, j)
        found = memo.get(key)
        if found is not None:
            return found
        have = state[0]
        low = have & -have
        # The lowest card as deadwood ...
        rest = _remove(state, low)
        value = (best(rest, j) if rest[0] else end_cost[j]) + dead_cost[low]
        pick = -1
        # ... or in one of the melds that contain it.
        for k, (m, need, _) in enumerate(by_low.get(low, nothing)):
            if need <= j and m & have == m:
                rest = _remove(state, m)
                cost = best(rest, j - need) if rest[0] else end_cost[j - need]
                if cost < value:
                    value = cost
                    pick = k
                    if cost == 0:
                        break
        memo[key] = value
        picks[key] = pick
        return value

    bounds: dict[tuple[tuple[int, ...], int], tuple[int, bool]] = {}
    steps = [0]
    # The path from the root to the state being searched, as (state, jokers, pick), and
    # the best complete partition met so far: (cost, path, state and jokers below it,
    # whose rest the picks of exact states give).
    path: list[tuple[tuple[int, ...], int, int]] = []
    found: list[Any] = [_INFINITE, [], (), 0]

    def note(total: int, rest: tuple[int, ...], j: int) -> None:
        if total < found[0]:
            found[:] = [total, list(path), rest, j]

    def bounded(state: tuple[int, ...], j: int, budget: int, spent: int) -> tuple[int, bool]:
        """(least cost, True) of the cards in ``state`` with ``j`` jokers when it is at
        most ``budget`` (or already known), else (a lower bound above ``budget``, False).
        Melds are tried before the deadwood, so good partitions are found first and
        tighten the budget of every later branch (branch and bound). ``spent``: the cost
        of the path from the root. Raises :class:`_OutOfSteps` after
        :data:`SEARCH_STEPS` states."""
        key = (state, j)
        hit = bounds.get(key)
        if hit is not None and (hit[1] or hit[0] > budget):
            return hit
        steps[0] += 1
        if steps[0] > SEARCH_STEPS:
            raise _OutOfSteps()
        have = state[0]
        low = have & -have
        value, exact, pick = _INFINITE, False, -1
        for k, (m, need, _) in enumerate(by_low.get(low, nothing)):
            if need <= j and m & have == m:
                rest = _remove(state, m)
                path.append((state, j, k))
                if rest[0]:
                    cost, sure = bounded(rest, j - need, min(budget, value - 1), spent)
                else:
                    cost, sure = end_cost[j - need], True
                if sure:
                    note(spent + cost, rest, j - need)
                path.pop()
                if cost < value or (cost == value and sure and not exact):
                    value, exact, pick = cost, sure, k
                if value == 0 and exact:
                    break
        if not (value == 0 and exact):
            dead = dead_cost[low]
            rest = _remove(state, low)
            room = min(budget, value - 1) - dead
            path.append((state, j, -1))
            if not rest[0]:
                cost, sure = dead + end_cost[j], True
            elif room >= 0:
                cost, sure = bounded(rest, j, room, spent + dead)
                cost += dead
            else:
                cost, sure = dead, False
            if sure:
                note(spent + cost, rest, j)
            path.pop()
            if cost < value or (cost == value and sure and not exact):
                value, exact, pick = cost, sure, -1
        bounds[key] = (value, exact)
        if exact:
            picks[key] = pick
        return value, exact

    state = tuple(levels)
    j = jokers
    chosen: list[_Builder] = []
    if state[0] and len(naturals) > SMALL_HAND:
        try:
            bounded(state, j, _INFINITE, 0)
        except _OutOfSteps:
            # the guard: the best partition met so far, its path first
            _, steps_taken, state, j = found
            for at, _, pick in steps_taken:
                low = at[0] & -at[0]
                if pick < 0:
                    dead.append(code_of[low])
                else:
                    chosen.append(cands[by_low[low][pick][2]][3])
    elif state[0]:
        best(state, j)
    while state[0]:
        pick = picks[(state, j)]
        low = state[0] & -state[0]
        if pick < 0:
            dead.append(code_of[low])
            state = _remove(state, low)
            continue
        mask, need, cid = by_low[low][pick]
        chosen.append(cands[cid][3])
        state = _remove(state, mask)
        j -= need
    dead.extend([_JOKER_CODE] * j)
    deadwood = tuple(_CARD_OF[c] for c in sorted(dead))
    if sum(1 for b in chosen if b[0] == "run") > 1:
        chosen = _merge_runs(chosen, rules.ace)
    melds = tuple(_build(b) for b in chosen)
    return Partition(melds, deadwood, sum(points[c] for c in dead))


def _merge_runs(chosen: list[_Builder], ace: AceMode) -> list[_Builder]:
    """Join runs of one suit that continue each other into one run."""
    sets = [b for b in chosen if b[0] == "set"]
    runs = sorted((b for b in chosen if b[0] == "run"), key=lambda b: (b[1], b[2]))
    merged = True
    while merged:
        merged = False
        for a, b in ((a, b) for a in runs for b in runs if a is not b):
            _, suit, start, length, ranks = a
            _, suit2, start2, length2, ranks2 = b
            assert isinstance(start, int) and isinstance(length, int)
            assert isinstance(start2, int) and isinstance(length2, int)
            assert isinstance(ranks, tuple) and isinstance(ranks2, tuple)
            if suit != suit2 or length + length2 > (13 if ace is AceMode.LOW else 12):
                # (13 cards with the ace low or high read two ways: keep them apart)
                continue
            if start2 not in (start + length, start + length - 13):
                continue
            if start not in run_windows(length + length2, ace):
                continue
            runs.remove(a)
            runs.remove(b)
            runs.append(("run", suit, start, length + length2, ranks + ranks2))
            merged = True
            break
    return sets + sorted(runs, key=lambda b: (b[1], b[2]))


@functools.lru_cache(maxsize=65536)
def _build(builder: _Builder) -> tuple[CardSpec, ...]:
    """Card specs of a candidate in table order, as :func:`candidate_melds` writes them."""
    if builder[0] == "set":
        _, rank, suits, jokers = builder
        assert isinstance(rank, int) and isinstance(suits, tuple) and isinstance(jokers, int)
        return (
            tuple(natural_spec(shared_card(rank, _SUITS[s])) for s in suits)
            + (joker_spec(rank, None),) * jokers
        )
    _, suit_index, start, length, ranks = builder
    assert isinstance(suit_index, int) and isinstance(start, int)
    assert isinstance(length, int) and isinstance(ranks, tuple)
    suit = _SUITS[suit_index]
    out = []
    for pos in range(start, start + length):
        rank = rank_at(pos)
        out.append(
            natural_spec(shared_card(rank, suit)) if rank in ranks else joker_spec(rank, suit)
        )
    return tuple(out)


# --- lay-offs ------------------------------------------------------------------------------


def layoff_options(
    hand: Sequence[Card], melds: Sequence[Meld], rules: RuleSet, seat: int
) -> list[tuple[CardSpec, int]]:
    """Single cards of ``hand`` that can be laid off on ``melds``: (card spec, meld index).

    A joker that fits several places of one meld is listed once per face that names one
    place (:func:`engine.melds.layoff_choices`). Only the melds whose open ends take the
    card are tried (:class:`engine.melds.LayoffIndex`). Turn rules (own meld first, the
    taken card) are not checked here; :func:`engine.game.legal_actions` does that.
    basic-rummy.de.txt: "Die zu einer Meldung hinzugefügten Karten müssen eine
    andere gültige Meldung vornehmen."
    """
    return list(_layoffs(distinct_cards(hand), melds, rules, seat))


def any_layoff(cards: Iterable[Card], melds: Sequence[Meld], rules: RuleSet, seat: int) -> bool:
    """True when one of ``cards`` can be laid off alone on one of ``melds``; the same test
    as a non-empty :func:`layoff_options`. ``cards`` is read lazily, each card value
    tried once, and the first card that fits ends the search."""
    return any(True for _ in _layoffs(_once_each(cards), melds, rules, seat))


def _once_each(cards: Iterable[Card]) -> Iterator[Card]:
    """``cards`` as they come, each card value once."""
    seen: set[Card] = set()
    for card in cards:
        if card not in seen:
            seen.add(card)
            yield card


def _layoffs(
    cards: Iterable[Card], melds: Sequence[Meld], rules: RuleSet, seat: int
) -> Iterator[tuple[CardSpec, int]]:
    """The lay-offs of :func:`layoff_options` for ``cards`` in the order given, one at a
    time."""
    mrules = _setup_for(rules).meld_rules
    ends = layoff_index(melds, mrules)
    for card in cards:
        for index in ends.targets(card):
            for spec, _ in layoff_choices(melds[index], card, seat, mrules):
                yield spec, index
