"""engine.memo.reuse_last and reuse_last_tuple: the last answer, while the same objects are
asked about again."""

from __future__ import annotations

from engine.memo import reuse_last, reuse_last_tuple
from engine.options import RuleSet
from engine.rules import make_rules


def test_the_last_answer_is_reused_for_the_same_objects_only() -> None:
    calls: list[tuple[int, ...]] = []

    @reuse_last
    def total(part: tuple[int, ...], rules: RuleSet, seats: int) -> int:
        calls.append(part)
        return sum(part) * seats

    rules, other = make_rules("german"), make_rules("german", options={"target": 200})
    part = (1, 2, 3)
    assert total(part, rules, 2) == 12 and total(part, rules, 2) == 12
    assert len(calls) == 1  # the same objects: asked once
    assert total(part, rules, int("2")) == 12 and len(calls) == 1  # seats compare by value
    assert total(tuple([1, 2, 3]), rules, 2) == 12 and len(calls) == 2  # an equal copy
    assert total(part, other, 2) == 12 and len(calls) == 3  # another rule set
    assert total(part, other, 3) == 18 and len(calls) == 4  # another table size


def test_the_last_answer_for_a_tuple_is_reused_and_a_list_is_asked_again() -> None:
    """``reuse_last_tuple``: a state's hand or table (a tuple) and the same rules answer
    from the last call; a list (it could change in place) and other rules are asked again."""
    calls: list[object] = []

    @reuse_last_tuple
    def count(part: tuple[int, ...] | list[int], rules: object) -> int:
        calls.append(part)
        return len(part)

    rules, other = object(), object()
    hand = (1, 2, 3)
    assert count(hand, rules) == 3 and count(hand, rules) == 3 and len(calls) == 1
    assert count(tuple([1, 2, 3]), rules) == 3 and len(calls) == 2  # an equal copy
    assert count(hand, other) == 3 and len(calls) == 3  # other rules
    listed = [1, 2]
    assert count(listed, rules) == 2 and count(listed, rules) == 2 and len(calls) == 5
    listed.append(3)
    assert count(listed, rules) == 3  # changed in place: asked again
