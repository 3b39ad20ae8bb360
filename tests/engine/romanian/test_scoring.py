"""Scoring (romanian-rummy.de.txt, "Die Wertung") and the match."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from engine.actions import NextDeal
from engine.state import Phase
from engine.variants.romanian.events import ScoreSheet, SeatScore
from engine.variants.romanian.scoring import joly_chain, score_sheet

from .conftest import Factory, Rummy


def _chain_game(romanian: Factory) -> Rummy:
    game = romanian(["b7 b8 y2", "r5 y8 y9 b9 k1", "y10 k5 k6 r2 r3"], stock="y1 k13 r9")
    game.setup(
        current=1, melds=[(0, "r4 jo=r5 r6"), (1, "k10 k11 k12"), (2, "b2 b3 b4")], discard="k9"
    )
    game.play("draw")
    game.play("joly r5 1")
    game.play("meld y8 y9 jo=y10")
    game.play("discard k1")
    game.play("draw")
    game.play("joly y10 4")
    game.play("meld k5 k6 jo=k7")
    game.play("discard k13")
    return game


def test_the_joly_chain(romanian: Factory) -> None:
    """ "Wenn ein Spieler Punkte von einem Joly beansprucht ... dann erhält der Spieler, der
    ihn zuerst gemeldet hat, trotzdem 50 Punkte für ihn ... Am Ende einer Partie wird der
    Joly von seiner letzten Position durch alle vorangehenden Positionen, bei denen er für
    eine Meldung eingesetzt wurde, zurückgegeben, bis er zu der Meldung kommt, bei der er
    das erste Mal eingesetzt wurde. Die umgedrehten Steine, die ihn ersetzten, werden jedes
    Mal dem Spieler, der sie gelegt hatte, zurückgegeben, so dass sie für den Spieler
    gewertet werden können.\""""
    game = _chain_game(romanian)
    track = game.extra.jolys[0]
    assert [(p.meld, p.seat) for p in track.places] == [(0, 0), (3, 1), (4, 2)]
    assert joly_chain(game.state, track) == [(2, 10), (1, 5), (0, 50)]
    sheet = score_sheet(game.state, None, False)
    # ana: r4 r6 and the Joly's 50; ben: k10-k12, y8 y9 and r5 given back; cem: b2-b4,
    # k5 k6 and y10 given back. The Joly's later places count nothing.
    assert [(s.melded, s.jolys) for s in sheet] == [(10, 50), (45, 0), (35, 0)]


def _out_game(romanian: Factory, last: str = "k2", **options: object) -> Rummy:
    game = romanian([f"y8 y9 y10 {last}", "jo b13 r1", "b5 b6 r1"], stock="r7", **options)
    game.setup(
        current=0, phase=Phase.PLAY, melds=[(0, "r10 r11 r12"), (1, "k4 k5 k6")], discard="k9"
    )
    game.state = replace(game.state, extra=replace(game.extra, announced=(False, False, True)))
    game.play("meld y8 y9 y10")
    game.play(f"discard {last}")
    return game


def test_winner_others_jolys_and_no_meld(romanian: Factory) -> None:
    """ "Der Gewinner bekommt 100 Punkte und den Wert der Steine, die er gemeldet hat. Die
    anderen Spieler bekommen den Wert der Steine, die sie gemeldet haben, vermindert um den
    Wert der Steine, die sie noch auf ihren Ständern haben." — the Joly "– 25 Punkte für
    einen Spieler, der ihn am Ende des Spiels noch auf seinem Ständer hat"; "Ein Spieler,
    der überhaupt keine Meldungen gemacht hat, verliert 200 Punkte – die Punktwerte der
    Steine auf seinem Ständer spielen keine Rolle."; "Wenn ein Spieler den gleichen Stein
    wie den aufgedeckten Anfangsstein beim Geben bekommt und das ansagt, erhält er 25
    Extrapunkte.\""""
    game = _out_game(romanian)
    sheet = game.of(ScoreSheet)[0].lines
    assert sheet[0] == SeatScore(50, 0, 0, 0, 100, False, 150)
    assert sheet[1] == SeatScore(15, 0, 60, 0, 0, False, -45)
    assert sheet[2] == SeatScore(0, 0, 0, -200, 25, False, -175)
    assert game.state.totals == (Fraction(150), Fraction(-45), Fraction(-175))


def test_no_meld_in_some_printed_rules(romanian: Factory) -> None:
    """ "In einigen gedruckten Regeln steht, dass ein Spieler, der keine Meldung gemacht hat,
    100 Punkte und den Punktwert der Steine auf seinem Ständer verliert\""""
    game = _out_game(romanian, no_meld="100_plus_rack")
    assert game.of(ScoreSheet)[0].lines[2].total == -100 - 35 + 25


def test_going_out_with_a_joly_doubles_in_the_variation(romanian: Factory) -> None:
    """ "Wenn man gewinnt, indem man einen Joly ablegt und vorher alle seine Steine gemeldet
    hat, wird der Punktgewinn dieses Spiels verdoppelt.\""""
    game = _out_game(romanian, last="jo", joly_double=True)
    assert game.of(ScoreSheet)[0].lines[0] == SeatScore(50, 0, 0, 0, 100, True, 300)
    plain = _out_game(romanian, last="jo")
    assert plain.of(ScoreSheet)[0].lines[0].total == 150


def test_all_fourteen_at_once(romanian: Factory) -> None:
    """ "Wenn ein Spieler dadurch gewinnt, dass er alle 14 Steine auf einmal meldet, ohne
    vorher eine Meldung gemacht zu haben, bekommt er eine Zusatzprämie von 100 Punkten – also
    100 Punkte für den Gewinn, 100 Punkte Extraprämie plus den Wert seiner Meldungen.\""""
    hand = "r1 r2 r3 r4 r5 y11 y12 y13 b7 b8 b9 k7 k8 k9"
    game = romanian([hand + " b13", "y2 y3 y4"], stock="k13 k10 r9")
    game.play("discard b13")
    game.play("draw")
    game.play("discard k13")
    game.play("draw")
    game.play("meld r1 r2 r3 r4 r5 | y11 y12 y13 | b7 b8 b9 | k7 k8 k9")
    game.play("discard k10")
    winner = game.of(ScoreSheet)[0].lines[0]
    assert winner == SeatScore(85, 0, 0, 0, 200, False, 285)
    assert game.state.results[-1].rummy


def test_no_winner_without_the_hundred(romanian: Factory) -> None:
    """ "In diesem Fall bekommt jeder die Pluspunkte für alle Steine, die er gemeldet hat, und
    Minuspunkte für die Steine, die noch auf dem Ständer sind. Keiner bekommt die 100 Punkte
    für den Gewinn des Spiels.\""""
    game = romanian(["y8 b1", "jo b13", "b5 b6"], stock="", renewals=0)
    game.setup(current=0, melds=[(0, "r10 r11 r12"), (1, "k4 k5 k6")], discard="k9")
    game.play("draw")
    sheet = game.of(ScoreSheet)[0].lines
    assert [s.total for s in sheet] == [30 - 5 - 25, 15 - 35, -200]


def test_games_and_dealers(romanian: Factory) -> None:
    """ "Es werden mehrere Spiele nacheinander gespielt, es gibt immer der Spieler rechts vom
    letzten Geber, und die erreichten Punkte werden fortlaufend addiert.\""""
    game = _out_game(romanian, deals=2)
    assert game.state.phase is Phase.HAND_OVER
    dealer = game.state.dealer
    game.act(NextDeal(1))
    assert game.state.dealer == (dealer + 1) % 3
    assert len(game.state.hands[(dealer + 2) % 3]) == 15
    assert game.state.totals == (Fraction(150), Fraction(-45), Fraction(-175))


def test_a_target_ends_the_match(romanian: Factory) -> None:
    game = _out_game(romanian, deals=None, target=100)
    assert game.state.phase is Phase.GAME_OVER
    assert game.state.winners == (0,)
