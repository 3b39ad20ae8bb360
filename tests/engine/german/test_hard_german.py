"""The hard player's German Rommé race (engine/ai/hard_german.py): its first meld waits for
hand rummy while the others hold many cards, is as small as the minimum allows, and
further melds stay in the hand until they go out with it.

german-romme.de.txt: "Ziel ist es sich als erster von all seinen Karten zu entledigen";
"Rummy (geht) - ... kann alle seine Karten auf einmal in Figuren melden ... Die
Mindestpunktzahl für die Erstmeldung kommt bei Rummy gehen nicht zur Anwendung"."""

from __future__ import annotations

from itertools import combinations

from engine.actions import Action, Discard, Draw, MeldCards
from engine.ai import HardPlayer
from engine.ai.greedy import GreedyPlayer
from engine.ai.hard_german import (
    HOLD_WHILE_OTHERS_HOLD,
    OPEN_WHEN_OTHERS_HOLD,
    can_go_out,
)
from engine.cards import parse_cards
from engine.frozen import replace
from engine.game import can, legal_actions
from engine.melds import readings
from engine.state import GameState
from engine.variants.german.melds import meld_rules
from engine.variants.german.values import meld_value
from engine.variants.german.views import SeatStatus
from engine.views import PlayerView, view_for
from tests.engine.ai_decisions import decisions

# ana: K K K (30) and Q Q Q (30) and a joker run 2c 3c jk (9): a first meld of 69 points
ANA = "kc kd ks qc qd qh 2c 3c jk 5d 7h 9s 10d"
BEN = "4c 6c 8c 2d 3h 4s 6s 8d 9c 10s jd 5h 7s"


def _state_of(german, ben_cards: int) -> GameState:
    """ana after her draw (the stock's 2h) while ben holds ``ben_cards`` cards."""
    t = german([ANA, BEN], "6h", "2h 9h 10c")
    t.play("draw")
    return replace(t.state, hands=(t.state.hands[0], t.state.hands[1][:ben_cards]))


def _ana_to_play(german, ben_cards: int) -> tuple[PlayerView, list[Action]]:
    state = _state_of(german, ben_cards)
    return view_for(state, 0), legal_actions(state, 0)


def _value(view: PlayerView, groups: tuple[tuple, ...]) -> int:
    rules = view.table.rules
    return sum(meld_value(rules, readings(g, view.seat, meld_rules(rules))[0]) for g in groups)


def test_the_first_meld_waits_while_the_other_holds_many_cards(german) -> None:
    """With ben at 13 cards ana keeps her 69 points in the hand (a hand rummy doubles
    ben's points and leaves him nothing to lay off on); the greedy player melds them."""
    view, legal = _ana_to_play(german, 13)
    greedy = GreedyPlayer(0).decide(view, legal)
    assert isinstance(greedy, MeldCards)
    hard = HardPlayer(0).decide(view, legal)
    assert isinstance(hard, Discard) and hard in legal
    assert hard.card not in parse_cards("kc kd ks qc qd qh jk")


def test_a_first_meld_goes_down_small_once_the_other_is_close_to_going_out(german) -> None:
    """With ben at OPEN_WHEN_OTHERS_HOLD cards ana melds, but only K K K and Q Q Q: they
    reach the 40 points without the joker, which stays in the hand (on the table ben
    could exchange it)."""
    view, legal = _ana_to_play(german, OPEN_WHEN_OTHERS_HOLD)
    greedy = GreedyPlayer(0).decide(view, legal)
    hard = HardPlayer(0).decide(view, legal)
    assert isinstance(greedy, MeldCards) and isinstance(hard, MeldCards)
    assert len(greedy.groups) == 3
    assert sorted(sorted(str(s.card) for s in g) for g in hard.groups) == [
        ["kc", "kd", "ks"],
        ["qc", "qd", "qh"],
    ]
    assert can(_state_of(german, OPEN_WHEN_OTHERS_HOLD), hard)


def test_a_small_first_meld_leaves_the_joker_in_the_hand(german) -> None:
    """A A with a joker (33), K K K (30) and 2c-5c (14): A A jk with K K K would be the
    fewest cards, but K K K with the run reaches the 40 points without the joker."""
    hand = "ac ad jk kc kd ks 2c 3c 4c 5c 7h 9s 10d"
    t = german([hand, BEN], "6h", "2h 9h 10c")
    t.play("draw")
    state = replace(t.state, hands=(t.state.hands[0], t.state.hands[1][:2]))
    view, legal = view_for(state, 0), legal_actions(state, 0)
    greedy = GreedyPlayer(0).decide(view, legal)
    hard = HardPlayer(0).decide(view, legal)
    assert isinstance(greedy, MeldCards) and len(greedy.groups) == 3
    assert isinstance(hard, MeldCards) and can(state, hard)
    assert sorted(sorted(str(s.card) for s in g) for g in hard.groups) == [
        ["2c", "3c", "4c", "5c"],
        ["kc", "kd", "ks"],
    ]


def test_hand_rummy_is_never_held_back(german) -> None:
    """ "Rummy (geht)": a first meld of every card but the discard goes down at once, however
    many cards ben holds."""
    hand = "kc kd ks qc qd qh 2c 3c 4c 5h 6h 7h 9s"
    t = german([hand, BEN], "6h", "8h 9h 10c")
    t.play("draw")
    view, legal = view_for(t.state, 0), legal_actions(t.state, 0)
    hard = HardPlayer(0).decide(view, legal)
    assert isinstance(hard, MeldCards)
    assert len(view.hand) - sum(len(g) for g in hard.groups) == 1


def test_over_whole_games_first_melds_wait_and_later_melds_are_held() -> None:
    """At every decision of 16 greedy games: a first meld that does not go out waits (a
    discard) while the other holds more than OPEN_WHEN_OTHERS_HOLD cards, else it is the
    smallest part of the greedy player's that reaches the minimum; after the first meld a
    new meld waits (no meld) while the seat cannot go out this turn and the other holds
    more than HOLD_WHILE_OTHERS_HOLD cards, else it is the greedy player's; every other
    decision is the greedy player's but for the discard."""
    waited = opened = held = released = 0
    for state, greedy, hard in decisions("german", 16):
        seat = state.current
        view = view_for(state, seat)
        status = view.extra
        assert isinstance(status, SeatStatus)
        other = len(state.hands[1 - seat])
        if (
            isinstance(greedy, MeldCards)
            and not status.opened
            and not status.provisional
            and len(view.hand) - sum(len(g) for g in greedy.groups) > 1
        ):
            if other > OPEN_WHEN_OTHERS_HOLD:
                assert isinstance(hard, Discard)
                waited += 1
            else:
                _assert_smallest(view, status, greedy, hard)
                opened += 1
        elif isinstance(greedy, MeldCards) and status.opened:
            if other > HOLD_WHILE_OTHERS_HOLD and not can_go_out(view, status):
                assert not isinstance(hard, MeldCards)
                held += 1
            else:
                assert hard == greedy
                released += 1
        elif not status.opened and isinstance(greedy, Discard):
            assert isinstance(hard, Discard)
        elif isinstance(greedy, Draw):
            assert hard == greedy
    assert min(waited, opened, held, released) > 0


def _assert_smallest(view: PlayerView, status: SeatStatus, greedy: MeldCards, hard: Action) -> None:
    assert isinstance(hard, MeldCards)
    assert set(hard.groups) <= set(greedy.groups)
    assert status.opening_total + _value(view, hard.groups) >= status.opening_needed

    def key(groups: tuple[tuple, ...]) -> tuple[int, int]:
        return (sum(1 for g in groups for s in g if s.card.is_joker), sum(len(g) for g in groups))

    for size in range(1, len(greedy.groups) + 1):
        for picked in combinations(greedy.groups, size):
            if status.opening_total + _value(view, picked) >= status.opening_needed:
                assert key(hard.groups) <= key(picked)


def _after_first_meld(german, **options) -> GameState:
    """ana made her first meld (K K K and Q Q Q) last turn and has drawn again; her hand is
    then set to kh qs 5h 6h 7h 8h 2c: the run melds, kh and qs lay off on the sets, 2c is
    the discard."""
    t = german(["kc kd ks qc qd qh kh qs 5h 6h 7h 2c 9s", BEN], "6c", "10d 3s 8h 9h", **options)
    t.play("draw")
    t.play("meld kc kd ks | qc qd qh")
    t.play("discard 9s")
    t.play("draw")
    t.play("discard 3s")
    t.play("draw")
    return replace(t.state, hands=(parse_cards("kh qs 5h 6h 7h 8h 2c"), t.state.hands[1]))


def test_melds_go_down_when_the_turn_can_go_out_and_wait_when_it_cannot(german) -> None:
    """With two lay-offs ana goes out this turn, so her run goes down; under the house rule
    ``one_layoff`` ("In einem Spielzug darf ein Spieler nur eine Karte an eine Figur
    ergänzen") she cannot, and the run stays in her hand while ben holds many cards."""
    for one_layoff, goes_out in ((False, True), (True, False)):
        state = _after_first_meld(german, one_layoff=one_layoff)
        view, legal = view_for(state, 0), legal_actions(state, 0)
        status = view.extra
        assert isinstance(status, SeatStatus) and status.may_lay_off
        assert can_go_out(view, status) is goes_out
        hard = HardPlayer(0).decide(view, legal)
        assert isinstance(hard, MeldCards) is goes_out
