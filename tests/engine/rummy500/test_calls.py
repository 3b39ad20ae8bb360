"""Rummy 500: calling "Rommé!" (rummy-500.de.txt, "Rommé rufen") — the call window as an
interrupt of the turn order, the three examples of the text and the calling options."""

from __future__ import annotations

from engine.actions import Draw
from engine.cards import parse_card, parse_cards
from engine.errors import NotYourTurn
from engine.game import apply, current_player, legal_actions
from engine.state import Phase
from engine.variants.rummy500.actions import CallRummy
from engine.variants.rummy500.errors import (
    CallingOff,
    CallNeedsCard,
    CallNeedsMeld,
    CallTakesNoMeld,
    DiscarderCannotCall,
    MustPlayPileCard,
    NoCallWindow,
    NotCallable,
    NothingToCall,
    NotInPile,
)
from engine.variants.rummy500.events import RummyCalled
from engine.variants.rummy500.state import CallWindow
from engine.views import view_for

from .conftest import Deal500, Game, sorted_names

# ana melds 7h 8h 9h; ben then discards 10h, which could have been laid off.
RUN_HANDS = ["7h 8h 9h 2c 3c 4d kc", "10h 5s 6s 2d 3d jc qc", "6h 4c 5c 8d 9d js qs"]


def _run_example(deal500: Deal500, **options: object) -> Game:
    game = deal500(RUN_HANDS, "ks", "ad 2s 3s 4s 6c 7c", **options)
    game.do("ana: draw", "ana: meld 7h 8h 9h", "ana: discard kc", "ben: draw", "ben: discard 10h")
    return game


def test_a_discard_that_could_be_laid_off_can_be_called(deal500: Deal500) -> None:
    """ "Wenn zum Beispiel eine -7 -8 -9 auf dem Tisch liegt und jemand eine -6 oder -10
    ablegt, kann jeder Spieler außer dem Spieler, der abgelegt hat, "Rommé!" rufen, die
    Karte aufnehmen und melden." — "Dann ist der Spieler links von dem Spieler, der
    "Rommé!" gerufen hat, am Zug": ana calls out of turn, plays, and ben follows her
    (cem, whose turn it was, is passed over)."""
    game = _run_example(deal500)
    assert current_player(game.state) == 2
    game.refuse("ben: call 10h", DiscarderCannotCall)
    events = game.do("ana: call 10h")
    assert events == (RummyCalled(0, 1, parse_card("10h"), (parse_card("10h"),)),)
    assert game.state.current == 0 and game.state.phase is Phase.PLAY
    game.refuse("ana: discard 2c", MustPlayPileCard)
    game.do("ana: layoff 10h 1", "ana: discard 2c")
    assert game.meld(1) == "7h 8h 9h 10h"
    assert game.state.current == 1 and game.state.phase is Phase.DRAW
    assert view_for(game.state, 2).table.extra.melded_points[0] == 7 + 8 + 9 + 10


def test_the_call_window_is_an_interrupt_with_a_clear_end(deal500: Deal500) -> None:
    """ "bevor der nächste Spieler eine Karte zieht": while the window is open the next
    player (cem) is to play and every other seat may call; cem's draw ends it."""
    game = _run_example(deal500)
    extra = view_for(game.state, 0).table.extra
    assert extra.call_window == CallWindow(1, parse_card("10h"))
    assert extra.may_call == (0, 2)
    assert legal_actions(game.state, 0) == [CallRummy(0, parse_card("10h"))]
    assert legal_actions(game.state, 1) == []
    assert CallRummy(2, parse_card("10h")) in legal_actions(game.state, 2)
    assert Draw(2) in legal_actions(game.state, 2)
    game.refuse("ana: draw", NotYourTurn)
    game.do("cem: draw")
    assert view_for(game.state, 0).table.extra.call_window is None
    game.refuse("ana: call 10h", NoCallWindow)


def test_the_next_player_may_call_too(deal500: Deal500) -> None:
    """ "außer dem Spieler, der gerade eine Karte abgelegt hat, jeder Spieler\""""
    game = _run_example(deal500)
    game.do("cem: call", "cem: layoff 10h 1", "cem: discard js")
    assert game.state.current == 0


def test_a_call_with_nothing_callable_is_refused(deal500: Deal500) -> None:
    """Only "eine Karte ..., die anlegbar gewesen wäre" or cards "die ohne weitere Karten
    von einem der Spieler ausgelegbar sind" may be called; anything else changes nothing."""
    game = deal500(RUN_HANDS, "ks", "ad 2s 3s 4s 6c 7c")
    game.do("ana: draw", "ana: meld 7h 8h 9h", "ana: discard kc")
    game.refuse("ben: call", NothingToCall)
    game.refuse("ben: call kc", NotCallable)
    game.refuse("ben: call 5h", NotInPile)
    game.refuse("cem: call kc 1", CallTakesNoMeld)
    game.do("ben: draw")
    game.refuse("cem: call", NoCallWindow)


def test_no_call_after_the_hand_is_over(deal500: Deal500) -> None:
    """ "Denken Sie daran, dass es nicht möglich ist, "Rommé!" zu rufen, nachdem das Spiel
    beendet ist. ... die anderen Spieler können diese Karten nun nicht mehr beanspruchen\""""
    game = deal500(
        ["7h 8h 9h 2c 2d 2s 10h", "5s 6s 3d jc qc kd kh", "4c 5c 8d 9d js qs 6h"], "ks", "2h 3c"
    )
    game.do("ana: draw", "ana: meld 7h 8h 9h | 2c 2d 2s 2h")
    game.do("ana: discard 10h")  # her last card, which could be laid off
    assert game.state.phase is Phase.HAND_OVER
    game.refuse("ben: call 10h", NoCallWindow)


def test_cards_deeper_in_the_pile_that_make_a_meld(deal500: Deal500) -> None:
    """ "Angenommen, der Ablagestapel sieht folgendermaßen aus: ... und ein Spieler legt
    einen -B ab, ohne den -K und die -D im Ablagestapel zu bemerken. Jeder Spieler, der den
    Fehler bemerkt, mit Ausnahme des Spielers, der abgelegt hat, kann "Rommé!" rufen und
    alle abgelegten Karten vom -K an aufnehmen.\""""
    game = deal500(
        ["js 2c 3c 4d 6h 8h 10d", "qs 2d 3d 5c 7h 9h jd", "4h 5s 6s 7c 8c ah ad"],
        "ks",
        "9c 9d 9s 10c 10h",
    )
    game.do(
        "ana: draw",
        "ana: discard 2c",
        "ben: draw",
        "ben: discard qs",
        "cem: draw",
        "cem: discard 4h",
        "ana: draw",
        "ana: discard js",
    )
    assert game.pile() == ["ks", "2c", "qs", "4h", "js"]
    game.refuse("ana: call ks", DiscarderCannotCall)
    game.refuse("cem: call qs", NotCallable)
    events = game.do("cem: call")
    assert events[0].cards == parse_cards("ks 2c qs 4h js")
    assert game.pile() == []
    game.do("cem: meld js qs ks", "cem: discard 2c")
    assert game.state.current == 0 and game.pile() == ["2c"]


def _three_from_the_top(deal500: Deal500) -> Game:
    """ana holds 5h 6h; the pile reads 3h 10c jd when she draws the 4h."""
    game = deal500(
        ["5h 6h 2c 2d 9s ks kd", "10c 7c 7h qd qh 4c 4d", "jd 7d 8d js qs 5c 5d"],
        "3h",
        "9c 9d 4h ac ad as",
        dealer=0,
    )
    game.do(
        "ben: draw",
        "ben: discard 10c",
        "cem: draw",
        "cem: discard jd",
        "ana: draw",
        "ana: meld 4h 5h 6h",
        "ana: discard kd",
    )
    assert game.pile() == ["3h", "10c", "jd", "kd"]
    return game


def test_melding_next_to_a_pile_card_opens_a_call(deal500: Deal500) -> None:
    """ "Sie haben ... eine -5 und eine -6 auf der Hand ... ziehen eine -4 vom Stapel
    verdeckter Karten. Wenn Sie Ihre -4--5--6 nun melden, kann jeder andere Spieler
    "Rommé!" rufen und die obersten vier Karten vom Ablagestapel nehmen, um die -3 an Ihre
    Auslage anzulegen. Denken Sie daran, dass Sie selbst in diesem Fall ... nicht "Rommé!"
    rufen dürfen\""""
    game = _three_from_the_top(deal500)
    game.refuse("ana: call 3h", DiscarderCannotCall)
    events = game.do("cem: call 3h")
    assert len(events[0].cards) == 4
    game.do("cem: layoff 3h 1", "cem: discard 10c")
    assert game.meld(1) == "3h 4h 5h 6h"
    assert view_for(game.state, 0).table.extra.melded_points[:3] == (15, 0, 3)
    assert game.state.current == 0


def test_the_melder_may_call_after_the_next_turn(deal500: Deal500) -> None:
    """ "Sie müssen warten, bis der nächste Spieler an der Reihe war, und könnten dann
    "Rommé!" rufen, sofern in der Zwischenzeit kein anderer Spieler die -3 vom Stapel
    genommen hat\""""
    game = _three_from_the_top(deal500)
    game.do("ben: draw", "ben: discard 7c")
    game.do("ana: call 3h", "ana: layoff 3h 1")
    assert game.hand("ana") == sorted_names("2c 2d 9s ks 10c jd kd 7c")
    game.do("ana: discard 7c")
    assert game.state.current == 1


def test_a_call_must_name_the_card_when_several_fit(deal500: Deal500) -> None:
    """Several callable cards: the caller says down to which card he takes the pile."""
    game = _three_from_the_top(deal500)
    game.do("ben: draw", "ben: discard 7h")  # 7h fits the run 4h-6h too
    error = game.refuse("cem: call", CallNeedsCard)
    assert error.params == {"cards": "7h 3h"}
    game.do("cem: call 7h", "cem: layoff 7h 1", "cem: discard js")


def test_option_calling_only_the_last_discard_onto_a_meld(deal500: Deal500) -> None:
    """calling=last_layoff: "nur dann erlaubt, "Rommé" zu rufen, wenn die letzte abgelegte
    Karte an eine Auslage auf dem Tisch angelegt werden kann. In diesem Fall nimmt der
    Spieler, der Rommé ruft, die Karte und legt sie ab [an], wodurch er Punkte damit
    erzielt, und dann geht das Spiel mit dem Spieler weiter, der an der Reihe war.\""""
    game = _run_example(deal500, calling="last_layoff")
    assert legal_actions(game.state, 0) == [CallRummy(0, parse_card("10h"), 0)]
    events = game.do("ana: call")
    assert isinstance(events[0], RummyCalled) and events[0].index == 0
    assert game.meld(1) == "7h 8h 9h 10h"
    assert game.state.melds[0].cards[-1].owner == 0
    assert game.state.current == 2 and game.state.phase is Phase.DRAW
    assert view_for(game.state, 1).table.extra.call_window is None


def test_last_layoff_calls_no_deeper_card(deal500: Deal500) -> None:
    """ "Bei dieser Variante darf man nicht "mitten im Stapel" Rommé rufen, wenn eine Karte
    weiter unten im Ablagestapel abgelegt werden kann.\""""
    game = deal500(
        ["5h 6h 2c 2d 9s ks kd", "10c 7c 8s qd qh 4c 4d", "jd 7d 8d js qs 5c 5d"],
        "3h",
        "9c 9d 4h ac ad as",
        dealer=0,
        calling="last_layoff",
    )
    game.do(
        "ben: draw",
        "ben: discard 10c",
        "cem: draw",
        "cem: discard jd",
        "ana: draw",
        "ana: meld 4h 5h 6h",
        "ana: discard kd",
    )
    game.refuse("cem: call 3h", NotCallable)
    game.refuse("cem: call", NothingToCall)
    assert legal_actions(game.state, 2) == []


def test_last_layoff_call_names_the_meld_when_two_fit(deal500: Deal500) -> None:
    """ "Manchmal gibt es beim Anlegen mehrere Meldungen, an die angelegt werden kann. In
    diesem Fall muss der Spieler, der anlegt, sich entscheiden, welche Meldung er
    erweitert.\""""
    game = deal500(
        ["6h 7h 8h 2c 3d 4s kc", "9c 9d 9s 2d 3s qc 9h", "5c 2s 4c 6d jd kd ac"],
        "jc",
        "8c 8d 8s 10c 10d",
        calling="last_layoff",
    )
    game.do(
        "ana: draw",
        "ana: meld 6h 7h 8h",
        "ana: discard kc",
        "ben: draw",
        "ben: meld 9c 9d 9s",
        "ben: discard 9h",
    )
    game.refuse("cem: call", CallNeedsMeld)
    game.do("cem: call 9h 2")
    assert game.meld(2) == "9c 9d 9h 9s"


def test_option_no_calling(deal500: Deal500) -> None:
    """calling=off: "Manchmal ist es überhaupt nicht erlaubt, Rommé zu rufen.\""""
    game = _run_example(deal500, calling="off")
    assert view_for(game.state, 0).table.extra.call_window is None
    game.refuse("ana: call 10h", CallingOff)
    assert legal_actions(game.state, 0) == []


def test_a_seat_outside_the_table_cannot_call(deal500: Deal500) -> None:
    game = _run_example(deal500)
    before = game.state
    try:
        apply(game.state, CallRummy(7, parse_card("10h")))
    except NotYourTurn:
        pass
    else:
        raise AssertionError("a call from seat 7 was accepted")
    assert game.state == before
