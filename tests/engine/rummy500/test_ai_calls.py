"""Rummy 500: the greedy AI calls "Rommé!" out of turn (rummy-500.de.txt: "kann, bevor der
nächste Spieler eine Karte zieht, außer dem Spieler, der gerade eine Karte abgelegt hat,
jeder Spieler "Rommé!" rufen und alle Karten vom Ablagestapel bis zur entsprechenden Karte
aufnehmen")."""

from __future__ import annotations

from engine.ai import make_ai
from engine.ai.interrupt import interrupt
from engine.cards import parse_card
from engine.game import apply, legal_actions
from engine.rules import make_rules
from engine.simulate import simulate
from engine.variants.rummy500.actions import CallRummy
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
    assert make_ai("random", 1).interrupt(view_for(game.state, 0), legal_actions(
        game.state, 0)) is None
    game.do("cem: draw")
    assert legal_actions(game.state, 0) == []
    assert make_ai("greedy", 1).interrupt(view_for(game.state, 0), []) is None


def test_simulated_games_ask_the_other_seats_before_the_next_player_draws(
        deal500: Deal500) -> None:
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
