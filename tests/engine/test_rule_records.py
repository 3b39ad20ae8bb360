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


# --- Romanian Rummy ---------------------------------------------------------------------------

def test_a_joly_of_the_row_is_taken_with_two_rack_tiles() -> None:
    """romanian-rummy.de.txt, rule 4: "Wenn man zwei Steine auf seinem Ständer hat, mit
    denen man einen Satz oder eine Folge mit irgendeinem Stein der abgelegten Steine
    vervollständigen kann, darf man diesen Stein aufnehmen und die Meldung machen – aber
    dann muss man auch alle Steine aufnehmen, die nach dem Stein ... liegen", and "Ein Joly
    kann anstelle irgendeines Steines stehen": ben (opened) holds r5 r6, which make a run
    with the Joly ana discarded; he takes it with the two tiles after it and melds
    r5 r6 jk=r7 at once."""
    report = replayed("romanian-take-joly-from-the-row.json")
    assert report["ok"], report["error"]
    state = final(report)
    assert str(state.melds[-1]) == "r5 r6 jk=r7"
    assert [str(t) for t in state.discard] == ["k13", "y8", "b1"]
    assert {"y4", "k9"} <= {str(t) for t in state.hands[1]}


def test_the_face_up_twin_is_announced_before_the_own_first_turn() -> None:
    """romanian-rummy.de.txt: "Wenn man den gleichen Stein wie den aufgedeckten Extrastein
    bekommen hat, kann man das vor seinem ersten Spiel ansagen". ben said nothing in the
    pre-play step; at the start of his own first turn, after ana's opening discard and
    before he draws, he announces the twin of the face-up b9 (docs/readings.md: "Spiel" is
    the seat's first turn)."""
    report = replayed("romanian-announce-before-own-first-turn.json")
    assert report["ok"], report["error"]
    extra = final(report).extra
    assert extra.announced == (False, True)


# --- German Rommé -----------------------------------------------------------------------------

def _record(name: str) -> dict[str, Any]:
    return parse_record_text((RULES / name).read_text(encoding="utf-8"), name)


def test_an_eliminated_player_is_dealt_no_cards() -> None:
    """german-romme.de.txt: "ein Spieler welcher mehr Verlustpunkte geschrieben hat
    scheidet aus. Die anderen Spieler spielen weiter, bis nur noch ein Spieler übrig ist".
    ana goes hand rummy, ben writes 2 x 133 = 266 points (over 150) and is out: an explicit
    second deal that gives him 13 cards is refused, naming his hand; with no cards for him
    it replays, cem (left of the dealer ana, ben skipped) to start."""
    report = replayed("german-deal-after-elimination.json")
    assert report["applied"] == 3
    assert report["scores"]["deals"] == [{"ana": 0, "ben": 266, "cem": 96}]
    assert report["error"]["code"] == "bad_record" and report["error"]["index"] is None
    assert report["error"]["params"]["where"] == "deals[1].deal.hands.ben"
    record = _record("german-deal-after-elimination.json")
    record["deals"][1]["deal"]["hands"]["ben"] = []
    fixed = replay(record)
    assert fixed["ok"], fixed["error"]
    state = final(fixed)
    assert state.dealer == 0 and state.hands[1] == () and len(state.hands[2]) == 13


def test_a_joker_kept_when_cutting_needs_the_house_rule_and_the_cutter() -> None:
    """german-romme.de.txt (house rule ``joker_steal``): "Der abhebende Spieler darf die
    unterste Karte des abgehobenen Kartenpackets ansehen, und wenn es ein Joker ist, darf er
    sie behalten (Joker rauben)". Without the house rule nobody keeps a joker: the deal's
    ``stolen`` is refused. With it, only the cutter (the player to the dealer's right: ben
    when cem deals) keeps one, and his hand must hold it."""
    report = replayed("german-stolen-joker-without-the-option.json")
    refused = report["error"]
    assert refused["code"] == "bad_record" and refused["params"]["where"] == "deal.stolen"
    record = _record("german-stolen-joker-without-the-option.json")
    record["options"] = {"joker_steal": True}
    assert replay(record)["ok"]
    record["deal"]["stolen"] = 2  # the dealer
    assert replay(record)["error"]["params"]["where"] == "deal.stolen"
    record["deal"]["stolen"] = 1
    record["deal"]["hands"]["ben"][0] = "ah"  # no joker in the cutter's hand
    assert replay(record)["error"]["params"]["where"] == "deal.stolen"


def test_a_playable_last_discard_is_called_and_its_player_floats() -> None:
    """rummy-500.de.txt (``going_out=callable``): "In einer alternativen Variante wird so
    gespielt, dass jeder andere Spieler "Rommé!" rufen und die von Ihnen auf den
    Ablagestapel gelegte Karte melden kann. In diesem Fall werden Sie zu einem
    "Schwebenden"". ana's last card, the 10h, could have been laid off: cem calls it and
    lays it off, ana floats and goes out next turn with the 4s; her 7h 8h 9h 2c 2d 2s 2h
    score 32, the 10h is cem's."""
    report = replayed("500-callable-last-discard.json")
    assert report["ok"], report["error"]
    assert report["hand_over"]
    scores = report["scores"]["deals"][0]
    assert scores["ana"] == 32
    assert scores["cem"] == 10 - (5 + 8 + 9 + 10 + 10 + 6)
