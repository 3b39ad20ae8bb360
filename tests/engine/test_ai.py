"""The AI players (engine/ai): views only, legal actions only, sensible greedy play."""

from __future__ import annotations

import dataclasses
import inspect
from collections import Counter
from typing import Any

import pytest

from engine.actions import (
    Action,
    Discard,
    Draw,
    LayOff,
    MeldCards,
    NextDeal,
    SwapJoker,
    TakeDiscard,
)
from engine.ai import (
    GreedyPlayer,
    HardPlayer,
    NoLegalAction,
    Player,
    RandomPlayer,
    UnknownAI,
    make_ai,
)
from engine.cards import JOKER, Card, parse_card, parse_cards
from engine.dealing import DealSpec, new_game
from engine.events import Event, WentOut
from engine.game import apply, current_player, is_over, legal_actions
from engine.melds import CardSpec, Meld, MeldKind, Placed
from engine.rules import make_rules
from engine.simulate import simulate
from engine.state import GameState, Phase
from engine.views import PlayerView, view_for

NAMES = ["ana", "ben", "cem"]


def deal(
    hands: list[str], upcard: str | None, stock: str, preset: str | None = None, **options: Any
) -> GameState:
    """A stacked first deal; seat 0 (left of the dealer, the last seat) moves first."""
    rules = make_rules("basic", preset, options)
    return new_game(
        rules,
        NAMES[: len(hands)],
        seed=1,
        dealer=len(hands) - 1,
        deal=DealSpec.parse(hands, upcard, stock),
    )


def with_table(state: GameState, *melds: tuple[MeldKind, str]) -> GameState:
    """The state with these melds (owned by seat 1) on the table."""
    table = []
    for kind, text in melds:
        placed = []
        for word in text.split():
            spec = CardSpec.parse(word)
            placed.append(Placed(spec.card, spec.face or spec.card, 1))
        table.append(Meld(kind, tuple(placed), 1))
    return dataclasses.replace(state, melds=tuple(table))


def decide(player: Player, state: GameState, seat: int) -> Action:
    """Ask ``player`` for seat's action and check it is one of the legal actions."""
    legal = legal_actions(state, seat)
    action = player.decide(view_for(state, seat), legal)
    assert action in legal
    return action


def play_turn(player: Player, state: GameState) -> tuple[GameState, list[Action], list[Event]]:
    """Let ``player`` play the current seat's whole turn."""
    seat = state.current
    actions: list[Action] = []
    events: list[Event] = []
    while current_player(state) == seat and len(actions) < 50:
        action = decide(player, state, seat)
        actions.append(action)
        state, new = apply(state, action)
        events.extend(new)
        if isinstance(action, Discard):
            break
    return state, actions, events


def _physical_cards(obj: Any) -> list[Card]:
    if isinstance(obj, Card):
        return [obj]
    if isinstance(obj, Placed):
        return [obj.card]
    if isinstance(obj, tuple | list):
        return [c for item in obj for c in _physical_cards(item)]
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return [c for f in dataclasses.fields(obj) for c in _physical_cards(getattr(obj, f.name))]
    return []


# --- what the AI sees --------------------------------------------------------------------


def test_decide_takes_only_a_view_and_the_legal_actions() -> None:
    for player in (GreedyPlayer(1), RandomPlayer(1)):
        params = list(inspect.signature(player.decide).parameters)
        assert params == ["view", "legal"]


def test_a_view_holds_no_other_hand_while_the_hand_is_played() -> None:
    """basic-rummy.de.txt: "Wenn Sie aus dem Vorrat ziehen, fügen Sie die Karte Ihrer Hand
    hinzu, ohne sie den anderen Spielern zu zeigen": ben's cards are nowhere in ana's view;
    only when the hand is over are all hands shown."""
    state = deal(["7h 8h 9h kd", "2c 2d 5s qs"], "10h", "3c 4c 6d")
    others = set(state.hands[1]) | set(state.stock)
    greedy = GreedyPlayer(0)
    while not is_over(state) and state.phase in (Phase.DRAW, Phase.PLAY):
        view = view_for(state, 0)
        seen = set(_physical_cards(view))
        assert view.table.shown_hands is None
        assert not seen & set(state.hands[1])
        if state.current == 0:
            state, _, _ = play_turn(greedy, state)
        else:
            state, _ = apply(state, Draw(1))
            state, _ = apply(state, Discard(1, state.hands[1][0]))
    assert state.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
    shown = view_for(state, 0).table.shown_hands
    assert shown is not None and set(shown[1]) <= others | set(state.hands[1])


def test_hidden_cards_do_not_change_the_greedy_decision() -> None:
    """Two deals that differ only in ben's hand and the stock give ana the same view, so
    the greedy player decides the same way."""
    one = deal(["7h 8h 2c 5d kc js 3s", "ac 2h 3h 4d 6s 6c 10d"], "9h", "qd qh 5c")
    two = deal(["7h 8h 2c 5d kc js 3s", "qd qh 5c 4d 6s 6c 10d"], "9h", "ac 2h 3h")
    assert view_for(one, 0) == view_for(two, 0)
    assert decide(GreedyPlayer(0), one, 0) == decide(GreedyPlayer(0), two, 0) == TakeDiscard(0)


# --- always a legal action -----------------------------------------------------------------


@pytest.mark.parametrize("preset", ["standard", "beginner", "block", "wrotham"])
def test_ai_players_only_return_legal_actions(preset: str) -> None:
    """Whole matches (Wrotham: six deals, the last three all at once) with greedy and
    random players mixed; every decision is an element of the legal list."""
    options: dict[str, Any] = {} if preset == "wrotham" else {"deals": 2}
    for seed in range(2):
        state = new_game(make_rules("basic", preset, options), NAMES, seed=seed)
        players: list[Player] = [GreedyPlayer(seed), RandomPlayer(seed), GreedyPlayer(seed + 1)]
        steps = 0
        while not is_over(state) and steps < 5000:
            seat = current_player(state)
            seat = state.next_seat(state.dealer) if seat is None else seat
            state, _ = apply(state, decide(players[seat], state, seat))
            steps += 1
        assert is_over(state)


def test_no_legal_action_is_a_typed_error() -> None:
    state = deal(["7h 8h 9h kd", "2c 2d 5s qs"], "10h", "3c")
    for player in (GreedyPlayer(0), RandomPlayer(0)):
        with pytest.raises(NoLegalAction) as caught:
            player.decide(view_for(state, 1), [])
        assert caught.value.code == "no_legal_action"


# --- greedy play -------------------------------------------------------------------------


def test_greedy_takes_an_upcard_that_completes_a_meld() -> None:
    """7h 8h + upcard 9h: a run; the hand's deadwood falls from 45 to 20 after discarding
    a ten-point card (basic-rummy.de.txt: "eine Karte entweder von der Oberseite des
    Ablagestapels oder von der obersten Karte auf dem Ablagestapel nehmen")."""
    state = deal(["7h 8h 2c 5d kc js 3s", "ac 2h 3h 4d 6s 6c 10d"], "9h", "qd qh 5c")
    assert decide(GreedyPlayer(0), state, 0) == TakeDiscard(0)


def test_greedy_draws_when_the_upcard_does_not_help() -> None:
    state = deal(["7h 8h 2c 5d kc js 3s", "ac 2h 3h 4d 6s 6c 10d"], "qd", "9h qh 5c")
    assert decide(GreedyPlayer(0), state, 0) == Draw(0)


def test_greedy_takes_an_upcard_it_can_lay_off_at_once() -> None:
    """With 4h 5h 6h on the table, the upcard 7h is laid off in the same turn: one card
    fewer at the end of the turn than after drawing."""
    state = with_table(deal(["2c kd", "ac 2h"], "7h", "qd qh 5c"), (MeldKind.RUN, "4h 5h 6h"))
    greedy = GreedyPlayer(0)
    state, actions, _ = play_turn(greedy, state)
    assert actions == [
        TakeDiscard(0),
        LayOff(0, (CardSpec(parse_card("7h")),), 0),
        Discard(0, parse_card("kd")),
    ]
    assert state.hands[0] == parse_cards("2c")


def test_greedy_goes_out_when_it_can() -> None:
    """basic-rummy.de.txt: "Sobald jemand ausgeht, hört das Spiel auf": take 10h, meld the
    run 7h-10h, discard kd, out."""
    state = deal(["7h 8h 9h kd", "2c 2d 5s qs"], "10h", "3c 4c 6d")
    state, actions, events = play_turn(GreedyPlayer(0), state)
    assert actions[0] == TakeDiscard(0)
    assert actions[1] == MeldCards(0, (tuple(CardSpec(c) for c in parse_cards("7h 8h 9h 10h")),))
    assert actions[2] == Discard(0, parse_card("kd"))
    assert any(isinstance(e, WentOut) and e.seat == 0 for e in events)
    assert state.results[-1].winner == 0


def test_greedy_lays_off_deadwood_and_discards_the_highest_card() -> None:
    """It lays off 3h on 4h 5h 6h and then discards the king, its highest deadwood card."""
    state = with_table(deal(["3h kd 5c 4s", "ac 2h"], "qs", "2d 9c"), (MeldKind.RUN, "4h 5h 6h"))
    state, actions, _ = play_turn(GreedyPlayer(0), state)
    assert actions == [
        Draw(0),
        LayOff(0, (CardSpec(parse_card("3h")),), 0),
        Discard(0, parse_card("kd")),
    ]


def test_greedy_does_not_discard_the_card_it_took() -> None:
    """basic-rummy.de.txt: "dürfen Sie diesen Zug nicht beenden, indem Sie dieselbe Karte
    ablegen": 6h 7h + 8h taken; the highest card left to throw is the nine."""
    state = deal(["6h 7h 9c 2s", "ac 2h"], "8h", "qd")
    state, actions, _ = play_turn(GreedyPlayer(0), state)
    assert actions[0] == TakeDiscard(0)
    assert actions[-1] == Discard(0, parse_card("9c"))


def test_greedy_swaps_a_joker_when_it_helps() -> None:
    """Wrotham Rummy: "Ein Spieler, der die Karte hält, die ein gemeldeter Joker darstellt,
    kann während seines Zuges die echte Karte gegen den Joker eintauschen": 8h for the
    joker, then jk qd kd is a run (deadwood 38 -> 10)."""
    state = deal(["8h 8c qd kd 2s", "ac 2h 3c 5d 9s 10s js"], None, "qh 5c", "wrotham")
    state = with_table(state, (MeldKind.RUN, "7h jk=8h 9h"))
    assert state.phase is Phase.PLAY
    greedy = GreedyPlayer(0)
    assert decide(greedy, state, 0) == SwapJoker(0, parse_card("8h"), 0)
    state, actions, _ = play_turn(greedy, state)
    assert actions[1] == MeldCards(
        0,
        (
            (
                CardSpec(JOKER, parse_card("jd")),
                CardSpec(parse_card("qd")),
                CardSpec(parse_card("kd")),
            ),
        ),
    )
    assert actions[-1] == Discard(0, parse_card("8c"))


def test_greedy_melds_only_the_whole_hand_in_all_at_once_deals() -> None:
    """basic-rummy.de.txt: "dürfen die Spieler keine Karten mehr melden, bis sie alle sieben
    auf einmal ablegen können": with a run but no second meld it only discards; with the
    whole hand in melds it goes down at once and out."""
    rules = {"all_at_once_from": 1}
    stuck = deal(
        ["7h 8h 9h 2c 2d 5s qs kd", "ac 2h 3c 5d 9s 10s js"], None, "qd", "wrotham", **rules
    )
    _, actions, _ = play_turn(GreedyPlayer(0), stuck)
    assert actions == [Discard(0, parse_card("kd"))]
    ready = deal(
        ["7h 8h 9h 2c 2d 2s 2h kd", "ac 3h 3c 5d 9s 10s js"], None, "qd", "wrotham", **rules
    )
    state, actions, events = play_turn(GreedyPlayer(0), ready)
    assert isinstance(actions[0], MeldCards) and len(actions[0].groups) == 2
    assert actions[1:] == [Discard(0, parse_card("kd"))]
    assert any(isinstance(e, WentOut) for e in events)
    assert state.results[-1].winner == 0


def test_greedy_starts_the_next_deal() -> None:
    state = deal(["7h 8h 9h kd", "2c 2d 5s qs"], "10h", "3c 4c 6d", deals=2)
    state, _, _ = play_turn(GreedyPlayer(0), state)
    assert state.phase is Phase.HAND_OVER
    assert decide(GreedyPlayer(0), state, 1) == NextDeal(1)


def test_greedy_beats_random_play() -> None:
    """Greedy wins at least 90% of 40 two-player single-deal games against random play, in
    either seat."""
    rules = make_rules("basic", options={"deals": 1})
    first = simulate(rules, 40, 2, seed=0, ai=("greedy", "random"))
    second = simulate(rules, 40, 2, seed=100, ai=("random", "greedy"))
    assert first.unfinished == second.unfinished == 0
    assert first.win_shares[0] >= 0.9
    assert second.win_shares[1] >= 0.9


# --- random play and the factory -----------------------------------------------------------


def test_random_play_is_uniform_over_the_legal_actions_and_seeded() -> None:
    state = deal(["7h 8h 9h kd 2c", "2d 5s qs"], "10h", "3c 4c 6d")
    state, _ = apply(state, Draw(0))
    legal = legal_actions(state, 0)
    view = view_for(state, 0)
    picks = [RandomPlayer(7).decide(view, legal) for _ in range(3)]
    assert picks[0] == picks[1] == picks[2]
    player = RandomPlayer(3)
    counts = Counter(player.decide(view, legal) for _ in range(200 * len(legal)))
    assert set(counts) == set(legal)
    assert min(counts.values()) > 100


def test_make_ai_builds_each_kind_and_refuses_others() -> None:
    assert isinstance(make_ai("greedy", 1), GreedyPlayer)
    assert isinstance(make_ai("random", 1), RandomPlayer)
    assert isinstance(make_ai("hard", 1), HardPlayer)
    assert make_ai().name == "greedy"
    with pytest.raises(UnknownAI) as caught:
        make_ai("clever")
    assert caught.value.code == "unknown_ai"


def test_views_are_what_the_players_get() -> None:
    state = deal(["7h 8h 9h kd", "2c 2d 5s qs"], "10h", "3c")
    assert isinstance(view_for(state, 0), PlayerView)
