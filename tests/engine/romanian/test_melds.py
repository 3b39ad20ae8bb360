"""Sets, runs and Jolys (romanian-rummy.de.txt, "Es gibt zwei Arten von gültigen
Meldungen" and the Joly paragraphs)."""

from __future__ import annotations

import pytest

from engine.melds import CardSpec, MeldKind, MeldProblem, check_meld, extend_readings, readings
from engine.variants.romanian.melds import MELD_RULES
from engine.variants.romanian.tiles import meld_value

from .conftest import Factory


def specs(text: str) -> list[CardSpec]:
    return [CardSpec.parse(t) for t in text.split()]


def meld(text: str):  # type: ignore[no-untyped-def]
    found = check_meld(specs(text), 0, MELD_RULES)
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize("text", ["r1 r2 r3", "y12 y13 y1", "b11 b12 b13 b1", "k4 k5 k6 k7"])
def test_runs_with_a_low_or_high_one(text: str) -> None:
    """ "Eine 1 kann für eine Folge von 1 – 2 – 3 benutzt werden, oder man kann sie benutzen
    als die Zahl, die der 13 folgt und so eine Folge von 12 – 13 – 1 melden.\""""
    assert meld(text).kind is MeldKind.RUN


@pytest.mark.parametrize("text", ["r13 r1 r2", "r12 r13 r1 r2", "r4 r5", "r4 r5 y6", "r4 r6 r7"])
def test_no_one_in_the_middle_and_no_gaps(text: str) -> None:
    """ "Aber eine 1 darf nicht in der Mitte einer Folge stehen, d. h. eine Folge von
    13 – 1 – 2 ist nicht erlaubt.\""""
    assert readings(specs(text), 0, MELD_RULES) == []


def test_sets_of_three_or_four_colours() -> None:
    """ "Ein Satz (terta) besteht aus drei oder vier Steinen mit derselben Zahl und in
    verschiedenen Farben.\""""
    assert meld("r7 y7 b7").kind is MeldKind.SET
    assert meld("r7 y7 b7 k7").kind is MeldKind.SET
    assert readings(specs("r7 r7 b7"), 0, MELD_RULES) == []
    assert readings(specs("r7 y7 b7 k7 jo"), 0, MELD_RULES) == []


def test_twice_as_many_real_tiles_as_jolys() -> None:
    """ "Eine Meldung muss immer mindestens doppelt so viele echte Steine enthalten wie Jolys.
    Deshalb kann man nicht beide Jolys in einem Satz benutzen, auch nicht in einer Folge,
    die weniger als 6 Steine enthält. Zum Beispiel wäre die Folge [gelbe 3][Joly][gelbe 5]
    [Joly][gelbe 7] nicht erlaubt; aber wenn man noch eine gelbe 8 anlegen könnte, wäre es
    eine regelgerechte Folge.\""""
    with pytest.raises(MeldProblem) as err:
        check_meld(specs("y3 jo y5 jo y7"), 0, MELD_RULES)
    assert err.value.reason == "joly_ratio"
    assert meld("y3 jo y5 jo y7 y8").kind is MeldKind.RUN
    with pytest.raises(MeldProblem):
        check_meld(specs("r7 y7 jo jo"), 0, MELD_RULES)
    with pytest.raises(MeldProblem):
        check_meld(specs("r7 jo jo"), 0, MELD_RULES)
    assert meld("r7 y7 jo").faces[-1].suit is None


def test_a_joly_in_a_set_has_no_colour() -> None:
    """A Joly in a set stands for the number; its colour is one of the missing ones (rules 6
    and 7 of the text), so it may not be declared."""
    with pytest.raises(MeldProblem) as err:
        check_meld(specs("r7 y7 jo=b7"), 0, MELD_RULES)
    assert err.value.reason == "joly_set_colour"
    assert meld("r7 y7 jo=7").kind is MeldKind.SET


def test_a_joly_at_the_end_of_a_run_must_be_clear() -> None:
    """ "Wenn man einen Joly am Ende einer Folge benutzt, muss es klar sein, welchen Stein der
    Joly ersetzt. Zum Beispiel kann die Folge [blau 9][blau 10][Joly], in der der Joly die 11
    ersetzt, mit der blauen 12 verlängert werden, aber es ist nicht möglich, den Joly so
    umzulegen, dass er eine blaue 8 ersetzt, so dass man eine blaue 7 hinzufügen könnte.\""""
    assert len(readings(specs("b9 b10 jo"), 0, MELD_RULES)) == 2
    run = meld("b9 b10 jo=b11")
    assert [str(m) for m in extend_readings(run, specs("b12"), 1, MELD_RULES)] == [
        "b9 b10 jk=b11 b12"
    ]
    assert extend_readings(run, specs("b7"), 1, MELD_RULES) == []
    assert meld("b9 jo b11").faces[1] == CardSpec.parse("b10").card


def test_meld_values() -> None:
    """ "2 bis 9 jeder Stein 5 Punkte; 10 bis 13 jeder Stein 10 Punkte; 1 in einer Folge von
    1-2-3-… 5 Punkte; 1 in einer Folge von …-12-13-1 10 Punkte; Jede 1 in einem Satz von
    Einsen 25 Punkte; Ein Joly hat den Wert des Steines, den er ersetzt\""""
    assert meld_value(meld("r1 r2 r3")) == 15
    assert meld_value(meld("r12 r13 r1")) == 30
    assert meld_value(meld("r1 y1 b1")) == 75
    assert meld_value(meld("r1 y1 jo")) == 75
    assert meld_value(meld("b9 b10 jo=b11")) == 25
    assert meld_value(meld("k8 k9 k10 k11")) == 30


def test_the_b12_example_in_play(romanian: Factory) -> None:
    """The text's example on the table: [b9][b10][Joly=b11] takes b12 (and b8), never b7."""
    game = romanian(
        ["b9 b10 jo r10 r11 r12 k3 y7", "b12 b7 b8 y2 y3 y4 k9 k10 k11 k12"], stock="r5 k1 y9 y10"
    )
    game.play("discard y7")
    game.play("draw")
    game.play("meld y2 y3 y4 | k9 k10 k11 k12")
    game.play("discard r5")
    game.play("draw")
    game.play("meld b9 b10 jo=b11 | r10 r11 r12")
    game.play("discard k3")
    game.play("draw")
    game.refuse("layoff b7 3", "invalid_layoff")
    game.play("layoff b12 3")
    game.play("layoff b8 3")
    assert str(game.state.melds[2]) == "b8 b9 b10 jk=b11 b12"
