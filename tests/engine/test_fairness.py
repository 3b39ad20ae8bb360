"""Fair dealing (engine.fairness, engine.fair_check): per-deal secrets, commitments, and
records that a verifier rebuilds deal by deal."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.ai import make_ai
from engine.dealing import new_game
from engine.events import DealStarted, HandEnded
from engine.fair_check import check_record
from engine.fairness import (
    commitment,
    commitment_text,
    deal_secret,
    fair_key_from_seed,
)
from engine.game import apply, is_over
from engine.records import (
    FAIR_RECORD_FORMAT,
    RECORD_FORMAT,
    dump_record,
    export_record,
    parse_record_text,
    replay,
    revealed_deals,
)
from engine.rules import make_rules
from engine.serialize import state_from_dict, state_to_dict
from engine.simulate import NAMES, ai_move, simulate
from engine.views import public_view, view_for

# A short match of each variant (few deals), its seats and options.
SHORT = {
    "basic": ("standard", {"deals": 2}),
    "500": ("standard", {"target": 150}),
    "german": ("deals", {"deals": 2}),
    "romanian": ("standard", {}),
}


def _fair_game(variant: str, players: int, seed: int, max_actions: int = 600) -> dict[str, Any]:
    preset, options = SHORT[variant]
    result = simulate(
        make_rules(variant, preset, options),
        1,
        players,
        seed=seed,
        max_actions=max_actions,
        keep_record=True,
    )
    assert result.record is not None
    return result.record


@pytest.fixture(scope="module")
def basic_record() -> dict[str, Any]:
    return _fair_game("basic", 3, 11, max_actions=20000)


def test_commitment_is_the_sha256_of_the_documented_text() -> None:
    """docs/fairness.md: the cards in deal order separated by spaces, a newline, the secret
    in lowercase hex, a newline; SHA-256 of that."""
    state = new_game(make_rules("basic"), ["ana", "ben"], seed=3, fair_key=b"k" * 32)
    assert state.deal_secret is not None
    deck = make_rules("basic").var.deck_order(state.rules, 2, state.deal_secret, 1)
    text = " ".join(str(c) for c in deck) + "\n" + state.deal_secret.hex() + "\n"
    assert commitment_text(deck, state.deal_secret) == text.encode()
    assert state.commitment == hashlib.sha256(text.encode()).hexdigest()
    # the deck is what was dealt: ben (left of the dealer ana) gets the first card
    dealer = state.dealer
    first = (dealer + 1) % 2
    assert state.hands[first][0] == deck[0]
    assert state.upcard == deck[20]
    assert state.stock == tuple(deck[21:])


def test_the_shell_recipe_of_docs_fairness_gives_the_commitment(
    basic_record: dict[str, Any],
) -> None:
    """The recipe of docs/fairness.md, run with coreutils' sha256sum."""
    deal = basic_record["deals"][0]["deal"]
    deck = " ".join(deal["deck"])
    out = subprocess.run(
        ["sh", "-c", 'printf \'%s\\n%s\\n\' "$DECK" "$SECRET" | sha256sum'],
        env={"DECK": deck, "SECRET": deal["secret"], "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.split()[0] == deal["commitment"]


def test_secrets_are_hmacs_per_deal_and_per_game() -> None:
    """One-way derivations (HMAC-SHA256): a revealed secret gives away neither the key nor
    another deal's secret."""
    key = fair_key_from_seed(7)
    assert key == hmac.new(b"rummy-bot fair key", b"7", hashlib.sha256).digest()
    assert key != fair_key_from_seed(8)
    secrets_ = [deal_secret(key, k) for k in range(1, 6)]
    assert secrets_[2] == hmac.new(key, b"deal 3", hashlib.sha256).digest()
    assert len(set(secrets_)) == 5 and all(len(s) == 32 for s in secrets_)


def test_a_game_without_a_fair_key_deals_as_before() -> None:
    """Seeded games that tests and old records rely on keep their cards: no secret, no
    commitment, the shuffle of deal_rng(seed, k)."""
    old = new_game(make_rules("basic"), ["ana", "ben", "cem"], seed=42)
    fair = new_game(
        make_rules("basic"), ["ana", "ben", "cem"], seed=42, fair_key=fair_key_from_seed(42)
    )
    assert old.deal_secret is None and old.commitment is None and old.fair_key is None
    assert fair.deal_secret is not None and fair.commitment is not None
    assert old.hands != fair.hands
    assert "fair_key" not in state_to_dict(old)
    assert state_from_dict(state_to_dict(fair)) == fair


def test_the_secret_is_revealed_when_the_deal_ends_and_not_before() -> None:
    rules = make_rules("basic", options={"deals": 1})
    state = new_game(rules, ["ana", "ben"], seed=5, fair_key=fair_key_from_seed(5))
    secret = state.deal_secret
    assert secret is not None
    seats = [make_ai("greedy", 1), make_ai("greedy", 2)]
    ended: list[HandEnded] = []
    while not is_over(state):
        assert secret.hex() not in repr(public_view(state))
        assert all(secret.hex() not in repr(view_for(state, s)) for s in range(2))
        _, state, events = ai_move(state, seats)
        ended += [e for e in events if isinstance(e, HandEnded)]
        if not ended:
            assert secret.hex() not in repr(events)
    assert ended[0].secret == secret.hex() == state.results[0].secret
    assert ended[0].commitment == state.results[0].commitment == state.commitment
    assert state_from_dict(state_to_dict(state)) == state


@given(st.sampled_from(sorted(SHORT)), st.integers(2, 4), st.integers(0, 2**31))
def test_every_simulated_game_of_every_variant_verifies(
    variant: str, players: int, seed: int
) -> None:
    record = _fair_game(variant, players, seed)
    assert record["format"] == FAIR_RECORD_FORMAT
    text = dump_record(record)
    check = check_record(parse_record_text(text))
    assert check.ok, check
    assert check.deals == len(record.get("deals", [record]))
    assert replay(record)["ok"]


def test_an_altered_stock_card_is_named(basic_record: dict[str, Any]) -> None:
    record = copy.deepcopy(basic_record)
    deck = record["deals"][1]["deal"]["deck"]
    card = len(deck) - 3  # in the stock
    deck[card], deck[card + 1] = deck[card + 1], deck[card]
    check = check_record(record)
    assert (check.code, check.deal, check.card) == ("card", 2, card + 1)
    assert (check.listed, check.expected) == (deck[card], deck[card + 1])


def test_an_altered_secret_breaks_the_commitment(basic_record: dict[str, Any]) -> None:
    record = copy.deepcopy(basic_record)
    deal = record["deals"][-1]["deal"]
    deal["secret"] = ("0" if deal["secret"][0] != "0" else "1") + deal["secret"][1:]
    check = check_record(record)
    assert (check.code, check.deal) == ("commitment", len(record["deals"]))


def test_an_altered_commitment_is_named(basic_record: dict[str, Any]) -> None:
    record = copy.deepcopy(basic_record)
    record["deals"][0]["deal"]["commitment"] = "0" * 64
    check = check_record(record)
    assert (check.code, check.deal) == ("commitment", 1)


def test_a_changed_action_is_named_with_its_deal_and_place(basic_record: dict[str, Any]) -> None:
    record = copy.deepcopy(basic_record)
    actions = record["deals"][1]["actions"]
    index = next(i for i, line in enumerate(actions) if line.endswith(": draw"))
    player = actions[index].split(":")[0]
    actions[index] = f"{player}: discard 2c"  # a discard before drawing
    check = check_record(record)
    assert (check.code, check.deal, check.action) == ("action", 2, index + 1)
    assert check.text == actions[index]
    assert check.error is not None and check.error.code == "wrong_phase"


def test_a_record_without_commitments_says_so() -> None:
    path = Path(__file__).parent / "data" / "basic-ben-goes-out.json"
    record = json.loads(path.read_text("utf-8"))
    assert check_record(record).code == "no_commitments"
    assert replay(record)["ok"]


def test_a_deal_without_commitment_among_fair_ones_is_named(basic_record: dict[str, Any]) -> None:
    record = copy.deepcopy(basic_record)
    record["deals"][1]["deal"] = {"seed": record["seed"]}
    check = check_record(record)
    assert (check.code, check.deal) == ("no_commitment", 2)


def test_a_damaged_fair_deal_is_unreadable(basic_record: dict[str, Any]) -> None:
    record = copy.deepcopy(basic_record)
    record["deals"][0]["deal"]["secret"] = "xyz"
    check = check_record(record)
    assert check.code == "unreadable" and check.error is not None
    assert "secret" in check.error.message
    record["format"] = 3
    assert check_record(record).code == "unreadable"


def test_export_of_a_game_without_secrets_keeps_format_1() -> None:
    state = new_game(make_rules("basic"), NAMES[:2], seed=9)
    record = export_record(state.rules, NAMES[:2], 9, state.dealer, [])
    assert record["format"] == RECORD_FORMAT
    assert revealed_deals(state) == [None]


def test_replaying_a_fair_record_gives_the_game_state(basic_record: dict[str, Any]) -> None:
    """The record replays to the game's own final state (the fair key is the game's and
    is not in the record)."""
    rules = make_rules("basic", "standard", {"deals": 2})
    state = new_game(rules, NAMES[:3], seed=11, fair_key=fair_key_from_seed(11))
    seats = [make_ai("greedy", ((11 << 4) + s)) for s in range(3)]
    while not is_over(state):
        _, state, _ = ai_move(state, seats)
    report = replay(basic_record)
    expected = state_to_dict(state)
    del expected["fair_key"]
    assert report["state"] == expected


def test_apply_reveals_through_the_public_api() -> None:
    """A deal ended by a person's move (apply, verified) reveals its secret too."""
    rules = make_rules("basic", options={"deals": 1})
    state = new_game(rules, ["ana", "ben"], seed=2, fair_key=b"\x01" * 32)
    seats = [make_ai("greedy", 1), make_ai("greedy", 2)]
    while not state.results:
        action, _, _ = ai_move(state, seats)
        state, _ = apply(state, action)
    assert state.results[0].secret == deal_secret(b"\x01" * 32, 1).hex()
    deck = rules.var.deck_order(rules, 2, deal_secret(b"\x01" * 32, 1), 1)
    assert state.results[0].commitment == commitment(deck, deal_secret(b"\x01" * 32, 1))


def test_the_fair_fields_of_events_have_a_json_form() -> None:
    """The commitment of DealStarted and the secret of HandEnded survive the events' JSON
    (the bot stores committed events that way)."""
    from engine.events_json import event_from_json, event_to_json

    rules = make_rules("basic", options={"deals": 1})
    state = new_game(rules, ["ana", "ben"], seed=8, fair_key=b"\x02" * 32)
    seats = [make_ai("greedy", 1), make_ai("greedy", 2)]
    seen = []
    while not is_over(state):
        _, state, events = ai_move(state, seats)
        seen += [e for e in events if isinstance(e, HandEnded)]
    assert seen and seen[0].secret is not None
    assert event_from_json(json.loads(json.dumps(event_to_json(seen[0])))) == seen[0]
    started = DealStarted(1, 0, None, state.results[0].commitment)
    assert event_from_json(event_to_json(started)) == started
