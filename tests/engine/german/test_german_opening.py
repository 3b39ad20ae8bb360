"""The first meld (Erstmeldung), lay-offs after it, going out and hand rummy
(german-romme.de.txt), from stacked deals."""

from __future__ import annotations

import pytest

from engine.errors import CannotDiscardTaken, FinalDiscardRequired
from engine.events import HandEnded, Melded, WentOut
from engine.variants.german.errors import (
    NoRummyFirstTurn,
    NothingToTakeBack,
    NotOpenedYet,
    OneLayOffPerTurn,
    OpeningTooLow,
)
from engine.variants.german.events import OpeningProgress, OpeningWithdrawn
from engine.views import view_for

ANA = "10h jh qh 5c 5d 5s 2c 7d 8s 9d kc 4h 3s"
BEN = "6c 7c 8c kd kh ks 2d 3h 4s 9c 10s jd qs"
CEM = "as ad 5h 6h 9h 2s 3c 4d 6d 8d 10c jc qc"
STOCK = "kh 4c 8h 9s 2h 7h 6s 10d"


def test_first_meld_sums_the_melds_of_one_turn_and_shows_the_running_total(german) -> None:
    """ "Er darf eine oder mehrere Figuren melden ..., wenn die Punktsumme der gemeldeten
    Karten zusammen 40 (30) oder mehr Punkte beträgt": 10-J-Q (30) alone is not enough, the
    turn cannot end; with 5-5-5 (15) the first meld stands at 45."""
    t = german([ANA, BEN, CEM], "7s", STOCK)
    t.play("draw")
    t.play("meld 10h jh qh")
    assert t.of(OpeningProgress)[-1] == OpeningProgress(0, 30, 40, False, 11)
    view = view_for(t.state, 0)
    assert (view.extra.opening_total, view.extra.opening_needed) == (30, 40)
    assert view.table.extra.opening_total == 30 and not view.table.has_melded[0]
    with pytest.raises(OpeningTooLow) as info:
        t.play("discard kc")
    assert info.value.params == {"total": 30, "needed": 40}
    t.play("meld 5c 5d 5s")
    assert t.of(OpeningProgress)[-1] == OpeningProgress(0, 45, 40, True, 8)
    assert t.state.has_melded[0]
    t.play("discard kc")
    assert t.state.current == 1
    assert len(t.state.melds) == 2


def test_several_melds_in_one_command(german) -> None:
    """ "eine oder mehrere Figuren melden": ``meld A | B`` puts the whole first meld down."""
    t = german([ANA, BEN, CEM], "7s", STOCK)
    t.play("draw")
    t.play("meld 10h jh qh | 5c 5d 5s")
    assert t.of(OpeningProgress) == [OpeningProgress(0, 45, 40, True, 8)]
    assert [e.index for e in t.of(Melded)] == [0, 1]


def test_an_unfinished_first_meld_can_be_taken_back(german) -> None:
    """The melds of an unfinished first meld go back to the hand (``takeback``), as a
    player at the table picks them up again when the 40 points are not reached."""
    t = german([ANA, BEN, CEM], "7s", STOCK)
    t.play("draw")
    before = t.hand(0)
    t.play("meld 10h jh qh")
    t.play("takeback")
    assert t.hand(0) == before and t.state.melds == ()
    assert t.of(OpeningWithdrawn)[-1].melds == 1
    with pytest.raises(NothingToTakeBack):
        t.play("takeback")
    t.play("discard kc")
    assert t.state.current == 1


def test_a_finished_first_meld_cannot_be_taken_back(german) -> None:
    """ "welche bis zum Ende des Spiels offen liegen bleiben" """
    t = german([ANA, BEN, CEM], "7s", STOCK)
    t.play("draw")
    t.play("meld 10h jh qh | 5c 5d 5s")
    with pytest.raises(NothingToTakeBack):
        t.play("takeback")


@pytest.mark.parametrize(
    ("options", "needed"),
    [
        ({"opening": 30}, 30),
        ({"opening": 35}, 35),
        ({"opening": 50}, 50),
        ({"opening_exceed": True}, 41),
        ({"opening": 50, "opening_exceed": True}, 51),
    ],
)
def test_opening_minimum_options(german, options, needed) -> None:
    """Hausregeln: "Die Punktzahl, die es für eine Erstmeldung braucht beträgt 50, 30
    Punkte oder 35 Punkte."; "Zur Erstmeldung muss die erforderliche Punktzahl überschritten
    werden, es benötigt also 41 Punkte, 40 Punkte reichen nicht." """
    t = german([ANA, BEN, CEM], "7s", STOCK, **options)
    t.play("draw")
    t.play("meld 10h jh qh")
    assert t.of(OpeningProgress)[-1].reached is (needed <= 30)
    assert t.of(OpeningProgress)[-1].needed == needed


def test_forty_exactly_is_not_enough_when_it_must_be_exceeded(german) -> None:
    """ "es benötigt also 41 Punkte, 40 Punkte reichen nicht" """
    hand = "10h jh qh 5c 5d 2c 7d 8s 9d kc 4h 3s 6s"
    t = german([hand, BEN, CEM], "7s", "5h " + STOCK, opening_exceed=True)
    t.play("draw")
    t.play("meld 10h jh qh | 5c 5d 5h")
    assert t.of(OpeningProgress)[-1] == OpeningProgress(0, 45, 41, True, 8)
    t2 = german(
        ["10h jh qh 3c 3d 2c 7d 8s 9d kc 4h 3s 6s", BEN, CEM],
        "7s",
        "4c " + STOCK,
        opening_exceed=True,
    )
    t2.play("draw")
    t2.play("meld 10h jh qh | 3c 3d 3s")
    assert t2.of(OpeningProgress)[-1] == OpeningProgress(0, 39, 41, False, 8)


def test_two_players_with_more_cards_need_51(german) -> None:
    """Hausregel: "Die Anzahl der verteilten Karten ist bei 2 Spielern 14 oder 15 Karten und
    die zu erreichende Punktzahl für eine Erstmeldung beträgt 51 oder mehr Punkte." """
    t = german([ANA + " 6h", BEN + " 6d"], "7s", STOCK, two_player_cards=14)
    t.play("draw")
    t.play("meld 10h jh qh | 5c 5d 5s")
    assert t.of(OpeningProgress)[-1] == OpeningProgress(0, 45, 51, False, 9)


def test_lay_off_only_from_the_turn_after_the_first_meld(german) -> None:
    """ "Ergänzen: Wenn er bereits seine erste Figur(en) in einem vorherigen Spielzug melden
    konnte, darf er eine oder mehrere Karten an seinen oder vom Gegner gemeldeten Figuren
    ergänzen" — not in the turn of the first meld, then on anyone's meld."""
    t = german([ANA, BEN, CEM], "7s", STOCK)
    t.play("draw")  # kh
    t.play("meld 10h jh qh | 5c 5d 5s")
    with pytest.raises(NotOpenedYet):
        t.play("layoff kh 1")
    t.play("discard 9d")
    t.play("draw")  # ben: 4c
    with pytest.raises(NotOpenedYet):
        t.play("layoff 4c 2")
    t.play("discard 4c")
    t.play("draw")  # cem: 8h
    t.play("discard 8h")
    t.play("draw")  # ana: 9s
    t.play("layoff kh 1")
    assert [str(p.card) for p in t.state.melds[0].cards] == ["10h", "jh", "qh", "kh"]


def test_open_turn_play_allows_lay_offs_after_the_first_meld(german) -> None:
    """Hausregel: "Ein Spieler darf bereits nach einer Erstmeldung (im selben Spielzug)
    Karten an Figuren ergänzen oder Joker austauschen." """
    hand = "10h jh qh 5c 5d 5s 2c 2d 2s 7c 8c 9c"
    t = german([hand, BEN, CEM], "7s", "kh", open_turn_play=True)
    t.play("draw")  # kh
    t.play("meld 10h jh qh | 5c 5d 5s | 2c 2d 2s")
    t.play("layoff kh 1")
    assert [str(p.card) for p in t.state.melds[0].cards] == ["10h", "jh", "qh", "kh"]
    strict = german([hand, BEN, CEM], "7s", "kh")
    strict.play("draw")
    strict.play("meld 10h jh qh | 5c 5d 5s | 2c 2d 2s")
    with pytest.raises(NotOpenedYet):
        strict.play("layoff kh 1")


def test_open_turn_play_going_out_is_no_hand_rummy(german) -> None:
    """ "Falls er so ausgehen kann (sich aller seiner Karten entledigt und eine verdeckt auf
    den Abwurfstapel wirft) gilt dies nicht als Rummy, sondern als einfaches Ausgehen." """
    hand = "10h jh qh 5c 5d 5s 2c 2d 2s 7c 8c 9c 5h"
    t = german([hand, BEN, CEM], "7s", "kh 4d", open_turn_play=True)
    t.play("draw")  # kh
    t.play("meld 10h jh qh | 5c 5d 5s | 2c 2d 2s | 7c 8c 9c")
    t.play("layoff 5h 2")
    t.play("discard kh")
    (out,) = t.of(WentOut)
    assert not out.rummy
    (ended,) = t.of(HandEnded)
    assert ended.scores[1] == ended.points[1]


def test_one_layoff_per_turn(german) -> None:
    """Hausregel: "In einem Spielzug darf ein Spieler nur eine Karte an eine Figur
    ergänzen." """
    hand = "10h jh qh 5c 5d 5s 2c 2d 2s 7c 8c 9c 5h"
    t = german([hand, BEN, CEM], "7s", "kh 4c 8h ah 6c", one_layoff=True, open_turn_play=True)
    t.play("draw")  # kh
    t.play("meld 10h jh qh | 5c 5d 5s")
    t.play("layoff kh 1")
    with pytest.raises(OneLayOffPerTurn):
        t.play("layoff 5h 2")


def test_hand_rummy_below_the_minimum_doubles_the_losers(german) -> None:
    """ "Rummy ... kann alle seine Karten auf einmal in Figuren melden. ... Die
    Mindestpunktzahl für die Erstmeldung kommt bei Rummy gehen nicht zur Anwendung";
    "Wenn der Rundensieger 'Rummy geht' schreiben die Verlierer ihre Verlustpunkte doppelt
    auf." 38 points of melds and a last discard go out."""
    hand = "ah 2h 3h 2c 3c 4c 2s 3s 4s 2d 3d 4d 5d"
    t = german([hand, BEN, CEM], "7s", "kh")
    t.play("draw")
    t.play("meld ah 2h 3h | 2c 3c 4c | 2s 3s 4s | 2d 3d 4d 5d")
    assert t.of(OpeningProgress)[-1] == OpeningProgress(0, 38, 40, False, 1)
    t.play("discard kh")
    (out,) = t.of(WentOut)
    assert out.rummy
    (ended,) = t.of(HandEnded)
    assert ended.points[1] == 6 + 7 + 8 + 30 + 2 + 3 + 4 + 9 + 10 + 10 + 10
    assert [int(s) for s in ended.scores] == [0, 2 * ended.points[1], 2 * ended.points[2]]


def test_no_hand_rummy_in_the_first_turn(german) -> None:
    """Hausregel: "Es ist nicht erlaubt im 1. Spielzug Rummy zu gehen, eine Erstmeldung
    hingegen kann getätigt werden." Melding all but the last card is refused in the first
    turn (its discard would be hand rummy); a first meld is allowed; later it is fine."""
    hand = "ah 2h 3h 2c 3c 4c 2s 3s 4s 2d 3d 4d 5d"
    t = german([hand, BEN, CEM], "7s", "kh 8h 9h 10d", no_rummy_first_turn=True)
    t.play("draw")
    with pytest.raises(NoRummyFirstTurn):
        t.play("meld ah 2h 3h | 2c 3c 4c | 2s 3s 4s | 2d 3d 4d 5d")
    t.play("meld ah 2h 3h | 2c 3c 4c | 2s 3s 4s")
    t.play("takeback")
    t.play("discard kh")
    t.play("draw")
    t.play("discard 8h")
    t.play("draw")
    t.play("discard 9h")
    t.play("draw")
    t.play("meld ah 2h 3h | 2c 3c 4c | 2s 3s 4s | 2d 3d 4d 5d")
    t.play("discard 10d")
    assert t.of(WentOut)[0].rummy


def test_going_out_needs_a_final_discard(german) -> None:
    """ "Ausgehen - Er wirft eine Karte verdeckt auf den Abwurfstapel ab und hat alle
    restlichen Karten im Verlauf des Spiels ... in Figuren gemeldet": the last card cannot
    be melded."""
    hand = "ah 2h 3h 2c 3c 4c 2s 3s 4s 2d 3d 4d 5d"
    t = german([hand, BEN, CEM], "7s", "6d")
    t.play("draw")
    with pytest.raises(FinalDiscardRequired):
        t.play("meld ah 2h 3h | 2c 3c 4c | 2s 3s 4s | 2d 3d 4d 5d 6d")


def test_going_out_after_earlier_melds_is_not_hand_rummy(german) -> None:
    """ "Ausgehen - ... hat alle restlichen Karten im Verlauf des Spiels (inkl. dieses
    Spielzuges) in Figuren gemeldet oder an bestehende ergänzt": single penalty points."""
    hand = "10h jh qh 5c 5d 5s 2c 2d 2s 7c 8c 9c 4h"
    t = german([hand, BEN, CEM], "7s", "kh 4c 8h 6c")
    t.play("draw")  # kh
    t.play("meld 10h jh qh kh | 5c 5d 5s | 2c 2d 2s")
    t.play("discard 4h")
    t.play("draw")
    t.play("discard 4c")
    t.play("draw")
    t.play("discard 8h")
    t.play("draw")  # ana: 6c
    t.play("meld 6c 7c 8c")
    t.play("discard 9c")
    (out,) = t.of(WentOut)
    assert not out.rummy
    (ended,) = t.of(HandEnded)
    assert [int(s) for s in ended.scores] == [0, ended.points[1], ended.points[2]]


def test_the_card_taken_from_the_pile_is_not_discarded_again(german) -> None:
    """The text is silent; as in the family's other games the taken upcard may not be
    thrown back in the same turn (a turn would otherwise pass without change)."""
    t = german([ANA, BEN, CEM], "7s", STOCK)
    t.play("take")
    with pytest.raises(CannotDiscardTaken):
        t.play("discard 7s")
