"""Which melds pay the meld owed after taking a tile from deep in the discard row.

romanian-rummy.de.txt: "Wenn man zwei Steine auf seinem Ständer hat, mit denen man einen
Satz oder eine Folge mit irgendeinem Stein der abgelegten Steine vervollständigen kann,
darf man diesen Stein aufnehmen und die Meldung machen": the meld holds the taken tile
and at least two tiles that were on the rack before the take.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.cards import JOKER, Card, parse_cards
from engine.melds import Meld, MeldKind, Placed
from engine.variants.romanian.obligation import pays
from engine.variants.romanian.state import Obligation

POOL = [*parse_cards("r5 r6 r7 y5 b5 k5"), JOKER]


def _meld(tiles: list[Card]) -> Meld | None:
    """``tiles`` as a run (one colour) or a set (one number), a Joly's face declared; the
    order is kept (the numbers need not follow each other: only the tiles matter here).
    ``None`` for tiles that are neither."""
    real = [t for t in tiles if not t.is_joker]
    if not real:
        return None
    if len({t.suit for t in real}) == 1:
        kind, face = MeldKind.RUN, Card(13, real[0].suit)
    elif len({t.rank for t in real}) == 1:
        kind, face = MeldKind.SET, Card(real[0].rank, None)
    else:
        return None
    return Meld(kind, tuple(Placed(t, face if t.is_joker else t, 0) for t in tiles), 0)


def _pays_by_counting(owed: Obligation, tiles: list[Card]) -> bool:
    """The definition: the taken tile, and two of the others (as a multiset) from the
    rack before the take."""
    if owed.tile not in tiles or len(tiles) < 3:
        return False
    others = list(tiles)
    others.remove(owed.tile)
    return sum((Counter(others) & Counter(owed.rack)).values()) >= 2


@settings(deadline=None)
@given(
    st.sampled_from(POOL),
    st.lists(st.sampled_from(POOL), max_size=6),
    st.lists(st.sampled_from(POOL), min_size=2, max_size=5),
    st.integers(0, 5),
    st.sampled_from(["row", "joly"]),
)
def test_a_row_tile_is_paid_with_two_tiles_of_the_rack_before_the_take(
    tile: Card, rack: list[Card], others: list[Card], where: int, kind: str
) -> None:
    """Any meld holding the owed tile among others (for a freed Joly: any two)."""
    owed = Obligation(kind, tile, tuple(rack))
    tiles = [*others[:where], tile, *others[where:]]
    meld = _meld(tiles)
    assume(meld is not None)
    assert meld is not None
    expected = (
        _pays_by_counting(owed, tiles) if kind == "row" else (tile in tiles and len(tiles) >= 3)
    )
    assert pays(owed, meld) == expected


def test_tiles_taken_with_the_row_tile_do_not_count() -> None:
    """r5 was taken from the row; the rack before held one r6 only: r5 r6 r7 does not pay,
    r5 r6 r7 with r7 on the rack does; a second r6 counts only if the rack had two."""
    r5, r6, r7 = parse_cards("r5 r6 r7")
    run = _meld([r5, r6, r7])
    twice = _meld([r5, r6, r6])
    assert run is not None and twice is not None
    assert not pays(Obligation("row", r5, (r6,)), run)
    assert pays(Obligation("row", r5, (r6, r7)), run)
    assert not pays(Obligation("row", r5, (r6,)), twice)
    assert pays(Obligation("row", r5, (r6, r6)), twice)
    assert not pays(Obligation("row", r7, (r5, r6)), _meld([r5, r6, r6]))
    assert not pays(Obligation("row", r5, (r5, r6, r7)), _meld(parse_cards("y5 b5 k5")))
