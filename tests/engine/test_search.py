"""The best-meld search (engine/search.py): exact, deterministic, legal melds only."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import search
from engine.candidates import candidate_melds
from engine.cards import JOKER, Card, Suit, parse_cards, standard_deck
from engine.melds import (
    AceMode,
    CardSpec,
    Meld,
    MeldKind,
    MeldRules,
    Placed,
    extend_readings,
    readings,
)
from engine.rules import RuleSet, make_rules
from engine.search import (
    Partition,
    best_melds,
    best_partition,
    card_value,
    deadwood_points,
    layoff_options,
)
from engine.variants import get_variant
from engine.variants.romanian.tiles import tile_set


def specs(text: str) -> tuple[CardSpec, ...]:
    return tuple(CardSpec.parse(t) for t in text.split())


def points_of(rules: RuleSet) -> Callable[[Card], int]:
    var = get_variant(rules.variant)
    return lambda card: var.card_points(rules, card)


def brute_force(
    hand: Sequence[Card], mrules: MeldRules, points: Callable[[Card], int]
) -> tuple[int, int]:
    """(least deadwood points, most cards melded at that value) over every set of disjoint
    candidate melds."""
    cands = candidate_melds(hand, mrules)
    best: list[tuple[int, int]] = []

    def walk(start: int, left: Counter[Card], melded: int) -> None:
        key = (sum(points(c) * n for c, n in left.items()), -melded)
        if not best or key < best[0]:
            best[:] = [key]
        for i in range(start, len(cands)):
            use = Counter(s.card for s in cands[i])
            if all(left[c] >= n for c, n in use.items()):
                walk(i + 1, left - use, melded + len(cands[i]))

    walk(0, Counter(hand), 0)
    return best[0][0], -best[0][1]


def check_partition(
    part: Partition, hand: Sequence[Card], mrules: MeldRules, points: Callable[[Card], int]
) -> None:
    """The partition uses exactly the hand, its groups are candidate melds with one reading
    each, and its deadwood is sorted and scored right."""
    used = Counter(s.card for g in part.melds for s in g)
    assert used + Counter(part.deadwood) == Counter(hand)
    offered = set(candidate_melds(hand, mrules))
    for group in part.melds:
        assert group in offered
        assert len(readings(group, 0, mrules)) == 1
    assert list(part.deadwood) == sorted(part.deadwood, key=lambda c: c.sort_key)
    assert part.deadwood_points == sum(points(c) for c in part.deadwood)
    assert part.melded == sum(used.values())


BASIC = make_rules("basic")
WROTHAM = make_rules("basic", "wrotham")


def test_a_run_a_set_and_one_king_left() -> None:
    """basic-rummy.de.txt: "Bildkarten (K, Q, J) sind jeweils 10 Punkte wert": the king is
    the only deadwood."""
    hand = parse_cards("7h 8h 9h 10h 2c 2d 2s ks")
    part = best_melds(hand, BASIC)
    assert part.deadwood == parse_cards("ks")
    assert part.deadwood_points == 10
    assert set(part.melds) == {specs("7h 8h 9h 10h"), specs("2c 2d 2s")}
    assert deadwood_points(hand, BASIC) == 10


def test_the_longest_first_meld_is_not_taken_when_a_split_is_better() -> None:
    """5c 6c 7c 8c 8d 8h: taking the four-card run first leaves 8d 8h (16 points); the best
    is the run 5c-7c and the set of eights, no deadwood at all."""
    part = best_melds(parse_cards("5c 6c 7c 8c 8d 8h"), BASIC)
    assert part.deadwood == ()
    assert set(part.melds) == {specs("5c 6c 7c"), specs("8c 8d 8h")}


def test_a_tie_is_broken_the_same_way_whatever_the_hand_order() -> None:
    """jc qc kc kd kh: the run jc-qc-kc leaves kd kh, the set of kings leaves jc qc; both
    20 points with three cards melded. The answer is fixed, not order-dependent."""
    hand = parse_cards("jc qc kc kd kh")
    first = best_melds(hand, BASIC)
    assert first.deadwood_points == 20 and first.melded == 3
    assert best_melds(tuple(reversed(hand)), BASIC) == first


def test_more_cards_melded_wins_a_points_tie() -> None:
    """Two zero-point jokers (joker_points=0): melding them is preferred to keeping them."""
    rules = make_rules("basic", options={"jokers": 2, "joker_points": 0})
    part = best_melds(parse_cards("5h 6h jk jk"), rules)
    assert part.deadwood_points == 0
    assert part.melded == 4


def test_runs_that_touch_are_one_meld() -> None:
    """A six-card run is offered as one meld (one meld per turn: basic-rummy.de.txt "Sie
    können nicht mehr als eine Kombination in einem Zug verschmelzen")."""
    part = best_melds(parse_cards("3d 4d 5d 6d 7d 8d 9c"), BASIC)
    assert part.melds == (specs("3d 4d 5d 6d 7d 8d"),)
    assert part.deadwood == parse_cards("9c")


def test_jokers_are_declared_and_melded() -> None:
    """Wrotham Rummy (55 cards with three jokers): jokers fill a run gap and a set."""
    hand = parse_cards("7h 9h kc kd jk jk 2s")
    part = best_melds(hand, WROTHAM)
    check_partition(part, hand, get_variant("basic").meld_rules(WROTHAM), points_of(WROTHAM))
    assert part.deadwood == parse_cards("2s")
    assert set(part.melds) == {specs("7h jk=8h 9h"), specs("kc kd jk=k")}


def test_a_joker_left_over_costs_its_points() -> None:
    """A joker that fits nowhere is deadwood worth ``joker_points`` (default 15)."""
    rules = make_rules("basic", options={"jokers": 1})
    part = best_melds(parse_cards("jk 2c 9d"), rules)
    # 2c jk 9d: no meld of three with one joker and two unrelated cards.
    assert part.deadwood_points == 15 + 2 + 9


def test_ace_high_or_low_allows_q_k_a() -> None:
    """basic-rummy.de.txt: "so dass Q-K-A auch ein gültiger Lauf ist" (ace high or low,
    aces then worth 15); with aces low "Q-K-A jedoch nicht"."""
    hand = parse_cards("qh kh ah 5c")
    high = best_melds(hand, make_rules("basic", options={"ace": "high_or_low"}))
    assert high.melds == (specs("qh kh ah"),)
    assert high.deadwood_points == 5
    low = best_melds(hand, BASIC)
    assert low.melds == ()
    assert low.deadwood_points == 10 + 10 + 1 + 5


def test_ace_around_allows_k_a_2() -> None:
    """basic-rummy.de.txt: "„Um die Ecke“ -Läufe mit einem Ass in der Mitte (K-A-2)"."""
    hand = parse_cards("kh ah 2h")
    assert best_melds(hand, make_rules("basic", options={"ace": "around"})).deadwood == ()
    assert best_melds(hand, make_rules("basic", options={"ace": "high_or_low"})).melds == ()


def test_the_result_does_not_depend_on_the_hand_order() -> None:
    rng = random.Random(3)
    deck = standard_deck(1, 2)
    for _ in range(50):
        hand = rng.sample(deck, 12)
        shuffled = list(hand)
        rng.shuffle(shuffled)
        assert best_melds(hand, WROTHAM) == best_melds(shuffled, WROTHAM)
        assert best_partition(
            hand, get_variant("basic").meld_rules(WROTHAM), points_of(WROTHAM)
        ) == best_melds(hand, WROTHAM)


def test_an_empty_hand_has_no_deadwood() -> None:
    assert best_melds((), BASIC) == Partition((), (), 0)


def test_a_suitless_face_is_not_a_card_of_a_hand() -> None:
    with pytest.raises(ValueError):
        best_melds((Card(8, None),), BASIC)


def test_card_value_follows_the_variant() -> None:
    """basic-rummy.de.txt: "Asse sind jeweils 1 Punkt wert; Zahlenkarten sind ihren Nennwert
    wert"; with high aces "erhalten Asse den höheren Wert von 15 Punkten"."""
    high = make_rules("basic", options={"ace": "high_or_low"})
    for card in standard_deck(1, 1):
        assert card_value(card, BASIC) == get_variant("basic").card_points(BASIC, card)
        assert card_value(card, high) == get_variant("basic").card_points(high, card)


# --- exactness against brute force -----------------------------------------------------

DECK_1 = standard_deck(1, 3)
DECK_2 = standard_deck(2, 2)


def _near(deck: Sequence[Card], low: int) -> list[Card]:
    """Cards of five neighbouring ranks (plus jokers): hands full of melds."""
    return [c for c in deck if c.is_joker or low <= c.rank < low + 5 or c.rank == 1]


@st.composite
def hands(draw: st.DrawFn, max_size: int = 9) -> tuple[tuple[Card, ...], MeldRules]:
    two_decks = draw(st.booleans())
    deck = _near(DECK_2 if two_decks else DECK_1, draw(st.integers(1, 9)))
    size = draw(st.integers(0, max_size))
    picks = draw(st.lists(st.integers(0, len(deck) - 1), min_size=size, max_size=size, unique=True))
    mrules = MeldRules(
        ace=draw(st.sampled_from(list(AceMode))),
        max_set=draw(st.sampled_from([3, 4, 5])),
        min_naturals=draw(st.sampled_from([0, 1, 2])),
    )
    return tuple(deck[i] for i in picks), mrules


@given(hands())
def test_best_partition_is_exact(case: tuple[tuple[Card, ...], MeldRules]) -> None:
    """Against every set of disjoint candidate melds: least deadwood points, then most cards
    melded; one and two decks, 0-3 jokers, every ace rule, other meld sizes."""
    hand, mrules = case
    points = points_of(BASIC)
    part = best_partition(hand, mrules, points)
    check_partition(part, hand, mrules, points)
    assert (part.deadwood_points, part.melded) == brute_force(hand, mrules, points)


@given(
    st.lists(st.sampled_from(DECK_1), max_size=10, unique=True),
    st.sampled_from(["low", "high_or_low", "around"]),
)
def test_best_melds_is_exact_under_the_basic_rules(hand: list[Card], ace: str) -> None:
    rules = make_rules("basic", options={"ace": ace, "jokers": 3})
    mrules = get_variant("basic").meld_rules(rules)
    part = best_melds(hand, rules)
    check_partition(part, hand, mrules, points_of(rules))
    assert (part.deadwood_points, part.melded) == brute_force(hand, mrules, points_of(rules))


def test_big_hands_with_jokers_are_consistent() -> None:
    """15 cards with two jokers (the benchmark shape): a valid partition whose value no
    single extra meld or lay-out change can improve: removing any deadwood card lowers the
    value by exactly its points."""
    rng = random.Random(11)
    naturals = standard_deck(1, 0)
    mrules = get_variant("basic").meld_rules(WROTHAM)
    for _ in range(20):
        hand = (*rng.sample(naturals, 13), JOKER, JOKER)
        part = best_melds(hand, WROTHAM)
        check_partition(part, hand, mrules, points_of(WROTHAM))
        for card in set(part.deadwood):
            rest = list(hand)
            rest.remove(card)
            assert best_melds(rest, WROTHAM).deadwood_points == (
                part.deadwood_points - card_value(card, WROTHAM)
            )


@given(hands(max_size=10), st.data())
def test_the_branch_and_bound_of_big_hands_is_exact_when_it_ends(
    case: tuple[tuple[Card, ...], MeldRules], data: st.DataObject
) -> None:
    """Big hands are searched by branch and bound (melds first); when the search ends
    before its guard, its answer is as good as the exhaustive search's. The hands here are
    small enough for the guard never to trip, so both searches must agree."""
    hand, mrules = case
    points = points_of(BASIC)
    exact = best_partition(hand, mrules, points)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search, "SMALL_HAND", 0)
        bounded = best_partition(hand, mrules, points)
    check_partition(bounded, hand, mrules, points)
    assert (bounded.deadwood_points, bounded.melded) == (exact.deadwood_points, exact.melded)


@pytest.mark.parametrize("small", [True, False])
def test_jokers_alone_make_no_meld_in_either_search(small: bool) -> None:
    """Every meld holds a natural card, also where ``min_naturals`` is 0 (as the candidates
    and the readings have it): three jokers stay deadwood in the exhaustive search and in
    the branch and bound (hypothesis found the latter melding them as A-2-3)."""
    rules = MeldRules(min_naturals=0)
    hand = (JOKER, JOKER, JOKER)
    with pytest.MonkeyPatch.context() as patch:
        if not small:
            patch.setattr(search, "SMALL_HAND", 0)
        part = best_partition(hand, rules, points_of(BASIC))
    assert part.melds == ()
    assert Counter(part.deadwood) == Counter(hand)


def test_a_big_rack_is_answered_within_the_guard_with_a_valid_partition() -> None:
    """60 Romanian tiles with two Jolys (racks that size follow takes of whole discard
    rows): the search stops at its guard (:data:`engine.search.SEARCH_STEPS`) and answers
    the best partition it met: every tile placed once, every group a legal meld, the
    answer the same each time."""
    rules = make_rules("romanian")
    mrules = get_variant("romanian").meld_rules(rules)
    tiles = [t for t in tile_set() if not t.is_joker]
    rng = random.Random(5)
    for _ in range(3):
        rack = (*rng.sample(tiles, 58), JOKER, JOKER)
        part = best_melds(rack, rules)
        check_partition(part, rack, mrules, points_of(rules))
        assert part.melded >= 40
        search._best_cached.cache_clear()
        assert best_melds(tuple(reversed(rack)), rules) == part


# --- lay-offs --------------------------------------------------------------------------


def _meld(kind: MeldKind, text: str, owner: int = 1) -> Meld:
    placed = []
    for spec in specs(text):
        face = spec.face if spec.face is not None else spec.card
        placed.append(Placed(spec.card, face, owner))
    return Meld(kind, tuple(placed), owner)


def test_layoff_options_name_the_card_and_the_meld() -> None:
    """basic-rummy.de.txt: "Das Ablegen fügt einer Meldung bereits eine Karte oder Karten aus
    Ihrer Hand hinzu ... Die zu einer Meldung hinzugefügten Karten müssen eine andere
    gültige Meldung vornehmen."""
    table = (_meld(MeldKind.RUN, "4h 5h 6h"), _meld(MeldKind.SET, "9c 9d 9h"))
    options = layoff_options(parse_cards("3h 7h 9s kd 8h"), table, BASIC, seat=0)
    assert set(options) == {
        (CardSpec(Card(3, Suit.HEARTS)), 0),
        (CardSpec(Card(7, Suit.HEARTS)), 0),
        (CardSpec(Card(9, Suit.SPADES)), 1),
    }


def test_a_joker_is_offered_once_per_place() -> None:
    """A joker may go to either end of a run: one option per face."""
    table = (_meld(MeldKind.RUN, "4h 5h 6h"),)
    options = layoff_options((JOKER,), table, WROTHAM, seat=0)
    assert sorted(str(spec) for spec, _ in options) == ["jk=3h", "jk=7h"]


@pytest.mark.parametrize("ace", ["low", "high_or_low", "around"])
def test_layoff_options_match_trying_every_card_on_every_meld(ace: str) -> None:
    """The quick pre-checks of :func:`layoff_options` never drop a lay-off that
    :func:`engine.melds.extend_readings` allows (runs across the ace included)."""
    rules = make_rules("basic", options={"ace": ace, "jokers": 2})
    mrules = get_variant("basic").meld_rules(rules)
    rng = random.Random(ace)
    deck = standard_deck(1, 2)
    for _ in range(40):
        cards = rng.sample(deck, 20)
        table = [readings(group, 1, mrules)[0] for group in best_melds(cards[:14], rules).melds]
        hand = cards[14:]
        naive = set()
        for card in set(hand):
            for index, meld in enumerate(table):
                found = extend_readings(meld, (CardSpec(card),), 0, mrules)
                if len(found) == 1:
                    naive.add((CardSpec(card), index))
                elif card.is_joker:
                    for reading in found:
                        faces = list(reading.faces)
                        for face in meld.faces:
                            faces.remove(face)
                        naive.add((CardSpec(card, faces[0]), index))
        assert set(layoff_options(hand, table, rules, seat=0)) == naive


def test_with_two_packs_a_joker_may_stand_for_a_card_the_hand_holds() -> None:
    """Found by `rummy-bot bench` against rummikub-solver: with two packs both runs of
    ``9c 9c 10c jc qc qc jk jk`` meld (``9c 10c jc qc`` and ``9c jk jk qc``), the jokers
    standing for 10c and jc, which the hand holds but the first run uses. German Rommé:
    "Ziel des Spiels ist es, als Erster alle Karten ... abzulegen"."""
    rules = make_rules("german")
    hand = parse_cards("9c 9c 10c jc qc qc jk jk")
    part = best_melds(hand, rules)
    assert part.deadwood == () and part.melded == 8
    mrules = get_variant("german").meld_rules(rules)
    check_partition(part, hand, mrules, points_of(rules))


def test_romanian_hints_keep_two_real_tiles_per_joly() -> None:
    """romanian-rummy.de.txt allows a Joly only with two real tiles for it (the variant's
    meld check); the search once proposed ``jk=r3 jk=r4 r5 r6``. Every meld of a Romanian
    partition passes the check: with ``r5 r6`` only one Joly joins them."""
    rules = make_rules("romanian")
    mrules = get_variant("romanian").meld_rules(rules)
    hand = parse_cards("r5 r6 jk jk b9")
    part = best_melds(hand, rules)
    assert [len(g) for g in part.melds] == [3]
    assert sorted(str(c) for c in part.deadwood) == ["b9", "jk"]
    rng = random.Random(5)
    tiles = [c for c in standard_deck(2, 2) if c.is_joker or c.rank <= 13]
    for _ in range(200):
        rack = rng.sample(tiles, 15)
        for group in best_melds(rack, rules).melds:
            assert readings(group, 0, mrules), group
