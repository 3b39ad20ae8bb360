"""Before play: doubla, doubla swaps and the face-up announcement."""

from __future__ import annotations

from engine.events import Discarded
from engine.state import Phase
from engine.variants.romanian.events import (
    DoublaAnnounced,
    DoublaAnswered,
    DoublaOffered,
    FaceUpAnnounced,
    PlayBegins,
)
from engine.views import view_for

from .conftest import Factory

HANDS = ["r7 r7 r2 y5 b9 k13 k1", "k12 k12 y3 y4 b8", "y13 b13 r3 r4 r5"]


def test_doubla_swap_face_down(romanian: Factory) -> None:
    """"Bevor das eigentliche Spiel beginnt, kann ein Spieler, der zwei gleiche Steine ...
    hat, „doubla“ ansagen. Zwei Spieler, die Doublas haben, können – wenn sie wollen – diese
    tauschen. Jeder Spieler gibt sein Paar gleicher Steine verdeckt dem anderen Spieler. Die
    Spieler dürfen keine genauen Angaben zu Rang und Farbe des Paares machen ... sie dürfen
    nur ... ihre Doublas als „hoch“ oder „niedrig“ ansagen.\""""
    game = romanian(HANDS, face_up="r13", preplay=True)
    assert game.state.current == 0
    game.refuse("doubla high", "romanian_no_doubla_hint")
    game.refuse("offer r7 ben", "romanian_offer_not_allowed")
    assert game.play("doubla low") == (DoublaAnnounced(0, "low"),)
    game.refuse("doubla", "romanian_doubla_again")
    game.play("ready")
    assert game.state.current == 1
    game.play("doubla high")
    game.refuse("offer y3 ana", "romanian_no_pair")
    game.refuse("offer k12 ben", "romanian_offer_not_allowed")
    events = game.play("offer k12 ana")
    assert events == (DoublaOffered(1, 0),)
    assert game.state.current == 0
    game.refuse("ready", "not_your_turn", seat=1)
    game.refuse("doubla", "romanian_offer_pending")
    game.refuse("accept k13", "romanian_no_pair")
    game.play("accept r7")
    assert game.of(DoublaAnswered) == [DoublaAnswered(1, 0, True)]
    assert game.hand(0) == sorted(["k12", "k12", "r2", "y5", "b9", "k13", "k1"])
    assert game.hand(1) == sorted(["r7", "r7", "y3", "y4", "b8"])
    assert game.state.current == 1
    game.refuse("offer r7 ana", "romanian_offer_not_allowed")
    game.play("ready")
    assert game.state.current == 2


def test_events_and_views_never_show_the_swapped_tiles(romanian: Factory) -> None:
    game = romanian(HANDS, face_up="r13", preplay=True)
    game.play("doubla")
    game.play("ready")
    game.play("doubla")
    game.play("offer k12 ana")
    table = view_for(game.state, 2).table
    assert table.extra.offer == (1, 0)
    assert "k12" not in repr(table) and "k12" not in repr(game.events)
    game.play("reject")
    assert game.of(DoublaAnswered) == [DoublaAnswered(1, 0, False)]
    assert game.hand(1) == sorted(["k12", "k12", "y3", "y4", "b8"])


def test_the_face_up_twin_is_announced_before_play(romanian: Factory) -> None:
    """"Wenn man den gleichen Stein wie den aufgedeckten Extrastein bekommen hat, kann man das
    vor seinem ersten Spiel ansagen, und dann bekommt man am Ende des Spiels eine Prämie von
    25 Punkten.\""""
    game = romanian(HANDS, face_up="b13", preplay=True)
    game.refuse("announce", "romanian_no_twin")
    game.play("ready")
    game.play("ready")
    game.refuse("doubla", "romanian_no_doubla")
    assert game.play("announce") == (FaceUpAnnounced(2, game.extra.face_up),)
    game.refuse("announce", "romanian_no_twin")
    assert game.extra.announced == (False, False, True)
    events = game.play("ready")
    assert events[-1] == PlayBegins(0)
    assert game.state.current == 0
    assert game.state.phase is Phase.PLAY
    assert game.extra.preplay is None
    game.refuse("ready", "romanian_preplay_over")


def test_nothing_is_played_before_everyone_is_ready(romanian: Factory) -> None:
    game = romanian(HANDS, face_up="r13", preplay=True)
    game.refuse("discard r2", "romanian_preplay")
    game.play("ready")
    game.refuse("draw", "romanian_preplay")
    game.refuse("accept r7", "romanian_no_offer")
    game.play("ready")
    game.play("ready")
    game.refuse("draw", "wrong_phase")
    assert game.play("discard r2") == (Discarded(0, game.action("discard r2").card),)


def test_without_the_step_the_twin_is_announced_by_itself(romanian: Factory) -> None:
    """``preplay=off``: play begins at once; a seat dealt the face-up tile's twin has it
    announced (the announcement only ever gains)."""
    game = romanian(HANDS, face_up="y13", preplay=False)
    assert game.extra.preplay is None
    assert game.extra.announced == (False, False, True)
    game.refuse("doubla", "romanian_preplay_over")
