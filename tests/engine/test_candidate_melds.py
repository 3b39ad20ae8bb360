"""The candidate melds (engine/candidates.py ``candidate_melds``) against the plain
enumeration they replaced: for any hand, one or two packs, jokers, every ace rule and meld
size, the same melds in the same order.

basic-rummy.de.txt: "Eine Folge besteht aus drei oder mehr aufeinanderfolgenden Karten
derselben Farbe" and "Ein Satz besteht aus drei oder vier Karten desselben Ranges"; a
joker stands for any card ("Joker können jede beliebige Karte ersetzen")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.candidates import (
    MeldReach,
    candidate_melds,
    candidate_melds_with,
    holds_no_meld,
    may_meld_with,
    one_reading_groups,
)
from engine.cards import JOKER, Card, parse_cards, standard_deck
from engine.melds import AceMode, CardSpec, MeldRules, rank_at, readings, run_windows
from engine.rules import make_rules


def plain_candidates(hand: Sequence[Card], rules: MeldRules) -> list[tuple[CardSpec, ...]]:
    """Sets: each combination of a rank's suits with each joker count; runs: each window
    of each suit, jokers in its gaps, and where the window holds a card twice, every way
    to put spare jokers on held places (as candidate_melds documents)."""
    jokers = sum(1 for c in hand if c.is_joker)
    naturals = Counter(c for c in hand if not c.is_joker)
    out: list[tuple[CardSpec, ...]] = []
    by_rank: dict[int, list[Card]] = {}
    for card in naturals:
        by_rank.setdefault(card.rank, []).append(card)
    for rank, present in sorted(by_rank.items()):
        present.sort(key=lambda c: c.sort_key)
        for k in range(max(1, rules.min_naturals), min(len(present), rules.max_set) + 1):
            for combo in combinations(present, k):
                for j in range(min(jokers, rules.max_set - k) + 1):
                    if k + j >= rules.min_cards:
                        out.append(
                            tuple(CardSpec(c) for c in combo)
                            + (CardSpec(JOKER, Card(rank, None)),) * j
                        )
    for suit in sorted({c.suit for c in naturals if c.suit is not None}, key=lambda s: s.value):
        held = {c.rank for c in naturals if c.suit is suit}
        twice = {c.rank for c, n in naturals.items() if c.suit is suit and n > 1}
        for length in range(rules.min_cards, 14):
            for start in run_windows(length, rules.ace):
                window = [rank_at(p) for p in range(start, start + length)]
                present = [r for r in window if r in held]
                gaps = length - len(present)
                if gaps > jokers:
                    continue
                spare = jokers - gaps if twice & set(window) else 0
                for size in range(min(spare, len(present)) + 1):
                    for replaced in combinations(present, size):
                        have = len(present) - size
                        if have < rules.min_naturals or (size and have == 0):
                            continue
                        out.append(
                            tuple(
                                CardSpec(Card(r, suit))
                                if r in present and r not in replaced
                                else CardSpec(JOKER, Card(r, suit))
                                for r in window
                            )
                        )
    return out


PACK = [*standard_deck(2, 0), JOKER, JOKER, JOKER, JOKER]


@settings(deadline=None)
@given(
    st.lists(st.sampled_from(PACK), max_size=16),
    st.sampled_from(list(AceMode)),
    st.sampled_from([3, 4]),
    st.sampled_from([3, 4, 5, 8]),
    st.sampled_from([0, 1, 2]),
    st.integers(1, 9),
)
def test_the_candidates_are_the_plain_enumeration(
    hand: list[Card], ace: AceMode, min_cards: int, max_set: int, min_naturals: int, low: int
) -> None:
    # half of the cards from six neighbouring ranks: hands full of runs and sets
    near = [c for c in hand if c.is_joker or low <= c.rank < low + 6] + hand[::2]
    rules = MeldRules(ace=ace, min_cards=min_cards, max_set=max_set, min_naturals=min_naturals)
    assert candidate_melds(near, rules) == plain_candidates(near, rules)


@settings(deadline=None)
@given(
    st.lists(st.sampled_from(PACK), min_size=1, max_size=16),
    st.sampled_from(list(AceMode)),
    st.sampled_from([3, 4]),
    st.sampled_from([3, 4]),
    st.sampled_from([0, 1, 2]),
    st.integers(1, 9),
)
def test_the_melds_with_one_card_are_the_candidates_that_hold_it(
    hand: list[Card], ace: AceMode, min_cards: int, max_set: int, min_naturals: int, low: int
) -> None:
    """candidate_melds_with builds only the card's rank and suit: the same groups, in the
    same order, as the candidates of the whole hand that hold the card itself."""
    near = [c for c in hand if c.is_joker or low <= c.rank < low + 6] + hand[::2]
    rules = MeldRules(ace=ace, min_cards=min_cards, max_set=max_set, min_naturals=min_naturals)
    every = candidate_melds(near, rules)
    for card in {c for c in near if not c.is_joker}:
        assert candidate_melds_with(card, near, rules) == [
            g for g in every if any(s.card == card for s in g)
        ]


# Every variant's meld rules (its joker checks, ace rules) with two of its packs.
VARIANT_RULES = [
    make_rules(variant, options=options)
    for variant, options in (
        ("basic", {}),
        ("basic", {"ace": "around"}),
        ("basic", {"ace": "high_or_low"}),
        ("500", {}),
        ("german", {}),
        ("german", {"around": True, "one_joker": True}),
        ("romanian", {}),
    )
]
MELD_RULES = [(r.var.meld_rules(r), [*r.var.deck(r, 2), *r.var.deck(r, 2)]) for r in VARIANT_RULES]


@settings(deadline=None)
@given(st.sampled_from(MELD_RULES), st.data())
def test_the_one_reading_groups_are_the_candidates_read_once(
    variant: tuple[MeldRules, list[Card]], data: st.DataObject
) -> None:
    """one_reading_groups keeps a candidate without reading it: the same groups, in the
    same order, as the candidates whose readings (engine.melds.readings) are exactly one,
    under every variant's joker checks ("Sequenzen dürfen nicht mehr Joker als natürliche
    Karten enthalten", german-romme.de.txt) and ace rules (a run of all 13 ranks reads
    twice where the ace may stand high)."""
    rules, pack = variant
    hand = data.draw(st.lists(st.sampled_from(pack), max_size=30))
    low = data.draw(st.integers(1, 9))
    near = [c for c in hand if c.is_joker or low <= c.rank < low + 6] + hand[::2]
    for cards in (near, hand):
        expected = [g for g in candidate_melds(cards, rules) if len(readings(g, 0, rules)) == 1]
        assert one_reading_groups(cards, rules) == expected
        assert one_reading_groups(cards, rules) == expected  # asked again: the memo answers


NATURALS = standard_deck(2, 0)


@settings(deadline=None)
@given(
    st.lists(st.sampled_from(NATURALS), max_size=12),
    st.sampled_from(list(AceMode)),
    st.sampled_from([3, 4]),
    st.booleans(),
)
def test_the_quick_rejection_says_no_meld_exactly_when_there_is_none(
    hand: list[Card], ace: AceMode, min_cards: int, joker: bool
) -> None:
    """holds_no_meld answers the hands without a joker from one pass over the cards: True
    exactly when the plain enumeration finds no meld (a rank in ``min_cards`` suits, or
    ``min_cards`` ranks of a suit in a row under the ace rule: Q-K-A where the ace may
    stand high, K-A-2 round the corner); a hand with a joker is left to the enumeration."""
    rules = MeldRules(ace=ace, min_cards=min_cards, max_set=4)
    if joker:
        assert not holds_no_meld([*hand, JOKER], rules)
    else:
        assert holds_no_meld(hand, rules) == (not plain_candidates(hand, rules))


def test_the_quick_rejection_sees_runs_past_the_king() -> None:
    """ "so dass Q-K-A auch ein gültiger Lauf ist" (aces high or low) and "„Um die Ecke“
    -Läufe mit einem Ass in der Mitte (K-A-2)" (round the corner)."""
    qka, ka2 = parse_cards("qh kh ah 5c"), parse_cards("kh ah 2h 5c")
    assert holds_no_meld(qka, MeldRules(ace=AceMode.LOW))
    assert not holds_no_meld(qka, MeldRules(ace=AceMode.HIGH_OR_LOW))
    assert holds_no_meld(ka2, MeldRules(ace=AceMode.HIGH_OR_LOW))
    assert not holds_no_meld(ka2, MeldRules(ace=AceMode.AROUND))
    assert not holds_no_meld(parse_cards("7c 7d 7c 7s"), MeldRules())
    assert holds_no_meld(parse_cards("7c 7d 7c 7d"), MeldRules())


@settings(deadline=None)
@given(
    st.lists(st.sampled_from(PACK), min_size=1, max_size=24),
    st.sampled_from(list(AceMode)),
    st.sampled_from([3, 4]),
    st.sampled_from([0, 1, 2]),
)
def test_meld_reach_answers_as_may_meld_with_while_cards_are_added(
    cards: list[Card], ace: AceMode, min_cards: int, min_naturals: int
) -> None:
    """MeldReach counts cards one by one (Rummy 500 reads its discard pile downwards) and
    answers each card added so far as may_meld_with over those cards."""
    rules = MeldRules(ace=ace, min_cards=min_cards, min_naturals=min_naturals)
    reach = MeldReach(cards[:3], rules)
    for n in range(3, len(cards) + 1):
        if n > 3:
            reach.add(cards[n - 1])
        for card in set(cards[:n]):
            assert reach.may_meld(card) == may_meld_with(card, cards[:n], rules)
