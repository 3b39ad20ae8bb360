"""The hard AI (engine/ai/hard.py): the greedy player racing to go out (in Rummy 500 also
holding melds back and refusing deep takes).

basic-rummy.de.txt: "Das Ziel des Spiels ist es, alle Karten in der Hand zu entsorgen" —
its discards keep the fewest cards outside melds and the most live outs, and it sees
only its view: hidden cards of the other seats never change what it is given."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.actions import Discard, Draw, LayOff, MeldCards, TakeDiscard
from engine.ai import HardPlayer, make_ai
from engine.ai.greedy import GreedyPlayer
from engine.ai.greedy_core import meld_completions
from engine.ai.hard import (
    DEEP_TAKE_LIMIT,
    HOLD_WHILE_OTHERS_HOLD,
    feed_risk,
    live_outs,
    race_key,
    unseen_cards,
)
from engine.ai.rummy500 import taken_cards
from engine.cards import JOKER, parse_card, parse_cards
from engine.dealing import DealSpec, new_game
from engine.frozen import replace
from engine.game import apply, is_over, legal_actions
from engine.melds import AceMode
from engine.rules import make_rules
from engine.state import GameState, Phase
from engine.variants.rummy500.state import PublicExtra
from engine.views import view_for
from tests.engine.ai_decisions import decisions


def _deal(hands: list[str], upcard: str, stock: str) -> GameState:
    return new_game(
        make_rules("basic"),
        ["ana", "ben"],
        seed=1,
        dealer=1,
        deal=DealSpec.parse(hands, upcard, stock),
    )


def test_it_keeps_a_pair_with_outs_where_greedy_throws_its_points_away() -> None:
    """ana holds kc kd (two outs: kh ks) and three single cards: the greedy player throws a
    king (the most points), the hard player keeps the pair and throws a single card."""
    state = _deal(["kc kd 2s 5h 9c 7d 7s", "ac 2h 3h 4d 6s 6c 10d"], "qh", "3c 4c 8s")
    state, _ = apply(state, Draw(0))
    view, legal = view_for(state, 0), legal_actions(state, 0)
    greedy = GreedyPlayer(0).decide(view, legal)
    hard = HardPlayer(0).decide(view, legal)
    assert isinstance(greedy, Discard) and greedy.card.rank == 13
    assert isinstance(hard, Discard) and hard.card.rank != 13 and hard.card.rank != 7
    assert hard in legal


def test_live_outs_count_unseen_copies_of_the_cards_that_complete_a_meld() -> None:
    unseen = Counter((c.rank, c.suit) for c in parse_cards("kh ks 9h 9h 3c"))
    assert live_outs(parse_cards("kc kd"), unseen) == 2
    assert live_outs(parse_cards("8h 10h"), unseen) == 2  # both copies of 9h
    assert live_outs(parse_cards("2c 4c"), unseen) == 1
    assert live_outs(parse_cards("qh ah"), unseen) == 0  # no around-the-ace gap
    king = Counter({(13, parse_card("kc").suit): 1})
    assert live_outs(parse_cards("qc kc"), king) == 0 and live_outs(parse_cards("jc qc"), king) == 1
    assert live_outs(parse_cards("ac 2c"), king) == 0  # no wrap around the ace


@pytest.mark.parametrize(
    ("pair", "ace", "wanted"),
    [
        ("qc kc", AceMode.LOW, "jc"),
        ("qc kc", AceMode.HIGH_OR_LOW, "jc ac"),
        ("kc ac", AceMode.LOW, ""),
        ("kc ac", AceMode.HIGH_OR_LOW, "qc"),
        ("kc ac", AceMode.AROUND, "qc 2c"),
        ("qc ac", AceMode.HIGH_OR_LOW, "kc"),
        ("ac 2c", AceMode.HIGH_OR_LOW, "3c"),
        ("ac 2c", AceMode.AROUND, "kc 3c"),
        ("kc 2c", AceMode.HIGH_OR_LOW, ""),
        ("kc 2c", AceMode.AROUND, "ac"),
        ("5c 7c", AceMode.AROUND, "6c"),
    ],
)
def test_completions_follow_the_ace_rule(pair: str, ace: AceMode, wanted: str) -> None:
    """basic-rummy.de.txt: "Im Standardspiel sind Asse niedrig. A-2-3 ist ein gültiger
    Lauf, Q-K-A jedoch nicht" (LOW); "so dass Q-K-A auch ein gültiger Lauf ist"
    (HIGH_OR_LOW, the ace rule of Rummy 500, German Rommé and the Romanian tiles);
    "„Um die Ecke“ -Läufe mit einem Ass in der Mitte (K-A-2)" (AROUND)."""
    a, b = parse_cards(pair)
    assert meld_completions(a, b, ace) == {(c.rank, c.suit) for c in parse_cards(wanted)}
    assert meld_completions(b, a, ace) == meld_completions(a, b, ace)


def test_live_outs_and_feed_risk_see_the_ace_after_the_king_where_it_may_stand() -> None:
    """Q-K waits for the ace where Q-K-A is a run, and an ace fed to a hand holding Q-K
    completes it; with aces low neither counts."""
    unseen = Counter({(1, parse_card("ac").suit): 2})
    assert live_outs(parse_cards("qc kc"), unseen, AceMode.LOW) == 0
    assert live_outs(parse_cards("qc kc"), unseen, AceMode.HIGH_OR_LOW) == 2
    partners = list(parse_cards("qc kc 5h 9d"))
    ace = parse_card("ac")
    assert feed_risk(ace, partners, 4, AceMode.LOW) == 0.0
    assert feed_risk(ace, partners, 4, AceMode.HIGH_OR_LOW) == 1.0
    assert feed_risk(ace, partners, 2, AceMode.HIGH_OR_LOW) > 0.0
    assert feed_risk(parse_card("2c"), partners, 4, AceMode.AROUND) == 0.0
    assert feed_risk(parse_card("jc"), partners, 4, AceMode.LOW) == 1.0


def test_feed_risk_grows_with_the_next_hand_and_the_partners_left() -> None:
    unseen = list(parse_cards("7c 7d 8h 9h 2s 3d 4d qc"))
    seven = parse_card("7h")
    assert feed_risk(seven, unseen, 0) == 0.0
    assert 0.0 < feed_risk(seven, unseen, 2) < feed_risk(seven, unseen, 6) <= 1.0
    assert feed_risk(parse_card("kh"), unseen, 6) == 0.0  # no partner unseen
    assert feed_risk(JOKER, unseen, 1) == 1.0


def test_race_key_prefers_fewer_cards_outside_melds() -> None:
    state = _deal(["5h 6h 7h 9c kd 2s 3s", "ac 2h 3h 4d 6s 6c 10d"], "qh", "3c 4c 8s")
    state, _ = apply(state, Draw(0))
    view = view_for(state, 0)
    unseen = unseen_cards(view)
    melded, single = parse_card("6h"), parse_card("9c")
    assert race_key(view, single, unseen, {}) < race_key(view, melded, unseen, {})


def _rehidden(state: GameState, seat: int, rng: random.Random) -> GameState:
    """``state`` with every card hidden from ``seat`` (other hands, the stock and, when
    the pile is not public, the discards under the top card) dealt again at random into
    the same places."""
    public = state.rules.var.discard_pile_public(state.rules)
    buried = () if public or not state.discard else state.discard[:-1]
    others = [s for s in range(state.seats) if s != seat]
    pool = [c for s in others for c in state.hands[s]] + list(state.stock) + list(buried)
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in others:
        hands[s], pool = tuple(pool[: len(hands[s])]), pool[len(hands[s]) :]
    stock, pool = tuple(pool[: len(state.stock)]), pool[len(state.stock) :]
    discard = state.discard if public or not state.discard else (*pool, state.discard[-1])
    return replace(state, hands=tuple(hands), stock=stock, discard=discard)


@pytest.mark.parametrize("variant", ["basic", "500", "german", "romanian"])
def test_hidden_cards_of_other_seats_change_nothing_it_is_given(variant: str) -> None:
    """At every decision of seat 0 in a game, the hidden cards of the other seats are
    dealt again (consistent with seat 0's view): the view and the legal list it is given
    stay the same, and so does its decision."""
    state = new_game(make_rules(variant), ["ana", "ben"], seed=4)
    rng = random.Random(4)
    players = [make_ai("hard", 1), make_ai("greedy", 2)]
    checked = 0
    for _ in range(400):
        if is_over(state):
            break
        if state.phase is Phase.HAND_OVER:
            state, _ = apply(state, legal_actions(state, 0)[0])
            continue
        seat = state.current
        view, legal = view_for(state, seat), legal_actions(state, seat)
        action = players[seat].decide(view, legal)
        if seat == 0:
            other = _rehidden(state, 0, rng)
            assert other != state or not state.stock
            assert view_for(other, 0) == view
            assert legal_actions(other, 0) == legal
            assert make_ai("hard", 1).decide(view_for(other, 0), legal) == make_ai(
                "hard", 1
            ).decide(view, legal)
            checked += 1
        state, _ = apply(state, action)
    assert checked >= 10


def test_outside_rummy_500_it_changes_only_the_greedy_discards() -> None:
    """Basic Rummy games of greedy players: at every decision the hard player makes the
    greedy choice unless both are discards."""
    differ = 0
    for _, greedy, hard in decisions("basic", 6):
        if isinstance(greedy, Discard):
            assert isinstance(hard, Discard)
            differ += hard != greedy
        else:
            assert hard == greedy
    assert differ > 0


def test_rummy_500_it_holds_melds_back_while_the_others_hold_many_cards() -> None:
    """rummy-500.de.txt: "Deshalb würden Sie normalerweise Ihre -4--5--6 noch nicht melden,
    sondern würden warten": where the greedy player melds or lays off without going out
    and owing no card, the hard player discards while the other player holds more than
    HOLD_WHILE_OTHERS_HOLD cards, and plays the same move once it holds fewer."""
    held = played = 0
    for state, greedy, hard in decisions("500", 12):
        if not isinstance(greedy, MeldCards | LayOff):
            continue
        extra = view_for(state, state.current).table.extra
        assert isinstance(extra, PublicExtra)
        used = (
            sum(len(g) for g in greedy.groups)
            if isinstance(greedy, MeldCards)
            else len(greedy.cards)
        )
        if extra.must_play is not None or used >= len(state.hands[state.current]) - 1:
            assert hard == greedy
        elif len(state.hands[1 - state.current]) > HOLD_WHILE_OTHERS_HOLD:
            assert isinstance(hard, Discard)
            held += 1
        else:
            assert hard == greedy
            played += 1
    assert held > 0 and played > 0


def test_rummy_500_it_draws_instead_of_a_deep_take_that_fills_its_hand() -> None:
    """A take from deep in the pile of more than DEEP_TAKE_LIMIT cards (rummy-500.de.txt:
    "alle Karten oberhalb ... der Karte, die Sie melden wollen") becomes a draw; smaller
    takes stay the greedy player's."""
    refused = kept = 0
    for state, greedy, hard in decisions("500", 12):
        if not (isinstance(greedy, TakeDiscard) and greedy.card is not None):
            continue
        if len(taken_cards(state.discard, greedy)) > DEEP_TAKE_LIMIT:
            assert hard == Draw(state.current)
            refused += 1
        else:
            assert hard == greedy
            kept += 1
    assert refused > 0 and kept > 0
