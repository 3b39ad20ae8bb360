"""The new melds of a rack as packed shapes (engine/variants/romanian/shapes.py) against the
melds they stand for (engine/variants/romanian/plan.py ``new_melds`` builds them from the
shapes; test_plan_precheck holds those melds equal to the readings of the candidates):
what a shape says of its meld (tiles, value, most, obligation paid) is computed from the
meld here.

romanian-rummy.de.txt: "Bei der ersten Meldung muss man Meldungen von seinem Ständer
machen, die folgende Bedingungen erfüllen: Bei den Meldungen muss mindestens eine eine
Folge sein; Der Gesamtwert der Meldungen muss mindestens 50 Punkte betragen." The
opening search reads each meld's tiles, value and kind from its shape."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import JOKER, Card, parse_cards
from engine.melds import MeldKind
from engine.variants.romanian.obligation import pays
from engine.variants.romanian.plan import new_melds, specs_of
from engine.variants.romanian.shapes import (
    GUARDS,
    count,
    joly_meld_specs,
    kind_of,
    new_meld_shapes,
    pack,
)
from engine.variants.romanian.state import Obligation
from engine.variants.romanian.tiles import meld_value, most_value, tile_set

TILES = tile_set()
# racks drawn from the 106 tiles (two of each, two Jolys)
RACKS = st.tuples(st.permutations(TILES), st.integers(0, 40)).map(lambda p: p[0][: p[1]])


@settings(deadline=None)
@given(RACKS, st.integers(1, 10), st.sampled_from(TILES), st.sampled_from(["row", "joly"]))
def test_the_shapes_are_the_new_melds(rack: list[Card], low: int, owed: Card, kind: str) -> None:
    """Shape for meld, in the same order: the tiles (a Joly as itself), the value at the
    opening table ("1 in einer Folge von 1-2-3-… 5 Punkte", "…-12-13-1 10 Punkte", "Jede 1
    in einem Satz von Einsen 25 Punkte"), the most its tiles could bring, set or run, and
    whether it pays a meld owed ("... darf man diesen Stein aufnehmen und die Meldung
    machen"; a freed Joly "sofort mit zwei Steinen vom eigenen Ständer")."""
    near = [c for c in rack if c.is_joker or low <= c.rank < low + 5] + rack[::3]
    obligation = Obligation(kind, owed, tuple(rack[1::2]))
    for tiles in (near, rack):
        melds = new_melds(tiles, 0)
        shapes = new_meld_shapes(tiles)
        assert [s.specs for s in shapes] == [specs_of(m) for m in melds]
        for shape, meld in zip(shapes, melds, strict=True):
            cards = [p.card for p in meld.cards]
            assert shape.tiles == pack(cards)
            assert (shape.size, shape.value, shape.most, shape.run) == (
                len(cards),
                meld_value(meld),
                sum(most_value(c) for c in cards),
                meld.kind is MeldKind.RUN,
            )
            assert shape.pays(obligation) == pays(obligation, meld)
        assert new_meld_shapes(tiles) == shapes  # asked again: the memo answers alike
        # the melds that can take a freed Joly, as the Joly exchange's check lists them
        assert Counter(joly_meld_specs(tiles)) == Counter(
            s.specs for s in shapes if any(spec.card.is_joker for spec in s.specs)
        )


def test_a_joly_stands_for_each_tile_of_a_run_of_real_tiles() -> None:
    """A rack with a Joly has the runs the Joly extends (jk=y10 y11 y12, ..., y12 y13
    jk=y1) and, last, its run of real tiles y11 y12 y13 with the Joly in each place in
    turn (worth 30 each: "10 bis 13 jeder Stein 10 Punkte", a Joly counting as the tile
    it stands for)."""
    shapes = new_meld_shapes(parse_cards("y11 y12 y13 jk r2"))
    runs = [" ".join(str(x) for x in s.specs) for s in shapes if s.run]
    assert runs[-3:] == ["jk=y11 y12 y13", "y11 jk=y12 y13", "y11 y12 jk=y13"]
    assert runs[0] == "jk=y10 y11 y12" and "y11 y12 y13" in runs
    assert {s.value for s in shapes[-3:]} == {30}


@given(RACKS)
def test_packing_counts_each_kind_in_its_own_field(rack: list[Card]) -> None:
    """Each kind in its own field (two of a tile in a game, two Jolys): a group is taken
    from the rack by one subtraction, and a field short of tiles borrows its guard."""
    held = Counter(rack)
    packed = pack(rack)
    assert all(count(packed, kind_of(t)) == n for t, n in held.items())
    assert packed & GUARDS == 0
    for tile in {*TILES, JOKER}:  # one more than the rack holds: the guard is borrowed
        taken = ((packed | GUARDS) - pack([tile] * (held[tile] + 1))) & GUARDS
        assert taken != GUARDS
