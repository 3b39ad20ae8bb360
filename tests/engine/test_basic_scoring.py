"""Basic Rummy scoring, going rummy, ace rules, final discard and match end (basic-rummy.de.txt)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.errors import FinalDiscardRequired, InvalidMeld
from engine.events import WentOut
from engine.state import Phase


def _ana_goes_out_at_once(stacked, ben: str, **options):
    """ana draws 10h, melds 7h-10h and discards 4c: out in her first turn (going rummy)."""
    t = stacked(["7h 8h 9h 4c", ben], "2s", "10h 8s", **options)
    t.play("draw")
    t.play("meld 7h 8h 9h 10h")
    t.play("discard 4c")
    return t


def test_winner_scores_the_cards_left_in_the_other_hands(stacked) -> None:
    """ "Bildkarten (K, Q, J) sind jeweils 10 Punkte wert; Asse sind jeweils 1 Punkt wert;
    Zahlenkarten sind ihren Nennwert wert" and "Der Gesamtwert aller Karten in den Händen der
    anderen Spieler wird zur Gesamtpunktzahl des Gewinners addiert.\""""
    t = _ana_goes_out_at_once(stacked, "kd qs jc ac 5c")
    result = t.state.results[-1]
    assert result.points == (0, 36)
    assert t.state.totals == (Fraction(36), Fraction(0))


def test_three_players_winner_collects_from_both(stacked) -> None:
    """The winner adds "[d]er Gesamtwert aller Karten in den Händen der anderen Spieler"."""
    t = stacked(["7h 8h 9h 4c", "kd 2d", "3c 3d 9c"], "2s", "10h 8s")
    t.play("draw")
    t.play("meld 7h 8h 9h 10h")
    t.play("discard 4c")
    assert t.state.totals == (Fraction(27), Fraction(0), Fraction(0))


@pytest.mark.parametrize(("mode", "score"), [("off", 25), ("double", 50), ("bonus10", 35)])
def test_going_rummy_doubles_or_adds_ten(stacked, mode: str, score: int) -> None:
    """ "einem Spieler, der zuvor keine Karten verschmolzen oder abgelegt hat, einen besonderen
    Bonus ... wenn er in einem einzigen Zug ausgehen kann ... Dies nennt man Going Rummy, und
    die Punktzahl für die Hand ist verdoppelt, oder in einigen Versionen erhält der Gewinner
    einen Bonus von 10 Punkten.\""""
    t = _ana_goes_out_at_once(stacked, "kd qs 5c", going_rummy=mode)
    assert any(isinstance(e, WentOut) and e.rummy for e in t.events)
    assert t.state.totals[0] == score


def test_going_out_over_two_turns_is_not_rummy(stacked) -> None:
    """Going rummy needs the whole hand "in einem einzigen Zug" by a player "der zuvor keine
    Karten verschmolzen oder abgelegt hat\"."""
    t = stacked(["7h 8h 9h 4c 5c", "kd qs 5d 6d"], "2s", "10h 8s jh", going_rummy="double")
    t.play("draw")
    t.play("meld 7h 8h 9h 10h")
    t.play("discard 4c")
    t.play("draw")
    t.play("discard 8s")
    t.play("draw")
    t.play("layoff jh 1")
    t.play("discard 5c")
    result = t.state.results[-1]
    assert result.winner == 0 and result.rummy is False
    assert t.state.totals[0] == 10 + 10 + 5 + 6


def test_ace_low_by_default_worth_one(stacked) -> None:
    """ "Im Standardspiel sind Asse niedrig. A-2-3 ist ein gültiger Lauf, Q-K-A jedoch nicht.\""""
    t = stacked(["ah 2h 3h qc kc ac 5d", "2c 3c"], "2s", "10h 8s")
    t.play("draw")
    t.play("meld ah 2h 3h")
    with pytest.raises(InvalidMeld):
        t.play("meld qc kc ac")


def test_ace_high_or_low_allows_q_k_a_and_counts_fifteen(stacked) -> None:
    """ "Einige spielen jedoch, dass Asse als hoch oder niedrig gezählt werden können, so dass
    Q-K-A auch ein gültiger Lauf ist. Wenn Sie mit dieser Regel spielen, erhalten Asse den
    höheren Wert von 15 Punkten anstelle von 1 Punkt\""""
    t = stacked(["qh kh ah 2h 4c", "ac 2d"], "2s", "10h 8s", ace="high_or_low")
    t.play("draw")
    with pytest.raises(InvalidMeld):
        t.play("meld kh ah 2h")
    t.play("meld qh kh ah")
    t.play("discard 10h")
    t.play("draw")
    t.play("discard 8s")
    assert t.state.melds[0].faces[-1].rank == 1


def test_ace_round_the_corner_allows_k_a_2(stacked) -> None:
    """ "Einige Spieler gehen noch weiter und erlauben „Um die Ecke“ -Läufe mit einem Ass in
    der Mitte (K-A-2), aber das ist ungewöhnlich.\""""
    t = stacked(["kh ah 2h 4c", "ac 2d"], "2s", "10h 8s", ace="around")
    t.play("draw")
    t.play("meld kh ah 2h")
    assert str(t.state.melds[0]) == "kh ah 2h"


def test_ace_points_under_high_or_low(stacked) -> None:
    """ "erhalten Asse den höheren Wert von 15 Punkten anstelle von 1 Punkt\": ben's ace left
    in hand counts 15."""
    t = _ana_goes_out_at_once(stacked, "ac 5d", ace="high_or_low")
    assert t.state.results[-1].points == (0, 20)


def test_final_discard_required(stacked) -> None:
    """ "Manche Leute spielen, dass du deinen Zug beenden musst, um auszugehen, indem du deine
    letzte Karte ablegst. Sie dürfen nicht alle Ihre Karten verschmelzen, so dass nichts zu
    verwerfen.\""""
    t = stacked(["7h 8h 9h", "kd 5c"], "2s", "10h 8s", final_discard=True)
    t.play("draw")
    before = t.state
    with pytest.raises(FinalDiscardRequired):
        t.play("meld 7h 8h 9h 10h")
    assert t.state == before
    t.play("meld 7h 8h 9h")
    t.play("discard 10h")
    assert t.state.results[-1].winner == 0


def test_match_ends_at_the_target_score(stacked) -> None:
    """ "Das Spiel wird mit weiteren Deals fortgesetzt, bis ein Spieler das vor Spielbeginn
    festgelegte Punkteziel erreicht oder bis die vereinbarte Anzahl von Deals gespielt
    wurde.\""""
    t = _ana_goes_out_at_once(stacked, "kd qs 5c", target=25)
    assert t.state.phase is Phase.GAME_OVER
    assert t.state.winners == (0,)
    t2 = _ana_goes_out_at_once(stacked, "kd qs 5c", target=26)
    assert t2.state.phase is Phase.HAND_OVER


def test_match_ends_after_the_agreed_number_of_deals(stacked) -> None:
    """ "... oder bis die vereinbarte Anzahl von Deals gespielt wurde.\""""
    t = _ana_goes_out_at_once(stacked, "kd qs 5c", target=None, deals=1)
    assert t.state.phase is Phase.GAME_OVER
    t2 = _ana_goes_out_at_once(stacked, "kd qs 5c", target=None, deals=2)
    assert t2.state.phase is Phase.HAND_OVER
    t2.play("next", seat=1)
    assert t2.state.deal_number == 2 and t2.state.phase is Phase.DRAW


def test_penalty_scoring_losers_count_their_hands_lowest_wins(stacked) -> None:
    """ "Einige spielen, dass anstelle des Gewinners, der Punkte erzielt, jeder der Verlierer
    Strafpunkte entsprechend den Karten in seiner Hand erhält ... Wenn jemand 100 oder mehr
    erreicht, gewinnt der Spieler mit der niedrigsten Punktzahl.\""""
    t = _ana_goes_out_at_once(stacked, "kd qs 5c", scoring="penalty")
    assert t.state.totals == (Fraction(0), Fraction(25))
    assert t.state.phase is Phase.HAND_OVER
    t2 = _ana_goes_out_at_once(stacked, "kd qs qc qh jd jh js jc kc ks", scoring="penalty")
    assert t2.state.totals[1] == 100
    assert t2.state.phase is Phase.GAME_OVER
    assert t2.state.winners == (0,)


def test_payment_scoring_each_loser_pays_the_winner(stacked) -> None:
    """ "Einige spielen, dass jeder Verlierer den Gewinner entsprechend der Anzahl der Punkte
    in seiner Hand auszahlt ... Die Sitzung würde für eine festgelegte Anzahl von Händen
    dauern\""""
    t = stacked(["7h 8h 9h 4c", "kd 2d", "3c 3d 9c"], "2s", "10h 8s", scoring="payment", deals=1)
    t.play("draw")
    t.play("meld 7h 8h 9h 10h")
    t.play("discard 4c")
    assert t.state.totals == (Fraction(27), Fraction(-12), Fraction(-15))
    assert t.state.phase is Phase.GAME_OVER
