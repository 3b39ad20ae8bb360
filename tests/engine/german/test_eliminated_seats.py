"""German Rommé: who is out of the match stays right while the last answer is reused
("ein Spieler welcher mehr Verlustpunkte geschrieben hat scheidet aus",
german-romme.de.txt)."""

from __future__ import annotations

from fractions import Fraction

from engine.ai import make_ai
from engine.frozen import replace
from engine.game import apply_legal, legal_actions, new_game
from engine.rules import make_rules
from engine.state import Phase
from engine.variants.german.state import eliminated_seats
from engine.views import view_for


def _direct(totals: tuple[Fraction, ...], target: int | None, seats: int) -> tuple[bool, ...]:
    return (False,) * seats if target is None else tuple(t > target for t in totals)


def test_the_eliminated_seats_follow_a_match_of_many_deals() -> None:
    """Greedy play of a match to 50 penalty points: after every move (the totals change
    between deals) the answer equals the comparison with the target."""
    rules = make_rules("german", options={"target": 50})
    state = new_game(rules, ["ana", "ben", "cem"], seed=12)
    seats = [make_ai("greedy", 12 + s) for s in range(3)]
    changes = 0
    last = state.totals
    for _ in range(3000):
        if state.phase is Phase.GAME_OVER:
            break
        assert eliminated_seats(state) == _direct(state.totals, 50, 3)
        changes += state.totals != last
        last = state.totals
        seat = state.current
        legal = legal_actions(state, seat)
        if not legal:
            legal = legal_actions(state, 0)
        state, _ = apply_legal(state, seats[seat].decide(view_for(state, seat), legal))
    assert changes >= 2
    assert any(eliminated_seats(state))


def test_the_same_totals_under_another_target_or_table_size_are_asked_again() -> None:
    """The reused answer belongs to one rule set and one table size."""
    low = new_game(make_rules("german", options={"target": 50}), ["ana", "ben"], seed=1)
    high = new_game(make_rules("german", options={"target": 200}), ["ana", "ben"], seed=1)
    totals = (Fraction(60), Fraction(10))
    low, high = replace(low, totals=totals), replace(high, totals=totals)
    assert eliminated_seats(low) == (True, False)
    assert eliminated_seats(high) == (False, False)
    assert eliminated_seats(low) == (True, False)
    # no target: nobody is out, one answer per table size for the same (empty) totals
    free = make_rules("german", options={"target": None, "deals": 5})
    two = replace(new_game(free, ["a", "b"], seed=2), totals=())
    three = replace(new_game(free, ["a", "b", "c"], seed=2), totals=())
    assert eliminated_seats(two) == (False, False)
    assert eliminated_seats(three) == (False, False, False)
