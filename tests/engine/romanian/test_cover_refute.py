"""The quick refutation before the going-out walk (engine/variants/romanian/cover_refute.py)
is sound: it says "no way out" only for racks that have none, held against the brute
force on small racks (with table melds, an opening value, a tile kept and a meld owed),
against built racks with a way out, and against the stored corpus of the slowest
questions of the bench's games.

romanian-rummy.de.txt: "Um das Spiel zu gewinnen, muss man alle Steine, die man noch
hat, melden bis auf einen Stein – dieser letzte Stein muss abgelegt werden." The answer
to that question may never depend on a shortcut: a refutation that refused a rack with a
way out would forbid a legal move.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.cover_corpus import load
from engine.cards import Card, parse_card, parse_cards
from engine.melds import Meld
from engine.variants.romanian.cover import _Cover, cover
from engine.variants.romanian.cover_refute import refutes
from engine.variants.romanian.cover_refute_sets import NEVER, least_set_jolys
from engine.variants.romanian.state import Obligation

from .cover_oracle import built_rack, has_cover
from .test_cover import TABLE, racks


def _refuted(
    rack: Sequence[Card],
    melds: Sequence[Meld] = (),
    targets: Sequence[int] = (),
    need: int | None = None,
    keep: Card | None = None,
    owed: Obligation | None = None,
) -> list[bool]:
    """The refutation's answer up and down the run places."""
    return [
        refutes(_Cover(rack, melds, targets, need, keep, owed, None, down))
        for down in (False, True)
    ]


@settings(deadline=None)
@given(racks(), st.sampled_from([None, None, 20, 35, 50]), st.data())
def test_a_refuted_rack_has_no_way_out(
    rack: list[Card], need: int | None, data: st.DataObject
) -> None:
    """Small racks of the real tiles, with table melds, an opening value, a tile that may
    not be discarded and a meld owed (a tile from the row with the rack before the take,
    a freed Joly, the previous discard of an opening): whenever the refutation says "no
    way out" (either direction), the brute force finds none."""
    targets = tuple(data.draw(st.sets(st.integers(0, len(TABLE) - 1), max_size=3)))
    if need is not None:
        targets = ()
    keep = data.draw(st.sampled_from([None, *rack]))
    owed = None
    if data.draw(st.booleans()):
        tile = data.draw(st.sampled_from(rack))
        before = list(rack)
        before.remove(tile)
        if data.draw(st.booleans()):
            before = data.draw(st.lists(st.sampled_from(before), max_size=4)) if before else []
        kind = data.draw(
            st.sampled_from(["row", "opening", "joly"] if tile.is_joker else ["row", "opening"])
        )
        owed = Obligation(kind, tile, tuple(before) if kind == "row" else ())
    refuted = _refuted(rack, TABLE, targets, need, keep, owed)
    if any(refuted):
        assert not has_cover(rack, TABLE, targets, need, keep, owed), (rack, targets, owed)


def test_a_set_owed_from_the_row_refutes_a_rack_whose_set_lacks_the_rack_tiles() -> None:
    """A tile taken from the row must be melded with two tiles of the rack before the take
    ("Wenn man zwei Steine auf seinem Ständer hat, mit denen man einen Satz oder eine
    Folge mit irgendeinem Stein der abgelegten Steine vervollständigen kann"): k11 taken
    with y11 b11 r11 but only r11 was on the rack before, and no run of black can hold
    two rack tiles: no way out, and the refutation proves it; with y11 and b11 on the
    rack before, k11 y11 b11 pays and r11 is the discard."""
    rack = parse_cards("k11 y11 b11 r11")
    tile = parse_card("k11")
    lacking = Obligation("row", tile, tuple(parse_cards("r11 y5")))
    assert _refuted(rack, owed=lacking) == [True, True]
    assert cover(rack, owed=lacking) is None
    assert not has_cover(rack, owed=lacking)
    paying = Obligation("row", tile, tuple(parse_cards("y11 b11")))
    assert _refuted(rack, owed=paying) == [False, False]
    assert cover(rack, owed=paying) is not None


def test_built_racks_with_a_way_out_are_never_refuted() -> None:
    """Racks of 30 to 60 tiles built from melds and one tile more (0-2 Jolys): each has a
    way out, and the refutation never says otherwise."""
    rng = random.Random(45)
    for _ in range(20):
        rack = built_rack(rng, rng.randint(30, 60), rng.choice((0, 1, 2)))
        assert _refuted(rack) == [False, False], sorted(map(str, rack))


def test_the_corpus_of_slow_questions() -> None:
    """The 50 slowest questions of the bench's 1,000 games (benchmarks/
    romanian_cover_corpus.json, each with its stored answer): none with a way out is
    refuted, and the slowest of all (seed 2981, action 137: 59 tiles owing k11 from the
    row with no way out) is refuted in both directions, as are most without one."""
    corpus = load()
    refuted = 0
    for q in corpus:
        answers = _refuted(q.hand, q.melds, q.targets, q.need, q.keep, q.owed)
        if q.found:
            assert answers == [False, False], (q.seed, q.action)
        refuted += all(answers)
        if (q.seed, q.action) == (2981, 137):
            assert answers == [True, True]
    assert refuted >= sum(1 for q in corpus if not q.found) - 1


def test_the_sets_of_a_number() -> None:
    """Sets have three or four colours, or two and a Joly ("Ein Satz (terta) besteht aus
    drei oder vier Steinen mit derselben Zahl und in verschiedenen Farben"; "Eine Meldung
    muss immer mindestens doppelt so viele echte Steine enthalten wie Jolys"); a table set
    takes tiles of the colours it lacks, four tiles at most."""
    assert least_set_jolys((1, 1, 1, 0), (), -1, 0) == 0
    assert least_set_jolys((1, 1, 0, 0), (), -1, 0) == 1
    assert least_set_jolys((2, 2, 0, 0), (), -1, 0) == 2
    assert least_set_jolys((1, 0, 0, 0), (), -1, 0) == NEVER
    assert least_set_jolys((2, 1, 1, 1), (), -1, 0) == 1
    assert least_set_jolys((1, 0, 0, 0), ((0b1110, 3),), -1, 0) == 0
    assert least_set_jolys((1, 1, 0, 0), ((0b1100, 3),), -1, 0) == 1  # one fits the table set
    # the set owed: colour 0 with two tiles of the rack before the take (colours 1, 2)
    assert least_set_jolys((1, 1, 1, 0), (), 0, 0b0110) == 0
    assert least_set_jolys((1, 1, 1, 0), (), 0, 0b0010) == NEVER
