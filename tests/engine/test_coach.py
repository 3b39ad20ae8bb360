"""The coach (engine/ai/coach.py): the moves of a deal where the expert's alternative was
clearly better, with the position as the seat saw it and a reason read off that view."""

from __future__ import annotations

import pytest

from engine.actions import Action, Discard, Draw, LayOff, MeldCards, TakeDiscard
from engine.ai import make_ai
from engine.ai.coach import (
    MIN_LOSS,
    MOST_NOTES,
    SURE,
    CoachBudget,
    Decision,
    ReasonKind,
    deal_decisions,
    deal_review,
    explain,
    judge,
    record_decisions,
    review_deal,
    review_decision,
    review_record,
)
from engine.ai.hard import HardPlayer
from engine.ai.interrupt import interrupt
from engine.cards import parse_card, parse_cards, standard_deck
from engine.dealing import DealSpec, new_game
from engine.game import apply, legal_actions
from engine.records import export_record
from engine.rules import make_rules
from engine.state import GameState, Phase
from engine.views import PlayerView, view_for

SMALL = CoachBudget(deals=4, actions=40, screen=2)


def played(variant: str, seed: int, kinds: tuple[str, str]) -> tuple[list[Action], GameState]:
    """The actions of the first deal of a two-player game of ``variant`` with ``seed``,
    seat 0 and 1 played by ``kinds``, and the game's first state."""
    start = new_game(make_rules(variant), ["ana", "ben"], seed=seed)
    state = start
    players = [make_ai(kinds[0], seed), make_ai(kinds[1], seed + 1)]
    log: list[Action] = []
    for _ in range(600):
        if state.phase not in (Phase.DRAW, Phase.PLAY):
            break
        mover = state.current
        assert mover is not None
        action = interrupt(state, players, mover)
        if action is None:
            action = players[mover].decide(view_for(state, mover), legal_actions(state, mover))
        state, _ = apply(state, action)
        log.append(action)
    return log, start


def decisions_of(variant: str, seed: int, kinds: tuple[str, str]) -> list[Decision]:
    """Seat 0's decisions in :func:`played`'s deal."""
    log, state = played(variant, seed, kinds)
    steps = []
    for action in log:
        if action.seat == 0 and state.current == 0:
            steps.append((view_for(state, 0), legal_actions(state, 0), action))
        state, _ = apply(state, action)
    return deal_decisions(steps)


def decision(view: PlayerView, chosen: Action) -> Decision:
    return Decision(1, 1, view, tuple(legal_actions_of(view)), chosen)


def legal_actions_of(view: PlayerView) -> list[Action]:
    """The legal list of the stacked position (rebuilt: the view came from a state)."""
    return _LEGAL[view]


_LEGAL: dict[PlayerView, list[Action]] = {}


def position(hands: list[str], upcard: str, draw: str, preset: str | None = None) -> PlayerView:
    used = set(" ".join(hands).split()) | {upcard, draw}
    rest = [str(c) for c in standard_deck() if str(c) not in used]
    deal = DealSpec.parse(hands, upcard, " ".join([draw, *rest]))
    state = new_game(make_rules("basic", preset), ["ana", "ben"], seed=1, dealer=1, deal=deal)
    state, _ = apply(state, Draw(0))
    view = view_for(state, 0)
    _LEGAL[view] = legal_actions(state, 0)
    return view


GOING_OUT = ["7h 8h 9h 10h 5c 5d 5s 2s 3s 4s", "ac 2c 3d 6s 6d 9c jd qs kh 4c"]


def test_a_discard_that_breaks_going_out_is_noted_with_the_meld_as_better() -> None:
    """romme-basic.de.txt (the beginner preset): 'Ein Spieler "spielt Rommé", wenn er
    alle seine Karten (in einer beliebigen Kombination aus Melden, Ablegen und Ablegen)
    in einem einzigen Spielzug spielt ... werden alle Punkte für diese Hand verdoppelt.'
    With 7♥ 8♥ 9♥ 10♥, 5♣ 5♦ 5♠ and 2♠ 3♠ 4♠ in hand and K♦ drawn, discarding the 8♥
    throws that away; the coach names the meld the expert plays instead."""
    view = position(GOING_OUT, "3c", "kd", preset="beginner")
    bad = Discard(0, parse_card("8h"))
    note = review_decision(decision(view, bad), seed=3)
    assert note is not None
    assert note.chosen == bad
    assert isinstance(note.better, MeldCards)
    assert {s.card for g in note.better.groups for s in g} >= set(parse_cards("7h 8h 9h 10h"))
    assert note.reason.kind is ReasonKind.MELD
    assert set(note.reason.cards) >= set(parse_cards("7h 8h 9h 10h"))
    assert note.loss > MIN_LOSS and note.loss > SURE * note.error
    assert note.win_chance > 0.3
    assert note.view == view and note.version == view.table.version and note.seat == 0


def test_the_hard_players_own_move_is_not_reviewed() -> None:
    view = position(GOING_OUT, "3c", "kd", preset="beginner")
    legal = legal_actions_of(view)
    hard = HardPlayer(0).decide(view, legal)
    review = deal_review([Decision(1, 1, view, tuple(legal), hard)], 1, 0)
    assert review.notes == () and review.reviewed == 0 and review.decisions == 1


def test_a_discard_that_breaks_a_meld_in_hand_says_so() -> None:
    view = position(["7h 8h 9h ks qd jc 2s 4d 6c 10s", "ac 2c 3d 5s 5d 9c jd qs kh 4c"], "3c", "ah")
    reason = explain(view, Discard(0, parse_card("8h")), Discard(0, parse_card("ks")))
    assert reason.kind is ReasonKind.BREAKS_MELD
    assert reason.cards[0] == parse_card("8h")
    assert set(reason.cards) == set(parse_cards("7h 8h 9h"))


def test_a_discard_that_breaks_a_partial_meld_counts_its_live_completions() -> None:
    """7♥ 8♥ (6♥ and 9♥ unseen) is kept by discarding the K♠ instead of the 8♥: two ways."""
    view = position(["7h 8h 2c ks qd jc 2s 4d 6c 10s", "ac 3c 3d 5s 5d 9c jd qs kh 4c"], "ad", "ah")
    reason = explain(view, Discard(0, parse_card("8h")), Discard(0, parse_card("jc")))
    assert reason.kind is ReasonKind.KEEPS_OUTS
    assert set(reason.cards) == set(parse_cards("8h 7h"))
    assert reason.count == 2


def test_a_lay_off_and_a_meld_are_reasons_with_their_points() -> None:
    """The points a lay-off or meld takes out of the hand are its cards' values
    (romme-basic.de.txt: "Zahlenkarten haben einen Nennwert. Bildkarten sind jeweils 10
    Punkte wert.")."""
    view = position(GOING_OUT, "3c", "kd", preset="beginner")
    meld = MeldCards(0, ((*_specs("7h 8h 9h 10h"),),))
    reason = explain(view, Discard(0, parse_card("8h")), meld)
    assert reason.kind is ReasonKind.MELD and reason.points == 34
    lay = LayOff(0, _specs("kd"), 0)
    reason = explain(view, Discard(0, parse_card("8h")), lay)
    assert reason.kind is ReasonKind.LAY_OFF and reason.cards == (parse_card("kd"),)
    assert reason.points == 10


def test_an_upcard_that_completes_a_meld_is_the_reason_to_take_it() -> None:
    draw_view = _draw_view(["7h 8h 2c ks qd jc 2s 4d 6c 10s", "ac 3c 3d 5s 5d 9c jd qs kh 4c"])
    reason = explain(draw_view, Draw(0), TakeDiscard(0))
    assert reason.kind is ReasonKind.TAKE_FITS
    assert reason.cards[0] == parse_card("9h")
    assert set(reason.cards[1:]) == set(parse_cards("7h 8h"))


def _draw_view(hands: list[str]) -> PlayerView:
    used = set(" ".join(hands).split()) | {"9h"}
    rest = [str(c) for c in standard_deck() if str(c) not in used]
    deal = DealSpec.parse(hands, "9h", " ".join(rest))
    state = new_game(make_rules("basic"), ["ana", "ben"], seed=1, dealer=1, deal=deal)
    return view_for(state, 0)


def _specs(text: str) -> tuple:  # type: ignore[type-arg]
    from engine.melds import natural_spec

    return tuple(natural_spec(c) for c in parse_cards(text))


def test_clearly_better_needs_the_minimum_and_two_standard_errors() -> None:
    sure = [[0.0, 0.3], [0.0, 0.35], [0.0, 0.25], [0.0, 0.3]]
    assert judge(sure) is not None and judge(sure)[0] == 1  # type: ignore[index]
    small = [[0.0, MIN_LOSS / 2]] * 6
    assert judge(small) is None
    noisy = [[0.0, 1.0], [0.0, -0.8], [0.0, 1.0], [0.0, -0.6]]
    assert judge(noisy) is None
    assert judge([[0.0, 1.0]]) is None


def test_notes_are_deterministic_for_a_seed_and_at_most_three() -> None:
    decisions = decisions_of("basic", 5, ("random", "hard"))
    first = review_deal(decisions, seed=5, budget=SMALL)
    assert first  # the random player's deal has clearly worse moves
    assert first == review_deal(decisions, seed=5, budget=SMALL)
    assert len(first) <= MOST_NOTES
    assert [n.loss for n in first] == sorted((n.loss for n in first), reverse=True)


def test_a_deal_the_expert_played_gets_few_notes() -> None:
    """The expert's own moves are the hard player's unless its search found a sure gain;
    the coach re-evaluates them with other determinisations and flags at most one."""
    total = 0
    for seed in (1, 2):
        decisions = decisions_of("basic", seed, ("expert", "hard"))
        total += len(review_deal(decisions, seed=9))
    assert total <= 1


def test_record_decisions_are_the_seats_own_moves_with_its_view_before() -> None:
    log, start = played("basic", 6, ("greedy", "hard"))
    record = export_record(start.rules, start.players, 6, start.dealer, log)
    found = record_decisions(record, 1)
    assert list(found) == [1]
    decisions = found[1]
    assert decisions and all(d.view.seat == 1 and d.chosen.seat == 1 for d in decisions)
    state = start
    expected = []
    for action in log:
        if action.seat == 1 and state.current == 1:
            expected.append(view_for(state, 1))
        state, _ = apply(state, action)
    assert [d.view for d in decisions] == expected
    assert all(d.chosen in d.legal for d in decisions)
    turns = [d.turn for d in decisions]
    assert turns == sorted(turns) and turns[0] == 1
    draws = sum(1 for d in decisions if d.view.table.phase is Phase.DRAW)
    assert turns[-1] == draws


def test_review_record_reviews_one_deal_or_every_deal() -> None:
    log, start = played("basic", 6, ("random", "hard"))
    record = export_record(start.rules, start.players, 6, start.dealer, log)
    reviews = review_record(record, 0, deal=1, seed=2, budget=SMALL)
    assert len(reviews) == 1 and reviews[0].deal == 1 and reviews[0].seat == 0
    assert reviews == review_record(record, 0, seed=2, budget=SMALL)
    with pytest.raises(IndexError):
        review_record(record, 0, deal=2)
    with pytest.raises(IndexError):
        review_record(record, 5)


def test_a_german_deal_is_reviewed_with_moves_outside_the_legal_list() -> None:
    """Moves not in the legal list (a German first meld of several melds) are played out
    through the verifying apply; every note's move is one the seat made."""
    decisions = decisions_of("german", 3, ("greedy", "hard"))
    notes = review_deal(decisions, seed=1, budget=SMALL)
    made = [d.chosen for d in decisions]
    assert all(n.chosen in made for n in notes)
