"""Scoring, the end of a deal and of the match, and the play-money chips of German Rommé
(german-romme.de.txt), from stacked deals."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from engine.actions import NextDeal
from engine.cards import parse_cards
from engine.errors import NotYourTurn
from engine.events import GameEnded, HandEnded, StockRenewed, WentOut
from engine.game import apply, legal_actions
from engine.melds import CardSpec, check_meld
from engine.state import Phase
from engine.variants import get_variant
from engine.variants.german.actions import BuyBack, DeclineBuyBack, EndLayOffs
from engine.variants.german.ending import score_hand
from engine.variants.german.errors import ClosingLayOffsOnly, NoBuyBack
from engine.variants.german.events import (
    POT,
    BoughtBack,
    BuyBackOffered,
    ChipsMoved,
    ClosingLayOffs,
    DealBlocked,
    Eliminated,
    Payment,
)
from engine.variants.german.moves import blocked
from engine.variants.german.state import game_extra

RUMMY = "ah 2h 3h 2c 3c 4c 2s 3s 4s 2d 3d 4d 5d"  # 38 points of melds + one card
BEN = "6c 7c 8c kd kh ks 2d 3h 4s 9c 10d jd qs"  # 99 points
CEM = "ac 2s 2h 3c 3d 4d 4h 5s 5h 6d 6s 7h 4c"  # 62 points
GO_OUT = "meld ah 2h 3h | 2c 3c 4c | 2s 3s 4s | 2d 3d 4d 5d"


def rummy_out(t) -> None:
    t.play("draw")
    t.play(GO_OUT)
    t.play("discard " + str(t.state.hands[t.state.current][0]))


def test_losers_score_their_hands_doubled_after_hand_rummy(german) -> None:
    """ "Jeder Verlierer notiert die Summe aller Karten in seiner Hand als Verlustpunkte.
    Wenn der Rundensieger 'Rummy geht' schreiben die Verlierer ihre Verlustpunkte doppelt
    auf." """
    t = german([RUMMY, BEN, CEM], "7s", "kh", target=1000)
    rummy_out(t)
    (ended,) = t.of(HandEnded)
    assert ended.points == (0, 99, 62)
    assert ended.scores == (0, 198, 124)
    assert t.state.phase is Phase.HAND_OVER


def test_elimination_and_the_last_player_left_wins(german) -> None:
    """ "ein Spieler welcher mehr Verlustpunkte geschrieben hat scheidet aus. Die anderen
    Spieler spielen weiter, bis nur noch ein Spieler übrig ist und die Partie gewinnt." """
    t = german([RUMMY, BEN, CEM], "7s", "kh", target=150)
    rummy_out(t)
    assert t.of(Eliminated) == [Eliminated((1,), 150)]
    assert t.state.phase is Phase.HAND_OVER
    t.act(NextDeal(1))
    assert t.state.hands[1] == () and len(t.state.hands[0]) == 13
    assert t.state.extra.out_in == (0, 1, 0)
    exact = german([RUMMY, BEN, CEM], "7s", "kh", target=124)
    rummy_out(exact)
    assert exact.of(Eliminated) == [Eliminated((1,), 124)]
    two = german([RUMMY, BEN], "7s", "kh", target=150)
    rummy_out(two)
    assert two.state.phase is Phase.GAME_OVER
    assert two.of(GameEnded)[-1].winners == (0,)


def test_a_fixed_number_of_deals_fewest_points_win(german) -> None:
    """ "Es werden eine bestimmte Anzahl von Spielen durchgeführt, z.B. 5 oder 10 ... Der
    Spieler der am Ende am wenigsten Verlustpunkte hat, gewinnt die Partie." """
    t = german([RUMMY, BEN, CEM], "7s", "kh", preset="deals", deals=1)
    rummy_out(t)
    assert t.state.phase is Phase.GAME_OVER
    assert t.state.winners == (0,)


def test_stock_renewed_from_the_pile_except_its_top_card(german) -> None:
    """ "Ist der Talon aufgebraucht bevor ein Sieger feststeht, wird der Abwurfstapel mit
    Ausnahme der obersten (sichtbaren) Karte neu gemischt und dient nun als Talon." """
    t = german([RUMMY, BEN, CEM], "7s", "kh")
    t.play("draw")
    t.play("discard kh")
    events = t.play("draw")
    assert isinstance(events[0], StockRenewed) and events[0].shuffled
    assert [str(c) for c in t.state.discard] == ["kh"]
    assert t.state.hands[1][-1] == parse_cards("7s")[0]


def test_a_deal_nobody_can_finish_is_scored_for_everyone(german) -> None:
    """The text renews the stock forever; when not even that is possible (the pile is only
    its top card) the deal ends and every player scores the hand."""
    t = german([RUMMY, BEN, CEM], "7s", "", target=1000)
    t.play("draw")
    (ended,) = t.of(HandEnded)
    assert ended.winner is None
    assert ended.scores == (48, 99, 62)


def test_closing_lay_offs_before_the_scoring(german) -> None:
    """Hausregel: "Hat ein Spieler eine Runde beendet, dürfen die Spieler der Reihe nach
    eine oder mehrere Karten an (alle) Figuren ergänzen, bevor abgerechnet wird." Ben has
    melded and lays off; Cem has not melded and is skipped."""
    ana = "ah 2h 3h 2c 3c 4c 2s 3s 4s 2d 3d 4d 9h"
    ben = "6c 7c 8c kd kh ks 4h 5c 9c 10s jd qs 2d"
    cem = "as ad 5h 6h 9d 2s 3c 4d 6d 8h 10c jc 5s"
    t = german([ana, ben, cem], "7s", "kc qh jh 5d", closing_layoffs=True, target=1000)
    t.play("draw")
    t.play("discard 9h")
    t.play("draw")
    t.play("meld 6c 7c 8c | kd kh ks")
    t.play("discard qh")
    t.play("draw")
    t.play("discard jh")
    t.play("draw")
    t.play(GO_OUT)
    t.play("discard kc")
    assert t.of(ClosingLayOffs) == [ClosingLayOffs(0, (1,))]
    assert t.state.phase is Phase.PLAY and t.state.current == 1
    assert EndLayOffs(1) in legal_actions(t.state, 1)
    with pytest.raises(ClosingLayOffsOnly):
        t.play("discard 2d")
    t.play("layoff 4h 3")
    t.play("layoff 5c 4")
    t.play("layoff 9c 1")
    t.play("done")
    (ended,) = t.of(HandEnded)
    assert t.of(WentOut)[0].rummy
    assert ended.points[1] == 10 + 10 + 10 + 2
    assert ended.scores[1] == 2 * ended.points[1]


def test_round_bonus_and_per_point_settlement_in_chips(german) -> None:
    """ "Jeder Verlierer bezahlt für seine Differenz pro Punkt einen bestimmten Betrag ...
    dass die Verlierer einer einzelnen Runde dem Rundensieger am Ende jeder Runde eine
    Siegesprämie bezahlen, gewöhnlich ein Betrag der 10 Punkten in der Endabrechnung
    entspricht, 20 Punkten bei Rummy gehen." """
    t = german([RUMMY, BEN], "7s", "kh", target=100, chips="points", round_bonus=10, chip_rate=2)
    rummy_out(t)
    moved = t.of(ChipsMoved)
    assert [m.reason for m in moved] == ["round_bonus", "settlement"]
    assert moved[0].payments == (Payment(1, 0, Fraction(40)),)
    assert moved[1].payments == (Payment(1, 0, Fraction(2 * 198)),)
    assert t.state.extra.chips == (Fraction(436), Fraction(-436))


def test_pot_stakes_rummy_stakes_and_the_pot_to_the_last_player(german) -> None:
    """ "Vor jeder Runde leistet jeder (verbleibende) Spieler einen im voraus zu bestimmenden
    Betrag (E) in den Spielpot. Geht ein Spieler Rummy so erhält er von jedem (verbliebenen)
    Spieler den Betrag E ausbezahlt, der Spielpot bleibt unangetastet." "Der letzte
    übrigbleibende Spieler wird Gesamtsieger und erhält den Pot." """
    t = german([RUMMY, BEN], "7s", "kh", preset="pot", stake=3)
    assert t.state.extra.pot == 6
    t.play("draw")
    with pytest.raises(NoBuyBack):
        t.play("buyback")
    t.play(GO_OUT)
    t.play("discard kh")
    assert [m.reason for m in t.of(ChipsMoved)] == ["rummy_stakes"]
    assert t.of(BuyBackOffered) == [BuyBackOffered(1, Fraction(3), Fraction(0))]
    assert legal_actions(t.state, 1) == [DeclineBuyBack(1), BuyBack(1)]
    with pytest.raises(NotYourTurn):
        t.act(BuyBack(0))
    t.play("decline")
    assert [m.reason for m in t.of(ChipsMoved)] == ["rummy_stakes", "pot"]
    assert t.state.phase is Phase.GAME_OVER and t.state.winners == (0,)
    assert t.state.extra.chips == (Fraction(6), Fraction(-6))
    assert t.state.extra.pot == 0


def test_buy_back_example_of_the_text(german) -> None:
    """ "Bsp. : Spiel geht auf 100 (Verlust-)Punkte, A ist gerade ausgeschieden, B hat 52
    Verlustpunkte, C 42 Verlustpunkte, D 7 Verlustpunkte, im Pot sind 16E. A darf sich für
    4E (Pot 16E / 4 Spieler = 4E) zurückkaufen und bekommt 52 Verlustpunkte auf sein Konto."
    "Ein Spieler darf sich nur einmal zurückkaufen und muss in der folgenden Runde ebenfalls
    den Rundeneinsatz E in den Pot entrichten." """
    t = german([BEN, "", "", ""], "7s", "kh", preset="pot")
    state = t.state
    extra = replace(game_extra(state), pot=Fraction(16))
    state = replace(
        state,
        hands=(state.hands[0], (), (), ()),
        extra=extra,
        totals=(Fraction(10), Fraction(52), Fraction(42), Fraction(7)),
    )
    state, events = score_hand(state, 3, False, [])
    assert Eliminated((0,), 100) in events
    assert events[-1] == BuyBackOffered(0, Fraction(4), Fraction(52))
    assert state.phase is Phase.PLAY and state.current == 0
    state, events = apply(state, BuyBack(0))
    assert events[0] == BoughtBack(0, Fraction(4), Fraction(52))
    assert state.totals[0] == 52 and state.extra.bought_back[0]
    assert state.extra.pot == 20 and state.phase is Phase.HAND_OVER
    state, events = apply(state, NextDeal(2))
    stakes = [e for e in events if isinstance(e, ChipsMoved)]
    assert stakes and {p.payer for p in stakes[0].payments} == {0, 1, 2, 3}
    assert stakes[0].payments[0].payee == POT and state.extra.pot == 24
    again = replace(
        state,
        hands=(state.hands[0], (), (), ()),
        totals=(Fraction(90), Fraction(52), Fraction(42), Fraction(7)),
    )
    again, events = score_hand(again, 3, False, [])
    assert not any(isinstance(e, BuyBackOffered) for e in events)


def test_pot_split_seventy_thirty(german) -> None:
    """ "Optional kann bei 3 oder mehr Spieler der Pot auch zwischen dem 1. und 2. geteilt
    werden, üblicher weise 70% für den 1. und 30 % für den 2." """
    t = german([RUMMY, BEN, CEM], "7s", "kh", preset="pot", target=10, pot_split=True, stake=10)
    rummy_out(t)
    t.play("decline")
    t.play("decline")
    (paid,) = [m for m in t.of(ChipsMoved) if m.reason == "pot"]
    assert paid.payments == (Payment(POT, 0, Fraction(21)), Payment(POT, 2, Fraction(9)))
    assert sum(t.state.extra.chips) + t.state.extra.pot == 0


def _endgame(german, meld: str, stock: str):
    """Two players with two cards each, one meld on the table, ``stock`` to draw from."""
    t = german([RUMMY, BEN], "qs", stock, target=1000)
    rules = t.state.rules
    (table_meld,) = check_meld(
        tuple(CardSpec.parse(w) for w in meld.split()), 1, get_variant("german").meld_rules(rules)
    )
    t.state = replace(
        t.state,
        hands=(parse_cards("5c 9d"), parse_cards("6h 7s")),
        melds=(table_meld,),
        has_melded=(True, True),
        has_played=(True, True),
    )
    return t


def test_a_deal_that_can_never_end_is_stopped(german) -> None:
    """The text renews the stock forever. With two cards in every hand and a table of full
    sets, nobody can meld (three cards and one kept for the discard) or lay off, so the deal
    ends without a winner and every player counts the hand."""
    t = _endgame(german, "8c 8d 8h 8s", "kc 4d 2s")
    t.play("draw")
    t.play("discard 5c")
    assert t.of(DealBlocked) == [DealBlocked(1)]
    (ended,) = t.of(HandEnded)
    assert ended.winner is None and ended.scores == (19, 13)


def test_the_blocked_check_follows_the_table(german) -> None:
    """ "Ist der Talon aufgebraucht ..., wird der Abwurfstapel ... neu gemischt und dient nun
    als Talon": a deal nobody can end is stopped after a discard by reading the cards in
    play against the table. The answer is reused only while the table is the same object,
    so a table that changes (a full set, a run, the set again) is judged anew each time."""
    sets = _endgame(german, "8c 8d 8h 8s", "kc 4h 2s").state
    run = replace(_endgame(german, "5h 6h 7h", "kc 4h 2s").state, rules=sets.rules)
    for state, stuck in ((sets, True), (run, False), (sets, True), (run, False)):
        assert blocked(state, state.hands, state.discard) is stuck


def test_a_deal_goes_on_while_a_card_in_play_still_fits(german) -> None:
    """A run on the table still takes 4♥ (in the stock): the deal goes on."""
    t = _endgame(german, "5h 6h 7h", "kc 4h 2s")
    t.play("draw")
    t.play("discard 5c")
    assert not t.of(DealBlocked) and t.state.phase is Phase.DRAW
