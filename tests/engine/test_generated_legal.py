"""Generated legal moves (issue: a move generator that builds only legal moves).

The shared flow lists its legal actions from the conditions of its moves, computed once
per position (:func:`engine.legal.standard_legal_actions`). The old way, every candidate
checked with :func:`engine.game.can`, is kept as the oracle
(:func:`engine.legal.checked_legal_actions`): on random reachable states of Basic Rummy
under random option sets both lists are the same. The trusted apply of a listed action
(:func:`engine.game.apply_legal`) gives the same state as the verifying apply."""

from __future__ import annotations

import random

import pytest
from hypothesis import Phase, example, given, settings
from hypothesis import strategies as st

from engine.candidates import (
    candidate_melds,
    may_meld_with,
    one_reading_groups,
    unmeldable,
)
from engine.cards import JOKER, parse_cards, standard_deck
from engine.game import apply, apply_legal, current_player, is_over, legal_actions, new_game
from engine.legal import checked_legal_actions, standard_legal_actions
from engine.melds import (
    AceMode,
    CardSpec,
    LayoffIndex,
    Meld,
    MeldRules,
    declared_run,
    declared_set,
    extend_readings,
    layoff_choices,
    readings,
    run_windows,
)
from engine.options import OptionValue
from engine.rules import make_rules
from engine.variants.romanian.melds import MELD_RULES as ROMANIAN_MELDS

BASIC_OPTIONS = st.fixed_dictionaries(
    {
        "deals": st.sampled_from([1, 2, 6]),
        "multiple_melds": st.booleans(),
        "layoff_after_meld": st.booleans(),
        "ace": st.sampled_from(["low", "high_or_low", "around"]),
        "final_discard": st.booleans(),
        "stock_end": st.sampled_from(["turn_over", "shuffle", "shuffle_keep_top"]),
        "reuses": st.sampled_from([None, 0, 2]),
        "jokers": st.integers(0, 4),
        "joker_swap": st.booleans(),
        "starter_extra": st.booleans(),
        "all_at_once_from": st.sampled_from([None, 1, 2]),
        "hand_size": st.sampled_from([None, 3, 7, 10]),
    }
)


# No shrinking: one example plays 250 actions; the failing example is reported as drawn.
@settings(deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(BASIC_OPTIONS, st.integers(0, 10_000), st.integers(2, 4))
# A joker swap once left a hand of two jokers after a joker taken from the pile: no move.
@example(
    options={
        "deals": 6,
        "multiple_melds": True,
        "layoff_after_meld": False,
        "ace": "high_or_low",
        "final_discard": True,
        "stock_end": "shuffle",
        "reuses": None,
        "jokers": 4,
        "joker_swap": True,
        "starter_extra": True,
        "all_at_once_from": None,
        "hand_size": 10,
    },
    seed=873,
    players=3,
)
def test_generated_legal_actions_equal_the_checked_candidates(
    options: dict[str, OptionValue], seed: int, players: int
) -> None:
    rules = make_rules("basic", options=options)
    state = new_game(rules, ["ana", "ben", "cem", "dan"][:players], seed=seed)
    rng = random.Random(seed)
    for _ in range(250):
        if is_over(state):
            break
        for seat in range(players):
            assert standard_legal_actions(state, seat) == checked_legal_actions(state, seat)
        actor = current_player(state)
        actor = state.next_seat(state.dealer) if actor is None else actor
        legal = legal_actions(state, actor)
        action = legal[rng.randrange(len(legal))]
        trusted, trusted_events = apply_legal(state, action)
        state, events = apply(state, action)
        assert (trusted, trusted_events) == (state, events)


def test_the_oracle_can_tell_a_difference() -> None:
    """The comparison above can fail: a list with one legal action less is not the
    oracle's list."""
    rules = make_rules("basic", options={"deals": 1})
    state = new_game(rules, ["ana", "ben"], seed=2)
    seat = state.current
    state, _ = apply(state, legal_actions(state, seat)[0])
    listed = standard_legal_actions(state, seat)
    assert listed == checked_legal_actions(state, seat)
    assert listed[:-1] != checked_legal_actions(state, seat)


RULES_TO_TEST = [
    MeldRules(),
    MeldRules(ace=AceMode.HIGH_OR_LOW),
    MeldRules(ace=AceMode.AROUND, max_set=3, min_naturals=2),
    MeldRules(min_cards=4, max_set=8),
]


@settings(deadline=None)
@given(st.data())
def test_the_quick_meld_test_never_misses_a_meld(data: st.DataObject) -> None:
    """:func:`engine.candidates.may_meld_with` is a necessary condition: whenever
    :func:`engine.candidates.candidate_melds` finds a meld with the card, it says yes;
    :func:`engine.candidates.unmeldable` says the same for every card at once, naming
    the cards it refuses with their copies."""
    rules = data.draw(st.sampled_from(RULES_TO_TEST))
    pack = [*standard_deck(), JOKER]
    cards = data.draw(st.lists(st.sampled_from(pack), min_size=1, max_size=14))
    card = data.draw(st.sampled_from(cards))
    if any(s.card == card for g in candidate_melds(cards, rules) for s in g):
        assert may_meld_with(card, cards, rules)
    assert unmeldable(cards, rules) == {
        c: cards.count(c) for c in cards if not may_meld_with(c, cards, rules)
    }


def _declared(group: tuple[CardSpec, ...], owner: int) -> Meld:
    """The meld a group of one reading makes, built from its declared faces."""
    first, last = (group[0].face or group[0].card), (group[-1].face or group[-1].card)
    return declared_run(group, owner) if first.rank != last.rank else declared_set(group, owner)


@settings(deadline=None)
@given(st.data())
def test_the_melds_of_one_reading_are_built_as_the_readings_read_them(data: st.DataObject) -> None:
    """:func:`engine.candidates.one_reading_groups` keeps a candidate without reading it,
    and :func:`engine.melds.declared_run` / ``declared_set`` build its meld directly; the
    oracle reads every candidate back with :func:`engine.melds.readings` and keeps those
    with exactly one reading (two packs, jokers, every ace rule, Romanian's Joly ratio)."""
    rules = data.draw(st.sampled_from([*RULES_TO_TEST, ROMANIAN_MELDS]))
    pack = [*standard_deck(2, 0), JOKER, JOKER]
    cards = data.draw(st.lists(st.sampled_from(pack), max_size=16))
    owner = data.draw(st.integers(0, 3))
    expected = []
    for group in candidate_melds(cards, rules):
        found = readings(group, owner, rules)
        if len(found) == 1:
            expected.append(found[0])
    assert [_declared(g, owner) for g in one_reading_groups(cards, rules)] == expected


@pytest.mark.parametrize("ace", [AceMode.LOW, AceMode.HIGH_OR_LOW, AceMode.AROUND])
def test_a_run_of_all_thirteen_ranks_has_one_reading_only_where_the_ace_is_low(
    ace: AceMode,
) -> None:
    """basic-rummy.de.txt: "so dass Q-K-A auch ein gültiger Lauf ist": 1..13 also reads
    2..13-1 where the ace may stand high, so it is no candidate of one reading then."""
    rules = MeldRules(ace=ace)
    cards = parse_cards("as 2s 3s 4s 5s 6s 7s 8s 9s 10s js qs ks")
    thirteen = [g for g in one_reading_groups(cards, rules) if len(g) == 13]
    assert len(thirteen) == (1 if ace is AceMode.LOW else 0)
    assert len(readings(tuple(CardSpec(c) for c in cards), 0, rules)) == len(run_windows(13, ace))


def test_the_quick_meld_test_says_no() -> None:
    """It is no constant: a card with no partner of its rank or suit nearby has none."""
    cards = parse_cards("2c 9h kd 5c")
    assert not may_meld_with(cards[0], cards, MeldRules())
    assert may_meld_with(cards[0], (*cards, JOKER, JOKER), MeldRules())


def test_a_joker_face_that_names_no_one_place_is_no_lay_off() -> None:
    """A joker on a run 9..7 of twelve cards with the ace around fits as the 8 at either
    end: naming the 8 does not say where, so that lay-off is not listed (it was, and the
    move then refused it as ambiguous: found by the legal-moves bench)."""
    rules = MeldRules(ace=AceMode.AROUND)
    run = readings(
        tuple(CardSpec(c) for c in parse_cards("9s 10s js qs ks as 2s 3s 4s 5s 6s 7s")), 0, rules
    )[0]
    assert len(extend_readings(run, (CardSpec(JOKER),), 1, rules)) == 2
    assert layoff_choices(run, JOKER, 1, rules) == []
    short = readings(tuple(CardSpec(c) for c in parse_cards("9s 10s js")), 0, rules)[0]
    assert [s.face for s, _ in layoff_choices(short, JOKER, 1, rules)] == [
        parse_cards("8s")[0],
        parse_cards("qs")[0],
    ]


def test_a_long_run_can_hold_more_naturals_than_a_short_window() -> None:
    """J jk jk A with two natural cards needed: no run of three around the ace holds two
    naturals, the run of four does (found by the property test above)."""
    rules = MeldRules(ace=AceMode.AROUND, max_set=3, min_naturals=2)
    cards = [*parse_cards("ac jc"), JOKER, JOKER]
    assert any(s.card == cards[0] for g in candidate_melds(cards, rules) for s in g)
    assert may_meld_with(cards[0], cards, rules)


@settings(deadline=None)
@given(st.data())
def test_the_lay_off_index_never_misses_a_lay_off(data: st.DataObject) -> None:
    """:class:`engine.melds.LayoffIndex` (each meld's open ends) is a necessary condition:
    whenever a card can be laid off on a meld (:func:`engine.melds.extend_readings`), the
    meld is among the card's targets, and the targets come in table order."""
    rules = data.draw(st.sampled_from(RULES_TO_TEST))
    pack = [*standard_deck(), JOKER]
    cards = data.draw(st.lists(st.sampled_from(pack), min_size=3, max_size=16))
    groups = candidate_melds(cards, rules)
    picked = data.draw(st.lists(st.sampled_from(groups), max_size=5)) if groups else []
    melds = tuple(found[0] for g in picked if len(found := readings(g, 0, rules)) == 1)
    index = LayoffIndex(melds, rules)
    for card in pack:
        targets = list(index.targets(card))
        assert targets == sorted(targets)
        for i, meld in enumerate(melds):
            if extend_readings(meld, (CardSpec(card),), 1, rules):
                assert i in targets


@pytest.mark.parametrize("ace", list(AceMode))
def test_the_lay_off_index_finds_both_ends_of_every_short_run(ace: AceMode) -> None:
    """Every run of three clubs the ace rule allows, and every card of the pack: where
    the card extends the run (the king below A-2-3 with the ace around, the ace above
    Q-K), the index names the run."""
    rules = MeldRules(ace=ace)
    pack = [*standard_deck(), JOKER]
    clubs = [c for c in standard_deck() if str(c).endswith("c")]
    runs = [
        found[0]
        for g in candidate_melds(clubs, rules)
        if len(g) == 3 and len(found := readings(g, 0, rules)) == 1
    ]
    assert len(runs) >= 11
    extended = 0
    for run in runs:
        index = LayoffIndex((run,), rules)
        for card in pack:
            if extend_readings(run, (CardSpec(card),), 1, rules):
                assert list(index.targets(card)) == [0], (run, card)
                extended += 1
    assert extended > len(runs)
