"""Events <-> JSON: every event of seeded AI games of every variant preset survives
``json.dumps``/``json.loads`` exactly; every event class has a codec; bad input raises
:class:`RecordError` naming the place."""

from __future__ import annotations

import dataclasses
import inspect
import json
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from engine import events as shared_events
from engine.ai import make_ai
from engine.cards import parse_card, parse_cards, parse_face
from engine.dealing import new_game
from engine.events import Discarded, Event, HandEnded, LaidOff, Melded
from engine.events_json import (
    EVENT_CLASSES,
    event_from_json,
    event_to_json,
    events_from_json,
    events_to_json,
)
from engine.game import is_over
from engine.jsonio import RecordCardError, RecordError
from engine.melds import Meld, MeldKind, Placed
from engine.rules import RuleSet, make_rules
from engine.simulate import NAMES, ai_step
from engine.variants import VARIANTS
from engine.variants.german import events as german_events
from engine.variants.german.events import POT, DealBlocked, Payment
from engine.variants.romanian import events as romanian_events
from engine.variants.romanian.events import DoublaAnswered, DoublaOffered, GameBlocked
from engine.variants.rummy500 import events as rummy500_events
from engine.variants.rummy500.events import RummyCalled

EVENT_MODULES = (shared_events, german_events, romanian_events, rummy500_events)

# option sets beyond the presets that make events the presets never do
EXTRA_RULES = (
    ("german", "standard", {"closing_layoffs": True, "joker_steal": True}),
    ("500", "standard", {"going_out": "float"}),
)

# events the AI games of the sweep do not reach in a few seconds (a doubla swap offer, a
# blocked game or deal): written out, so that their codec is still checked
RARE_EVENTS: tuple[Any, ...] = (
    DoublaOffered(1, 0),
    DoublaAnswered(1, 0, True),
    DoublaAnswered(2, 3, False),
    GameBlocked(4),
    DealBlocked(1),
)


def _play(
    rules: RuleSet, players: int, seed: int, ai: str, max_actions: int = 3000
) -> Iterator[Event]:
    """Every event of one AI match (as :func:`engine.simulate.simulate` plays it)."""
    state = new_game(rules, NAMES[:players], seed=seed)
    seats = [make_ai(ai, seed * 16 + seat) for seat in range(players)]
    for _ in range(max_actions):
        if is_over(state):
            return
        state, events = ai_step(state, seats)
        yield from events


def _sweep() -> list[Event]:
    games: list[tuple[str, str, dict[str, Any]]] = [
        (vid, preset, {}) for vid, var in VARIANTS.items() for preset in var.presets
    ]
    games += EXTRA_RULES
    out: list[Event] = []
    for vid, preset, options in games:
        var = VARIANTS[vid]
        players = max(var.min_players, min(4, var.max_players))
        for ai in ("random", "greedy"):
            out += _play(make_rules(vid, preset, options), players, 1, ai)
    return out


@pytest.fixture(scope="module")
def swept() -> list[Event]:
    return _sweep()


def _round_trip(event: object) -> object:
    return event_from_json(json.loads(json.dumps(event_to_json(event))))


def test_every_event_of_every_preset_round_trips(swept: list[Event]) -> None:
    failed = [e for e in [*swept, *RARE_EVENTS] if _round_trip(e) != e]
    assert not failed, failed[:5]
    # the whole list too, through the list functions
    assert events_from_json(json.loads(json.dumps(events_to_json(swept)))) == tuple(swept)


def test_every_event_class_is_seen_and_has_a_codec(swept: list[Event]) -> None:
    seen = {type(e) for e in swept} | {type(e) for e in RARE_EVENTS}
    assert set(EVENT_CLASSES) == seen, {c.__name__ for c in set(EVENT_CLASSES) ^ seen}


def test_every_event_module_class_is_in_the_table() -> None:
    # records that are only parts of events (a score sheet line, a payment)
    parts = {romanian_events.SeatScore, german_events.Payment}
    defined = {
        cls
        for module in EVENT_MODULES
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if cls.__module__ == module.__name__ and dataclasses.is_dataclass(cls)
    }
    assert defined - parts == set(EVENT_CLASSES)


def test_the_rare_events_are_not_in_the_sweep(swept: list[Event]) -> None:
    # once the sweep reaches one of them, it can leave RARE_EVENTS
    assert not {type(e) for e in RARE_EVENTS} & {type(e) for e in swept}


def test_form_of_a_meld_event_and_fractions() -> None:
    meld = Meld(
        MeldKind.RUN,
        (
            Placed(parse_card("6h"), parse_card("6h"), 1),
            Placed(parse_card("jk"), parse_card("7h"), 0),
            Placed(parse_card("8h"), parse_card("8h"), 0),
        ),
        1,
    )
    assert event_to_json(LaidOff(0, 2, parse_cards("jk 8h"), meld)) == {
        "type": "LaidOff",
        "seat": 0,
        "index": 2,
        "cards": ["jk", "8h"],
        "meld": {"kind": "run", "owner": 1, "cards": ["6h", "jk=7h", "8h"], "owners": [1, 0, 0]},
    }
    ended = HandEnded(
        3,
        None,
        False,
        (parse_cards("jk"), ()),
        (25, 0),
        (Fraction(25, 2), Fraction(0)),
        (Fraction(-7), Fraction(1, 3)),
    )
    data = event_to_json(ended)
    assert data["winner"] is None and data["scores"] == ["25/2", 0]
    assert data["totals"] == [-7, "1/3"] and data["hands"] == [["jk"], []]
    assert _round_trip(ended) == ended
    chips = german_events.ChipsMoved(
        "settlement",
        (Payment(0, POT, Fraction(5, 2)),),
        (Fraction(-5, 2), Fraction(0)),
        Fraction(5, 2),
    )
    assert event_to_json(chips)["payments"] == [{"payer": 0, "payee": -1, "amount": "5/2"}]
    assert _round_trip(chips) == chips


def test_optional_fields_and_defaults() -> None:
    called = RummyCalled(1, 0, parse_card("7h"), parse_cards("7h"))
    assert event_to_json(called)["meld"] is None
    assert _round_trip(called) == called
    data = event_to_json(german_events.OpeningProgress(0, 30, 40, False, 5))
    del data["cards_left"]  # a field with a default may be left out
    back: object = event_from_json(data)
    assert back == german_events.OpeningProgress(0, 30, 40, False, 0)


def test_tiles_round_trip() -> None:
    event = romanian_events.TookFromRow(2, parse_card("r7"), parse_cards("r7 k12 jk"))
    assert event_to_json(event)["tiles"] == ["r7", "k12", "jk"]
    assert _round_trip(event) == event


@pytest.mark.parametrize(
    ("value", "where", "error"),
    [
        ([], "event", RecordError),
        ({"seat": 1}, "event.type", RecordError),
        ({"type": 3, "seat": 1}, "event.type", RecordError),
        ({"type": "Exploded", "seat": 1}, "event.type", RecordError),
        ({"type": "Event", "seat": 1}, "event.type", RecordError),
        ({"type": "Drew"}, "event.seat", RecordError),
        ({"type": "Drew", "seat": "1"}, "event.seat", RecordError),
        ({"type": "Drew", "seat": True}, "event.seat", RecordError),
        ({"type": "Drew", "seat": 1.0}, "event.seat", RecordError),
        ({"type": "Drew", "seat": 1, "card": "7h"}, "event.card", RecordError),
        ({"type": "WentOut", "seat": 1, "rummy": 1}, "event.rummy", RecordError),
        ({"type": "Discarded", "seat": 1, "card": "7x"}, "event.card", RecordCardError),
        ({"type": "Discarded", "seat": 1, "card": None}, "event.card", RecordError),
        (
            {"type": "TookFromRow", "seat": 1, "tile": "r7", "tiles": "r7"},
            "event.tiles",
            RecordError,
        ),
        (
            {"type": "TookFromRow", "seat": 1, "tile": "r7", "tiles": ["r7", "zz"]},
            "event.tiles[1]",
            RecordCardError,
        ),
        ({"type": "GameEnded", "winners": [0], "totals": ["a/b"]}, "event.totals[0]", RecordError),
        (
            {
                "type": "Melded",
                "seat": 0,
                "index": 0,
                "meld": {"kind": "row", "owner": 0, "cards": [], "owners": []},
            },
            "event.meld.kind",
            RecordError,
        ),
        (
            {
                "type": "Melded",
                "seat": 0,
                "index": 0,
                "meld": {"kind": "set", "owner": 0, "cards": ["7h", "7d", "7s"], "owners": [0]},
            },
            "event.meld.owners",
            RecordError,
        ),
        (
            {
                "type": "ChipsMoved",
                "reason": "pot",
                "payments": [{"payer": 0, "amount": 1}],
                "balances": [],
                "pot": 0,
            },
            "event.payments[0].payee",
            RecordError,
        ),
        (
            {
                "type": "ChipsMoved",
                "reason": "pot",
                "payments": [[0, 1, 2]],
                "balances": [],
                "pot": 0,
            },
            "event.payments[0]",
            RecordError,
        ),
    ],
)
def test_malformed_input_raises_record_error(
    value: Any, where: str, error: type[RecordError]
) -> None:
    with pytest.raises(error) as caught:
        event_from_json(value)
    assert type(caught.value) is error
    assert caught.value.params["where"] == where


def test_errors_in_a_list_name_the_item() -> None:
    good = event_to_json(Discarded(0, parse_card("7h")))
    with pytest.raises(RecordError) as caught:
        events_from_json([good, {**good, "card": "77"}], "change.events")
    assert caught.value.params["where"] == "change.events[1].card"
    with pytest.raises(RecordError):
        events_from_json({"type": "Drew", "seat": 0})


def test_encoding_something_else_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        event_to_json(parse_card("7h"))
    with pytest.raises(TypeError):
        event_to_json(Payment(0, 1, Fraction(1)))


def test_melded_round_trips_with_a_suitless_face() -> None:
    # a joker that stands for "a nine" in a set (Rummy 500)
    meld = Meld(
        MeldKind.SET,
        (
            Placed(parse_card("9h"), parse_card("9h"), 0),
            Placed(parse_card("9d"), parse_card("9d"), 0),
            Placed(parse_card("jk"), parse_face("9"), 0),
        ),
        0,
    )
    event = Melded(0, 0, meld)
    assert _round_trip(event) == event
