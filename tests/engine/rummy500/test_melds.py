"""Rummy 500 melds: sets, runs, jokers and lay-offs on anyone's meld (rummy-500.de.txt)."""

from __future__ import annotations

import pytest

from engine.actions import LayOff
from engine.cards import parse_card
from engine.errors import AmbiguousJoker, InvalidLayOff, InvalidMeld
from engine.game import legal_actions
from engine.melds import CardSpec
from engine.views import view_for

from .conftest import Deal500, Game

FIVE_HANDS = [
    "6h 6h 6s 6d 2c 3c 4c",
    "kc kd kh ks 2d 3d 4d",
    "2h 3h 4h 7c 8c 9c 10c",
    "2s 3s 4s 7d 8d 9d 10d",
    "5c 5d 5h 7h 8h 9h jk",
]


def test_sets_of_two_packs_need_distinct_suits(deal500: Deal500) -> None:
    """ "Wenn mit mehr als einem Kartenspiel gespielt wird, müssen die Karten eines Satzes
    alle unterschiedliche Farben haben. -6 -6 -6 ist kein gültiger Satz.\""""
    game = deal500(FIVE_HANDS, "jc", "qc qd qh")
    game.do("ana: draw")
    error = game.refuse("ana: meld 6h 6h 6s", InvalidMeld)
    assert error.params["reason_code"] == "set_suits"
    game.do("ana: meld 6h 6s 6d")
    assert game.meld(1) == "6d 6h 6s"


def test_no_joker_for_a_fifth_card_of_a_rank(deal500: Deal500) -> None:
    """ "Es ist also nicht möglich, einen Satz von (beispielsweise) vier Königen mit einem
    Joker zu auszulegen, da es keinen fünften König gibt ... Selbst wenn Sie mit zwei
    Kartenspielen spielen"."""
    hands = list(FIVE_HANDS)
    hands[1] = "kc kd kh ks jk 3d 4d"
    hands[4] = "5c 5d 5h 7h 8h 9h 2d"
    game = deal500(hands, "jc", "qc qd qh")
    game.do("ana: draw", "ana: discard 2c", "ben: draw")
    error = game.refuse("ben: meld kc kd kh ks jk", InvalidMeld)
    assert error.params["reason_code"] == "set_too_big"
    game.do("ben: meld kc kd kh ks")
    game.refuse("ben: layoff jk 1", InvalidLayOff)


@pytest.mark.parametrize(
    ("cards", "ok"),
    [
        ("ah 2h 3h 4h", True),
        ("qs ks as", True),
        ("ks as 2s", False),
        ("5c 6c 7c 8c 9c", True),
    ],
)
def test_runs_with_the_ace_low_or_high_but_not_both(deal500: Deal500, cards: str, ok: bool) -> None:
    """ "Ein Ass kann eins oder fünfzehn zählen, jedoch nicht beides gleichzeitig. Somit
    sind -A -2 -3 -4 und -D -K -A beides gültige Folgen, aber -K -A -2 ist keine gültige
    Folge.\""""
    hand = cards.split() + ["jd", "10d", "8d"][: 7 - len(cards.split())]
    game = deal500([" ".join(hand), "2d 3d 4d 6s 7s 8s 9s", "2c 3c 4c 6d 7d 10s js"], "qd", "kd")
    game.do("ana: draw")
    if ok:
        game.do(f"ana: meld {cards}")
        assert len(game.state.melds) == 1
    else:
        game.refuse(f"ana: meld {cards}", InvalidMeld)


def test_nine_and_two_jokers_offers_every_reading(deal500: Deal500) -> None:
    """ "Wenn Sie die -9 mit zwei Jokern melden würden, müssten Sie festlegen, ob diese
    Meldung einen Satz von Neunern oder eine Folge darstellen soll. Wenn die Auslage eine
    Folge darstellen soll, müssten Sie wählen, ob die Folge für 7-8-9, 8-9-10 oder 9-10-B
    steht. Wenn die Auslage jedoch einen Satz darstellen soll, müssen Sie nicht festlegen,
    für welche Farben die Joker stehen. Jeder Spieler könnte nachfolgend eine andere Neun
    anlegen, um den Satz von vier Neunern zu vervollständigen.\""""
    game = deal500(
        ["9h jk jk 2c 3c 4c 5s", "9c 2d 3d 4d 6s 7s 8s", "2h 3h 4h 6d 7d 10s js"], "qd", "kd ks"
    )
    game.do("ana: draw")
    error = game.refuse("ana: meld 9h jk jk", AmbiguousJoker)
    assert set(error.params["options"]) == {
        "9h jk=9 jk=9",
        "jk=7h jk=8h 9h",
        "jk=8h 9h jk=10h",
        "9h jk=10h jk=jh",
    }
    game.do("ana: meld 9h jk=9 jk=9", "ana: discard 5s", "ben: draw", "ben: layoff 9c 1")
    assert game.meld(1) == "9c 9h jk=9 jk=9"
    assert len(game.state.melds[0].cards) == 4


def test_a_joker_keeps_its_declared_card(deal500: Deal500) -> None:
    """ "Wenn Sie zum Beispiel -6 -7 Joker als Folge ansagen ..., dann legen Sie fest, dass
    der Joker für die -8 steht. Danach kann ein anderer Spieler die -5 oder -9 an diese
    Folge anlegen, aber er darf den Joker nicht in eine -5 umwandeln, um eine -4 anlegen zu
    können.\""""
    game = deal500(
        ["6h 7h jk 2c 3c 4c 5s", "5h 9h 4h 3d 4d 6s 7s", "2h 3h 8d 6d 7d 10s js"], "qd", "kd ks qs"
    )
    game.do("ana: draw")
    game.refuse("ana: meld 6h 7h jk", AmbiguousJoker)
    game.do("ana: meld 6h 7h jk=8h", "ana: discard 5s", "ben: draw")
    game.refuse("ben: layoff 4h 1", InvalidLayOff)
    game.do("ben: layoff 9h 1", "ben: layoff 5h 1")
    assert game.meld(1) == "5h 6h 7h jk=8h 9h"


def test_a_joker_may_stand_for_a_card_already_on_the_table(deal500: Deal500) -> None:
    """ "Joker ... können den Platz jeder beliebigen Karte in einer Meldung einnehmen,
    selbst den eines Duplikats einer Karte, die bereits von demselben oder einem anderen
    Spieler ausgelegt wurde.\""""
    game = deal500(
        ["8h 9h 10h 2c 3c 4c 5s", "6h 7h jk 3d 4d 6s 7s", "2h 3h 8d 6d 7d 10s js"], "qd", "kd ks"
    )
    game.do(
        "ana: draw", "ana: meld 8h 9h 10h", "ana: discard 5s", "ben: draw", "ben: meld 6h 7h jk=8h"
    )
    assert game.meld(2) == "6h 7h jk=8h"


LAYOFF_HANDS = [
    "5h 6h 7h 2c 3d 4s kc",
    "9c 9d 9s 8h 2d 3s qc",
    "9h 2s 4c 6d jd kd ac",
    "10h 3c 5s 7d qd ks ad",
]


def _lay_off_example(deal500: Deal500) -> Game:
    game = deal500(LAYOFF_HANDS, "jc", "8c 8d 8s 10c 10d")
    game.do(
        "ana: draw",
        "ana: meld 5h 6h 7h",
        "ana: discard kc",
        "ben: draw",
        "ben: meld 9c 9d 9s",
        "ben: layoff 8h 1",
        "ben: discard qc",
        "cem: draw",
    )
    return game


def test_a_card_that_fits_two_melds_goes_where_the_player_says(deal500: Deal500) -> None:
    """ "A hat -5--6--7 abgelegt, B hat -9--9--9 abgelegt. B kann die -8 an As Folge
    anlegen. C kann nun die -9 anlegen und muss ansagen, ob sie an die Herz-Folge angelegt
    wird oder an Bs Satz aus Neunern. Wenn C die -9 an die Herz-Folge anlegt, kann D die
    Folge dann noch erweitern, indem er die -10 anlegt.\""""
    game = _lay_off_example(deal500)
    nine = CardSpec(parse_card("9h"))
    legal = legal_actions(game.state, 2)
    assert LayOff(2, (nine,), 0) in legal and LayOff(2, (nine,), 1) in legal
    game.do("cem: layoff 9h 1", "cem: discard kd", "dan: draw", "dan: layoff 10h 1")
    assert game.meld(1) == "5h 6h 7h 8h 9h 10h"
    points = view_for(game.state, 0).table.extra.melded_points
    assert points == (5 + 6 + 7, 27 + 8, 9, 10)


def test_on_the_set_the_nine_blocks_the_run(deal500: Deal500) -> None:
    """ "Wenn C angesagt hätte, dass er die -9 an den Satz aus Neunern anlegt, dann wäre es
    natürlich nicht möglich, die -10 an die Folge anzulegen, da diese nun nur aus 5-6-7-8
    bestünde.\""""
    game = _lay_off_example(deal500)
    game.do("cem: layoff 9h 2", "cem: discard kd", "dan: draw")
    assert game.meld(2) == "9c 9d 9h 9s"
    game.refuse("dan: layoff 10h 1", InvalidLayOff)


def test_an_ace_that_completes_a_run_either_way_goes_high(deal500: Deal500) -> None:
    """ "Ein Ass kann eins oder fünfzehn zählen, jedoch nicht beides gleichzeitig": an ace
    laid off on 2-K could stand low or high; it goes high and counts 15 (README reading).
    Two players get thirteen cards each."""
    game = deal500(
        ["2h 3h 4h 5h 6h 7h 8h 9h 10h jh qh kh 2c", "ah 3c 4c 5c 6c 7d 8d 9d 10d jd qd 2s 3s"],
        "ks",
        "4s 5s 6s",
    )
    game.do(
        "ana: draw",
        "ana: meld 2h 3h 4h 5h 6h 7h 8h 9h 10h jh qh kh",
        "ana: discard 2c",
        "ben: draw",
    )
    assert LayOff(1, (CardSpec(parse_card("ah")),), 0) in legal_actions(game.state, 1)
    game.do("ben: layoff ah 1")
    assert str(game.state.melds[0].cards[-1]) == "ah"
    assert view_for(game.state, 0).table.extra.melded_points == (
        2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 30,
        15,
    )
