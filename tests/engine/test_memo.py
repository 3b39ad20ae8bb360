"""engine.memo.reuse_last: the last answer, while the same objects are asked about again."""

from __future__ import annotations

from engine.memo import reuse_last
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
