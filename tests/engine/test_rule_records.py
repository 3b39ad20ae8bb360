"""Records built from the rule texts: each replays a constructed game up to the move a
sentence allows or refuses (``tests/engine/data/rules/``, one JSON record per case, its
``comment`` quoting the sentence). The readings these records pin are listed in
docs/readings.md."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.cards import parse_card
from engine.records import parse_record_text, replay
from engine.serialize import state_from_dict
from engine.state import GameState

RULES = Path(__file__).parent / "data" / "rules"


def replayed(name: str) -> dict[str, Any]:
    """The replay report of the record ``name`` in ``tests/engine/data/rules``."""
    return replay(parse_record_text((RULES / name).read_text(encoding="utf-8"), name))


def refused_at(report: dict[str, Any], index: int, code: str) -> None:
    """The replay stopped at action line ``index`` with the error ``code``; every line
    before it was applied."""
    assert not report["ok"]
    assert report["applied"] == index
    assert report["error"]["index"] == index and report["error"]["code"] == code, report["error"]


def final(report: dict[str, Any]) -> GameState:
    """The last good state of a replay."""
    assert report["state"] is not None
    return state_from_dict(report["state"])


# --- Rummy 500 --------------------------------------------------------------------------------

def test_take_new_meld_owes_the_top_card_taken_alone() -> None:
    """rummy-500.de.txt, ``take_new_meld``: "Wenn Sie Karten vom Ablagestapel aufnehmen,
    muss die unterste Karte, die Sie aufnehmen, in einer neuen Auslage aus drei oder mehr
    Karten verwendet werden". Taking the top card alone, that card is the bottom card
    taken: ana takes 7s and must meld it (7h 7d 7s) before she discards; ben holds nothing
    that makes a new meld with the 2c on top, so his take is refused."""
    report = replayed("500-take-new-meld-top-card.json")
    refused_at(report, 3, "pile_card_no_new_meld")
    state = final(report)
    assert [str(m) for m in state.melds] == ["7d 7h 7s"]
    assert state.discard[-1] == parse_card("2c") and state.current == 1
