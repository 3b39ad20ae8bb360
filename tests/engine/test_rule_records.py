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


# --- Readings the texts leave open (docs/readings.md) ----------------------------------------


def test_reading_wrotham_deals_4_to_6_meld_only_all_at_once() -> None:
    """basic-rummy.de.txt (Wrotham): "in den letzten drei Runden dürfen die Spieler keine
    Karten mehr melden, bis sie alle sieben auf einmal ablegen können". ana may not meld
    7h 8h 9h alone; putting down all her cards but the final discard goes out at once, so
    nobody lays off in these deals."""
    refused_at(replayed("basic-wrotham-all-at-once.json"), 0, "all_at_once_required")
    record = _record("basic-wrotham-all-at-once.json")
    record["actions"] = ["ana: meld 7h 8h 9h | 2c 2d 2s 2h", "ana: discard kc"]
    report = replay(record)
    assert report["ok"] and report["hand_over"], report["error"]
    record["actions"] = ["ana: discard kc", "ben: draw", "ben: layoff 4h 1"]
    assert replay(record)["error"]["code"] == "no_such_meld"


def test_reading_a_joker_left_in_a_basic_hand_counts_15() -> None:
    """basic-rummy.de.txt has no value for a joker left in a hand; the reading (option
    ``joker_points``, 15) takes the value the text gives the ace where it is worth most:
    "erhalten Asse den höheren Wert von 15 Punkten". ana scores ben's joker as 15."""
    report = replayed("basic-joker-left-in-hand.json")
    assert report["ok"]
    assert report["scores"]["deals"] == [{"ana": 15 + 27 + 50, "ben": 0, "cem": 0}]


def test_reading_the_joly_chain_scores_the_tiles_laid_in_its_place() -> None:
    """romanian-rummy.de.txt: "der Spieler, der ihn später genommen hat, bekommt nur die
    Punkte für den Stein (die Steine), die der Joly jetzt repräsentiert" and "Die
    umgedrehten Steine, die ihn ersetzten, werden jedes Mal dem Spieler, der sie gelegt
    hatte, zurückgegeben". ben melded the Joly first: +50. ana exchanged it for b11 and
    melded it as r7: she scores the b11 (10), not the Joly's 50 nor its new place r7:
    100 + 35 + 30 + 10 (b11) + 10 (r5 r6) + 10 (r8 r9) + 15 (k8 k13) = 210."""
    report = replayed("romanian-joly-chain.json")
    assert report["ok"] and report["hand_over"]
    assert report["scores"]["deals"] == [{"ana": 210, "ben": 55 + 50 - 35}]


def test_reading_joly_double_doubles_the_winners_whole_score() -> None:
    """romanian-rummy.de.txt (option ``joly_double``): "Wenn man gewinnt, indem man einen
    Joly ablegt und vorher alle seine Steine gemeldet hat, wird der Punktgewinn dieses
    Spiels verdoppelt": ana goes out discarding a Joly, 2 x (100 + 105) = 410; ben's score
    stays 65 - 35 = 30."""
    report = replayed("romanian-joly-double.json")
    assert report["scores"]["deals"] == [{"ana": 410, "ben": 30}]
    record = _record("romanian-joly-double.json")
    record["options"] = {"preplay": False}
    assert replay(record)["scores"]["deals"] == [{"ana": 205, "ben": 30}]


def test_reading_a_1_left_on_a_rack_counts_25() -> None:
    """romanian-rummy.de.txt values a 1 only in melds (5, 10, "Jede 1 in einem Satz von
    Einsen 25 Punkte"); left on a rack it counts 25 (option ``rack_one``): ben's r1 and
    six tiles of 5 cost him 55, his score 55 + 50 - 55 = 50."""
    report = replayed("romanian-one-on-the-rack.json")
    assert report["scores"]["deals"] == [{"ana": 210, "ben": 50}]


def test_reading_closing_lay_offs_are_for_players_who_have_opened() -> None:
    """german-romme.de.txt (``closing_layoffs``): "dürfen die Spieler der Reihe nach eine
    oder mehrere Karten an (alle) Figuren ergänzen" with "Ergänzen: Wenn er bereits seine
    erste Figur(en) ... melden konnte": ben (opened) lays off the 6c and is done; cem, not
    opened, gets no turn: the deal is scored with his 9d (hand rummy doubles: 2 x 102)."""
    report = replayed("german-closing-layoffs-opened-only.json")
    assert report["ok"] and report["hand_over"]
    assert report["scores"]["deals"] == [{"ana": 0, "ben": 2 * 54, "cem": 2 * 102}]
    assert "9d" in [str(c) for c in final(report).hands[2]]


def test_reading_the_ace_keeps_1_and_11_in_a_first_meld_under_flat_values() -> None:
    """german-romme.de.txt: "Spielkarten haben folgende Werte: 2 - 8 = 5 Punkte, 9 - K = 10
    Punkte, As = 11" and "Asse zählen bei der Erstmeldung in Sequenzen 1 Punkte wenn als 1
    benutzt": under flat values the ace low still counts 1, so ah..8h is 36 of 40."""
    report = replayed("german-flat-values-ace-in-first-meld.json")
    refused_at(report, 2, "opening_too_low")
    assert report["error"]["params"] == {"total": 36, "needed": 40}


def test_reading_the_beginner_preset_melds_several_melds_a_turn() -> None:
    """romme-basic.de.txt: "Der Spieler kann (muss aber nicht) eine Kartenmeldung spielen";
    the beginners' Rommé melds several melds a turn (multiple_melds): ana melds 7h 8h 9h
    and 2c 2d 2s at once."""
    report = replayed("basic-beginner-several-melds.json")
    assert report["ok"], report["error"]
    assert [str(m) for m in final(report).melds] == ["7h 8h 9h", "2c 2d 2s"]
