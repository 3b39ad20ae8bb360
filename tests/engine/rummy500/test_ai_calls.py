"""Rummy 500: the greedy AI calls "Rommé!" out of turn (rummy-500.de.txt: "kann, bevor der
nächste Spieler eine Karte zieht, außer dem Spieler, der gerade eine Karte abgelegt hat,
jeder Spieler "Rommé!" rufen und alle Karten vom Ablagestapel bis zur entsprechenden Karte
aufnehmen")."""

from __future__ import annotations

import pytest

from engine.actions import LayOff
from engine.ai import make_ai
from engine.ai.interrupt import interrupt
from engine.cards import parse_card
from engine.game import apply, legal_actions
from engine.melds import CardSpec
from engine.rules import make_rules
from engine.simulate import simulate
from engine.variants.rummy500.actions import CallRummy
from engine.variants.rummy500.events import Floated
from engine.views import view_for

from .conftest import Deal500, Game
from .test_calls import _run_example


def _after_ben_discards(deal500: Deal500) -> Game:
    """ana melds 7h 8h 9h; ben then discards 10h, which ana could lay off (test_calls)."""
    return _run_example(deal500)


def test_the_greedy_ai_calls_a_card_it_can_lay_off(deal500: Deal500) -> None:
    """ana (not the seat to play) may call the 10h for her 7h 8h 9h; the greedy AI does,
    and the call is legal."""
    game = _after_ben_discards(deal500)
    legal = legal_actions(game.state, 0)
    assert legal and all(isinstance(a, CallRummy) for a in legal)
    chosen = make_ai("greedy", 1).interrupt(view_for(game.state, 0), legal)
    assert isinstance(chosen, CallRummy) and chosen.seat == 0
    state, _ = apply(game.state, chosen)
    assert state.current == 0 and parse_card("10h") in state.hands[0]


def test_no_call_once_the_window_closed_and_never_from_random_play(deal500: Deal500) -> None:
    """Random play never acts out of turn, even with a call legal; once cem (the next
    player) has drawn, the window is closed ("bevor der nächste Spieler eine Karte zieht")
    and the greedy AI has nothing to interrupt with."""
    game = _after_ben_discards(deal500)
    assert (
        make_ai("random", 1).interrupt(view_for(game.state, 0), legal_actions(game.state, 0))
        is None
    )
    game.do("cem: draw")
    assert legal_actions(game.state, 0) == []
    assert make_ai("greedy", 1).interrupt(view_for(game.state, 0), []) is None


def test_simulated_games_ask_the_other_seats_before_the_next_player_draws(deal500: Deal500) -> None:
    """engine.ai.interrupt (used by simulate and the service) asks the other seats' AIs
    before the seat to play: ana calls before cem draws; a person's seat (``None``) is not
    asked for a move; and whole simulated games with calls still end."""
    game = _after_ben_discards(deal500)
    players = [make_ai("greedy", s) for s in range(3)]
    chosen = interrupt(game.state, players, game.state.current)
    assert isinstance(chosen, CallRummy) and chosen.seat == 0
    assert interrupt(game.state, [None, players[1], players[2]], game.state.current) is None
    result = simulate(make_rules("500", options={"target": 100}), 6, 3, seed=5)
    assert result.unfinished == 0 and result.games == 6


# going_out=callable: "In einer alternativen Variante wird so gespielt, dass jeder andere
# Spieler "Rommé!" rufen und die von Ihnen auf den Ablagestapel gelegte Karte melden kann.
# In diesem Fall werden Sie zu einem "Schwebenden""
OUT_HANDS = ["7h 8h 9h 2c 2d 2s 10h", "5s 6s 3d jc qc kd kh", "4c 5c 8d 9d js qs 6h"]
OUT_STOCK = "2h 3c 4s jh 10c ah 3h 8s"


@pytest.mark.parametrize("level", ["greedy", "hard"])
def test_the_ai_calls_a_playable_last_discard(deal500: Deal500, level: str) -> None:
    """ana discards her last card, the 10h, which she could have laid off: uncalled she
    goes out when ben draws. ben (to draw) and cem (out of turn) both call it, greedy or
    hard, and ana floats."""
    game = deal500(OUT_HANDS, "ks", OUT_STOCK, going_out="callable")
    game.do("ana: draw", "ana: meld 7h 8h 9h | 2c 2d 2s 2h", "ana: discard 10h")
    ben = make_ai(level, 1).decide(view_for(game.state, 1), legal_actions(game.state, 1))
    assert ben == CallRummy(1, parse_card("10h"))
    cem = make_ai(level, 2).interrupt(view_for(game.state, 2), legal_actions(game.state, 2))
    assert cem == CallRummy(2, parse_card("10h"))
    _, events = apply(game.state, ben)
    assert Floated(0) in events


@pytest.mark.parametrize("level", ["greedy", "hard"])
def test_the_floater_melds_a_playable_drawn_card(deal500: Deal500, level: str) -> None:
    """ana floats; she draws the jh, which fits her 7h 8h 9h 10h: discarded it would be
    called and score for the caller, so she lays it off and floats again."""
    game = deal500(OUT_HANDS, "ks", "2h 3c 4s jh 5d 7d 6d", going_out="callable")
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
    assert game.hand("ana") == ["jh"]
    chosen = make_ai(level, 0).decide(view_for(game.state, 0), legal_actions(game.state, 0))
    assert chosen == LayOff(0, (CardSpec(parse_card("jh")),), 0)
    _, events = apply(game.state, chosen)
    assert Floated(0) in events
