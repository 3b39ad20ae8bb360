"""Game records: replay of the example records, deal forms, errors, export -> replay."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.actions import Action, LayOff, MeldCards, NextDeal
from engine.cards import Card, parse_card, parse_cards, standard_deck
from engine.commands import format_record_line
from engine.dealing import DealSpec, deal_from_deck, deal_rng, start_deal
from engine.errors import EngineError
from engine.game import apply, current_player, legal_actions, new_game
from engine.records import (
    RecordError,
    dump_record,
    export_record,
    failed_report,
    parse_record_text,
    read_record,
    replay,
)
from engine.rules import make_rules
from engine.serialize import state_from_dict
from engine.state import GameState, Phase
from engine.variants import get_variant

DATA = Path(__file__).parent / "data"
PLAYERS = ["ana", "ben", "cem"]


def example(name: str) -> dict[str, Any]:
    return parse_record_text((DATA / name).read_text(encoding="utf-8"), name)


def rule_points(cards: Iterable[Card]) -> int:
    """Card values as basic-rummy.de.txt states them: "Bildkarten (K, Q, J) sind jeweils 10
    Punkte wert", "Asse sind jeweils 1 Punkt wert", "Zahlenkarten sind ihren Nennwert wert"."""
    return sum(10 if c.rank >= 11 else c.rank for c in cards)


def final_state(report: dict[str, Any]) -> GameState:
    assert report["state"] is not None
    return state_from_dict(report["state"])


# --- the example records --------------------------------------------------------------------


def test_stacked_deal_where_ben_goes_out() -> None:
    """basic-rummy.de.txt: "Der Gesamtwert aller Karten in den Händen der anderen Spieler
    wird zur Gesamtpunktzahl des Gewinners addiert." ana keeps ac 4d 6d 9d qh 6s 3d
    (1+4+6+9+10+6+3 = 39), cem keeps 3c 5c 8c jd qd 9s ks (3+5+8+10+10+9+10 = 55), so ben
    scores 94. Going rummy ("einen besonderen Bonus ... wenn er in einem einzigen Zug
    ausgehen kann") does not double it: ben had melded in his first turn."""
    report = replay(example("basic-ben-goes-out.json"))
    assert report["ok"] and report["error"] is None
    assert report["applied"] == 11
    assert report["hand_over"] and not report["game_over"]
    state = final_state(report)
    assert state.hands[0] == parse_cards("ac 4d 6d 9d qh 6s 3d")
    assert sorted(state.hands[2], key=lambda c: c.sort_key) == sorted(
        parse_cards("3c 5c 8c jd qd 9s ks"), key=lambda c: c.sort_key
    )
    assert rule_points(state.hands[0]) == 39 and rule_points(state.hands[2]) == 55
    assert report["scores"] == {
        "deals": [{"ana": 0, "ben": 94, "cem": 0}],
        "total": {"ana": 0, "ben": 94, "cem": 0},
    }
    assert [str(m) for m in state.melds] == ["7h 8h 9h 10h", "2c 2d 2s"]


def test_beginner_game_over_three_seeded_deals() -> None:
    """romme-basic.de.txt: "Alle verbleibenden Karten anderer Spieler werden dem Gewinner
    der Hand wie folgt gutgeschrieben"; the match ends after the agreed deals
    (basic-rummy.de.txt: "bis die vereinbarte Anzahl von Deals gespielt wurde").
    Deal 1: cem out, ana 2c (2) + ben 8s 2s 5d 4d 2d 6s 9s (36) = 38. Deal 2: ben out,
    ana 4s 3s 2c qc (19) + cem ad 8s 5h 3d 5c 8d as (31) = 50. Deal 3: cem out, ana 4h 3h
    as (8) + ben 3c ac 4c (8) = 16."""
    record = example("beginner-seeded-three-deals.json")
    report = replay(record)
    assert report["ok"], report["error"]
    assert report["applied"] == sum(len(d["actions"]) for d in record["deals"])
    assert report["scores"]["deals"] == [
        {"ana": 0, "ben": 0, "cem": 38},
        {"ana": 0, "ben": 50, "cem": 0},
        {"ana": 0, "ben": 0, "cem": 16},
    ]
    assert report["scores"]["total"] == {"ana": 0, "ben": 50, "cem": 54}
    assert report["game_over"] and report["winners"] == ["cem"]
    state = final_state(report)
    assert state.rules.preset == "beginner"
    assert [r.dealer for r in state.results] == [2, 0, 1]
    left = {
        1: ("2c", "8s 2s 5d 4d 2d 6s 9s", ""),
        2: ("4s 3s 2c qc", "", "ad 8s 5h 3d 5c 8d as"),
        3: ("4h 3h as", "3c ac 4c", ""),
    }
    for deals in (1, 2, 3):
        partial = dict(record, deals=record["deals"][:deals])
        hands = final_state(replay(partial)).hands
        assert hands == tuple(parse_cards(h) for h in left[deals])
        winner = next(s for s in range(3) if not hands[s])
        expected = sum(rule_points(h) for h in hands)
        assert report["scores"]["deals"][deals - 1][PLAYERS[winner]] == expected


def test_illegal_action_stops_the_replay() -> None:
    """basic-rummy.de.txt: "Wenn Sie Ihren Zug mit der obersten Karte des Ablagestapels
    begonnen haben, dürfen Sie diesen Zug nicht beenden, indem Sie dieselbe Karte ablegen"."""
    report = replay(example("basic-illegal-discard.json"))
    assert not report["ok"]
    assert report["applied"] == 4
    assert report["error"] == {
        "index": 4,
        "action": "cem: discard ks",
        "code": "cannot_discard_taken",
        "message": "You cannot discard ks: you took it from the discard pile this turn.",
        "params": {"card": "ks"},
    }
    state = final_state(report)
    assert state.phase is Phase.PLAY and state.current == 2
    assert state.turn.taken == parse_card("ks") and parse_card("ks") in state.hands[2]
    assert report["scores"] == {"deals": [], "total": {"ana": 0, "ben": 0, "cem": 0}}


def test_example_files_use_the_dump_layout() -> None:
    for path in sorted(DATA.glob("*.json")):
        text = path.read_text(encoding="utf-8")
        assert dump_record(parse_record_text(text)) == text, path.name


# --- deal forms -----------------------------------------------------------------------------


def small_record(**changes: Any) -> dict[str, Any]:
    record = example("basic-ben-goes-out.json")
    record.pop("comment")
    record.update(changes)
    return record


def test_seed_deal_is_the_games_own_shuffle() -> None:
    rules = make_rules("basic")
    game = new_game(rules, PLAYERS, seed=7, dealer=1)
    report = replay(
        {"variant": "basic", "players": PLAYERS, "dealer": 1, "deal": {"seed": 7}, "actions": []}
    )
    assert final_state(report) == game


def test_deal_seed_other_than_the_game_seed() -> None:
    """Deal k of ``{"seed": S}`` is shuffled with deal_rng(S, k); the top-level seed stays
    the game seed (it drives reshuffles of the discard pile)."""
    report = replay(
        {
            "variant": "basic",
            "players": PLAYERS,
            "dealer": 0,
            "seed": 3,
            "deal": {"seed": 7},
            "actions": [],
        }
    )
    state = final_state(report)
    assert state.seed == 3
    same_deal = new_game(make_rules("basic"), PLAYERS, seed=7, dealer=0)
    assert state.hands == same_deal.hands and state.stock == same_deal.stock


def test_dealer_by_name_or_drawn_from_the_seed() -> None:
    by_name = replay({"variant": "basic", "players": PLAYERS, "dealer": "cem", "deal": {"seed": 4}})
    assert final_state(by_name).dealer == 2
    drawn = replay({"variant": "basic", "players": PLAYERS, "seed": 4})
    assert final_state(drawn) == new_game(make_rules("basic"), PLAYERS, seed=4)


def test_deck_deal_is_dealt_one_at_a_time_from_the_front() -> None:
    """basic-rummy.de.txt: "Die Karten werden einzeln ausgeteilt, und nach dem Austeilen wird
    die nächste Karte offen auf den Tisch gelegt"; dealing starts left of the dealer."""
    deck = standard_deck()
    random.Random(5).shuffle(deck)
    report = replay(
        {
            "variant": "basic",
            "players": PLAYERS,
            "dealer": 2,
            "deal": {"deck": [str(c) for c in deck]},
            "actions": ["ana: draw"],
        }
    )
    state = final_state(report)
    assert state.hands[1] == tuple(deck[1:21:3])
    assert state.hands[0][:7] == tuple(deck[0:21:3])
    assert state.discard == (deck[21],)
    assert state.stock == tuple(deck[23:])
    spec = deal_from_deck(make_rules("basic"), 3, 2, deck)
    assert state.hands[2] == spec.hands[2]


def test_wrotham_deal_has_no_upcard() -> None:
    """Wrotham: "Acht Karten werden an den Startspieler und sieben an jeden anderen Spieler
    ausgeteilt. In der ersten Runde zieht der Startspieler nicht"."""
    rules = make_rules("basic", "wrotham")
    deck = get_variant("basic").deck(rules, 3)
    spec = deal_from_deck(rules, 3, 0, deck)
    hands = {p: [str(c) for c in h] for p, h in zip(PLAYERS, spec.hands, strict=True)}
    record: dict[str, Any] = {
        "variant": "basic",
        "preset": "wrotham",
        "players": PLAYERS,
        "dealer": 0,
        "deal": {"hands": hands, "upcard": None, "stock": [str(c) for c in spec.stock]},
        "actions": [f"ben: discard {spec.hands[1][0]}"],
    }
    report = replay(record)
    assert report["ok"], report["error"]
    assert len(spec.hands[1]) == 8
    record["deal"]["upcard"] = str(spec.stock[0])
    record["deal"]["stock"] = [str(c) for c in spec.stock[1:]]
    bad = replay(record)
    assert bad["error"]["code"] == "bad_record"
    assert bad["error"]["message"].startswith("deal.upcard: must be null")


def test_next_lines_in_one_action_list_deal_from_the_seed() -> None:
    state = new_game(make_rules("basic", "block"), PLAYERS, seed=21, dealer=0)
    lines = []
    rng = random.Random(1)
    while state.deal_number < 3 and state.phase is not Phase.GAME_OVER:
        seat = current_player(state)
        action = NextDeal(1) if seat is None else rng.choice(legal_actions(state, seat))
        lines.append(format_record_line(action, PLAYERS))
        state, _ = apply(state, action)
    report = replay(
        {
            "variant": "basic",
            "preset": "block",
            "players": PLAYERS,
            "dealer": 0,
            "seed": 21,
            "actions": lines,
        }
    )
    assert report["ok"] and final_state(report) == state
    assert "ben: next" in lines


# --- malformed records and bad actions ------------------------------------------------------


def drop(key: str) -> dict[str, Any]:
    record = small_record()
    record.pop(key)
    return record


@pytest.mark.parametrize(
    ("record", "code", "start"),
    [
        ("not a record", "bad_record", "record: expected an object"),
        (drop("players"), "bad_record", "players: missing"),
        (drop("variant"), "bad_record", "variant: missing"),
        (drop("deal"), "bad_record", "deal: missing, and the record has no seed"),
        (small_record(variant="poker"), "bad_option", "unknown variant 'poker'"),
        (small_record(preset="speedy"), "bad_option", "unknown preset 'speedy'"),
        (small_record(options={"flying_aces": True}), "bad_option", "unknown option 'flying_aces'"),
        (small_record(options={"ace": "sideways"}), "bad_option", "option ace: 'sideways'"),
        (
            small_record(players=["ana"], deal={"seed": 1}),
            "bad_option",
            "Basic Rummy is for 2-6 players",
        ),
        (small_record(dealer="bob"), "unknown_player", "'bob' is not a player here"),
        (small_record(dealer=3), "bad_record", "dealer: 3 is out of range"),
        (small_record(colour="red"), "bad_record", "colour: unknown key"),
        (small_record(deals=[]), "bad_record", "deals: give either deals or deal"),
        (small_record(format=9), "bad_record", "format: unknown record format"),
        (small_record(deal={"seed": 1, "deck": []}), "bad_record", "deal: a deal is"),
        (small_record(deal={"deck": ["7h"] * 30}), "bad_record", "deal.deck: 7h appears 30 times"),
        (small_record(deal={"deck": ["7h", "8h"]}), "bad_option", "the deck has 2 cards"),
        (small_record(actions="ben: draw"), "bad_record", "actions: expected a list"),
    ],
)
def test_malformed_records_are_reported_not_raised(record: Any, code: str, start: str) -> None:
    report = replay(record)
    assert not report["ok"] and report["applied"] == 0 and report["state"] is None
    assert report["error"]["index"] is None and report["error"]["action"] is None
    assert report["error"]["code"] == code
    assert start in report["error"]["message"]


def with_hands(change: dict[str, Any]) -> dict[str, Any]:
    record = small_record()
    record["deal"]["hands"].update(change)
    return record


@pytest.mark.parametrize(
    ("record", "code", "text"),
    [
        (with_hands({"ana": ["ac", "4d", "6d", "9d", "kc", "qh", "11s"]}), "bad_card", "'11s'"),
        (with_hands({"bob": ["7c"]}), "unknown_player", "'bob' is not a player"),
        (
            with_hands({"ana": ["ac", "4d"]}),
            "bad_record",
            "deal.hands.ana: has 2 cards, the rules deal 7",
        ),
        (
            with_hands({"ana": ["7h", "4d", "6d", "9d", "kc", "qh", "6s"]}),
            "bad_record",
            "7h appears 2 times",
        ),
    ],
)
def test_bad_deals_are_reported(record: dict[str, Any], code: str, text: str) -> None:
    report = replay(record)
    assert report["error"]["code"] == code and report["error"]["index"] is None
    assert text in report["error"]["message"]


def test_missing_hand_and_upcard() -> None:
    record = small_record()
    del record["deal"]["hands"]["cem"]
    assert replay(record)["error"]["message"] == "deal.hands: no hand for cem"
    record = small_record()
    record["deal"]["upcard"] = None
    assert replay(record)["error"]["message"] == "deal.upcard: missing"


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("ben: fly", "unknown_command"),
        ("bob: draw", "unknown_player"),
        ("draw", "missing_player"),
        ("ben: hint", "not_an_action"),
        ("ben: discard 11h", "bad_card"),
        ("ben: layoff 10h", "missing_meld_number"),
        ("ana: draw", "not_your_turn"),
        ("cem: draw", "wrong_phase"),
        (7, "bad_record"),
    ],
)
def test_bad_action_lines_report_their_index(line: Any, code: str) -> None:
    report = replay(
        small_record(
            actions=["ben: draw", "ben: meld 7h 8h 9h", "ben: discard ks", "cem: draw", line]
        )
    )
    assert report["error"]["index"] == 4
    assert report["error"]["code"] == code
    assert report["error"]["action"] == (line if isinstance(line, str) else "7")
    assert report["applied"] == 4
    assert final_state(report).version == 4


def test_a_deal_cannot_start_before_the_last_one_ended() -> None:
    record = {
        "variant": "basic",
        "players": PLAYERS,
        "seed": 5,
        "dealer": 0,
        "deals": [{"deal": {"seed": 5}, "actions": ["ben: draw"]}, {"actions": []}],
    }
    report = replay(record)
    assert report["error"]["index"] is None and report["error"]["code"] == "wrong_phase"
    assert report["error"]["message"].startswith("deal 2: ")
    assert report["applied"] == 1 and final_state(report).deal_number == 1


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-2, 60)
    | st.sampled_from(["7h", "jk", "ben: draw", "ana", "seed", "x", "beginner"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["seed", "deck", "hands", "upcard", "stock", "deal", "actions", "x"]),
            inner,
            max_size=3,
        )
    ),
    max_leaves=6,
)


@given(st.data())
def test_replay_never_raises_for_mutated_records(data: st.DataObject) -> None:
    record: Any = example(
        data.draw(st.sampled_from(["basic-ben-goes-out.json", "beginner-seeded-three-deals.json"]))
    )
    target: Any = record
    path: list[Any] = []
    while isinstance(target, dict | list) and target and data.draw(st.booleans()):
        key = data.draw(
            st.sampled_from(
                sorted(target) if isinstance(target, dict) else list(range(len(target)))
            )
        )
        path.append(key)
        target = target[key]
    mutated = copy.deepcopy(record)
    holder: Any = mutated
    for key in path[:-1]:
        holder = holder[key]
    if path:
        holder[path[-1]] = data.draw(json_values)
    else:
        mutated = data.draw(json_values)
    report = replay(mutated)
    assert set(report) == {
        "ok",
        "applied",
        "error",
        "scores",
        "hand_over",
        "game_over",
        "winners",
        "state",
    }
    assert report["ok"] == (report["error"] is None)
    json.dumps(report)


# --- load -----------------------------------------------------------------------------------


def test_failed_report_has_the_replay_shape() -> None:
    error = RecordError("record.json", "invalid JSON at line 1 column 2: Expecting value")
    report = failed_report(error)
    assert report == {**replay({}), "error": report["error"]}
    assert report["error"] == {
        "index": None,
        "action": None,
        "code": "bad_record",
        "message": error.message,
        "params": {
            "where": "record.json",
            "detail": "invalid JSON at line 1 column 2: Expecting value",
        },
    }


# --- export -> replay -----------------------------------------------------------------------


def play(
    state: GameState, rng: random.Random, deals: int, limit: int, log: list[Action]
) -> GameState:
    """Random legal play (melds and lay-offs preferred) until ``deals`` deals were started,
    the game ends or ``limit`` actions were made; every action is appended to ``log``."""
    while len(log) < limit and state.phase is not Phase.GAME_OVER:
        seat = current_player(state)
        if seat is None:
            if state.deal_number >= deals:
                break
            seat = rng.randrange(state.seats)
        legal = legal_actions(state, seat)
        assert legal, "the seat to act always has a legal action"
        good = [a for a in legal if isinstance(a, MeldCards | LayOff)]
        action = rng.choice(good if good and rng.random() < 0.85 else legal)
        state, _ = apply(state, action)
        log.append(action)
    return state


@given(
    st.sampled_from(sorted(get_variant("basic").presets)),
    st.integers(2, 5),
    st.integers(0, 2**40),
    st.integers(1, 4),
    st.booleans(),
)
def test_export_then_replay_reproduces_the_game(
    preset: str, seats: int, seed: int, deals: int, as_text: bool
) -> None:
    rules = make_rules("basic", preset, {"ace": "high_or_low"} if seed % 3 == 0 else None)
    players = ["ana", "ben", "cem", "dora", "emil"][:seats]
    state = new_game(rules, players, seed=seed)
    log: list[Action] = []
    state = play(state, random.Random(seed), deals, 700, log)
    lines: list[Action | str] = [format_record_line(a, players) if as_text else a for a in log]
    record = export_record(rules, players, seed, new_game(rules, players, seed=seed).dealer, lines)
    report = replay(json.loads(json.dumps(record)))
    assert report["ok"], report["error"]
    assert report["applied"] == sum(1 for a in log if not isinstance(a, NextDeal))
    assert final_state(report) == state
    assert ("deals" in record) == (state.deal_number > 1)


def test_export_several_deals_layout() -> None:
    rules = make_rules("basic", "block")
    state = new_game(rules, PLAYERS, seed=8, dealer=1)
    log: list[Action] = []
    state = play(state, random.Random(2), 3, 2000, log)
    assert state.deal_number == 3
    record = export_record(rules, PLAYERS, 8, 1, log, comment="three block deals")
    assert record["comment"] == "three block deals"
    assert record["preset"] == "block" and record["options"] == {}
    assert [d["deal"] for d in record["deals"]] == [{"seed": 8}] * 3
    assert all(": next" not in line for d in record["deals"] for line in d["actions"])
    assert final_state(replay(record)) == state
    assert read_record(record).seed == 8


def test_export_options_are_relative_to_the_preset() -> None:
    """Precedence defaults < preset < options: an option set back to its plain default under
    a preset that changes it must be written."""
    rules = make_rules("basic", "beginner", {"multiple_melds": False, "ace": "around"})
    record = export_record(rules, PLAYERS, 1, 0, [])
    assert record["options"] == {"multiple_melds": False, "ace": "around"}
    assert read_record(record).rules == rules


def test_export_explicit_deals() -> None:
    """Games started from an explicit deal (a stacked deck) export that deal; a later deal
    may be explicit too."""
    rules = make_rules("basic")
    deck1 = standard_deck()
    random.Random(1).shuffle(deck1)
    first = deal_from_deck(rules, 3, 0, deck1)
    state = new_game(rules, PLAYERS, seed=99, dealer=0, deal=first)
    log: list[Action] = []
    state = play(state, random.Random(3), 1, 3000, log)
    assert state.phase is Phase.HAND_OVER
    deck2 = standard_deck()
    deal_rng(5, 2).shuffle(deck2)
    second = deal_from_deck(rules, 3, 1, deck2)
    state, _ = start_deal(state, 1, second)
    log.append(NextDeal(0))
    state = play(state, random.Random(4), 2, len(log) + 15, log)
    record = export_record(rules, PLAYERS, 99, 0, log, deals=[first, second])
    assert record["deals"][0]["deal"]["upcard"] == str(first.upcard)
    assert record["deals"][1]["deal"]["hands"]["ben"] == [str(c) for c in second.hands[1]]
    report = replay(json.loads(dump_record(record)))
    assert report["ok"], report["error"]
    assert final_state(report) == state


def test_exported_records_are_valid_deal_specs() -> None:
    rules = make_rules("basic")
    spec = DealSpec(
        tuple(
            parse_cards(h)
            for h in ("7h 8h 9h 2c 2d 2s ks", "3c 5c 8c jd qd 4s 9s", "ac 4d 6d 9d kc qh 6s")
        ),
        parse_card("4c"),
        parse_cards("5d 3d 10h"),
    )
    record = export_record(rules, PLAYERS, 0, 2, ["ana: draw"], deals=[spec])
    assert record["deal"] == {
        "hands": {
            "ana": ["7h", "8h", "9h", "2c", "2d", "2s", "ks"],
            "ben": ["3c", "5c", "8c", "jd", "qd", "4s", "9s"],
            "cem": ["ac", "4d", "6d", "9d", "kc", "qh", "6s"],
        },
        "upcard": "4c",
        "stock": ["5d", "3d", "10h"],
    }
    report = replay(record)
    assert report["ok"], report["error"]


def test_read_record_raises_typed_errors() -> None:
    with pytest.raises(EngineError):
        read_record({"variant": "basic", "players": PLAYERS})
