"""Game records of German Rommé: an exported game replays to the same state; explicit
record deals with the variant's verbs (takeback, exchange, done, decline)."""

from __future__ import annotations

import random
from typing import Any

from engine.ai import make_ai
from engine.commands import format_record_line, parse_record_line
from engine.dealing import new_game
from engine.game import apply, current_player, is_over, legal_actions
from engine.records import export_record, replay
from engine.rules import make_rules
from engine.serialize import state_to_dict
from engine.variants.german.actions import BuyBack, DeclineBuyBack, EndLayOffs, TakeBack
from engine.views import view_for

NAMES = ("ana", "ben", "cem")


def _play(options: dict[str, Any], seed: int, ai: str) -> tuple[Any, list[Any]]:
    rules = make_rules("german", None, options)
    state = new_game(rules, NAMES, seed=seed, dealer=0)
    players = [make_ai(ai, seed + s) for s in range(3)]
    log: list[Any] = []
    rng = random.Random(seed)
    while not is_over(state) and len(log) < 6000:
        seat = current_player(state)
        if seat is None:
            seat = rng.randrange(3)
        action = players[seat].decide(view_for(state, seat), legal_actions(state, seat))
        state, _ = apply(state, action)
        log.append(action)
    return state, log


def test_an_exported_match_replays_to_the_same_state() -> None:
    """Every action of a whole match (greedy players, chips, closing lay-offs, joker
    stealing) is written as a record line and replayed exactly."""
    options = {
        "target": 60,
        "chips": "points",
        "round_bonus": 10,
        "closing_layoffs": True,
        "joker_steal": True,
        "dealer_extra": True,
    }
    state, log = _play(options, 5, "greedy")
    assert state.deal_number >= 2
    record = export_record(state.rules, NAMES, 5, 0, log)
    report = replay(record)
    assert report["ok"], report["error"]
    assert report["state"] == state_to_dict(state)


def test_random_play_records_replay() -> None:
    """Random play uses take back, exchanges and the pot's buy-back decisions."""
    options = {"chips": "pot", "target": 40}
    state, log = _play(options, 8, "random")
    report = replay(export_record(state.rules, NAMES, 8, 0, log))
    assert report["ok"], report["error"]
    assert report["state"] == state_to_dict(state)


def test_record_lines_of_the_variant_verbs() -> None:
    """``takeback``, ``done``, ``buyback`` and ``decline`` are record lines like any other."""
    for action in (TakeBack(1), EndLayOffs(2), BuyBack(0), DeclineBuyBack(1)):
        line = format_record_line(action, NAMES)
        assert parse_record_line(line, NAMES) == action


def test_an_explicit_record_with_a_first_meld_taken_back() -> None:
    """A record with an explicit deal: Ana's 30 points are not a first meld, she takes them
    back and discards; the replay reports where an illegal line stops it."""
    hands = {
        "ana": "10h jh qh 5c 5d 5s 2c 7d 8s 9d kc 4h 3s",
        "ben": "6c 7c 8c kd kh ks 2d 3h 4s 9c 10d jd qs",
        "cem": "as ad 5h 6h 9h 2s 3c 4d 6d 8d 10c jc qc",
    }
    deal = {
        "hands": {name: cards.split() for name, cards in hands.items()},
        "upcard": "7s",
        "stock": ["kh", "4c", "8h"],
    }
    record = {
        "variant": "german",
        "players": list(NAMES),
        "dealer": "cem",
        "seed": 1,
        "deal": deal,
        "actions": [
            "ana: draw",
            "ana: meld 10h jh qh",
            "ana: takeback",
            "ana: discard kc",
            "ben: draw",
            "ben: discard 4c",
        ],
    }
    report = replay(record)
    assert report["ok"], report["error"]
    assert report["applied"] == 6
    bad = dict(record, actions=["ana: draw", "ana: meld 10h jh qh", "ana: discard kc"])
    report = replay(bad)
    assert not report["ok"]
    assert report["error"]["code"] == "opening_too_low"
    assert report["error"]["index"] == 2


def _dealer_extra_record(dealer_cards: str, upcard: str | None) -> dict[str, Any]:
    hands = {
        "ana": "10h jh qh 5c 5d 5s 2c 7d 8s 9d kc 4h 3s",
        "ben": "6c 7c 8c kd kh ks 2d 3h 4s 9c 10d jd qs",
        "cem": dealer_cards,
    }
    deal = {
        "hands": {name: cards.split() for name, cards in hands.items()},
        "upcard": upcard,
        "stock": ["kh", "4c", "8h"],
    }
    return {
        "variant": "german",
        "players": list(NAMES),
        "dealer": "cem",
        "seed": 1,
        "options": {"dealer_extra": True},
        "deal": deal,
        "actions": ["cem: discard 7s", "ana: draw", "ana: discard kc"],
    }


def test_an_explicit_deal_gives_the_dealer_his_extra_card() -> None:
    """``dealer_extra``: "Optional kann sich der Geber eine zusätzliche Karte verteilen,
    anstatt eine Karte aufzudecken. Er wirft dann eine Karte aufgedeckt als erste Karte des
    Abwurfstapels ab und eröffnet somit das Spiel." A record deal with the dealer's 14
    cards and no upcard replays: the dealer opens by discarding."""
    report = replay(_dealer_extra_record("as ad 5h 6h 9h 2s 3c 4d 6d 8d 10c jc qc 7s", None))
    assert report["ok"], report["error"]
    assert report["applied"] == 3


def test_an_explicit_deal_with_an_upcard_contradicts_dealer_extra() -> None:
    """With ``dealer_extra`` no card is turned up: 13 cards for the dealer and an upcard
    are refused, naming the place, instead of ignoring the option."""
    report = replay(_dealer_extra_record("as ad 5h 6h 9h 2s 3c 4d 6d 8d 10c jc qc", "7s"))
    assert not report["ok"]
    assert report["error"]["code"] == "bad_record"
    assert "cem" in report["error"]["message"]
