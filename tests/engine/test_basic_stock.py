"""Basic Rummy: the end of the stock, Block Rummy and its scoring (basic-rummy.de.txt)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from engine.events import StockRenewed
from engine.state import Phase


def _empty_the_stock(t) -> None:
    """ana draws the last stock card and discards it."""
    t.play("draw")
    t.play("discard 9s")


def test_stock_exhausted_discard_pile_turned_over_without_shuffling(stacked) -> None:
    """ "Wenn der [Vorrat] aufgebraucht ist und der nächste Spieler den Ablagestapel nicht
    [nehmen] möchte, wird der Ablagestapel umgedreht, ohne zu mischen, um einen neuen Vorrat
    zu bilden, und das Spiel wird fortgesetzt." Turning the pile over puts its bottom card
    (the first upcard) on top."""
    t = stacked(["2c 3d", "4h 5s"], "kd", "9s")
    _empty_the_stock(t)
    assert t.state.stock == ()
    events = t.play("draw")
    assert StockRenewed(2, False, 1) in events
    assert t.hand(1) == ["4h", "5s", "kd"]
    assert [str(c) for c in t.state.stock] == ["9s"]
    assert t.state.discard == ()


def test_the_next_player_may_take_the_upcard_instead(stacked) -> None:
    """The pile is renewed only when "der nächste Spieler den Ablagestapel nicht [nehmen]
    möchte": taking the upcard from an empty stock's table is an ordinary take."""
    t = stacked(["2c 3d", "4h 5s"], "kd", "9s")
    _empty_the_stock(t)
    t.play("take")
    assert t.hand(1) == ["4h", "5s", "9s"]
    assert t.state.reuses == 0


def test_house_rule_shuffle_the_discard_pile(stacked) -> None:
    """ "Einige spielen, dass ... der Ablagestapel gemischt wird, bevor er als Vorrat
    wiederverwendet wird.\" The shuffle comes from the game's seed, so it replays."""
    hands = ["2c 3d 4d 5d 6d 7d 8d", "4h 5s 6s 7s 8s 9h 10h"]
    t = stacked(hands, "kd", "9s", stock_end="shuffle")
    _empty_the_stock(t)
    events = t.play("draw")
    renewed = [e for e in events if isinstance(e, StockRenewed)]
    assert renewed == [StockRenewed(2, True, 1)]
    assert Counter(t.state.stock) + Counter(t.state.hands[1]) == Counter(
        t.state.hands[1]
    ) + Counter(t.state.stock)
    again = stacked(hands, "kd", "9s", stock_end="shuffle")
    _empty_the_stock(again)
    again.play("draw")
    assert again.state == t.state


def test_beginner_rule_shuffle_all_but_the_top_card(stacked) -> None:
    """romme-basic.de.txt: "während Sie das Spiel spielen und der Nachziehstapel aufgebraucht
    ist ..., alle Karten im Ablagestapel außer der obersten mischen, um einen neuen
    Nachziehstapel zu bilden.\""""
    t = stacked(["2c 3d", "4h 5s"], "kd", "9s", preset="beginner")
    t.play("draw")
    t.play("discard 2c")
    t.play("draw")
    assert [str(c) for c in t.state.discard] == ["2c"]
    assert t.hand(1) == ["4h", "5s", "kd"]
    assert t.state.stock == ()


def test_block_rummy_empty_stock_ends_the_hand(stacked) -> None:
    """ "In der als Block Rummy bekannten Version wird der Ablagestapel überhaupt nicht
    wiederverwendet. Wenn der Vorrat aufgebraucht ist und der nächste Spieler den
    Ablagestapel nicht ablegen möchte, endet das Spiel an diesem Punkt. Jeder bewertet den
    Wert der Karten, die in seinen Händen bleiben.\""""
    t = stacked(["2c 3d", "4h 5s"], "kd", "9s", preset="block")
    _empty_the_stock(t)
    t.play("draw")
    assert t.state.phase is Phase.HAND_OVER
    result = t.state.results[-1]
    assert result.winner is None
    assert result.points == (5, 9)
    assert t.state.totals == (Fraction(4), Fraction(0))


def test_no_winner_scoring_example_from_the_text(stacked) -> None:
    """ "Beispiel: A hat 6; B hat 15; C hat 7; D hat 21. A ist der Gewinner und Partituren
    25 = (9 + 1 + 15).\""""
    t = stacked(["2c 4c", "5d kd", "3h 4h", "ks qs ac"], "9c", "", preset="block")
    t.play("draw")
    assert t.state.results[-1].points == (6, 15, 7, 21)
    assert t.state.totals == (Fraction(25), Fraction(0), Fraction(0), Fraction(0))


def test_no_winner_ties_share_the_winnings(stacked) -> None:
    """ "Wenn zwei oder mehr Spieler unentschieden spielen, teilen sie die Gewinne zu gleichen
    Teilen.\" (6, 6, 15, 10: the pot of 0 + 0 + 9 + 4 = 13 is split 6½ each)."""
    t = stacked(["2c 4c", "3d 3h", "5d kd", "jh"], "9c", "", preset="block")
    t.play("draw")
    assert t.state.totals == (Fraction(13, 2), Fraction(13, 2), Fraction(0), Fraction(0))


def test_penalty_scoring_without_a_winner_everyone_counts_their_hand(stacked) -> None:
    """ "Wenn das Spiel ohne Gewinner endet, erhält jeder seine Karten als Strafpunkte.\""""
    t = stacked(["2c 4c", "5d kd"], "9c", "", preset="block", scoring="penalty")
    t.play("draw")
    assert t.state.totals == (Fraction(6), Fraction(15))


def test_payment_without_a_winner_pays_the_difference(stacked) -> None:
    """ "... oder der Differenz zwischen seiner Punktzahl und der Punktzahl des Gewinners,
    wenn niemand ausgeht\""""
    t = stacked(["2c 4c", "5d kd", "3h 4h"], "9c", "", preset="block", scoring="payment", deals=3)
    t.play("draw")
    assert t.state.totals == (Fraction(10), Fraction(-9), Fraction(-1))


def test_limit_the_re_uses_of_the_discard_pile(stacked) -> None:
    """ "Alternativ können Sie zustimmen, dass der Ablagestapel nur einmal wiederverwendet wird
    und das Spiel endet, wenn der Vorrat zum zweiten Mal aufgebraucht ist.\""""
    t = stacked(["2c 3d", "4h 5s"], "kd", "9s", reuses=1)
    _empty_the_stock(t)
    t.play("draw")  # ben: the pile (kd 9s) becomes the stock once, ben draws kd
    t.play("discard kd")
    t.play("draw")  # ana draws 9s, the stock is empty for the second time
    t.play("discard 9s")
    t.play("draw")  # ben would need a second re-use: the hand ends
    assert t.state.phase is Phase.HAND_OVER
    assert t.state.results[-1].winner is None
