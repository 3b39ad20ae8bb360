"""The coach never reveals: every card a coach note names (the position, the move taken,
the better move, the reason) is one the seat could see at that moment: its hand, the
discard pile as its view showed it, the melds on the table (issue 46: "a coach text names
only cards that person could see at that moment")."""

from __future__ import annotations

from collections.abc import Iterable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import Action, Discard, LayOff, MeldCards, SwapJoker, TakeDiscard
from engine.ai.coach import CoachBudget, CoachNote, Decision, explain, review_deal
from engine.ai.expert import candidates
from engine.ai.hard import HardPlayer
from engine.cards import Card
from engine.views import PlayerView
from tests.engine.test_coach import decisions_of

BUDGET = CoachBudget(deals=3, actions=30, screen=2)
TINY = CoachBudget(deals=2, actions=20, screen=2)
VARIANTS = ("basic", "500", "german", "romanian")


def visible(view: PlayerView) -> set[Card]:
    """The cards ``view`` shows its seat: hand, visible discards, melds (cards and the
    faces jokers stand for) and a variant's open tile (Romanian face-up tile)."""
    table = view.table
    cards = set(view.hand) | set(table.discard)
    for meld in table.melds:
        for placed in meld.cards:
            cards.add(placed.card)
            cards.add(placed.face)
    face_up = getattr(table.extra, "face_up", None)
    if isinstance(face_up, Card):
        cards.add(face_up)
    return cards


def named(action: Action, view: PlayerView) -> Iterable[Card]:
    """The cards a move names: those it takes, melds, lays off, swaps or discards (the
    upcard for a take of the top card). What a joker of the seat's own meld stands for
    (``🃏(3)``) is the seat's declaration, not a card, and is not counted."""
    match action:
        case TakeDiscard(card=None):
            return [view.table.upcard] if view.table.upcard is not None else []
        case TakeDiscard(card=card) if card is not None:
            return [card]
        case Discard(card=card) | SwapJoker(card=card):
            return [card]
        case MeldCards(groups=groups):
            return [s.card for g in groups for s in g]
        case LayOff(cards=cards):
            return [s.card for s in cards]
    return []


def assert_private(note: CoachNote, decision: Decision) -> None:
    view = decision.view
    assert note.view == view  # the position is the seat's own view before the move
    seen = visible(view)
    cards = [
        *note.reason.cards,
        *named(note.chosen, view),
        *named(note.better, view),
    ]
    assert set(cards) <= seen, (set(cards) - seen, note)
    assert note.reason.seat is None or note.reason.seat != view.seat


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 10_000),
    kind=st.sampled_from(("random", "greedy")),
)
def test_every_card_a_note_names_is_in_the_seats_view(variant: str, seed: int, kind: str) -> None:
    """Over deals of every variant (seat 0 played at random or by the greedy player, so
    that moves are worse; seat 1 the hard player): every note names only cards of the
    seat's view, and so does every reason the coach could give (each decision against
    each of the expert's candidates)."""
    decisions = decisions_of(variant, seed, (kind, "hard"))
    by_view = {d.view: d for d in decisions}
    for note in review_deal(decisions, seed=seed, budget=TINY):
        assert_private(note, by_view[note.view])
    for d in decisions:
        if d.view.table.current != d.view.seat:
            continue
        hard = HardPlayer(seed).decide(d.view, d.legal)
        for better in candidates(d.view, d.legal, hard):
            reason = explain(d.view, d.chosen, better)
            assert set(reason.cards) <= visible(d.view), (reason, d.view.hand)


def test_the_property_covers_every_variant_with_notes() -> None:
    """The property has teeth: in these deals of every variant there are notes."""
    for variant, seed in (("basic", 0), ("500", 3), ("german", 0), ("romanian", 0)):
        decisions = decisions_of(variant, seed, ("random", "hard"))
        notes = review_deal(decisions, seed=seed, budget=BUDGET)
        by_view = {d.view: d for d in decisions}
        for note in notes:
            assert_private(note, by_view[note.view])
        assert notes, variant
