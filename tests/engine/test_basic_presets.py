"""Presets of ``basic``: Wrotham Rummy and the beginners' Rommé (basic-rummy.de.txt,
romme-basic.de.txt), and the option machinery."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from engine.actions import MeldCards, SwapJoker
from engine.cards import JOKER
from engine.commands import parse_command
from engine.dealing import DealSpec, new_game, start_deal
from engine.errors import (
    AllAtOnceRequired,
    InvalidJokerSwap,
    NoDiscardLeft,
    RuleOptionError,
    WrongPhase,
)
from engine.game import apply, legal_actions
from engine.rules import make_rules
from engine.state import Phase

NAMES = ["ana", "ben", "cem"]


def test_wrotham_pack_and_deal() -> None:
    """ "Es wird ein 55-Karten-Pack verwendet, darunter drei Joker ... Acht Karten werden an
    den Startspieler und sieben an jeden anderen Spieler ausgeteilt.\""""
    state = new_game(make_rules("basic", "wrotham"), NAMES, seed=4, dealer=2)
    assert state.card_count() == 55
    assert (
        sum(c == JOKER for h in state.hands for c in h) + sum(c == JOKER for c in state.stock) == 3
    )
    assert [len(h) for h in state.hands] == [8, 7, 7]
    assert state.discard == ()


def test_wrotham_starter_does_not_draw_in_the_first_turn(stacked) -> None:
    """ "In der ersten Runde zieht der Startspieler nicht, sondern wirft nur eine Karte ab
    (oder verschmilzt und verwirft).\""""
    t = stacked(["2c 3d 4h 5s 6c 7d 8h 9s", "2h 3h"], None, "kd qd", preset="wrotham")
    assert t.state.phase is Phase.PLAY
    with pytest.raises(WrongPhase):
        t.play("draw")
    t.play("discard 9s")
    t.play("draw")
    assert t.hand(1) == ["2h", "3h", "kd"]


def test_wrotham_joker_swap_by_the_holder_of_the_real_card(stacked) -> None:
    """ "Ein Joker kann als Ersatz für jede Karte verwendet werden ... Ein Spieler, der die
    Karte hält, die ein gemeldeter Joker darstellt, kann während seines Zuges die echte Karte
    gegen den Joker eintauschen.\""""
    t = stacked(["6h 7h jk 2c 3d", "8h 9c"], None, "kd qd", preset="wrotham")
    t.play("meld 6h 7h jk=8h")
    t.play("discard 2c")
    t.play("draw")
    with pytest.raises(InvalidJokerSwap):
        t.play("swap 9c 1")
    t.play("swap 8h 1")
    assert str(t.state.melds[0]) == "6h 7h 8h"
    assert t.hand(1) == ["9c", "jk", "kd"]


def test_joker_swap_in_a_set_takes_any_missing_suit(stacked) -> None:
    """A joker in a set stands for a card of that rank "die zum Verschmelzen eines Satzes
    ... benötigt wird"; the holder of either missing suit may exchange it."""
    t = stacked(["8c 8d jk 2c 5d", "8s 9c"], None, "kd qd", preset="wrotham")
    t.play("meld 8c 8d jk")
    t.play("discard 2c")
    t.play("draw")
    t.play("swap 8s 1")
    assert str(t.state.melds[0]) == "8c 8d 8s"


def test_no_joker_swap_without_the_house_rule(stacked) -> None:
    """The exchange is a Wrotham rule; plain Basic Rummy has no jokers to exchange."""
    t = stacked(["6h 7h 8h 2c", "8s 9c"], "kd", "qd jd", multiple_melds=True)
    t.play("draw")
    with pytest.raises(InvalidJokerSwap):
        t.play("swap 2c 1")


def test_wrotham_six_deals_and_all_at_once_from_the_fourth() -> None:
    """ "Sechs Deals werden gespielt ... in den letzten drei Runden dürfen die Spieler keine
    Karten mehr melden, bis sie alle sieben auf einmal ablegen können.\""""
    rules = make_rules("basic", "wrotham")
    assert rules.number("deals") == 6 and rules.number("target") is None
    first = new_game(rules, NAMES[:2], seed=2, dealer=1)
    deal = DealSpec.parse(["3c 4c 5c 6c 7c 8c 9c", "2c 2d 2h 5s 6s 7s 8s 9d"], None, "kd qd jd")
    state, _ = start_deal(replace(first, deal_number=3), 0, deal)
    assert state.deal_number == 4 and state.current == 1
    with pytest.raises(AllAtOnceRequired):
        apply(state, parse_command("meld 2c 2d 2h", 1))
    action = parse_command("meld 2c 2d 2h | 5s 6s 7s 8s", 1)
    assert isinstance(action, MeldCards)
    state, _ = apply(state, action)
    state, _ = apply(state, parse_command("discard 9d", 1))
    assert state.results[-1].winner == 1


def test_wrotham_match_ends_after_six_deals() -> None:
    """ "Sechs Deals werden gespielt.\""""
    rules = make_rules("basic", "wrotham")
    first = new_game(rules, NAMES[:2], seed=2, dealer=1)
    deal = DealSpec.parse(["3c 4c", "2c 2d 2h 5s 6s 7s 8s 9d"], None, "kd qd jd")
    state, _ = start_deal(replace(first, deal_number=5), 0, deal)
    for text in ("meld 2c 2d 2h | 5s 6s 7s 8s", "discard 9d"):
        state, _ = apply(state, parse_command(text, 1))
    assert state.phase is Phase.GAME_OVER


def test_beginner_preset_differences() -> None:
    """romme-basic.de.txt as a preset: several melds a turn, "Wenn ein Spieler Rommé spielt,
    werden alle Punkte für diese Hand verdoppelt", the pile reshuffled except its top card,
    and "eine vorgegebene Anzahl von Punkten (zB 150)\"."""
    rules = make_rules("basic", "beginner")
    assert rules.changed() == {
        "target": 150,
        "multiple_melds": True,
        "going_rummy": "double",
        "stock_end": "shuffle_keep_top",
    }


def test_beginner_rommé_doubles_all_points(stacked) -> None:
    """romme-basic.de.txt: "Ein Spieler "spielt Rommé", wenn er alle seine Karten ... in einem
    einzigen Spielzug spielt, nachdem er während dieser Hand zuvor überhaupt keine Karten
    gespielt hat. Wenn ein Spieler Rommé spielt, werden alle Punkte für diese Hand
    verdoppelt.\""""
    t = stacked(["7h 8h 9h 2c 2d 2s 4c", "kd qs 5c"], "3s", "10h", preset="beginner")
    t.play("draw")
    t.play("meld 7h 8h 9h 10h")
    t.play("meld 2c 2d 2s")
    t.play("discard 4c")
    assert t.state.totals == (Fraction(50), Fraction(0))


def test_unknown_option_and_bad_value_are_refused_with_a_clear_message() -> None:
    """Options are validated: an unknown name or a bad value names the problem."""
    with pytest.raises(RuleOptionError, match="unknown option 'jokerz'"):
        make_rules("basic", options={"jokerz": 2})
    with pytest.raises(RuleOptionError, match="option ace: 'middle'"):
        make_rules("basic", options={"ace": "middle"})
    with pytest.raises(RuleOptionError, match="unknown preset"):
        make_rules("basic", "nope")
    with pytest.raises(RuleOptionError, match="unknown variant"):
        make_rules("poker")
    with pytest.raises(RuleOptionError, match="payment"):
        make_rules("basic", options={"scoring": "payment"})


def test_every_option_names_its_rule_sentence() -> None:
    """Every option and preset lists its source sentence, so a table can show what it plays."""
    from engine.variants import get_variant

    var = get_variant("basic")
    for option in var.options:
        assert option.source and option.help, option.name
        assert option.parse(option.show(option.default)) == option.default
    for preset in var.presets.values():
        assert preset.source and preset.help


def test_no_joker_swap_that_leaves_only_copies_of_the_taken_card(stacked) -> None:
    """The card taken from the pile may not be discarded this turn ("dürfen Sie diesen Zug
    nicht beenden, indem Sie dieselbe Karte ablegen"), so no move may leave the hand with
    nothing but copies of it: ana takes a joker, lays one joker off and may not exchange
    her 10d for the set's joker, which would leave her two jokers and no discard (the
    legal moves of hypothesis example seed 873 ran dry there)."""
    t = stacked(
        ["10c 10h jk 5s 6s 7s 10d jk", "3c 8h 9h 2s qd 4d jk"],
        "ac",
        "2c kd 3h",
        jokers=4,
        joker_swap=True,
        multiple_melds=True,
    )
    t.play("draw")
    t.play("meld 10c 10h jk")
    t.play("meld 5s 6s 7s")
    t.play("discard 2c")
    t.play("draw")
    t.play("discard jk")
    t.play("take")
    t.play("layoff jk=8s 2")
    with pytest.raises(NoDiscardLeft):
        t.play("swap 10d 1")
    assert t.hand(0) == ["10d", "jk"]
    assert not any(isinstance(a, SwapJoker) for a in legal_actions(t.state, 0))
