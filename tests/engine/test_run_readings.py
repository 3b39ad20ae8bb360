"""Run readings by rank masks (engine/melds.py ``_run_readings``) against the window-by-
window reading they replaced: for any cards, jokers declared or not, under every ace rule,
the same readings in the same order.

basic-rummy.de.txt: "Eine Folge besteht aus drei oder mehr aufeinanderfolgenden Karten
derselben Farbe"; a joker stands for the card its player names, or any card that fits."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import JOKER, Card, Suit, standard_deck
from engine.melds import (
    AceMode,
    CardSpec,
    Meld,
    MeldKind,
    MeldRules,
    Placed,
    _run_readings,
    rank_at,
    run_windows,
)


def windows_one_by_one(specs: Sequence[CardSpec], owner: int, rules: MeldRules) -> list[Meld]:
    """The reading the masks replaced: each window of the run's length, its ranks matched
    against the named ranks one by one."""
    naturals = [s.card for s in specs if not s.card.is_joker]
    declared = [s.face for s in specs if s.card.is_joker and s.face is not None]
    suits = {c.suit for c in naturals} | {f.suit for f in declared}
    if len(suits) != 1 or None in suits:
        return []
    suit = next(iter(suits))
    named = [c.rank for c in naturals] + [f.rank for f in declared]
    if len({c.rank for c in naturals}) != len(naturals):
        return []
    out = []
    for start in run_windows(len(specs), rules.ace):
        window = [rank_at(p) for p in range(start, start + len(specs))]
        remaining = list(window)
        if not all(r in remaining and remaining.remove(r) is None for r in named):
            continue
        by_rank = {c.rank: c for c in naturals}
        out.append(
            Meld(
                MeldKind.RUN,
                tuple(Placed(by_rank.get(r, JOKER), Card(r, suit), owner) for r in window),
                owner,
            )
        )
    return out


PACK = standard_deck()
SPEC = st.one_of(
    st.sampled_from(PACK).map(CardSpec),
    st.just(CardSpec(JOKER)),
    st.sampled_from(PACK).map(lambda face: CardSpec(JOKER, face)),
)


@settings(deadline=None)
@given(st.lists(SPEC, min_size=1, max_size=14), st.sampled_from(list(AceMode)))
def test_masks_read_runs_as_the_windows_did(specs: list[CardSpec], ace: AceMode) -> None:
    rules = MeldRules(ace=ace)
    assert _run_readings(specs, 0, rules) == windows_one_by_one(specs, 0, rules)


def test_the_comparison_sees_real_runs() -> None:
    """Not only empty lists: jk 2c 3c reads twice (the joker as the ace below the 2, or
    as the 4 after the 3), jk=4c 2c 3c once."""
    rules = MeldRules(ace=AceMode.AROUND)
    two, three, four = (Card(r, Suit.CLUBS) for r in (2, 3, 4))
    specs = [CardSpec(JOKER), CardSpec(two), CardSpec(three)]
    found = _run_readings(specs, 0, rules)
    assert len(found) == 2 and found == windows_one_by_one(specs, 0, rules)
    declared = [CardSpec(JOKER, four), CardSpec(two), CardSpec(three)]
    assert [m.faces for m in _run_readings(declared, 0, rules)] == [(two, three, four)]
