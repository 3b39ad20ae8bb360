"""Joly exchanges: rules 5, 6 and 7 of the text, and the freed Joly melded at once."""

from __future__ import annotations

from engine.cards import JOKER, parse_card
from engine.game import legal_actions
from engine.melds import MeldKind
from engine.variants.romanian.actions import ExchangeJoly
from engine.variants.romanian.events import JolyExchanged

from .conftest import Factory


def test_rule_5_the_exact_tile_for_a_joly_in_a_run(romanian: Factory) -> None:
    """5. "Hat man genau den Stein, den ein Joly in einer eigenen oder der Meldung eines
    anderen Spielers ersetzt, darf man den Joly nehmen und durch diesen Stein ersetzen,
    vorausgesetzt, man gebraucht ihn sofort mit zwei Steinen vom eigenen Ständer, um einen
    neuen Satz oder eine neue Folge zu melden.\""""
    game = romanian(["r5 y8 y9 k1 b2 r3", "b12 b13"], stock="k13 k12")
    game.setup(current=0, melds=[(1, "r4 jo=r5 r6"), (0, "k2 k3 k4")], discard="k9")
    game.play("draw")
    game.refuse("joly r3 1", "invalid_joker_swap")
    events = game.play("joly r5 1")
    assert events == (JolyExchanged(0, 0, (parse_card("r5"),)),)
    assert str(game.state.melds[0]) == "r4 r5 r6"
    assert JOKER in game.state.hands[0]
    game.refuse("discard k1", "romanian_obligation")
    game.refuse("layoff jo=k5 2", "romanian_obligation")
    game.play("meld y8 y9 jo=y10")
    game.play("discard k1")
    track = game.extra.jolys[0]
    assert track.first_seat == 1
    assert [(p.meld, p.seat) for p in track.places] == [(0, 1), (2, 0)]
    assert track.replacements[0].tiles == (parse_card("r5"),) and not track.pending


def test_the_shared_swap_is_the_same_exchange(romanian: Factory) -> None:
    game = romanian(["r5 y8 y9 k1", "b12 b13"], stock="k13")
    game.setup(current=0, melds=[(1, "r4 jo=r5 r6"), (0, "k2 k3 k4")], discard="k9")
    game.play("draw")
    game.play("swap r5 1")
    assert JOKER in game.state.hands[0]


def test_the_freed_joly_must_be_usable_at_once(romanian: Factory) -> None:
    """ "vorausgesetzt, man gebraucht ihn sofort mit zwei Steinen vom eigenen Ständer\""""
    game = romanian(["r5 y8 b2 k9", "b12 b13"], stock="r13")
    game.setup(current=0, melds=[(1, "r4 jo=r5 r6"), (0, "k2 k3 k4")], discard="k9")
    game.play("draw")
    game.refuse("joly r5 1", "romanian_exchange_use")


def test_no_exchange_whose_freed_joly_only_leaves_the_taken_tile(romanian: Factory) -> None:
    """ "vorausgesetzt, man gebraucht ihn sofort mit zwei Steinen vom eigenen Ständer" and
    "Am Ende des Spielzuges muss man einen seiner Steine offen ablegen": after taking r8
    the only meld for the freed Joly (b10 jo=b11 b12) would leave r8 alone, which may not
    be discarded in the turn it was taken. The exchange is refused; it used to leave the
    seat with no legal action at all (found by a long random playout)."""
    game = romanian(["b10 b12 y8", "b2 b3 k13"], stock="k1")
    game.setup(current=0, melds=[(1, "y5 y6 y7 jo=y8"), (0, "k4 k5 k6")], discard="k9 r8")
    game.play("take")
    game.refuse("joly y8 1", "romanian_exchange_use")
    assert legal_actions(game.state, 0)
    game.play("discard b12")


def test_rule_6_both_missing_colours_for_the_joly_of_a_set_of_three(romanian: Factory) -> None:
    """6. "Hat man selber oder ein anderer Spieler ein Paar gleicher Zahlen mit einem Joly als
    einen Satz von drei Steinen gemeldet und hat die beiden Steine gleichen Ranges in den
    beiden fehlenden Farben, darf man den Joly nehmen und an seine Stelle die beiden Steine
    legen (und so einen Satz von vier Steinen machen), vorausgesetzt, man benutzt ihn sofort
    mit zwei Steinen vom eigenen Ständer für einen neuen Satz oder eine neue Folge\""""
    game = romanian(["b7 k7 y2 y3 r1", "b12 b13"], stock="k13")
    game.setup(current=0, melds=[(1, "r7 y7 jo"), (0, "k2 k3 k4")], discard="k9")
    game.play("draw")
    game.refuse("joly b7 1", "romanian_exchange_pair")
    game.play("joly b7 k7 1")
    meld = game.state.melds[0]
    assert meld.kind is MeldKind.SET and str(meld) == "r7 y7 b7 k7"
    game.play("meld y2 y3 jo=y4")
    assert game.extra.jolys[0].replacements[0].tiles == (parse_card("b7"), parse_card("k7"))


def test_rule_7_one_missing_colour_is_laid_off_and_the_fourth_takes_the_joly(
    romanian: Factory,
) -> None:
    """7. "Liegt ein Satz von zwei Steinen mit den gleichen Zahlen und einem Joly auf dem
    Tisch, man selber aber hat nur einen Stein von den fehlenden Farben, dann darf man
    diesen Stein an den Satz anlegen und so einen Satz von vier gleichen Steinen machen, aber
    man darf den Joly nicht nehmen. Später kann ein Spieler, der einen Stein mit der gleichen
    Zahl und der vierten Farbe hat, diesen benutzen, um damit den Joly einzutauschen. Wieder
    muss dieser Spieler den Joly sofort mit zwei Steinen von seinem Ständer melden\""""
    game = romanian(["b7 y2 y3 r1 r2", "k7 b11 b12 y13 k1"], stock="k13 r12")
    game.setup(current=0, melds=[(1, "r7 y7 jo"), (0, "k2 k3 k4"), (1, "b8 b9 b10")], discard="k9")
    game.play("draw")
    game.refuse("joly b7 1", "romanian_exchange_pair")
    game.play("layoff b7 1")
    assert str(game.state.melds[0]) == "r7 y7 b7 jk=7"
    game.refuse("joly b7 1", "card_not_in_hand")
    game.play("discard r1")
    game.play("draw")
    game.play("joly k7 1")
    assert str(game.state.melds[0]) == "r7 y7 b7 k7"
    game.play("meld b11 b12 jo=b13")
    owners = [p.owner for p in game.state.melds[0].cards]
    assert owners == [1, 1, 0, 1]


def test_no_exchange_before_the_opening(romanian: Factory) -> None:
    game = romanian(["r5 y8 y9 k1", "b12 b13"], stock="k13")
    game.setup(current=0, melds=[(1, "r4 jo=r5 r6")], discard="k9")
    game.play("draw")
    game.refuse("joly r5 1", "romanian_not_opened")


def test_a_run_with_both_jolys_gives_up_the_one_named(romanian: Factory) -> None:
    """Six tiles carry two Jolys ("auch nicht in einer Folge, die weniger als 6 Steine
    enthält"); the exchanged tile picks which one."""
    game = romanian(["y9 b2 b3 k1", "b12 b13"], stock="k13")
    game.setup(current=0, melds=[(1, "y3 jo=y4 y5 y6 y7 jo=y8"), (0, "k2 k3 k4")], discard="k9")
    game.play("draw")
    game.refuse("joly y9 1", "invalid_joker_swap")
    game.refuse("joly y4 1", "card_not_in_hand")
    game.state = game.state.with_hand(0, (*game.state.hands[0], parse_card("y8")))
    game.act(ExchangeJoly(0, (parse_card("y8"),), 0))
    assert str(game.state.melds[0]) == "y3 jk=y4 y5 y6 y7 y8"
