"""Skill ratings (bot.service.ratings): places from final totals, Plackett-Luce updates."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from bot.ports.table_rules import AI_LEVELS
from bot.service.ratings import AI_RATINGS, NEW, Rating, final_places, rate_game
from engine.rules import make_rules

VARIANTS = ("basic", "500", "german", "romanian")


def test_places_share_ties_and_count_on() -> None:
    rules = make_rules("basic")
    totals = [Fraction(10), Fraction(30), Fraction(30), Fraction(5)]
    assert final_places(rules, totals, (1, 2)) == (2, 0, 0, 3)


@given(st.sampled_from(VARIANTS), st.lists(st.integers(-50, 200), min_size=2, max_size=6))
def test_places_follow_the_variants_winner_rule(variant: str, raw: list[int]) -> None:
    """First place is the match's winners; each later place is what the variant would
    call the winners of the seats left; a place is shared exactly by equal totals."""
    rules = make_rules(variant)
    totals = tuple(Fraction(t) for t in raw)
    winners = rules.var.match_winners(rules, totals)
    places = final_places(rules, totals, winners)
    assert {s for s, p in enumerate(places) if p == 0} == set(winners)
    for a in range(len(totals)):
        for b in range(len(totals)):
            if totals[a] == totals[b]:
                assert places[a] == places[b]
    assert sorted(places)[0] == 0
    assert all(sorted(places)[i] <= i for i in range(len(places)))


@given(st.lists(st.integers(0, 5), min_size=2, max_size=6))
def test_updates_preserve_the_order_of_the_game(places_raw: list[int]) -> None:
    """Players rated alike before: a better place gains more, a tie gains the same, the
    first place gains and the last loses (unless all tie). (openskill's own ties break
    this: places 0, 0, 0, 1, 2 gave +0.44 to the tied and +1.0 to the fourth.)"""
    order = sorted(set(places_raw))
    places = [order.index(p) for p in places_raw]
    after = rate_game(places, [NEW] * len(places))
    deltas = []
    for rating in after:
        assert rating is not None and rating.games == 1
        deltas.append(rating.mu - NEW.mu)
    for a in range(len(places)):
        for b in range(len(places)):
            if places[a] < places[b]:
                assert deltas[a] > deltas[b]
            elif places[a] == places[b]:
                assert abs(deltas[a] - deltas[b]) < 1e-9
    if len(set(places)) > 1:
        assert deltas[places.index(0)] > 0 > deltas[places.index(max(places))]


def test_ai_seats_keep_their_rating_and_a_stronger_one_is_worth_more() -> None:
    person = Rating(25.0, 5.0, 3)
    beat_easy = rate_game([0, 1], [person, "easy"])
    beat_hard = rate_game([0, 1], [person, "hard"])
    assert beat_easy[1] is None and beat_hard[1] is None
    assert beat_easy[0] is not None and beat_hard[0] is not None
    assert beat_hard[0].mu > beat_easy[0].mu > person.mu
    assert beat_hard[0].games == 4
    assert (
        AI_RATINGS["expert"].mu
        > AI_RATINGS["hard"].mu
        > AI_RATINGS["normal"].mu
        > AI_RATINGS["easy"].mu
    )
    assert set(AI_RATINGS) == set(AI_LEVELS)  # every level a person can add is rated as itself


def test_the_shown_rating_is_the_conservative_estimate() -> None:
    assert Rating(30.0, 2.0).shown == 24.0
    assert NEW.shown == NEW.mu - 3 * NEW.sigma
