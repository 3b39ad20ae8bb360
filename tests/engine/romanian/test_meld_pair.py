"""The condition of a deeper take from the discard row (engine/variants/romanian/moves.py
``has_meld_pair``) against reading every pair of rack tiles with the row tile as a meld.

romanian-rummy.de.txt: "Wenn man zwei Steine auf seinem Ständer hat, mit denen man einen
Satz oder eine Folge mit irgendeinem Stein der abgelegten Steine vervollständigen kann,
darf man diesen Stein aufnehmen"."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import JOKER, Card, parse_card, parse_cards
from engine.melds import CardSpec, readings
from engine.variants.romanian.melds import MELD_RULES
from engine.variants.romanian.moves import has_meld_pair
from engine.variants.romanian.tiles import tile_set

TILES = tile_set()


def pair_readings(rack: list[Card], tile: Card) -> bool:
    """Some two real tiles of ``rack`` of the tile's number or colour (any two for a
    Joly) read as one meld with ``tile`` (the pairwise test the number-and-colour reading
    replaced)."""
    naturals = sorted(
        {
            c
            for c in rack
            if not c.is_joker and (tile.is_joker or c.rank == tile.rank or c.suit == tile.suit)
        },
        key=lambda c: c.sort_key,
    )
    return any(
        readings([CardSpec(a), CardSpec(b), CardSpec(tile)], 0, MELD_RULES)
        for a, b in combinations(naturals, 2)
    )


@settings(deadline=None)
@given(
    st.lists(st.sampled_from(TILES), max_size=20),
    st.sampled_from([*TILES, JOKER]),
    st.integers(1, 11),
)
def test_the_pair_test_is_the_pairwise_reading(rack: list[Card], tile: Card, low: int) -> None:
    """Numbers and colours alone decide it: the 1 low (1 2 3) or after the 13 (12 13 1),
    never round the corner (13 1 2); a Joly of the row makes a meld with any two real
    tiles that make one with it ("Ein Joly kann anstelle irgendeines Steines stehen")."""
    near = [c for c in rack if c.is_joker or low <= c.rank < low + 4] + rack[::3]
    assert has_meld_pair(near, tile) == pair_readings(near, tile)


def test_the_one_after_the_thirteen_but_not_round_the_corner() -> None:
    """12 13 1 is a run, 13 1 2 is not; a set needs two more colours of the number."""
    assert has_meld_pair(parse_cards("y12 y13"), parse_card("y1"))
    assert not has_meld_pair(parse_cards("y13 y2"), parse_card("y1"))
    assert has_meld_pair(parse_cards("r7 b7 y9"), parse_card("k7"))
    assert not has_meld_pair(parse_cards("r7 k7 y9"), parse_card("k7"))


def test_a_joly_of_the_row_with_two_rack_tiles() -> None:
    """ "Wenn man zwei Steine auf seinem Ständer hat, mit denen man einen Satz oder eine
    Folge mit irgendeinem Stein der abgelegten Steine vervollständigen kann, darf man
    diesen Stein aufnehmen" and "Ein Joly kann anstelle irgendeines Steines stehen": r5 r6
    and the Joly are a run (the Joly as r4 or r7), r5 r7 one with the Joly as r6, r7 b7 a
    set; r5 r8, r7 r7, 13 and 2 of a colour (round the corner) and a rack Joly are not."""
    assert has_meld_pair(parse_cards("r5 r6"), JOKER)
    assert has_meld_pair(parse_cards("r5 r7"), JOKER)
    assert has_meld_pair(parse_cards("r7 b7"), JOKER)
    assert has_meld_pair(parse_cards("b13 b1"), JOKER)
    assert has_meld_pair(parse_cards("b12 b1"), JOKER)
    assert not has_meld_pair(parse_cards("r5 r8 k1"), JOKER)
    assert not has_meld_pair(parse_cards("r7 r7"), JOKER)
    assert not has_meld_pair(parse_cards("b13 b2"), JOKER)
    assert not has_meld_pair(parse_cards("r5 jk"), JOKER)
