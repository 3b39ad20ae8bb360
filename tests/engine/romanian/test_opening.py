"""The first discard and the opening (romanian-rummy.de.txt, "Das Spiel")."""

from __future__ import annotations

from engine.events import Melded
from engine.game import legal_actions
from engine.state import Phase

from .conftest import Factory

ANA = "r10 r11 r12 y2 y3 y4 k9 b9 y9 r1 k5"
BEN = "b1 b2 b3 b4 b5 b6 b7 b8 b10 k13 k12"
STOCK = "k1 y13 k2 y12 b11 r6"


def test_the_first_player_begins_with_a_discard_that_is_never_used(romanian: Factory) -> None:
    """ "Der erste Spieler (das ist der Spieler mit 15 Steinen) beginnt das Spiel, indem er
    einen unerwünschten Stein offen auf den Tisch legt. Dieser Stein darf während des ganzen
    Spiels nicht benutzt werden.\""""
    game = romanian([ANA, BEN], stock=STOCK)
    assert game.state.phase is Phase.PLAY
    game.refuse("draw", "wrong_phase")
    game.refuse("meld r10 r11 r12 | k9 b9 y9", "romanian_first_discard")
    game.play("discard k5")
    assert game.state.current == 1 and game.state.phase is Phase.DRAW
    game.refuse("take", "romanian_first_tile")
    game.refuse("take k5", "romanian_first_tile")
    game.play("draw")


def test_the_opening_needs_fifty_points_and_a_run(romanian: Factory) -> None:
    """ "Bei der ersten Meldung muss man Meldungen von seinem Ständer machen, die folgende
    Bedingungen erfüllen: Bei den Meldungen muss mindestens eine eine Folge sein; Der
    Gesamtwert der Meldungen muss mindestens 50 Punkte betragen.\""""
    game = romanian([ANA, BEN], stock=STOCK)
    game.play("discard k5")
    game.play("draw")
    game.play("discard k1")
    game.play("draw")
    game.refuse("meld k9 b9 y9", "romanian_opening_run")
    error = game.refuse("meld r10 r11 r12 | k9 b9 y9", "romanian_opening_low")
    assert error.params == {"value": 45, "points": 50}
    game.play("meld r10 r11 r12 | k9 b9 y9 | y2 y3 y4")
    assert game.state.has_melded[0]


def test_some_circles_open_with_45(romanian: Factory) -> None:
    """ "Einige Runden fordern nur 45 Punkte und nicht 50 Punkte für die erste Meldung.\""""
    game = romanian([ANA, BEN], stock=STOCK, opening=45)
    game.play("discard k5")
    game.play("draw")
    game.play("discard k1")
    game.play("draw")
    game.play("meld r10 r11 r12 | k9 b9 y9")


def test_a_joly_counts_as_its_tile_in_the_opening(romanian: Factory) -> None:
    """ "Ein Joly hat den Wert des Steines, den er ersetzt" — a Joly standing for a 1 in a set
    of 1s counts 25, so [r1 y1 Joly] (75) with a run opens."""
    game = romanian(["r1 y1 jo r4 r5 r6 k13", BEN], stock=STOCK)
    game.play("discard k13")
    game.play("draw")
    game.play("discard k1")
    game.play("draw")
    game.play("meld r1 y1 jo | r4 r5 r6")


def test_more_melds_and_own_lay_offs_in_the_opening_turn_but_not_on_others(
    romanian: Factory,
) -> None:
    """ "Wenn man das gemacht hat, kann man sofort ... weitere Sätze und Folgen melden." —
    but "Gleichzeitig mit der Anfangsmeldung darf man keine Steine an die Meldungen anderer
    Spieler anlegen oder den Joly eines anderen Spielers mit einem entsprechenden Stein
    austauschen. Diese Möglichkeiten hat man erst dann, wenn man nach seiner Anfangsmeldung
    wieder an der Reihe ist.\""""
    game = romanian(["r10 r11 r12 y10 y11 y12 y13 b5 b6 b7 k13 b12 k4 k7", BEN], stock=STOCK)
    game.setup(
        current=0,
        phase=Phase.PLAY,
        melds=[(1, "k10 k11 k12"), (1, "b9 b10 jo=b11")],
        discard="r2 r3",
    )
    game.play("meld r10 r11 r12 | y10 y11 y12")
    game.refuse("layoff k13 1", "romanian_opening_turn")
    game.refuse("layoff b12 2", "romanian_opening_turn")
    game.refuse("joly b11 2", "romanian_opening_turn")
    game.play("meld b5 b6 b7")
    game.play("layoff y13 4")
    assert str(game.state.melds[3]) == "y10 y11 y12 y13"
    game.play("discard k4")
    game.play("draw")
    game.play("discard b1")
    game.play("draw")
    game.play("layoff k13 1")


def test_no_discard_for_the_opening(romanian: Factory) -> None:
    """ "Es ist nicht erlaubt, einen abgelegten Stein aufzunehmen, um mit Hilfe dieses Steins
    die Anfangsmeldung von mindestens 50 Punkten zu machen.\""""
    game = romanian([ANA, BEN], stock=STOCK)
    game.setup(current=0, discard="k5 r13")
    game.refuse("take", "romanian_not_opened")
    game.refuse("take r13", "romanian_not_opened")


def test_the_previous_discard_for_the_opening_if_used_at_once(romanian: Factory) -> None:
    """Variant: "Manche Runden erlauben es, dass der Stein vom vorhergehenden Spieler (nur
    ein Stein) aufgenommen werden darf, wenn er sofort für die Anfangsmeldung benutzt
    wird.\""""
    game = romanian([ANA, BEN], stock=STOCK, opening_take=True)
    game.setup(current=0, discard="k5 k13 r13")
    game.refuse("take k13", "romanian_not_opened")
    game.play("take")
    game.refuse("discard r1", "romanian_obligation")
    game.refuse("meld k9 b9 y9 | y2 y3 y4 | r1 y1 b1", "card_not_in_hand")
    game.refuse("meld r10 r11 r12 | k9 b9 y9 | y2 y3 y4", "romanian_obligation_meld")
    events = game.play("meld r10 r11 r12 r13 | k9 b9 y9")
    assert [type(e) for e in events] == [Melded, Melded]
    game.play("discard r1")


def test_the_previous_discard_is_refused_when_no_opening_uses_it(romanian: Factory) -> None:
    game = romanian([ANA, BEN], stock=STOCK, opening_take=True)
    game.setup(current=0, discard="k5 b13")
    game.refuse("take", "romanian_not_opened")


def test_the_previous_discard_is_refused_when_its_opening_leaves_only_its_twin(
    romanian: Factory,
) -> None:
    """ "Manche Runden erlauben es, dass der Stein vom vorhergehenden Spieler (nur ein Stein)
    aufgenommen werden darf, wenn er sofort für die Anfangsmeldung benutzt wird." Every
    opening with the taken r10 (r10 r11 r12 | r13 y13 b13) leaves only the other r10,
    which counts as the taken tile and may not be discarded: the take is refused (it used
    to leave the seat with no legal action)."""
    game = romanian(["r10 r11 r12 r13 y13 b13", "b2 b3 k13"], stock="k1", opening_take=True)
    game.setup(current=0, melds=[(1, "y5 y6 y7")], discard="k9 r10")
    game.refuse("take", "romanian_not_opened")
    assert legal_actions(game.state, 0)
