"""Melds (sets and runs), joker readings, lay-offs and joker exchanges.

A meld on the table is a :class:`Meld`: a kind and an ordered tuple of
:class:`Placed` cards. Each placed card records the physical card, the *face*
it stands for (a joker's declared identity, fixed once on the table) and the
seat that put it there (later variants score laid-off cards for their owner).

The central function is :func:`readings`: every way a group of cards can be
read as a valid meld. A meld action is legal when exactly one reading fits
the player's joker declarations; several readings mean the player must say
what a joker stands for (:class:`engine.errors.AmbiguousJoker`).
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.cards import ACE, JOKER, Card, Suit, parse_card, parse_face, shared_card
from engine.errors import CardParseError
from engine.frozen import fast_init, picklable, replace
from engine.memo import reuse_last_tuple


class MeldKind(enum.Enum):
    """A set (group, book: same rank) or a run (sequence: same suit, consecutive)."""

    SET = "set"
    RUN = "run"

    # singletons: the identity hash in C (Enum's own hashes the name in Python)
    __hash__ = object.__hash__


class AceMode(enum.Enum):
    """Where an ace may stand in a run.

    basic-rummy.de.txt: "Im Standardspiel sind Asse niedrig. A-2-3 ist ein
    gültiger Lauf, Q-K-A jedoch nicht." (LOW); "so dass Q-K-A auch ein gültiger
    Lauf ist" (HIGH_OR_LOW); "„Um die Ecke“ -Läufe mit einem Ass in der Mitte
    (K-A-2)" (AROUND).
    """

    LOW = "low"
    HIGH_OR_LOW = "high_or_low"
    AROUND = "around"

    # singletons: the identity hash in C (the candidate caches take the mode as a key)
    __hash__ = object.__hash__


@dataclass(frozen=True, slots=True)
class MeldRules:
    """What makes a meld valid in a variant.

    ``min_cards``: smallest meld (3). ``max_set``: largest set (4).
    ``min_naturals``: natural (non-joker) cards every meld needs (one at least in any
    case: the candidates and the best-meld search never build a meld of jokers only).
    ``check``: a variant's further condition on a complete meld (e.g. how many
    jokers it may hold); it returns a :class:`MeldProblem` or ``None``. On a meld whose
    jokers stand for declared faces (a set's for its rank only) it must depend only on
    the kind and the numbers of natural cards and jokers: the best-meld search asks it
    once per such shape (:func:`engine.candidates.shape_passes`).
    """

    ace: AceMode = AceMode.LOW
    min_cards: int = 3
    max_set: int = 4
    min_naturals: int = 1
    check: Callable[[Meld], MeldProblem | None] | None = None

    def accepts(self, meld: Meld) -> bool:
        """True when ``meld`` passes the variant's further condition."""
        return self.check is None or self.check(meld) is None


picklable(MeldRules)


@fast_init
@dataclass(frozen=True, slots=True)
class CardSpec:
    """A card named in an action, with a joker's declared face if given (``jk=8h``)."""

    card: Card
    face: Card | None = None

    def __hash__(self) -> int:
        # one call instead of a tuple hash over two cards: specs key the readings caches
        # (Card._hash < 512, so this is exact)
        face = self.face
        return self.card._hash << 9 | (face._hash if face is not None else 0)

    def __str__(self) -> str:
        return f"{self.card}={self.face}" if self.face is not None else str(self.card)

    @staticmethod
    def parse(text: str) -> CardSpec:
        """Parse ``7h``, ``jk`` or ``jk=8h`` / ``jk=8`` (a joker standing for a nine of any suit).

        Raises :class:`engine.errors.CardParseError`.
        """
        if "=" in text:
            left, right = text.split("=", 1)
            card = parse_card(left)
            if not card.is_joker:
                raise CardParseError(text)
            return CardSpec(card, parse_face(right))
        return CardSpec(parse_card(text))


@fast_init
@dataclass(frozen=True, slots=True)
class Placed:
    """A card on the table: the physical ``card``, the ``face`` it stands for, its owner."""

    card: Card
    face: Card
    owner: int

    def __hash__(self) -> int:
        # one call instead of a tuple hash (melds key the lay-off caches)
        return (self.card._hash << 9 | self.face._hash) ^ self.owner << 18

    def __str__(self) -> str:
        return f"{self.card}={self.face}" if self.card.is_joker else str(self.card)


@fast_init
@dataclass(frozen=True, slots=True)
class Meld:
    """A meld on the table. Runs are ordered from low to high; ``owner`` melded it."""

    kind: MeldKind
    cards: tuple[Placed, ...]
    owner: int

    def __hash__(self) -> int:
        # not through the kind's Enum.__hash__ (a Python call hashing its name)
        return hash(self.cards) ^ self.owner << 1 ^ (self.kind is MeldKind.SET)

    @property
    def faces(self) -> tuple[Card, ...]:
        """The faces in table order (jokers as the card they stand for)."""
        return tuple(p.face for p in self.cards)

    @property
    def rank(self) -> int:
        """The rank of a set (undefined, 0, for a run)."""
        return self.cards[0].face.rank if self.kind is MeldKind.SET else 0

    def __str__(self) -> str:
        return " ".join(str(p) for p in self.cards)


@functools.lru_cache(maxsize=4096)
def shared_placed(card: Card, face: Card, owner: int) -> Placed:
    """One shared instance per placed card (the readings of thousands of candidate melds
    repeat the same few hundred)."""
    return Placed(card, face, owner)


@functools.cache
def natural_spec(card: Card) -> CardSpec:
    """The shared spec of a natural card (specs are immutable, and candidate lists make
    thousands of them)."""
    return CardSpec(card)


@functools.cache
def joker_spec(rank: int, suit: Suit | None) -> CardSpec:
    """The shared spec of a joker standing for ``rank`` of ``suit`` (any suit: ``None``)."""
    return CardSpec(JOKER, shared_card(rank, suit))


class MeldProblem(Exception):
    """Why a group of cards is not a meld; ``reason`` is a stable code, ``detail`` English."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


def rank_at(position: int) -> int:
    """Rank at a run position: 1..13 as usual, 14 = ace high, 15 = two after the ace (around)."""
    return (position - 1) % 13 + 1


def run_windows(length: int, ace: AceMode) -> range:
    """Start positions allowed for a run of ``length`` under the ace rule."""
    if length > 13:
        return range(0)
    if ace is AceMode.LOW:
        return range(1, 13 - length + 2)
    if ace is AceMode.HIGH_OR_LOW:
        return range(1, 14 - length + 2)
    return range(1, 14)


def _set_readings(specs: Sequence[CardSpec], owner: int, rules: MeldRules) -> list[Meld]:
    naturals = [s.card for s in specs if not s.card.is_joker]
    ranks = {c.rank for c in naturals}
    if len(ranks) != 1 or len(specs) > rules.max_set:
        return []
    rank = next(iter(ranks))
    suits = [c.suit for c in naturals]
    declared = [s.face for s in specs if s.card.is_joker and s.face is not None]
    for face in declared:
        if face.rank != rank:
            return []
        if face.suit is not None:
            suits.append(face.suit)
    if len(set(suits)) != len(suits):
        return []
    return [declared_set(specs, owner, rank)]


def _run_readings(specs: Sequence[CardSpec], owner: int, rules: MeldRules) -> list[Meld]:
    naturals = [s.card for s in specs if not s.card.is_joker]
    suits = {c.suit for c in naturals}
    declared = [s.face for s in specs if s.card.is_joker and s.face is not None]
    suits |= {f.suit for f in declared}
    if len(suits) != 1 or None in suits:
        return []
    suit = next(iter(suits))
    assert suit is not None
    # The ranks named (natural cards and declared faces), each once at most, as a mask:
    # a window of the run holds them all, undeclared jokers fill the rest of it.
    need = 0
    for rank in [c.rank for c in naturals] + [f.rank for f in declared]:
        if need >> rank & 1:
            return []
        need |= 1 << rank
    by_rank_natural = {c.rank: c for c in naturals}
    out: list[Meld] = []
    for window, mask in run_window_masks(len(specs), rules.ace):
        if need & ~mask:
            continue
        placed = []
        for r in window:
            natural = by_rank_natural.get(r)
            placed.append(
                shared_placed(JOKER if natural is None else natural, shared_card(r, suit), owner)
            )
        out.append(Meld(MeldKind.RUN, tuple(placed), owner))
    return out


@functools.cache
def run_window_masks(length: int, ace: AceMode) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The windows of a run of ``length`` under ``ace`` in start order: (the ranks in
    order, their bit mask by rank)."""
    out = []
    for start in run_windows(length, ace):
        window = tuple(rank_at(p) for p in range(start, start + length))
        mask = 0
        for rank in window:
            mask |= 1 << rank
        out.append((window, mask))
    return tuple(out)


def declared_run(specs: Sequence[CardSpec], owner: int) -> Meld:
    """The run ``specs`` make in this order (low to high) when every joker among them
    declares the card it stands for: the one reading :func:`readings` finds for such a
    group, built without a search. No check: the caller builds ``specs`` as a run (a
    generated candidate of one reading, :func:`engine.candidates.one_reading_groups`)."""
    return Meld(
        MeldKind.RUN,
        tuple(shared_placed(s.card, s.card if s.face is None else s.face, owner) for s in specs),
        owner,
    )


def declared_set(specs: Sequence[CardSpec], owner: int, rank: int = 0) -> Meld:
    """The set ``specs`` make, a joker standing for its declared face or else for ``rank``
    in no given suit: the one reading of :func:`readings` (naturals by suit, then jokers),
    built without a search. No check: the caller builds ``specs`` as a set."""
    placed = [
        shared_placed(
            s.card, s.card if not s.card.is_joker else s.face or shared_card(rank, None), owner
        )
        for s in specs
    ]
    placed.sort(key=lambda p: (p.card.is_joker, p.face.sort_key))
    return Meld(MeldKind.SET, tuple(placed), owner)


def readings(specs: Sequence[CardSpec], owner: int, rules: MeldRules) -> list[Meld]:
    """Every valid reading of ``specs`` as one new meld owned by seat ``owner``.

    Returns ``[]`` when the cards are no meld; one entry when the meld is
    clear; several when jokers without a declared face allow several melds
    (rummy-500.de.txt: "Wenn Sie die -9 mit zwei Jokern melden würden, müssten
    Sie festlegen, ob diese Meldung einen Satz von Neunern oder eine Folge
    darstellen soll"). Use :func:`check_meld` for the reason of a failure.
    Results are cached per (specs, owner, rules): the legal moves list a meld and then
    check it again, and the same melds recur turn after turn.
    """
    return list(_readings(tuple(specs), owner, rules))


# 2,048 entries: a full garbage collection walks every object a cache holds (8,192
# entries held 47,000 objects in a long Romanian run, 65,536 entries 300,000), and random
# play ran as fast with 2,048 (hits 89-96 % either way).
@functools.lru_cache(maxsize=2048)
def _readings(specs: tuple[CardSpec, ...], owner: int, rules: MeldRules) -> tuple[Meld, ...]:
    if len(specs) < rules.min_cards:
        return ()
    if sum(1 for s in specs if not s.card.is_joker) < rules.min_naturals:
        return ()
    found = _set_readings(specs, owner, rules) + _run_readings(specs, owner, rules)
    return tuple(m for m in found if rules.accepts(m))


def check_meld(specs: Sequence[CardSpec], owner: int, rules: MeldRules) -> list[Meld]:
    """Like :func:`readings` but raises :class:`MeldProblem` with a reason when there is none."""
    found = readings(specs, owner, rules)
    if found:
        return found
    if rules.check is not None:
        unchecked = readings(specs, owner, replace(rules, check=None))
        for meld in unchecked:
            problem = rules.check(meld)
            if problem is not None:
                raise problem
    if len(specs) < rules.min_cards:
        raise MeldProblem("too_few", f"a meld needs at least {rules.min_cards} cards")
    naturals = [s.card for s in specs if not s.card.is_joker]
    if len(naturals) < rules.min_naturals:
        raise MeldProblem("too_many_jokers", "too many jokers")
    ranks = {c.rank for c in naturals}
    suits = {c.suit for c in naturals}
    if len(ranks) == 1:
        if len(specs) > rules.max_set:
            raise MeldProblem("set_too_big", f"a set has at most {rules.max_set} cards")
        raise MeldProblem("set_suits", "a set needs cards of different suits")
    if len(suits) != 1:
        raise MeldProblem("mixed", "neither one rank (set) nor one suit (run)")
    if any(c.rank == ACE for c in naturals) and rules.ace is not AceMode.AROUND:
        raise MeldProblem("ace_position", "the ace cannot stand there in a run")
    raise MeldProblem("not_consecutive", "the cards of a run must be consecutive")


def extend_readings(
    meld: Meld, specs: Sequence[CardSpec], owner: int, rules: MeldRules
) -> list[Meld]:
    """Every valid meld that results from laying ``specs`` off on ``meld``.

    Cards already on the table keep their faces and order: basic-rummy.de.txt
    "Es ist Ihnen nicht gestattet, die Meldungen dabei neu anzuordnen." New
    cards are owned by ``owner``. Returns ``[]`` when the lay-off is invalid. Results are
    cached per (meld, cards, owner, rules): the melds on the table and the cards in hand
    stay the same for many turns, and legal-move lists ask again each turn.
    """
    if not _may_fit(meld, specs):
        return []
    return list(_extend_readings(meld, tuple(specs), owner, rules))


# 512 entries: a lay-off question recurs within a deal (the same melds, the same hand); a
# bigger cache is more heap for the garbage collector to walk (2,048 held 19,000 objects).
@functools.lru_cache(maxsize=512)
def _extend_readings(
    meld: Meld, specs: tuple[CardSpec, ...], owner: int, rules: MeldRules
) -> tuple[Meld, ...]:
    if len(specs) == 1 and meld.kind is MeldKind.RUN:
        return _extend_run(meld, specs[0], owner, rules)
    return _extend_any(meld, specs, owner, rules)


def _extend_any(
    meld: Meld, specs: tuple[CardSpec, ...], owner: int, rules: MeldRules
) -> tuple[Meld, ...]:
    """:func:`_extend_readings` by reading the old meld's cards and ``specs`` afresh as one
    meld (:func:`_set_readings`, :func:`_run_readings`) and keeping the readings in which
    the cards on the table keep their owners, faces and (in a run) order."""
    existing = [
        CardSpec(p.card, p.face) if p.card.is_joker else CardSpec(p.card) for p in meld.cards
    ]
    combined = existing + list(specs)
    found: list[Meld] = []
    if meld.kind is MeldKind.SET:
        candidates = _set_readings(combined, owner, rules)
    else:
        candidates = _run_readings(combined, owner, rules)
    old_faces = [p.face for p in meld.cards]
    for cand in candidates:
        if not rules.accepts(cand):
            continue
        placed = _merge_owners(meld, cand, owner)
        if placed is None:
            continue
        if meld.kind is MeldKind.RUN:
            # Existing cards must stay a contiguous block in the same order.
            faces = [p.face for p in placed]
            idx = _find_block(faces, old_faces)
            if idx < 0:
                continue
        found.append(Meld(meld.kind, tuple(placed), meld.owner))
    return tuple(found)


def _extend_run(meld: Meld, spec: CardSpec, owner: int, rules: MeldRules) -> tuple[Meld, ...]:
    """:func:`_extend_readings` of one card on a run, built from the run's ranks instead
    of read afresh: the cards on the table keep their places, faces and owners, so the
    new card (a joker for the face it declares, or for any rank that fits) goes at the
    front or the back of a window of the run's length plus one that holds every rank
    named; windows in start order, as the full reading lists them (two where an ace may
    stand low or high, up to two in a run round the corner)."""
    cards = meld.cards
    suit = cards[0].face.suit
    card = spec.card
    face = spec.face if card.is_joker else card
    if suit is None or (face is not None and face.suit is not suit):
        return ()
    old = tuple(p.face.rank for p in cards)
    need = 0
    for rank in old:
        need |= 1 << rank
    if face is not None:
        if need >> face.rank & 1:
            return ()
        need |= 1 << face.rank
    found: list[Meld] = []
    for window, mask in run_window_masks(len(cards) + 1, rules.ace):
        if need & ~mask:
            continue
        if window[1:] == old:
            new = Placed(card, shared_card(window[0], suit), owner)
            run = Meld(MeldKind.RUN, (new, *cards), meld.owner)
        elif window[:-1] == old:
            new = Placed(card, shared_card(window[-1], suit), owner)
            run = Meld(MeldKind.RUN, (*cards, new), meld.owner)
        else:
            continue  # the cards on the table would not stay one block in their order
        if rules.accepts(run):
            found.append(run)
    return tuple(found)


def new_face(old: Meld, reading: Meld) -> Card:
    """The face of the one card ``reading`` (``old`` after a one-card lay-off) has more."""
    faces = list(reading.faces)
    for face in old.faces:
        faces.remove(face)
    return faces[0]


def layoff_choices(
    meld: Meld, card: Card, owner: int, rules: MeldRules
) -> list[tuple[CardSpec, Meld]]:
    """The ways to lay ``card`` off alone on ``meld``, as the spec a move names and the
    meld it makes: the card itself when one reading fits; for a joker that fits several
    places, one spec per declared face that leaves one reading (a face both ends of a
    wrapping run would show, e.g. the 8 on a run 9..7 with the ace around, names no one
    place and is no lay-off). ``[]`` when the card does not fit. Rule: a joker's player
    says what it stands for (rummy-500.de.txt "Wenn ein Spieler einen Joker auslegt, muss
    er ansagen, für welchen Wert der Joker steht")."""
    found = extend_readings(meld, (CardSpec(card),), owner, rules)
    if len(found) == 1:
        return [(CardSpec(card), found[0])]
    if not card.is_joker:
        return []
    by_face: dict[Card, list[Meld]] = {}
    for reading in found:
        by_face.setdefault(new_face(meld, reading), []).append(reading)
    return [(CardSpec(card, face), rs[0]) for face, rs in by_face.items() if len(rs) == 1]


class LayoffIndex:
    """Which melds of a table a natural card may be laid off on, read from each meld's open
    ends: a set takes its rank while it has room, a run takes its suit just below its
    first face or just above its last (around the ace included). A necessary condition
    only: :func:`extend_readings` decides. Built once per table, asked per card.

    basic-rummy.de.txt: "Die zu einer Meldung hinzugefügten Karten müssen eine andere
    gültige Meldung vornehmen" (a lay-off extends a meld; it is never put in the middle:
    "Es ist Ihnen nicht gestattet, die Meldungen dabei neu anzuordnen").
    """

    __slots__ = ("_by_key", "_by_rank", "_count")

    def __init__(self, melds: Sequence[Meld], rules: MeldRules) -> None:
        by_rank: dict[int, list[int]] = {}
        by_key: dict[int, list[int]] = {}  # by the card's integer key (Card._hash)
        for index, meld in enumerate(melds):
            if meld.kind is MeldKind.SET:
                if len(meld.cards) < rules.max_set:
                    by_rank.setdefault(meld.cards[0].face.rank, []).append(index)
                continue
            first, last = meld.cards[0].face, meld.cards[-1].face
            for rank in {first.rank - 1 or 13, last.rank % 13 + 1}:
                by_key.setdefault(shared_card(rank, first.suit)._hash, []).append(index)
        self._by_rank = by_rank
        self._by_key = by_key
        self._count = len(melds)

    def targets(self, card: Card) -> Sequence[int]:
        """Indices (ascending) of the melds ``card`` may extend; every meld for a joker."""
        if card.is_joker:
            return range(self._count)
        sets = self._by_rank.get(card.rank)
        runs = self._by_key.get(card._hash)
        if sets is None:
            return runs or ()
        return sets if runs is None else sorted(sets + runs)


@reuse_last_tuple
def layoff_index(melds: Sequence[Meld], rules: MeldRules) -> LayoffIndex:
    """The :class:`LayoffIndex` of ``melds``; for a tuple (a state's table, immutable) the
    last one built is reused while the same object is asked about again
    (:func:`engine.memo.reuse_last_tuple`; legal-move lists ask once per card)."""
    return LayoffIndex(melds, rules)


def _may_fit(meld: Meld, specs: Sequence[CardSpec]) -> bool:
    """A quick necessary condition for :func:`extend_readings` (the lay-off search asks
    about every card and meld): a natural card joins a set only with the set's rank, and a
    run only in the run's suit with a face the run does not show yet."""
    first = meld.cards[0].face
    for spec in specs:
        card = spec.card
        if card.is_joker:
            continue
        if meld.kind is MeldKind.SET:
            if card.rank != first.rank:
                return False
        elif card.suit != first.suit or any(p.face == card for p in meld.cards):
            return False
    return True


def _find_block(faces: list[Card], block: list[Card]) -> int:
    for i in range(len(faces) - len(block) + 1):
        if faces[i : i + len(block)] == block:
            return i
    return -1


def _merge_owners(old: Meld, new: Meld, owner: int) -> list[Placed] | None:
    """Give cards that were already on the table their old owners back."""
    pool = list(old.cards)
    out = []
    for p in new.cards:
        match = next(
            (
                q
                for q in pool
                if q.card == p.card
                and (not q.card.is_joker or q.face == p.face or q.face.suit is None)
            ),
            None,
        )
        if match is not None:
            pool.remove(match)
            out.append(Placed(p.card, match.face if match.card.is_joker else p.face, match.owner))
        else:
            out.append(Placed(p.card, p.face, owner))
    if pool:
        return None
    return out


def joker_swap_target(meld: Meld, card: Card) -> int:
    """Index in ``meld.cards`` of the joker that the natural ``card`` may replace, or -1.

    A joker in a run stands for one exact card; a joker in a set without a
    declared suit stands for any missing suit of its rank (Wrotham Rummy in
    basic-rummy.de.txt: "Ein Spieler, der die Karte hält, die ein gemeldeter
    Joker darstellt, kann während seines Zuges die echte Karte gegen den Joker
    eintauschen.").
    """
    if card.is_joker:
        return -1
    present = {p.face.suit for p in meld.cards if p.face.suit is not None}
    for i, p in enumerate(meld.cards):
        if not p.card.is_joker:
            continue
        if p.face == card:
            return i
        if (
            meld.kind is MeldKind.SET
            and p.face.suit is None
            and p.face.rank == card.rank
            and card.suit not in present
        ):
            return i
    return -1


def describe(meld: Meld) -> str:
    """Short English description for messages: ``'run 6h 7h jk=8h'`` / ``'set of 9'``."""
    if meld.kind is MeldKind.SET:
        return f"set {meld}"
    return f"run {meld}"
