"""The new melds of a rack as packed shapes: what the opening search reads of a meld (its
tiles, its value, whether it is a run), without building the meld.

romanian-rummy.de.txt: "Bei der ersten Meldung muss man Meldungen von seinem Ständer
machen, die folgende Bedingungen erfüllen: Bei den Meldungen muss mindestens eine eine
Folge sein; Der Gesamtwert der Meldungen muss mindestens 50 Punkte betragen." Most racks
of a player who has not opened have no such melds, and the search that says so needs
only numbers per meld: :func:`new_meld_shapes` reads them off the candidate groups
(:func:`engine.candidates.one_reading_groups`), each group once while it stays cached,
instead of building every meld of :func:`engine.variants.romanian.plan.new_melds` (a
property test holds the two lists equal, shape for meld).

Tiles are packed into one int with a fixed field of :data:`FIELD` bits per tile kind,
numbers first (the four 1s, then the 2s, ...; the Jolys last): the count and a guard bit
on top. Taking a group from a rack is one subtraction of its packed tiles
from the rack with every guard set (:data:`GUARDS`): a field that held fewer tiles than
the group takes borrows its own guard, and no other field.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from engine.candidates import one_reading_groups
from engine.cards import JOKER, TILE_COLOURS, Card, shared_card
from engine.melds import CardSpec, joker_spec
from engine.memo import ByIdentity
from engine.variants.romanian.melds import MELD_RULES
from engine.variants.romanian.obligation import pays_with
from engine.variants.romanian.state import Obligation
from engine.variants.romanian.tiles import most_value, number_value

__all__ = [
    "FIELD",
    "GUARDS",
    "MOST",
    "TILE_OF",
    "Shape",
    "count",
    "joly_meld_specs",
    "kind_of",
    "lowest",
    "new_meld_shapes",
    "pack",
]

FIELD = 6
"""Bits per tile kind: the count and the guard bit. A game holds two of a tile at most;
the searches are also asked about made-up racks (property tests draw racks with many
copies of a few tiles), so a field holds up to 31 of a kind."""

_KINDS = 13 * 4 + 1
GUARDS: int = sum(1 << (FIELD * k + FIELD - 1) for k in range(_KINDS))
"""Every kind's guard bit."""

_COUNT_MASK = (1 << (FIELD - 1)) - 1


def kind_of(tile: Card) -> int:
    """The field of ``tile``: (number - 1) * 4 + its colour's place (red, yellow, blue,
    black), 52 for a Joly. The order of the fields is the order in which the going-out
    searches take tiles (lowest number first: :mod:`engine.variants.romanian.opening`). Raises
    ``KeyError`` for a card that is no tile."""
    return _KIND_OF[tile._hash]


TILE_OF: tuple[Card, ...] = (
    *(shared_card(number, colour) for number in range(1, 14) for colour in TILE_COLOURS),
    JOKER,
)
"""The tile of each field."""

_KIND_OF: dict[int, int] = {tile._hash: kind for kind, tile in enumerate(TILE_OF)}

MOST: tuple[int, ...] = tuple(most_value(tile) for tile in TILE_OF)
""":func:`engine.variants.romanian.tiles.most_value` of each field's tile."""


def pack(tiles: Iterable[Card]) -> int:
    """``tiles`` packed (at most 31 of a kind)."""
    kinds = _KIND_OF
    return sum(1 << FIELD * kinds[t._hash] for t in tiles)


def count(packed: int, kind: int) -> int:
    """How many tiles of field ``kind`` ``packed`` holds."""
    return (packed >> FIELD * kind) & _COUNT_MASK


def lowest(packed: int) -> int:
    """The first field ``packed`` (not empty) holds a tile in."""
    return ((packed & -packed).bit_length() - 1) // FIELD


@dataclass(frozen=True, slots=True)
class Shape:
    """A new meld as the searches read it: its ``specs`` (as a meld command names them), its
    ``tiles`` packed, their number (``size``), its opening ``value``
    (:func:`engine.variants.romanian.tiles.meld_value`), the ``most`` its tiles could add
    to an opening (:func:`engine.variants.romanian.tiles.most_value` each), whether it
    is a ``run`` and its ``first`` tile's face (a run's colour, a set's number)."""

    specs: tuple[CardSpec, ...]
    tiles: int
    size: int
    value: int
    most: int
    run: bool
    first: Card

    def pays(self, obligation: Obligation) -> bool:
        """:func:`engine.variants.romanian.obligation.pays` for the meld of this shape."""
        first = self.first
        return pays_with(obligation, self.run, first.suit, first.rank, [s.card for s in self.specs])


def _shape(specs: tuple[CardSpec, ...]) -> Shape:
    """The shape of a candidate group (every Joly's face declared: a set's its number)."""
    faces = [(s.face or s.card).rank for s in specs]
    run = faces[0] != faces[-1]
    value = 0
    for index, number in enumerate(faces):
        if number != 1:
            value += number_value(number)
        elif not run:
            value += 25  # "Jede 1 in einem Satz von Einsen 25 Punkte"
        else:
            value += 5 if index == 0 else 10  # 1-2-3 or ...-12-13-1
    return Shape(
        specs,
        pack(s.card for s in specs),
        len(specs),
        value,
        sum(most_value(s.card) for s in specs),
        run,
        specs[0].face or specs[0].card,
    )


# Per candidate group (shared cached tuples): its shape, and its shapes with a Joly in
# each place in turn. Small memos: see engine.memo.ByIdentity (512 as fast as 16,384).
_PLAIN: ByIdentity[tuple[CardSpec, ...], Shape] = ByIdentity(512)
_WITH_JOLY: ByIdentity[tuple[CardSpec, ...], tuple[Shape, ...]] = ByIdentity(512)


def _plain(group: tuple[CardSpec, ...]) -> Shape:
    shape = _PLAIN.get(group)
    return _PLAIN.put(group, _shape(group)) if shape is None else shape


def _with_joly(group: tuple[CardSpec, ...]) -> tuple[Shape, ...]:
    """The shapes of ``group`` (a run of real tiles) with a Joly standing for each of its
    tiles in turn."""
    shapes = _WITH_JOLY.get(group)
    if shapes is None:
        shapes = _WITH_JOLY.put(group, tuple(map(_shape, _joly_in_each_place(group))))
    return shapes


def _joly_in_each_place(group: tuple[CardSpec, ...]) -> Iterator[tuple[CardSpec, ...]]:
    """``group`` (a run of real tiles) with a Joly standing for each of its tiles in turn."""
    for i, s in enumerate(group):
        yield (*group[:i], joker_spec(s.card.rank, s.card.suit), *group[i + 1 :])


def _real_run(group: tuple[CardSpec, ...]) -> bool:
    """Whether the candidate ``group`` is a run without a Joly (a set's tiles share their
    number, a run's first and last differ)."""
    return (group[0].face or group[0].card).rank != (
        group[-1].face or group[-1].card
    ).rank and not any(s.card.is_joker for s in group)


def joly_meld_specs(hand: Sequence[Card]) -> Iterator[tuple[CardSpec, ...]]:
    """The specs of the shapes of :func:`new_meld_shapes` that hold a Joly (the melds that
    can take a freed Joly: "muss sofort mit zwei Steinen vom eigenen Ständer ausgelegt
    werden"), one by one and without building a shape: a caller asking whether one is
    playable stops at the first (a Joly exchange's check; the full list of a rack with a
    Joly is several times longer than the rack). Not in :func:`new_meld_shapes` order:
    the candidates with a Joly first, then each run of real tiles with the Joly in each
    place."""
    if not any(t.is_joker for t in hand):
        return
    groups = one_reading_groups(hand, MELD_RULES)
    for group in groups:
        if any(s.card.is_joker for s in group):
            yield group
    for group in groups:
        if _real_run(group):
            yield from _joly_in_each_place(group)


def new_meld_shapes(hand: Sequence[Card]) -> list[Shape]:
    """The melds of :func:`engine.variants.romanian.plan.new_melds` for ``hand`` (runs of
    any length) as shapes, in the same order: every meld of one reading the candidates
    make, then, when the rack holds a Joly, each run of real tiles again with a Joly
    standing for one of its tiles in turn ("two stay per Joly": a run of three real tiles
    keeps two)."""
    groups = one_reading_groups(hand, MELD_RULES)
    out = [_plain(g) for g in groups]
    if any(t.is_joker for t in hand):
        for shape in list(out):
            if shape.run and not any(s.card.is_joker for s in shape.specs):
                out.extend(_with_joly(shape.specs))
    return out
