"""Basic Rummy: drawing, melding, laying off, discarding, going out (basic-rummy.de.txt)."""

from __future__ import annotations

import pytest

from engine.errors import (
    CannotDiscardTaken,
    CardNotInHand,
    DeepTakeNotAllowed,
    InvalidLayOff,
    InvalidMeld,
    MeldLimit,
    MustMeldFirst,
    NoDiscardLeft,
    NotYourTurn,
    WrongPhase,
)
from engine.events import HandEnded, WentOut
from engine.state import Phase


def test_draw_from_stock_adds_the_top_card(stacked) -> None:
    """ "Wenn Sie aus dem Vorrat ziehen, fügen Sie die Karte Ihrer Hand hinzu, ohne sie den
    anderen Spielern zu zeigen.\""""
    t = stacked(["2c 3d", "4h 5s"], "kd", "9s 8s")
    t.play("draw")
    assert t.hand(0) == ["2c", "3d", "9s"]
    assert t.state.stock == t.state.stock[:1] and str(t.state.stock[0]) == "8s"
    assert t.state.phase is Phase.PLAY


def test_a_turn_begins_with_exactly_one_draw(stacked) -> None:
    """ "Sie müssen beginnen, indem Sie eine Karte entweder von der Oberseite des
    Ablagestapels oder von der obersten Karte auf dem Ablagestapel nehmen\""""
    t = stacked(["2c 3d", "4h 5s"], "kd", "9s 8s")
    with pytest.raises(WrongPhase):
        t.play("discard 2c")
    t.play("take")
    with pytest.raises(WrongPhase):
        t.play("draw")


def test_only_the_current_seat_may_act(stacked) -> None:
    """ "Wenn es zwei Spieler gibt, wechseln sie sich ab\": ben may not draw on ana's turn."""
    t = stacked(["2c 3d", "4h 5s"], "kd", "9s 8s")
    before = t.state
    with pytest.raises(NotYourTurn):
        t.play("draw", seat=1)
    assert t.state == before


def test_the_card_taken_from_the_pile_may_not_be_discarded_the_same_turn(stacked) -> None:
    """ "Wenn Sie Ihren Zug mit der obersten Karte des Ablagestapels begonnen haben, dürfen Sie
    diesen Zug nicht beenden, indem Sie dieselbe Karte ablegen ... Sie können jedoch den
    Ablagestapel in einem Zug aufheben und dieselbe Karte in einem späteren Zug ablegen.\""""
    t = stacked(["2c 3d", "4h 5s"], "kd", "9s 8s 7s")
    t.play("take")
    with pytest.raises(CannotDiscardTaken):
        t.play("discard kd")
    t.play("discard 2c")
    t.play("draw")
    t.play("discard 4h")
    t.play("draw")
    t.play("discard kd")
    assert str(t.state.upcard) == "kd"


def test_a_card_drawn_from_the_stock_may_be_discarded_at_once(stacked) -> None:
    """ "Wenn Sie eine Karte aus dem Vorrat ziehen, kann sie im selben Zug abgeworfen werden\""""
    t = stacked(["2c 3d", "4h 5s"], "kd", "9s 8s")
    t.play("draw")
    t.play("discard 9s")
    assert str(t.state.upcard) == "9s"
    assert t.state.current == 1


def test_melding_puts_a_run_or_a_set_on_the_table(stacked) -> None:
    """ "Eine Sequenz oder ein Lauf besteht aus drei oder mehr Karten derselben Farbe in
    aufeinanderfolgender Reihenfolge ... Eine Gruppe ... besteht aus drei oder vier Karten
    desselben Ranges\""""
    t = stacked(["7h 8h 9h 4c", "4h 4d 4s 2c"], "kd", "9s 8s")
    t.play("draw")
    t.play("meld 9h 7h 8h")
    t.play("discard 9s")
    t.play("draw")
    t.play("meld 4h 4d 4s")
    assert [str(m) for m in t.state.melds] == ["7h 8h 9h", "4d 4h 4s"]
    assert [m.owner for m in t.state.melds] == [0, 1]


@pytest.mark.parametrize("cards", ["7h 8h", "7h 8h 10h", "7h 8c 9h", "4h 4d 5s", "qh kh ah"])
def test_invalid_melds_are_refused_and_change_nothing(stacked, cards: str) -> None:
    """Only runs ("drei oder mehr Karten derselben Farbe in aufeinanderfolgender
    Reihenfolge") and sets ("drei oder vier Karten desselben Ranges") may be melded;
    "Im Standardspiel sind Asse niedrig. A-2-3 ist ein gültiger Lauf, Q-K-A jedoch nicht.\""""
    t = stacked(["7h 8h 9h 10h 8c 4h 4d 5s qh kh ah", "2c 3c"], "kd", "9s")
    t.play("draw")
    before = t.state
    with pytest.raises(InvalidMeld):
        t.play(f"meld {cards}")
    assert t.state == before


def test_cards_must_be_in_the_hand(stacked) -> None:
    """Melding needs "eine Kombination von Karten aus deiner Hand\"."""
    t = stacked(["7h 8h 9h", "2c 3c"], "kd", "9s")
    t.play("draw")
    with pytest.raises(CardNotInHand) as err:
        t.play("meld 6h 7h 8h")
    assert err.value.params == {"card": "6h"}


def test_only_one_meld_per_turn_by_default(stacked) -> None:
    """ "Sie können nicht mehr als eine Kombination in einem Zug verschmelzen (siehe
    Hausregeln).\""""
    t = stacked(["7h 8h 9h 2c 2d 2s 5c", "3c 4c"], "kd", "9s 8s 7s")
    t.play("draw")
    t.play("meld 7h 8h 9h")
    with pytest.raises(MeldLimit):
        t.play("meld 2c 2d 2s")
    t.play("discard 9s")
    t.play("draw")
    t.play("discard 3c")
    t.play("draw")
    t.play("meld 2c 2d 2s")
    assert len(t.state.melds) == 2


def test_house_rule_several_melds_per_turn(stacked) -> None:
    """ "Einige Leute spielen, dass Sie in jeder Runde so viele Meldungen ablegen können, wie
    Sie möchten.\""""
    t = stacked(["7h 8h 9h 2c 2d 2s 5c", "3c 4c"], "kd", "9s", multiple_melds=True)
    t.play("draw")
    t.play("meld 7h 8h 9h")
    t.play("meld 2c 2d 2s")
    assert len(t.state.melds) == 2


def test_lay_off_on_any_meld_one_or_more_cards(stacked) -> None:
    """romme-basic.de.txt: "Spieler A hat eine Meldung gespielt, die eine Acht, Neun oder
    Herz 10 enthält. Spieler B kann die Herz-Sieben oder den Herz-Buben oder beides aus
    seiner Hand nehmen." and "Abgelegte Karten werden vor dem Spieler, der sie spielt, auf
    den Tisch gelegt." (the owner of each laid-off card is recorded)."""
    t = stacked(["8h 9h 10h 2c", "7h jh 5c 6d"], "kd", "9s 8s")
    t.play("draw")
    t.play("meld 8h 9h 10h")
    t.play("discard 9s")
    t.play("draw")
    t.play("layoff 7h jh 1")
    meld = t.state.melds[0]
    assert str(meld) == "7h 8h 9h 10h jh"
    assert [p.owner for p in meld.cards] == [1, 0, 0, 0, 1]
    assert meld.owner == 0


def test_lay_off_must_keep_a_valid_meld(stacked) -> None:
    """ "Die zu einer Meldung hinzugefügten Karten müssen eine andere gültige Meldung
    vornehmen.\""""
    t = stacked(["8h 9h 10h 2c", "qh 5c 6d"], "kd", "9s 8s")
    t.play("draw")
    t.play("meld 8h 9h 10h")
    t.play("discard 9s")
    t.play("draw")
    before = t.state
    with pytest.raises(InvalidLayOff):
        t.play("layoff qh 1")
    assert t.state == before


def test_melds_are_never_rearranged(stacked) -> None:
    """ "Es ist Ihnen nicht gestattet, die Meldungen dabei neu anzuordnen.Zum Beispiel
    [2♣ 2♥ 2♦ 2♠] und [3♠ 4♠ 5♠] wurden verschmolzen, Sie dürfen den [2♠] nicht von der
    Gruppe in die Sequenz verschieben, um den [A♠ abzulegen]." (symbols lost in the text)."""
    t = stacked(["2c 2h 2d 2s 3s 4s 5s 9c", "as kc qd"], "kd", "9s 8s", multiple_melds=True)
    t.play("draw")
    t.play("meld 2c 2h 2d 2s | 3s 4s 5s")
    t.play("discard 9s")
    t.play("draw")
    with pytest.raises(InvalidLayOff):
        t.play("layoff as 2")


def test_house_rule_lay_off_only_after_an_own_meld(stacked) -> None:
    """ "Einige spielen, dass du keine Karten auf die Meldungen anderer Spieler ablegen
    darfst, bis du mindestens eine eigene Meldung abgelegt hast.\""""
    t = stacked(["8h 9h 10h 2c", "7h 5c 5d 5s 6d"], "kd", "9s 8s", layoff_after_meld=True)
    t.play("draw")
    t.play("meld 8h 9h 10h")
    t.play("discard 9s")
    t.play("draw")
    with pytest.raises(MustMeldFirst):
        t.play("layoff 7h 1")
    t.play("meld 5c 5d 5s")
    t.play("layoff 7h 1")
    assert str(t.state.melds[0]) == "7h 8h 9h 10h"


def test_going_out_by_discarding_the_last_card_ends_the_hand_at_once(stacked) -> None:
    """ "Ein Spieler gewinnt eine einzelne Hand, indem er entweder alle seine Karten
    verschmilzt, ablegt oder wegwirft ... Sobald jemand ausgeht, hört das Spiel auf. Es
    kann keine weitere Verschmelzung oder Entlassung geben\""""
    t = stacked(["7h 8h 9h 4c", "4h 4d 4s 2c"], "kd", "10h 8s")
    t.play("draw")
    t.play("meld 7h 8h 9h 10h")
    events = t.play("discard 4c")
    assert any(isinstance(e, WentOut) and e.seat == 0 for e in events)
    assert t.state.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
    with pytest.raises(WrongPhase):
        t.play("meld 4h 4d 4s", seat=1)


def test_going_out_by_melding_the_last_cards(stacked) -> None:
    """ "Das Entfernen Ihrer letzten Karte auf eine dieser Arten wird als Ausgehen bezeichnet."
    (melding the last cards goes out without a discard)."""
    t = stacked(["7h 8h 9h", "4h 4d 4s 2c"], "kd", "10h 8s")
    t.play("draw")
    events = t.play("meld 7h 8h 9h 10h")
    assert any(isinstance(e, HandEnded) for e in events)
    assert t.state.results[-1].winner == 0


def test_going_out_by_laying_off_the_last_card(stacked) -> None:
    """ "Ein Spieler "geht raus", wenn er die letzte Karte in seiner Hand spielt, entweder
    durch Melden, Auflegen oder Ablegen." (romme-basic.de.txt)"""
    t = stacked(["7h 8h 9h 3c", "10h"], "kd", "5s jh 2d")
    t.play("draw")
    t.play("meld 7h 8h 9h")
    t.play("discard 5s")
    t.play("draw")
    events = t.play("layoff 10h jh 1")
    assert any(isinstance(e, WentOut) and e.seat == 1 for e in events)
    assert t.state.results[-1].winner == 1


def test_taking_the_upcard_needs_another_card_to_discard(stacked) -> None:
    """ "dürfen Sie diesen Zug nicht beenden, indem Sie dieselbe Karte ablegen und den Stapel
    unverändert lassen – Sie müssen eine andere Karte ablegen." A player holding only a copy
    of the upcard (a joker in Wrotham) could not end the turn, so the take is refused."""
    t = stacked(["jk 2c 3d 4h 5s 6c 7d 8h", "jk"], None, "kd qd", preset="wrotham")
    t.play("discard jk")
    with pytest.raises(NoDiscardLeft):
        t.play("take")
    t.play("draw")
    assert t.hand(1) == ["jk", "kd"]


def test_only_the_upcard_may_be_taken(stacked) -> None:
    """ "Die Auslosung. Sie müssen beginnen, indem Sie eine Karte entweder von der Oberseite
    des Ablagestapels oder ... nehmen\": in Basic Rummy only the top card, never a deeper one."""
    t = stacked(["2c 3d", "4h 5s"], "kd", "9s 8s 7s")
    t.play("draw")
    t.play("discard 2c")
    with pytest.raises(DeepTakeNotAllowed):
        t.play("take kd")
    t.play("take 2c")
    assert t.hand(1) == ["2c", "4h", "5s"]
