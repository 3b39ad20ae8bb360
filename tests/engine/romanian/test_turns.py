"""Turns after the opening: taking from the discard row, few tiles, the last discard, the
renewed wall (romanian-rummy.de.txt)."""

from __future__ import annotations

from engine.actions import TakeDiscard
from engine.cards import parse_card, parse_cards
from engine.events import HandEnded, StockRenewed, TookDiscard
from engine.game import legal_actions
from engine.state import Phase
from engine.variants.romanian.events import FewTilesLeft, TookFromRow

from .conftest import Factory, all_tiles

OPEN = [(0, "r10 r11 r12"), (1, "k4 k5 k6")]


def test_the_previous_discard_without_melding_it(romanian: Factory) -> None:
    """ "Statt einen Stein von der Mauer zu ziehen, darf man den abgelegten Stein des
    vorherigen Spielers aufnehmen; es besteht auch keine Verpflichtung, diesen Stein sofort
    in einer Meldung auszulegen.\""""
    game = romanian(["y2 y9 b13 k1", "b2 b3"], stock="r5 r6")
    game.setup(current=0, melds=OPEN, discard="k9 y3 b7")
    assert game.play("take") == (TookDiscard(0, parse_card("b7")),)
    game.refuse("discard b7", "cannot_discard_taken")
    game.play("discard y9")
    assert [str(c) for c in game.state.discard] == ["k9", "y3", "y9"]


def test_any_tile_of_the_row_with_every_tile_after_it(romanian: Factory) -> None:
    """ "Wenn man zwei Steine auf seinem Ständer hat, mit denen man einen Satz oder eine Folge
    mit irgendeinem Stein der abgelegten Steine vervollständigen kann, darf man diesen Stein
    aufnehmen und die Meldung machen – aber dann muss man auch alle Steine aufnehmen, die
    nach dem Stein ... in der Reihe der abgelegten Steine liegen ... (Man darf danach
    zusätzliche Meldungen machen oder Steine an bestehende Meldungen anlegen.)\""""
    game = romanian(["y2 y4 b13 k1", "b2 b3"], stock="r5 r6")
    game.setup(current=0, melds=OPEN, discard="k9 y3 b7 y5 k7")
    game.refuse("take b7", "romanian_no_row_meld")
    game.refuse("take r9", "romanian_not_in_row")
    game.refuse("take k9", "romanian_first_tile")
    events = game.play("take y3")
    assert events == (
        TookFromRow(0, parse_card("y3"), tuple(map(parse_card, ["y3", "b7", "y5", "k7"]))),
    )
    assert [str(c) for c in game.state.discard] == ["k9"]
    game.refuse("discard b13", "romanian_obligation")
    game.refuse("layoff k7 2", "romanian_obligation")
    game.refuse("meld y3 y4 y5", "romanian_obligation_meld")
    game.play("meld y2 y3 y4 y5")
    game.play("layoff k7 2")
    game.play("discard b13")


def test_a_discarded_joly_is_taken_with_two_rack_tiles(romanian: Factory) -> None:
    """ "Wenn man zwei Steine auf seinem Ständer hat, mit denen man einen Satz oder eine Folge
    mit irgendeinem Stein der abgelegten Steine vervollständigen kann, darf man diesen Stein
    aufnehmen" and "Ein Joly kann anstelle irgendeines Steines stehen": y2 y4 make a run
    with the Joly (as y3), so it is taken with the tiles after it and owed at once; a rack
    whose real tiles make no meld with a Joly (y2 k7 b13 and a Joly) may not take it."""
    game = romanian(["y2 y4 k7 r7 b13", "b2 b3"], stock="r5 r6")
    game.setup(current=0, melds=OPEN, discard="k9 jk b7 y3")
    legal = legal_actions(game.state, 0)
    assert TakeDiscard(0, parse_card("jk")) in legal
    assert TakeDiscard(0, parse_card("b7")) in legal
    assert TakeDiscard(0, parse_card("y3")) not in legal  # the previous discard: plain take
    game.play("take jk")
    assert game.state.discard == parse_cards("k9")
    game.refuse("discard b13", "romanian_obligation")
    game.play("meld y2 jk=y3 y4")
    lonely = romanian(["y2 k7 b13 jk", "b2 b3"], stock="r5 r6")
    lonely.setup(current=0, melds=OPEN, discard="k9 jk b7 y3")
    lonely.refuse("take jk", "romanian_no_row_meld")
    assert TakeDiscard(0, parse_card("jk")) not in legal_actions(lonely.state, 0)


def test_the_row_only_after_an_opening_in_an_earlier_turn(romanian: Factory) -> None:
    """ "Nachdem man einige Meldungen wie oben beschrieben gemacht hat, hat man, wenn man
    wieder an der Reihe ist, zusätzliche Möglichkeiten\""""
    game = romanian(["y2 y4 b13 k1", "b2 b3"], stock="r5 r6")
    game.setup(current=0, melds=[(1, "k4 k5 k6")], discard="k9 y3 b7")
    game.refuse("take y3", "romanian_not_opened")


def test_one_or_two_tiles_draw_from_the_wall(romanian: Factory) -> None:
    """ "Wenn man nur noch einen oder zwei Steine hat, darf man keinen Stein der Reihe der
    abgelegten Steine aufnehmen. Man muss jeden Zug damit beginnen, dass man einen Stein von
    der Mauer zieht." and "Hat man zwei Steine und zieht einen dritten Stein, mit dem man
    einen Satz oder eine Folge melden könnte, darf man das nicht tun, weil man dann keinen
    Stein mehr zum Ablegen hätte.\""""
    game = romanian(["b5 b6", "b2 b3 k1"], stock="b7 r6")
    game.setup(current=0, melds=OPEN, discard="k9 r13 b4")
    game.refuse("take", "romanian_few_tiles")
    game.play("draw")
    game.refuse("meld b5 b6 b7", "final_discard_required")
    game.play("discard b7")


def test_three_tiles_or_fewer_are_announced(romanian: Factory) -> None:
    """ "Ein Spieler, der nur noch drei oder weniger Steine hat, muss das den anderen Spielern
    ansagen." Announced when the count drops to 3, then at every lower count."""
    game = romanian(["b5 b6 b7 y8 k1 k2", "b2 b3 k3 y1 y5"], stock="r6 y11 y12 b8 r13 b9")
    game.setup(current=0, melds=OPEN, discard="k9")
    game.play("draw")
    game.play("meld b5 b6 b7")
    assert FewTilesLeft(0, 3) in game.play("discard k1")
    game.play("draw")
    game.play("discard y11")
    game.play("draw")
    assert not [e for e in game.play("discard y12") if isinstance(e, FewTilesLeft)]
    game.play("draw")
    game.play("discard b8")
    game.play("draw")
    game.play("layoff r13 1")
    assert FewTilesLeft(0, 2) in game.play("discard k2")
    assert game.state.extra.low[0] == 2


def test_the_wall_is_renewed_from_the_row_without_its_first_tile(romanian: Factory) -> None:
    """ "In diesem Fall werden alle Steine der Reihe abgelegter Steine umgedreht – mit
    Ausnahme des ersten Steins ... gemischt und benutzt, um eine neue Mauer zu bauen ...
    sobald ein Spieler einen Stein von der Mauer ziehen möchte\""""
    game = romanian(["b5 b6 y8 k1", "b2 b3 k3 y1"], stock="r6")
    game.setup(current=0, melds=OPEN, discard="k9 y3 b7 r2")
    before = all_tiles(game.state)
    game.play("draw")
    game.play("discard k1")
    events = game.play("draw")
    assert isinstance(events[0], StockRenewed) and events[0].cards == 4
    assert [str(c) for c in game.state.discard] == ["k9"]
    assert len(game.state.stock) == 3
    assert all_tiles(game.state) == before


def test_nothing_left_to_draw_ends_the_game_without_a_winner(romanian: Factory) -> None:
    """ "Es kommt vor, dass ein Spiel ohne Gewinner endet, und zwar, wenn alle Steine von der
    Mauer gezogen worden sind und keiner es geschafft hat, seine Hand zu vervollständigen."
    (with ``renewals=0`` the row never becomes a wall)"""
    game = romanian(["b5 b6 y8 k1", "b2 b3 k3 y1"], stock="", renewals=0)
    game.setup(current=0, melds=OPEN, discard="k9 y3")
    events = game.play("draw")
    ended = [e for e in events if isinstance(e, HandEnded)]
    assert ended and ended[0].winner is None
    assert game.state.phase in (Phase.HAND_OVER, Phase.GAME_OVER)


def test_a_game_no_tile_can_end_stops_at_the_empty_wall(romanian: Factory) -> None:
    """The wall is renewed "so dass das Spiel weitergehen kann", and a game without a
    winner ends "wenn alle Steine von der Mauer gezogen worden sind und keiner es geschafft
    hat, seine Hand zu vervollständigen": when no tile in play (racks, the row but its first
    tile, the face-up tile) makes a meld, fits a table meld or replaces a Joly, a new wall
    cannot help, so the game ends there without a winner."""
    game = romanian(["r5 y9", "b1 y5"], face_up=None, stock="")
    game.setup(current=0, melds=OPEN, discard="k9 b8")
    before = game.state
    events = game.play("draw")
    assert [type(e).__name__ for e in events][:1] == ["GameBlocked"]
    ended = [e for e in events if isinstance(e, HandEnded)]
    assert ended and ended[0].winner is None
    assert game.state.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
    assert all_tiles(game.state) == all_tiles(before)


def test_the_wall_is_renewed_while_a_tile_in_play_can_still_be_placed(romanian: Factory) -> None:
    """The same table, but one tile in play fits: k7 after k4 k5 k6 (in the row), or the
    face-up r9 before r10 r11 r12, or b3 in place of the Joly of a set of 3s; or the tiles
    in play make a meld (5s of three colours, spread over both racks), or one is a Joly:
    the wall is renewed and play goes on."""
    for hands, face_up, melds, row in (
        (["r5 y9", "b1 y5"], None, OPEN, "k9 k7"),
        (["r5 y9", "b5 y5"], None, OPEN, "k9 b8"),
        (["r5 jk", "b1 y9"], None, OPEN, "k9 b8"),
        (["r5 y9", "b1 y5"], "r9", OPEN, "k9 b8"),
        (["r5 y9", "b3 y5"], None, [(0, "r10 r11 r12"), (1, "r3 y3 k3 jk")], "k9 b8"),
    ):
        game = romanian(hands, face_up=face_up, stock="")
        game.setup(current=0, melds=melds, discard=row)
        events = game.play("draw")
        assert isinstance(events[0], StockRenewed), (hands, face_up, row)
        assert game.state.phase is Phase.PLAY


def test_no_meld_that_leaves_only_copies_of_the_taken_tile(romanian: Factory) -> None:
    """ "Am Ende des Spielzuges muss man einen seiner Steine offen ablegen", and the tile
    just taken from the row may not be that one: after taking r8 with r8 on the rack, the
    run b10 b11 b12 would leave only the two r8s, so the legal moves do not list it and it
    is refused; with a third tile on the rack it is listed."""
    for rack, listed in (("b10 b11 b12 r8", False), ("b10 b11 b12 r8 y2", True)):
        game = romanian([rack, "b2 b3 k13"], stock="k1")
        game.setup(current=0, melds=[(1, "y5 y6 y7"), (0, "k4 k5 k6")], discard="k9 r8")
        game.play("take")
        assert (game.action("meld b10 b11 b12") in legal_actions(game.state, 0)) is listed
        if not listed:
            game.refuse("meld b10 b11 b12", "no_discard_left")
