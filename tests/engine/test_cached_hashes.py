"""Cards and rule sets compute their hash once (they are cache and dict keys in every
search). A hash cached in one process must still be right in another: engine work runs
in worker processes that receive cards and rules pickled, and string hashes differ
between processes."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import CARD_SUITS, JOKER, TILE_COLOURS, Card
from engine.options import RuleSet
from engine.rules import make_rules

_SUITS = st.sampled_from((None, *CARD_SUITS, *TILE_COLOURS))


@given(st.integers(0, 13), _SUITS, st.integers(0, 13), _SUITS)
def test_equal_cards_hash_equal_and_unequal_cards_differ(
    r1: int, s1: object, r2: int, s2: object
) -> None:
    """Equal cards hash equal; the cached hash is distinct for distinct cards; the cached
    sort key is "(suit order, rank); jokers sort last"."""
    a, b = Card(r1, s1), Card(r2, s2)  # type: ignore[arg-type]
    assert (a == b) == (hash(a) == hash(b))
    assert hash(pickle.loads(pickle.dumps(a))) == hash(a)
    # the sort key is cached too: jokers and suitless faces last, else (suit order, rank)
    expected = (4, r1) if r1 == 0 or s1 is None else (s1.order, r1)  # type: ignore[attr-defined]
    assert a.sort_key == expected == pickle.loads(pickle.dumps(a)).sort_key


def test_a_rule_set_reads_every_option_and_equals_its_pickle() -> None:
    """``get`` answers every option of the variant and refuses others, ``number`` refuses
    a switch; a pickled rule set is equal, hashes equal and carries its variant."""
    rules = make_rules("german", options={"one_joker": True})
    assert rules.get("one_joker") is True
    assert all(rules.get(name) == value for name, value in rules.values)
    try:
        rules.get("no_such_option")
    except KeyError:
        pass
    else:
        raise AssertionError("an unknown option must raise KeyError")
    assert rules.number("opening") == 40 and rules.flag("one_joker")
    with pytest.raises(TypeError):
        rules.number("one_joker")  # a switch is no number
    copy = pickle.loads(pickle.dumps(rules))
    assert copy == rules and hash(copy) == hash(rules) and copy.var.id == rules.var.id


_CHILD = """
import pickle, sys
from engine.cards import JOKER, Card, Suit
from engine.rules import make_rules
rules, cards = pickle.loads(sys.stdin.buffer.read())
fresh = make_rules("basic", options={"ace": "high_or_low"})
table = {fresh: "found", Card(7, Suit.HEARTS): "seven", JOKER: "joker"}
print(table.get(rules), table.get(cards[0]), table.get(cards[1]), hash(rules) == hash(fresh))
"""


def test_pickled_hashes_are_right_in_a_process_with_other_string_hashes() -> None:
    """A rule set and cards pickled here are found as dict keys in a process whose string
    hashes differ (``PYTHONHASHSEED``), as in the engine's worker processes."""
    from engine.cards import Suit

    payload = pickle.dumps(
        (make_rules("basic", options={"ace": "high_or_low"}), (Card(7, Suit.HEARTS), JOKER))
    )
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": str(root)}
    out = subprocess.run(
        [sys.executable, "-c", _CHILD],
        input=payload,
        env=env,
        capture_output=True,
        check=True,
        timeout=60,
    )
    assert out.stdout.decode().split() == ["found", "seven", "joker", "True"]


def test_rule_set_hash_ignores_the_variant_object() -> None:
    """``var`` takes no part in equality or hashing (as before the cached hash)."""
    rules = make_rules("basic")
    other = RuleSet(rules.variant, rules.preset, rules.values, make_rules("500").var)
    assert other == rules and hash(other) == hash(rules)
