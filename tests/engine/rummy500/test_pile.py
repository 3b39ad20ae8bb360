"""Rummy 500: taking from the spread discard pile, the obligation to play the card, and
the discard rules (rummy-500.de.txt, "Aufnehmen vom Ablagestapel")."""

from __future__ import annotations

from engine.actions import TakeDiscard
from engine.cards import parse_card, parse_cards
from engine.errors import CannotDiscardTaken, NotYourTurn
from engine.game import legal_actions
from engine.variants.rummy500.errors import (
    MustPlayPileCard,
    NotInPile,
    PileCardBlocked,
    PileCardNeedsNewMeld,
    PileCardNoNewMeld,
    PileCardUnplayable,
)
from engine.variants.rummy500.events import PileTaken
from engine.views import view_for

from .conftest import Deal500, Game, sorted_names

# Six players (two packs): ana..eve discard 4c qd 4d as 7h onto the upcard 6s, then fay
# holds the text's hand -2 -4 -5 -8 -B -K -K.
PICKUP_HANDS = [
    "4c 2h 3s 9d 10c jh qs",
    "qd 2d 3c 9h 10d js qh",
    "4d 2s 3h 9c 10s jd qc",
    "as 5c 6h 8d 10h kh 3d",
    "7h 5h 6c 8c 9s kc ad",
    "2c 4h 5d 8s jc kd ks",
]


def _pickup(deal500: Deal500) -> Game:
    game = deal500(PICKUP_HANDS, "6s", "7c 7d 7s 8h 5s 6d 2s")
    game.do(
        "ana: draw",
        "ana: discard 4c",
        "ben: draw",
        "ben: discard qd",
        "cem: draw",
        "cem: discard 4d",
        "dan: draw",
        "dan: discard as",
        "eve: draw",
        "eve: discard 7h",
    )
    assert game.pile() == ["6s", "4c", "qd", "4d", "as", "7h"]
    return game


def test_the_pickup_example(deal500: Deal500) -> None:
    """ "Sie haben folgende Karten auf der Hand: -2 -4 -5 -8 -B -K -K. Sie wollen die -4 und
    die -4 vom Ablagestapel aufnehmen, um sie mit Ihrer -4 zu einem Satz auszulegen. Um
    diese Karten zu erhalten, müssen Sie alle Karten von der -4 an aufnehmen, und nur die
    -6 verbleibt im Ablagestapel. Dann können Sie die -4 -4 -4 miteinander melden und haben
    dann noch folgende Karten auf der Hand: -2 -5 -7 -8 -B -D -K -K -A. Sie legen eine
    Karte, die Sie nicht brauchen, auf den Ablagestapel, wie zum Beispiel die -2\""""
    game = _pickup(deal500)
    events = game.do("fay: take 4c")
    assert events == (PileTaken(5, parse_card("4c"), parse_cards("4c qd 4d as 7h")),)
    assert game.pile() == ["6s"]
    game.do("fay: meld 4c 4d 4h")
    assert game.hand("fay") == sorted_names("2c 5d 7h 8s jc qd kd ks as")
    game.do("fay: discard 2c")
    assert game.pile() == ["6s", "2c"]


def test_the_taken_card_must_be_played_before_the_turn_ends(deal500: Deal500) -> None:
    """ "Da Sie jedoch die Karten von der -4 an aufgenommen haben, müssen Sie die -4
    melden." The take and its meld are one move: no discard while the 4 is unplayed."""
    game = _pickup(deal500)
    game.do("fay: take 4c")
    error = game.refuse("fay: discard 2c", MustPlayPileCard)
    assert error.params == {"card": "4c"}
    assert view_for(game.state, 0).table.extra.must_play == parse_card("4c")
    game.do("fay: meld 4c 4d 4h")
    assert view_for(game.state, 0).table.extra.must_play is None


def test_after_a_deep_take_the_former_top_card_may_be_discarded(deal500: Deal500) -> None:
    """ "Wenn Sie jedoch mehr als eine Karte vom Ablagestapel gezogen haben, dann können Sie
    nach dem Melden die Karte, die zuvor als oberste auf dem Stapel lag, wieder
    ablegen.\""""
    game = _pickup(deal500)
    game.do("fay: take 4c", "fay: meld 4c 4d 4h", "fay: discard 7h")
    assert game.pile() == ["6s", "7h"]


def test_the_top_card_alone_may_be_kept_but_not_discarded(deal500: Deal500) -> None:
    """ "Wenn Sie nur die -7 aufgenommen hätten, wäre es erlaubt gewesen, diese in der Hand
    zu behalten und nicht auszulegen." — "Wenn Sie nur die oberste Karte vom Ablagestapel
    gezogen haben, müssen Sie eine andere Karte ablegen.\""""
    game = _pickup(deal500)
    game.do("fay: take")
    game.refuse("fay: discard 7h", CannotDiscardTaken)
    game.do("fay: discard 2c")
    assert "7h" in game.hand("fay")


def test_deep_takes_are_legal_actions_only_when_playable(deal500: Deal500) -> None:
    """ "Unter den folgenden Bedingungen dürfen Sie auch eine Karte vom Ablagestapel
    aufnehmen, die weiter unten liegt: Sie spielen die Karte sofort ... und Sie nehmen auch
    alle Karten oberhalb". fay can meld the 4s only when she takes both (with her 4h)."""
    game = _pickup(deal500)
    takes = [a for a in legal_actions(game.state, 5) if isinstance(a, TakeDiscard)]
    assert takes == [TakeDiscard(5), TakeDiscard(5, parse_card("4c"))]
    game.refuse("fay: take 4d", PileCardUnplayable)
    game.refuse("fay: take qd", PileCardUnplayable)
    game.refuse("fay: take 6s", PileCardUnplayable)
    game.refuse("fay: take 9h", NotInPile)
    game.refuse("ana: take 4c", NotYourTurn)


def _three(deal500: Deal500, **options: object) -> Game:
    """ben and cem discard qd and 2d onto the upcard 4c; ana holds 4h 4s 5h 6h."""
    game = deal500(
        ["4h 4s 5h 6h 8c 10c kc", "qd 2c 3s 9h 10d js qh", "2d 3c 7s 9c 10s jd qc"],
        "4c",
        "7c 7d 7h 8h 5s 6d 2s",
        dealer=0,
        **options,
    )
    game.do("ben: draw", "ben: discard qd", "cem: draw", "cem: discard 2d")
    return game


def test_no_move_may_leave_the_taken_card_unplayable(deal500: Deal500) -> None:
    """The card taken from deep in the pile must be played this turn ("Sie spielen die Karte
    sofort"), so a meld that uses the cards it needs is refused until it is played."""
    game = _three(deal500)
    game.do("ana: take 4c")
    game.refuse("ana: meld 4h 5h 6h", PileCardBlocked)
    game.do("ana: meld 4h 4s 4c", "ana: discard qd")
    assert game.pile() == ["qd"]


def test_take_refused_when_the_card_cannot_be_played(deal500: Deal500) -> None:
    """A deep take is allowed only when "Sie spielen die Karte sofort"; refused, it changes
    nothing."""
    game = _three(deal500)
    error = game.refuse("ana: take qd", PileCardUnplayable)
    assert error.params == {"card": "qd"}


def test_option_every_taken_card_must_be_melded(deal500: Deal500) -> None:
    """Option take_must_meld: "Diese Regel gilt auch dann, wenn Sie nur die oberste Karte
    vom Ablagestapel aufnehmen - in diesem Fall müssen Sie diese oberste Karte melden. Wenn
    Sie nicht melden, müssen Sie eine Karte vom Nachziehstapel ziehen.\""""
    game = deal500(
        ["4h 4s 5h 6h 2c 2s kc", "qd 2h 3s 9h 10d js qh", "2d 3c 7s 9c 10s jd qc"],
        "4c",
        "7c 8h 5s 6d",
        dealer=0,
        take_must_meld=True,
    )
    game.do("ben: draw", "ben: discard qd", "cem: draw", "cem: discard 2d")
    game.do("ana: take")  # the top card 2d melds with 2c 2s
    game.refuse("ana: discard kc", MustPlayPileCard)
    game.do("ana: meld 2c 2d 2s", "ana: discard kc")
    game.do("ben: draw", "ben: discard js", "cem: draw")
    game.do("cem: discard 3c")
    game.refuse("ana: take", PileCardUnplayable)  # 3c fits nothing of ana's
    game.do("ana: draw")


def test_without_the_option_the_top_card_needs_no_meld(deal500: Deal500) -> None:
    """ "Es ist immer regelgerecht, die oberste Karte vom Nachziehstapel oder Ablagestapel
    aufzunehmen\""""
    game = _three(deal500)
    game.do("ana: take", "ana: discard kc")
    assert "2d" in game.hand("ana")


def test_option_the_bottom_card_needs_a_new_meld(deal500: Deal500) -> None:
    """Option take_new_meld: "muss die unterste Karte, die Sie aufnehmen, in einer neuen
    Auslage aus drei oder mehr Karten verwendet werden - es genügt nicht, die Karte an eine
    bestehende Auslage anlegen zu können.\""""
    hands = ["9c 9s 5h 2c 3s 8d kc", "6h 7h 8h 3d 10d js qh", "9h 4c 7s 9d 10s jd qc"]
    game = deal500(hands, "ah", "7c 8c 5s 6d 2s 2d", dealer=0, take_new_meld=True)
    game.do("ben: draw", "ben: meld 6h 7h 8h", "ben: discard 3d", "cem: draw", "cem: discard 9h")
    game.do(
        "ana: draw",
        "ana: discard 8d",
        "ben: draw",
        "ben: discard 10d",
        "cem: draw",
        "cem: discard 9d",
    )
    assert game.pile() == ["ah", "3d", "9h", "8d", "10d", "9d"]
    game.refuse("ana: take 10d", PileCardNoNewMeld)  # 10d and 9d make no new meld
    game.do("ana: take 9h")
    game.refuse("ana: layoff 9h 1", PileCardNeedsNewMeld)
    game.do("ana: meld 9c 9h 9s", "ana: discard 9d")


def test_option_new_meld_refuses_a_take_for_a_lay_off_only(deal500: Deal500) -> None:
    """take_new_meld (with take_must_meld, so the top card is owed too): "es genügt nicht,
    die Karte an eine bestehende Auslage anlegen zu können" — the 9h fits only ben's run,
    so it may not be taken; without the option it may, and is laid off."""
    hands = ["9c 5h 2c 3s 8d kc 4d", "6h 7h 8h 3d 10d js qh", "9h 4c 7s 9d 10s jd qc"]
    for new_meld in (True, False):
        game = deal500(
            hands, "ah", "7c 8c 5s 6d 2s 2d", dealer=0, take_must_meld=True, take_new_meld=new_meld
        )
        game.do(
            "ben: draw", "ben: meld 6h 7h 8h", "ben: discard 3d", "cem: draw", "cem: discard 9h"
        )
        if new_meld:
            game.refuse("ana: take", PileCardNoNewMeld)
        else:
            game.do("ana: take", "ana: layoff 9h 1", "ana: discard kc")
            assert game.meld(1) == "6h 7h 8h 9h"


def test_option_new_meld_owes_the_top_card_taken_alone(deal500: Deal500) -> None:
    """take_new_meld alone: "Wenn Sie Karten vom Ablagestapel aufnehmen, muss die unterste
    Karte, die Sie aufnehmen, in einer neuen Auslage aus drei oder mehr Karten verwendet
    werden" -- a take of the top card alone has that card at its bottom. ana may take the
    7s only because 7h 7d meld with it, and must meld it before she discards; cem, with
    nothing to meld the 8d with, may not take it (nor is the take listed)."""
    hands = ["7h 7d 2c 3s 9d jc kh", "4h 5d 8s 10c qd ks as", "2h 3c 6d 9s jh qc kd"]
    game = deal500(hands, "7s", "5c 6h 8c 4s", dealer=2, take_new_meld=True)
    assert TakeDiscard(0) in legal_actions(game.state, 0)
    game.do("ana: take")
    game.refuse("ana: discard 2c", MustPlayPileCard)
    game.do("ana: meld 7h 7d 7s", "ana: discard 2c", "ben: draw", "ben: discard 5c")
    game.refuse("cem: take", PileCardNoNewMeld)
    assert TakeDiscard(2) not in legal_actions(game.state, 2)
