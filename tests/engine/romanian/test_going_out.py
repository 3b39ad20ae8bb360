"""Going out, the face-up tile and the end of a game (romanian-rummy.de.txt)."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

import engine.variants.romanian.plan as plan_module
from engine.actions import Action, Discard, LayOff, MeldCards
from engine.ai import make_ai
from engine.cards import JOKER, parse_card, parse_cards
from engine.dealing import new_game
from engine.events import HandEnded, WentOut
from engine.game import apply, legal_actions
from engine.rules import make_rules
from engine.state import Phase
from engine.variants.romanian.events import ScoreSheet, TookFaceUp
from engine.variants.romanian.flow import extra_of, plan_for, turn_of
from engine.variants.romanian.plan import PlanContext, going_out_plan
from engine.views import view_for
from tests.examples import share

from .conftest import Factory

OPEN = [(0, "r10 r11 r12"), (1, "k4 k5 k6")]


def test_meld_all_but_one_and_discard_the_last(romanian: Factory) -> None:
    """ "Um das Spiel zu gewinnen, muss man alle Steine, die man noch hat, melden bis auf
    einen Stein – dieser letzte Stein muss abgelegt werden.\""""
    game = romanian(["y8 y9 b1", "b2 b3 k13"], stock="y10 r5")
    game.setup(current=0, melds=OPEN, discard="k9")
    game.play("draw")
    game.refuse("meld y8 y9 y10 | b1", "invalid_meld")
    game.play("meld y8 y9 y10")
    events = game.play("discard b1")
    assert WentOut(0, False) in events
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert ended.winner == 0


def test_the_face_up_tile_only_to_go_out(romanian: Factory) -> None:
    """ "Nur bei diesem letzten Spielzug darf man den offen liegenden Anfangsstein vom Ende
    der Mauer aufnehmen, um so seine Hand zu vervollständigen. Man braucht also keinen
    unbekannten Stein von der Mauer zu ziehen oder einen Stein von der Ablagereihe zu
    nehmen." and "Der aufgedeckte Stein wird nie gezogen.\""""
    game = romanian(["y8 y9 b1", "b2 b3 k13"], face_up="y7", stock="y10 r5")
    game.setup(current=0, melds=OPEN, discard="k9")
    events = game.play("faceup")
    assert events == (TookFaceUp(0, game.action("discard y7").card),)
    assert game.extra.face_up is None
    game.refuse("discard b1", "romanian_must_go_out")
    game.refuse("discard y7", "cannot_discard_taken")
    game.play("meld y7 y8 y9")
    events = game.play("discard b1")
    assert [e for e in events if isinstance(e, WentOut)]


def test_the_face_up_tile_is_refused_without_a_way_out(romanian: Factory) -> None:
    game = romanian(["y8 y9 b1 k2", "b2 b3 k13"], face_up="y7", stock="y10 r5")
    game.setup(current=0, melds=OPEN, discard="k9")
    game.refuse("faceup", "romanian_face_up_not_out")


def test_after_the_face_up_tile_every_move_keeps_a_way_out(romanian: Factory) -> None:
    game = romanian(["r3 r4 y5 b5 k5 k1", "b2 b3 k13"], face_up="r5", stock="y10")
    game.setup(current=0, melds=OPEN, discard="k9")
    game.play("faceup")
    game.refuse("meld r5 y5 b5 k5", "romanian_must_go_out")
    game.play("meld r3 r4 r5 | y5 b5 k5")
    game.play("discard k1")
    assert game.state.phase in (Phase.HAND_OVER, Phase.GAME_OVER)


def test_lay_offs_count_on_the_way_out(romanian: Factory) -> None:
    """Going out may lay tiles off on any meld ("Man kann auch weitere Steine Sätzen und
    Folgen hinzufügen"), several on one meld at once."""
    game = romanian(["k7 r13", "b2 b3 k13"], face_up="k8", stock="y10")
    game.setup(current=0, melds=OPEN, discard="k9")
    game.play("faceup")
    game.play("layoff k7 k8 2")
    game.play("discard r13")
    assert game.state.results[-1].winner == 0


def test_an_unopened_player_goes_out_all_at_once_with_the_face_up_tile(romanian: Factory) -> None:
    """ "Wenn ein Spieler dadurch gewinnt, dass er alle 14 Steine auf einmal meldet, ohne vorher
    eine Meldung gemacht zu haben, bekommt er eine Zusatzprämie von 100 Punkten\""""
    game = romanian(["r10 r11 r12 y10 y11 k3", "b2 b3 k13"], face_up="y12", stock="r5")
    game.setup(current=0, melds=[(1, "k4 k5 k6")], discard="k9")
    game.play("faceup")
    game.play("meld r10 r11 r12 | y10 y11 y12")
    events = game.play("discard k3")
    assert WentOut(0, True) in events
    sheet = next(e for e in events if isinstance(e, ScoreSheet))
    assert sheet.lines[0].total == 100 + 100 + 60


def test_a_plan_melds_the_freed_joly_before_anything_else(romanian: Factory) -> None:
    """5. "Hat man genau den Stein, den ein Joly ... ersetzt, darf man den Joly nehmen und
    durch diesen Stein ersetzen, vorausgesetzt, man gebraucht ihn sofort mit zwei Steinen
    vom eigenen Ständer, um einen neuen Satz oder eine neue Folge zu melden."

    The position of seed 4 with four players: after the exchange the planner laid the
    freed Joly off (``layoff r4 jo=r5`` on the run, ``layoff b7``, discard r3), which the
    moves refuse while the Joly is owed. The plan must meld it with two rack tiles first."""
    game = romanian(["b12 b13", "r3 r4 b7", "y2 y3", "k10 k11"], stock="r7")
    game.setup(current=1, melds=[(1, "b3 b4 b5 b6"), (3, "r6 jo=r7 r8 r9")], discard="k9")
    game.play("draw")
    game.play("joly r7 2")
    assert turn_of(game.state).obligation is not None
    assert game.hand(1) == sorted(str(c) for c in (JOKER, *parse_cards("r3 r4 b7")))
    game.refuse("layoff r4 jo=r5 2", "romanian_obligation")
    plan = plan_for(game.state, 1)
    assert plan is not None
    assert len(plan.melds) == 1 and not plan.layoffs and plan.discard == parse_card("b7")
    assert sorted(str(s.card) for s in plan.melds[0]) == sorted(
        str(c) for c in (JOKER, *parse_cards("r3 r4"))
    )
    game.act(MeldCards(1, plan.melds))
    events = game.play(f"discard {plan.discard}")
    assert WentOut(1, False) in events


def test_no_plan_in_the_first_players_opening_discard_turn(romanian: Factory) -> None:
    """ "Der erste Spieler (das ist der Spieler mit 15 Steinen) beginnt das Spiel, indem er
    einen unerwünschten Stein offen auf den Tisch legt." — a rack of 14 meldable tiles and
    one to discard has no going-out plan in that turn (the moves refuse every meld), and the
    only legal actions are discards."""
    game = romanian(
        [
            "r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 y5 b5 k5 k13",
            "b1 b2 b3 b4 b6 b7 b8 b9 b10 b11 b12 b13 k6 k7",
        ],
        stock="k9 k10",
    )
    assert game.state.phase is Phase.PLAY and game.state.current == 0
    assert plan_for(game.state, 0) is None
    game.refuse("meld r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 | y5 b5 k5", "romanian_first_discard")
    assert all(isinstance(a, Discard) for a in legal_actions(game.state, 0))
    game.play("discard k13")
    assert game.state.current == 1


@settings(max_examples=share(0.1), deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 4))
@example(seed=4, players=4)
def test_every_plan_goes_out_when_played(seed: int, players: int) -> None:
    """Whenever a going-out plan is found, playing it (its melds, its lay-offs, its discard)
    is legal move by move and ends the game with this seat out; a meld owed this turn (a
    freed Joly, a tile taken from the row) is paid by the plan's melds, which come first
    (seed 4 with four players once laid a freed Joly off)."""
    rules = make_rules("romanian", options={"deals": 1})
    state = new_game(rules, ["ana", "ben", "cem", "dan"][:players], seed=seed)
    ais = [make_ai("greedy", seed + s) for s in range(players)]
    checked = 0
    while state.phase in (Phase.DRAW, Phase.PLAY) and checked < 3:
        seat = state.current
        if state.phase is Phase.PLAY and extra_of(state).preplay is None:
            plan = plan_for(state, seat)
            if plan is not None:
                checked += 1
                trial = state
                steps: list[Action] = []
                if plan.melds:
                    steps.append(MeldCards(seat, plan.melds))
                steps += [LayOff(seat, cards, index) for index, cards in plan.layoffs]
                steps.append(Discard(seat, plan.discard))
                for step in steps:
                    trial, _ = apply(trial, step)
                assert trial.results[-1].winner == seat
        action = ais[seat].decide(view_for(state, seat), legal_actions(state, seat))
        state, _ = apply(state, action)


def test_the_plan_is_exact_and_always_the_same() -> None:
    """Whether the face-up tile may be taken depends on a way out existing ("Nur bei diesem
    letzten Spielzug darf man den offen liegenden Anfangsstein vom Ende der Mauer
    aufnehmen, um so seine Hand zu vervollständigen"): the answer is the same whatever the
    order of the tiles, and no search budget can turn it into "no plan"."""
    rack = parse_cards("r1 r2 r3 r3 r4 r5 y7 b7 k7 k8")
    ctx = PlanContext(melds=(), seat=0, targets=())
    plan = going_out_plan(rack, ctx)
    assert plan is not None and plan.discard == parse_card("k8")
    plan_module._cached_plan.cache_clear()
    assert going_out_plan(list(reversed(rack)), ctx) == plan
    assert going_out_plan(parse_cards("r1 r2 r3 r3 r4 r5 y7 b7 k8"), ctx) is None
