"""Rummy 500: the end of a hand and the going-out options (rummy-500.de.txt: "Das Spiel
dauert so lange, bis", "Ablegen auf Ablagestapel ... erforderlich", "Schweben", "Nicht
spielbare Karte für Ablagestapel ... erforderlich", "Zum Gewinnen müssen alle Karten
ausgelegt werden")."""

from __future__ import annotations

from engine.actions import Draw, LayOff
from engine.cards import parse_card
from engine.errors import CannotDiscardTaken, FinalDiscardRequired
from engine.events import GameEnded, HandEnded, WentOut
from engine.game import legal_actions
from engine.melds import CardSpec
from engine.state import Phase
from engine.variants.rummy500.actions import CallRummy
from engine.variants.rummy500.errors import (
    LastCardCallable,
    PileCardUnplayable,
    PlayableLastCard,
)
from engine.variants.rummy500.events import Floated
from engine.variants.rummy500.state import CallWindow
from engine.views import view_for

from .conftest import Deal500, Game

# ana can meld her whole hand after drawing the 2h: 7h 8h 9h | 2c 2d 2s 2h 10h.
OUT_HANDS = ["7h 8h 9h 2c 2d 2s 10h", "5s 6s 3d jc qc kd kh", "4c 5c 8d 9d js qs 6h"]
OUT_STOCK = "2h 3c 4s jh 10c ah 3h 8s"


def test_going_out_by_melding_every_card(deal500: Deal500) -> None:
    """ "Falls sie es geschafft haben, alle Karten Ihres Blattes auszulegen, ist das Spiel zu
    Ende\""""
    game = deal500(OUT_HANDS, "ks", OUT_STOCK)
    game.do("ana: draw", "ana: meld 7h 8h 9h | 2c 2d 2s 2h")
    events = game.do("ana: layoff 10h 1")
    assert isinstance(events[1], WentOut) and isinstance(events[2], HandEnded)
    assert game.state.phase is Phase.HAND_OVER
    assert game.state.totals[0] == 7 + 8 + 9 + 10 + 8


def test_going_out_by_discarding_the_last_card(deal500: Deal500) -> None:
    """ "Dies geschieht entweder, wenn ein Spieler alle seine Karten oder alle Karten bis auf
    eine auslegt hat und diese dann auf den Ablagestapel legt.\""""
    game = deal500(OUT_HANDS, "ks", OUT_STOCK)
    game.do("ana: draw", "ana: meld 7h 8h 9h | 2c 2d 2s 2h")
    events = game.do("ana: discard 10h")
    assert isinstance(events[1], WentOut) and events[2].winner == 0
    assert game.state.totals[0] == 7 + 8 + 9 + 8


def test_an_empty_stock_ends_the_hand_when_nobody_takes(deal500: Deal500) -> None:
    """ "Im Nachziehstapel keine Karten mehr sind und der Spieler, der an der Reihe ist,
    keine Karte vom Ablagestapel aufnehmen möchte." — "Jegliche Karten, die die Spieler
    noch auf der Hand haben, müssen abgezogen werden\""""
    game = deal500(
        ["7h 8h 9h 2c 3d 5s ks", "4c 6s 3c jc qc kd kh", "5c 8d 9d js qs 6h ah"], "10s", "2h"
    )
    game.do("ana: draw", "ana: meld 7h 8h 9h", "ana: discard ks")
    assert game.state.stock == ()
    events = game.do("ben: draw")
    assert isinstance(events[0], HandEnded) and events[0].winner is None
    assert events[0].scores == (24 - (2 + 3 + 5 + 2), -(4 + 6 + 3 + 40), -(5 + 8 + 9 + 20 + 6 + 15))


def test_with_an_empty_stock_the_pile_may_still_be_taken(deal500: Deal500) -> None:
    game = deal500(
        ["7h 8h 9h 2c 3d 5s ks", "10h 6s 3c jc qc kd kh", "5c 8d 9d js qs 6h ah"], "4c", "2h"
    )
    game.do("ana: draw", "ana: meld 7h 8h 9h", "ana: discard 2c")
    game.do("ben: take 4c", "ben: meld 2c 3c 4c", "ben: discard kh")  # took 4c and 2c
    assert game.state.phase is Phase.DRAW and game.state.current == 2


def test_option_final_discard_required(deal500: Deal500) -> None:
    """going_out=discard: "muss der Spieler, der alle Karten auslegt, eine Karte auf der
    Hand behalten, so dass er diese Karte am Ende seines Spielzugs auf den Ablagestapel
    legen kann. Bei dieser Variante dürfen Sie nicht alle Ihre Karten melden\""""
    game = deal500(OUT_HANDS, "ks", OUT_STOCK, going_out="discard")
    game.do("ana: draw", "ana: meld 7h 8h 9h | 2c 2d 2s 2h")
    game.refuse("ana: layoff 10h 1", FinalDiscardRequired)
    game.do("ana: discard 10h")
    assert game.state.phase is Phase.HAND_OVER


def _floater(deal500: Deal500, going_out: str = "float") -> Game:
    game = deal500(OUT_HANDS, "ks", OUT_STOCK, going_out=going_out)
    game.do("ana: draw", "ana: meld 7h 8h 9h | 2c 2d 2s 2h")
    events = game.do("ana: layoff 10h 1")
    assert events[-1] == Floated(0)
    return game


def test_floating_players_play_on_without_cards(deal500: Deal500) -> None:
    """going_out=float: "Bei dieser Variante dürfen Sie alle Ihre Karten melden, aber da
    Sie keine Karte auf den Ablagestapel legen dürfen, endet das Spiel nicht, sondern geht
    für die anderen Spieler am Tisch weiter, während Sie "schweben".\""""
    game = _floater(deal500)
    assert game.state.phase is Phase.DRAW and game.state.current == 1
    extra = view_for(game.state, 1).table.extra
    assert extra.floating == (0,) and extra.call_window == CallWindow(0, None)
    game.do("ben: draw", "ben: discard 5s", "cem: draw", "cem: discard 4c")
    assert game.state.current == 0 and game.hand("ana") == []


def test_floater_draws_and_discards_to_go_out(deal500: Deal500) -> None:
    """ "eine Karte vom Nachziehstapel ziehen und diese auf den Ablagestapel legen, wodurch
    das Spiel beendet wird\""""
    game = _floater(deal500)
    game.do("ben: draw", "ben: discard 5s", "cem: draw", "cem: discard 4c", "ana: draw")
    assert game.hand("ana") == ["jh"]
    events = game.do("ana: discard jh")
    assert isinstance(events[1], WentOut) and game.state.phase is Phase.HAND_OVER


def test_floater_melds_the_drawn_card_and_floats_again(deal500: Deal500) -> None:
    """ "die Karte, die Sie vom Nachziehstapel ziehen ... melden und eine weiterer Runde
    schweben\""""
    game = deal500(OUT_HANDS, "ks", "2h 3c 4s jh", going_out="float")
    game.do(
        "ana: draw",
        "ana: meld 7h 8h 9h | 2c 2d 2s 2h",
        "ana: layoff 10h 1",
        "ben: draw",
        "ben: discard 5s",
        "cem: draw",
        "cem: discard 4c",
        "ana: draw",
    )
    events = game.do("ana: layoff jh 1")
    assert events[-1] == Floated(0) and game.state.current == 1


def test_floater_takes_from_the_pile(deal500: Deal500) -> None:
    """ "mehrere Karten vom Ablagestapel aufnehmen und alle auslgen, bis auf eine, die Sie
    auf den Ablagestapel legen, wodurch das Spiel beendet wird" — and taking only the top
    card means playing it: "Da es nicht regelgerecht ist, nur die oberste Karte vom
    Ablagestapel aufzunehmen und diese sofort wieder abzulegen\""""
    game = _floater(deal500)
    game.do("ben: draw", "ben: discard 5s", "cem: draw", "cem: discard 6h")
    game.refuse("ana: take 5s", PileCardUnplayable)  # the 5s fits nowhere
    game.do("ana: take")
    game.refuse("ana: discard 6h", CannotDiscardTaken)
    game.do("ana: layoff 6h 1")
    assert game.state.current == 1


def test_option_unplayable_discard_to_go_out(deal500: Deal500) -> None:
    """going_out=unplayable: "Wenn Ihre letzte Karte bei dieser Variante spielbar ist, dann
    müssen Sie diese, anstatt sie auf den Ablagestapel zu legen und alle Karten
    loszuwerden, melden und zu einem Schwebenden werden.\""""
    game = deal500(OUT_HANDS, "ks", OUT_STOCK, going_out="unplayable")
    game.do("ana: draw", "ana: meld 7h 8h 9h | 2c 2d 2s 2h")
    game.refuse("ana: discard 10h", PlayableLastCard)
    events = game.do("ana: layoff 10h 1")
    assert events[-1] == Floated(0)


def test_unplayable_floater_must_meld_a_playable_drawn_card(deal500: Deal500) -> None:
    """ "Wenn Sie das nächste Mal an der Reihe sind und dabei eine Karte vom Stapel
    verdeckter Karten ziehen und diese spielbar ist, müssen Sie diese Karte melden und für
    eine weitere Runde ein Schwebender bleiben. Um alle Karten melden zu können, müssen Sie
    eine nicht spielbare Karte zum Ablegen auf dem Ablagestapel haben.\""""
    game = deal500(OUT_HANDS, "ks", "2h 3c 4s jh 5d 7d 6d", going_out="unplayable")
    game.do(
        "ana: draw",
        "ana: meld 7h 8h 9h | 2c 2d 2s 2h",
        "ana: layoff 10h 1",
        "ben: draw",
        "ben: discard 5s",
        "cem: draw",
        "cem: discard 4c",
        "ana: draw",
    )
    game.refuse("ana: discard jh", PlayableLastCard)
    assert legal_actions(game.state, 0) == [LayOff(0, (CardSpec(parse_card("jh")),), 0)]
    game.do(
        "ana: layoff jh 1",
        "ben: draw",
        "ben: discard 6s",
        "cem: draw",
        "cem: discard 8d",
        "ana: draw",
    )
    assert game.hand("ana") == ["6d"]
    events = game.do("ana: discard 6d")
    assert isinstance(events[1], WentOut)


def test_option_winning_needs_going_out(deal500: Deal500) -> None:
    """win_needs_out: "Wenn ein anderer Spieler alle seine Karten auslegt, können Sie nicht
    gewinnen, selbst wenn Ihre Gesamtpunktzahl 500 oder mehr beträgt." With the target 30
    ana reaches 44 while ben goes out with 23: without the option ana wins, with it the
    match goes on."""
    for needs_out in (False, True):
        game = deal500(
            ["10h jh qh kh 2c 9s ks", "2d 3d 4d 5d 2s 3s 4s", "5c 8d 9d js qs 6h 7c"],
            "4c",
            "ah 9c 3c",
            target=30,
            win_needs_out=needs_out,
        )
        game.do(
            "ana: draw",
            "ana: meld 10h jh qh kh ah",
            "ana: discard ks",
            "ben: draw",
            "ben: meld 2d 3d 4d 5d | 2s 3s 4s",
        )
        events = game.do("ben: discard 9c")
        assert game.state.totals == (44, 23, -55)
        if needs_out:
            assert game.state.phase is Phase.HAND_OVER and game.state.winners == ()
        else:
            assert isinstance(events[-1], GameEnded) and game.state.winners == (0,)


FLOAT_HANDS = [
    "7h 8h 9h 2c 2d 2s 10h",
    "qs 5s 6s 3d jc qc kd",
    "js 4c 5c 8d 9d qh 6h",
    "4d 3s 7s 8s 10c kc ac",
    "9c 2h 3h 4h 5h 6h 7c",
]


def test_floater_takes_several_cards_melds_and_goes_out(deal500: Deal500) -> None:
    """ "mehrere Karten vom Ablagestapel aufnehmen und alle auslgen, bis auf eine, die Sie
    auf den Ablagestapel legen, wodurch das Spiel beendet wird\""""
    game = deal500(FLOAT_HANDS[:4], "ks", "2h 3c 4s 5d 6d", going_out="float")
    game.do(
        "ana: draw",
        "ana: meld 7h 8h 9h | 2c 2d 2s 2h",
        "ana: layoff 10h 1",
        "ben: draw",
        "ben: discard qs",
        "cem: draw",
        "cem: discard js",
        "dan: draw",
        "dan: discard 4d",
        "ana: take ks",
        "ana: meld js qs ks",
    )
    events = game.do("ana: discard 4d")
    assert isinstance(events[1], WentOut) and game.state.phase is Phase.HAND_OVER


def test_floater_takes_several_cards_and_keeps_one(deal500: Deal500) -> None:
    """ "Karten vom Ablagestapel aufnehmen, einige davon melden, eine auf den Ablagestapel
    legen und noch eine letzte Karte auf der Hand" (five players, two packs)."""
    game = deal500(FLOAT_HANDS, "ks", "2h 3c 4s 5d 6d 7d", going_out="float")
    game.do(
        "ana: draw",
        "ana: meld 7h 8h 9h | 2c 2d 2s 2h",
        "ana: layoff 10h 1",
        "ben: draw",
        "ben: discard qs",
        "cem: draw",
        "cem: discard js",
        "dan: draw",
        "dan: discard 4d",
        "eve: draw",
        "eve: discard 9c",
        "ana: take ks",
        "ana: meld js qs ks",
        "ana: discard 4d",
    )
    assert game.hand("ana") == ["9c"] and game.state.current == 1
    assert view_for(game.state, 1).table.extra.floating == ()


# --- going_out=callable: "In einer alternativen Variante ... 'Rommé!' rufen" ------------

CALLABLE = (
    'rummy-500.de.txt: "Wenn Sie versuchen, alle Karten auszulegen, indem Sie eine '
    "spielbare Karte auf den Ablagestapel legen, kann ein Spieler, der das merkt, Sie "
    "dazu zwingen, dass Sie die auf den Ablagestapel gelegte Karte wieder aufnehmen und "
    "melden. In einer alternativen Variante wird so gespielt, dass jeder andere Spieler "
    '"Rommé!" rufen und die von Ihnen auf den Ablagestapel gelegte Karte melden kann. '
    'In diesem Fall werden Sie zu einem "Schwebenden"'
)


def _last_card_discarded(deal500: Deal500, **options: object) -> Game:
    """ana melds all but the 10h, which she could lay off on her 7h 8h 9h, and discards it."""
    game = deal500(OUT_HANDS, "ks", OUT_STOCK, going_out="callable", **options)
    game.do("ana: draw", "ana: meld 7h 8h 9h | 2c 2d 2s 2h")
    events = game.do("ana: discard 10h")
    assert not any(isinstance(e, WentOut | HandEnded) for e in events)
    return game


def test_callable_a_playable_last_discard_may_be_called(deal500: Deal500) -> None:
    """The playable last discard opens a call window on it (nobody has gone out yet): the
    next player may not take it, any other player may call it and play it, and ana floats:
    "In diesem Fall werden Sie zu einem Schwebenden"."""
    game = _last_card_discarded(deal500)
    extra = view_for(game.state, 1).table.extra
    assert extra.call_window == CallWindow(0, parse_card("10h"), True)
    assert extra.floating == () and extra.may_call == (1, 2)
    error = game.refuse("ben: take", LastCardCallable)
    assert error.params == {"player": "ana", "card": "10h"}
    assert legal_actions(game.state, 1)[0] == Draw(1)
    assert CallRummy(2, parse_card("10h")) in legal_actions(game.state, 2)
    events = game.do("cem: call 10h")
    assert Floated(0) in events and game.state.current == 2
    game.do("cem: layoff 10h 1", "cem: discard 4c")
    assert game.state.current == 0 and game.hand("ana") == []
    assert view_for(game.state, 1).table.extra.floating == (0,)


def test_callable_uncalled_the_discard_goes_out(deal500: Deal500) -> None:
    """Nobody calls: when the next player draws, the window closes and ana has gone out
    with her last discard ("Wenn ein Spieler ... seine letzte Karte auf den Ablagestapel
    legt, ist das Spiel sofort beendet"); ben's draw is not made."""
    game = _last_card_discarded(deal500)
    events = game.do("ben: draw")
    assert events[0] == WentOut(0, False)
    assert game.state.phase is Phase.HAND_OVER and len(game.hand("ben")) == 7
    melded = 7 + 8 + 9 + 2 * 4  # 7h 8h 9h, 2c 2d 2s 2h: ana's points on the table
    assert game.state.results[-1].scores[0] == melded


def test_callable_the_floater_plays_on_and_scores_its_melds(deal500: Deal500) -> None:
    """After the call ana floats: her next turn she draws (4s, which fits no meld) and
    discards it to go out; she scores her melds (the 10h scores for ben, who laid it off)
    and nothing counts against her."""
    game = _last_card_discarded(deal500)
    game.do("ben: call 10h", "ben: layoff 10h 1", "ben: discard 5s", "cem: draw", "cem: discard 3c")
    assert view_for(game.state, 0).table.extra.floating == (0,)
    game.do("ana: draw")
    assert game.hand("ana") == ["4s"]
    events = game.do("ana: discard 4s")
    assert isinstance(events[1], WentOut) and game.state.phase is Phase.HAND_OVER
    result = game.state.results[-1]
    assert result.winner == 0 and result.points[0] == 0
    assert result.scores[0] == 7 + 8 + 9 + 2 * 4
    assert result.scores[1] == 10 - sum((6, 3, 10, 10, 10, 10))  # ben: 10h on the table


def test_callable_an_unplayable_last_discard_goes_out_at_once(deal500: Deal500) -> None:
    """Only a card that could have been laid off may be called: an unplayable last card
    goes out as always, and with calling=off nobody may call, so the discard goes out."""
    hands = ["7h 8h 9h 2c 2d 2s kc", *OUT_HANDS[1:]]
    game = deal500(hands, "ks", OUT_STOCK, going_out="callable")
    game.do("ana: draw", "ana: meld 7h 8h 9h | 2c 2d 2s 2h")
    events = game.do("ana: discard kc")
    assert isinstance(events[1], WentOut) and game.state.phase is Phase.HAND_OVER
    off = deal500(OUT_HANDS, "ks", OUT_STOCK, going_out="callable", calling="off")
    off.do("ana: draw", "ana: meld 7h 8h 9h | 2c 2d 2s 2h")
    events = off.do("ana: discard 10h")
    assert isinstance(events[1], WentOut)


def test_callable_a_lay_off_call_leaves_the_turn_order(deal500: Deal500) -> None:
    """With calling=last_layoff the caller lays the card off at once and ben, who was to
    draw, still draws; ana floats."""
    game = _last_card_discarded(deal500, calling="last_layoff")
    events = game.do("cem: call 10h 1")
    assert Floated(0) in events and game.state.current == 1
    game.do("ben: draw")
    assert game.state.phase is Phase.PLAY and game.hand("ana") == []
