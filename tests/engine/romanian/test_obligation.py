"""Which melds pay the meld owed after taking a tile from deep in the discard row.

romanian-rummy.de.txt: "Wenn man zwei Steine auf seinem Ständer hat, mit denen man einen
Satz oder eine Folge mit irgendeinem Stein der abgelegten Steine vervollständigen kann,
darf man diesen Stein aufnehmen und die Meldung machen": the meld holds the taken tile
and at least two tiles that were on the rack before the take.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import JOKER, Card, parse_cards
from engine.melds import Meld, MeldKind, Placed
from engine.variants.romanian.obligation import pays
from engine.variants.romanian.state import Obligation

POOL = [*parse_cards("r5 r6 r7 y5 b5 k5"), JOKER]


def _meld(tiles: list[Card]) -> Meld:
    return Meld(MeldKind.RUN, tuple(Placed(t, t, 0) for t in tiles), 0)


def _pays_by_counting(owed: Obligation, tiles: list[Card]) -> bool:
    """The definition: the taken tile, and two of the others (as a multiset) from the
    rack before the take."""
    if owed.tile not in tiles or len(tiles) < 3:
        return False
    others = list(tiles)
    others.remove(owed.tile)
    return sum((Counter(others) & Counter(owed.rack)).values()) >= 2


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(POOL), st.lists(st.sampled_from(POOL), max_size=6),
       st.lists(st.sampled_from(POOL), min_size=2, max_size=5))
def test_a_row_tile_is_paid_with_two_tiles_of_the_rack_before_the_take(
        tile: Card, rack: list[Card], others: list[Card]) -> None:
    owed = Obligation("row", tile, tuple(rack))
    tiles = [tile, *others]
    assert pays(owed, _meld(tiles)) == _pays_by_counting(owed, tiles)


def test_tiles_taken_with_the_row_tile_do_not_count() -> None:
    """r5 was taken from the row; the rack before held one r6 only: r5 r6 r7 does not pay,
    r5 r6 r7 with r7 on the rack does; a second r6 counts only if the rack had two."""
    r5, r6, r7 = parse_cards("r5 r6 r7")
    assert not pays(Obligation("row", r5, (r6,)), _meld([r5, r6, r7]))
    assert pays(Obligation("row", r5, (r6, r7)), _meld([r5, r6, r7]))
    assert not pays(Obligation("row", r5, (r6,)), _meld([r5, r6, r6]))
    assert pays(Obligation("row", r5, (r6, r6)), _meld([r5, r6, r6]))
    assert not pays(Obligation("row", r5, (r6, r7)), _meld([r6, r7, r6]))
