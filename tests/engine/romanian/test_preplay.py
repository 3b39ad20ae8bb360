"""Before play: doubla, doubla swaps and the face-up announcement."""

from __future__ import annotations

from engine.events import Discarded
from engine.game import legal_actions
from engine.state import Phase
from engine.variants.romanian.actions import AnnounceFaceUp
from engine.variants.romanian.events import (
    DoublaAnnounced,
    DoublaAnswered,
    DoublaOffered,
    FaceUpAnnounced,
    PlayBegins,
)
from engine.views import view_for

from .conftest import Factory, Rummy

HANDS = ["r7 r7 r2 y5 b9 k13 k1", "k12 k12 y3 y4 b8", "y13 b13 r3 r4 r5"]


def test_doubla_swap_face_down(romanian: Factory) -> None:
    """ "Bevor das eigentliche Spiel beginnt, kann ein Spieler, der zwei gleiche Steine ...
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
    """ "Wenn man den gleichen Stein wie den aufgedeckten Extrastein bekommen hat, kann man das
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


def test_the_twin_is_announced_until_the_own_first_turn_begins(romanian: Factory) -> None:
    """ "kann man das vor seinem ersten Spiel ansagen" (reading: "Spiel" is the seat's own
    first turn). cem, dealt the twin of the face-up b13, keeps quiet in the pre-play step;
    after ana's opening discard and ben's turn he may still announce it when his own
    first turn comes, before he draws. Drawn, it is too late; and a seat whose first turn
    is over may not announce. The first player may announce before the opening discard."""
    game = romanian(HANDS, face_up="b13", stock="y9 y10 k6 k7 b3 b4", preplay=True)
    for _ in range(3):
        game.play("ready")
    assert game.state.current == 0
    game.refuse("announce", "romanian_no_twin")
    game.play("discard r2")
    assert AnnounceFaceUp(1) not in legal_actions(game.state, 1)
    game.play("draw")
    game.play("discard " + game.hand(1)[0])
    assert AnnounceFaceUp(2) in legal_actions(game.state, 2)
    late = Rummy(game.state)
    late.play("draw")
    late.refuse("announce", "romanian_announce_too_late")
    assert AnnounceFaceUp(2) not in legal_actions(late.state, 2)
    assert game.play("announce") == (FaceUpAnnounced(2, game.extra.face_up),)
    assert game.extra.announced == (False, False, True)
    game.play("draw")
    assert game.extra.played == (True, True, False)


def test_a_seat_whose_first_turn_is_over_announces_no_more(romanian: Factory) -> None:
    """cem lets his first turn pass without announcing the twin: his second turn is no
    time to announce it ("vor seinem ersten Spiel")."""
    game = romanian(HANDS, face_up="b13", stock="y9 y10 k6 k7 b3 b4", preplay=True)
    for _ in range(3):
        game.play("ready")
    game.play("discard r2")
    for _ in range(2):
        game.play("draw")
        game.play("discard " + game.hand(game.state.current)[0])
    assert game.extra.played == (True, True, True)
    game.play("draw")
    game.play("discard " + game.hand(0)[0])
    game.play("draw")
    game.play("discard " + game.hand(1)[0])
    game.refuse("announce", "romanian_announce_too_late")
