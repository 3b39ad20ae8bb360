"""One card laid off on a run (engine/melds.py ``_extend_run``) against the full reading
it short-cuts (``_extend_any``): for any run on the table, any card, joker declared or
not, any owners, under every ace rule and the variants' joker checks, the same melds in
the same order.

basic-rummy.de.txt: "Die zu einer Meldung hinzugefügten Karten müssen eine andere gültige
Meldung vornehmen" and "Es ist Ihnen nicht gestattet, die Meldungen dabei neu anzuordnen"
(the cards on the table keep their places)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import JOKER, Card, Suit, shared_card, standard_deck
from engine.melds import (
    AceMode,
    CardSpec,
    Meld,
    MeldKind,
    MeldRules,
    Placed,
    _extend_any,
    _extend_run,
    extend_readings,
    rank_at,
    run_windows,
)
from engine.variants.german.melds import check_one_joker
from engine.variants.romanian.melds import check as romanian_check

PACK = standard_deck()
RULES = [
    MeldRules(ace=ace, min_cards=3, max_set=4, min_naturals=n, check=check)
    for ace in AceMode
    for n in (1, 2)
    for check in (None, check_one_joker)
]
RULES.append(
    MeldRules(ace=AceMode.HIGH_OR_LOW, min_cards=3, max_set=4, min_naturals=2, check=romanian_check)
)


@st.composite
def runs(draw: st.DrawFn) -> tuple[Meld, MeldRules]:
    """A run as it lies on the table: a window of 3..13 places under the rules' ace rule,
    some places held by jokers (their faces named), each card with its own owner."""
    rules = draw(st.sampled_from(RULES))
    length = draw(st.integers(3, 13))
    starts = run_windows(length, rules.ace)
    start = draw(st.sampled_from(list(starts)))
    suit = draw(st.sampled_from([Suit.CLUBS, Suit.HEARTS]))
    placed = []
    for position in range(start, start + length):
        face = shared_card(rank_at(position), suit)
        card = JOKER if draw(st.integers(0, 4)) == 0 else face
        placed.append(Placed(card, face, draw(st.integers(0, 3))))
    return Meld(MeldKind.RUN, tuple(placed), draw(st.integers(0, 3))), rules


SPEC = st.one_of(
    st.sampled_from(PACK).map(CardSpec),
    st.just(CardSpec(JOKER)),
    st.sampled_from(PACK).map(lambda face: CardSpec(JOKER, face)),
    st.sampled_from(PACK).map(lambda face: CardSpec(JOKER, Card(face.rank, None))),
)


@settings(deadline=None)
@given(runs(), SPEC, st.integers(0, 3))
def test_one_card_on_a_run_reads_as_the_full_reading(
    run: tuple[Meld, MeldRules], spec: CardSpec, owner: int
) -> None:
    """The short cut and the full reading agree card for card, owner for owner."""
    meld, rules = run
    fast = _extend_run(meld, spec, owner, rules)
    full = _extend_any(meld, (spec,), owner, rules)
    assert fast == full
    assert [[(p.card, p.face, p.owner) for p in m.cards] for m in fast] == [
        [(p.card, p.face, p.owner) for p in m.cards] for m in full
    ]


def test_the_short_cut_places_cards_at_either_end_only() -> None:
    """A card fits at the front or the back of the run; the ace may end a run 2..K on
    either side (two readings, low first), and a joker without a face fits both ends."""
    rules = MeldRules(ace=AceMode.HIGH_OR_LOW)
    five_to_seven = Meld(
        MeldKind.RUN, tuple(Placed(c, c, 0) for c in (Card(r, Suit.HEARTS) for r in (5, 6, 7))), 0
    )
    [low] = extend_readings(five_to_seven, (CardSpec(Card(4, Suit.HEARTS)),), 1, rules)
    assert [p.face.rank for p in low.cards] == [4, 5, 6, 7] and low.cards[0].owner == 1
    assert extend_readings(five_to_seven, (CardSpec(Card(9, Suit.HEARTS)),), 1, rules) == []
    assert extend_readings(five_to_seven, (CardSpec(Card(4, Suit.SPADES)),), 1, rules) == []
    both = extend_readings(five_to_seven, (CardSpec(JOKER),), 1, rules)
    assert [[p.face.rank for p in m.cards] for m in both] == [[4, 5, 6, 7], [5, 6, 7, 8]]
    two_to_king = Meld(
        MeldKind.RUN,
        tuple(Placed(Card(r, Suit.CLUBS), Card(r, Suit.CLUBS), 0) for r in range(2, 14)),
        0,
    )
    ace = extend_readings(two_to_king, (CardSpec(Card(1, Suit.CLUBS)),), 0, rules)
    assert [(m.cards[0].face.rank, m.cards[-1].face.rank) for m in ace] == [(1, 13), (2, 1)]
