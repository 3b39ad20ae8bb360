"""The coach's notes as text (bot/render/coach.py): every reason has its own sentence in
English and German, with German card names in German."""

from __future__ import annotations

import pytest

from bot.i18n import use_locale
from bot.render.coach import deal_review_text, note_text, reason_text
from engine.actions import Discard, Draw
from engine.ai.coach import CoachNote, DealReview, Reason, ReasonKind
from engine.cards import parse_card, parse_cards
from engine.dealing import DealSpec, new_game
from engine.game import apply
from engine.rules import make_rules
from engine.views import PlayerView, view_for

ENGLISH = ("Why", "You:", "The expert", "Your hand", "Upcard", "Table", "hands won", "Deal")


def _view() -> PlayerView:
    hands = ["7h 8h 9h qh 5c 5d 5s 2s 3s js", "ac 2c 3d 6s 6d 9c jd qs kh 4c"]
    deal = DealSpec.parse(hands, "3c", "kd 4d 5h")
    state = new_game(make_rules("basic"), ["ana", "ben"], seed=1, dealer=1, deal=deal)
    state, _ = apply(state, Draw(0))
    return view_for(state, 0)


def _reason(kind: ReasonKind) -> Reason:
    cards = {
        ReasonKind.TAKE_FITS: parse_cards("qh js 10h"),
        ReasonKind.TAKE_UNUSED: parse_cards("qh"),
        ReasonKind.DEADWOOD: parse_cards("qh js"),
        ReasonKind.KEEPS_OUTS: parse_cards("qh 9h"),
    }.get(kind, parse_cards("qh 7h 8h 9h"))
    seat = 1 if kind in (ReasonKind.FEEDS, ReasonKind.FEEDS_TABLE) else None
    return Reason(kind, cards, points=10, count=2, seat=seat)


@pytest.mark.parametrize("kind", list(ReasonKind))
def test_every_reason_has_a_sentence_in_both_languages(kind: ReasonKind) -> None:
    view = _view()
    reason = _reason(kind)
    with use_locale("en"):
        english = reason_text(reason, view)
        fallback = reason_text(Reason(ReasonKind.PLAYOUTS), view)
    with use_locale("de"):
        german = reason_text(reason, view)
    assert english != german
    if kind is not ReasonKind.PLAYOUTS:
        assert english != fallback
        assert "Q♥" in english and "D♥" in german and "Q♥" not in german
    if reason.seat is not None:
        assert "ben" in english and "ben" in german


def _note() -> CoachNote:
    view = _view()
    return CoachNote(
        deal=2,
        turn=3,
        version=view.table.version,
        view=view,
        chosen=Discard(0, parse_card("8h")),
        better=Discard(0, parse_card("qh")),
        loss=0.4,
        error=0.1,
        win_chance=0.25,
        points=12.0,
        playouts=8,
        reason=Reason(ReasonKind.BREAKS_MELD, parse_cards("8h 7h 9h")),
    )


def test_a_note_shows_where_the_position_the_moves_and_why() -> None:
    with use_locale("en"):
        text = note_text(_note())
    lines = text.splitlines()
    assert lines[0] == "Deal 2, your turn 3:"
    assert lines[1].startswith("  Your hand: ") and "Q♥" in lines[1]
    assert lines[2] == "  Upcard: 3♣"
    assert lines[3] == "  Table: no melds"
    assert lines[4] == "  You: Discard 8♥"
    assert lines[5] == "  The expert: Discard Q♥ (about +25 % of hands won, +12 points)"
    assert lines[6] == "  Why: 8♥ belonged to your meld 7♥ 8♥ 9♥."


def test_a_note_in_german_has_no_english_words() -> None:
    with use_locale("de"):
        text = note_text(_note())
        review = deal_review_text(DealReview(2, 0, (_note(),), 10, 4), ("ana", "ben"))
        empty = deal_review_text(DealReview(1, 0, (), 10, 0), ("ana", "ben"))
    assert "D♥ abwerfen" in text and "Warum: 8♥ gehörte zu deiner Meldung 7♥ 8♥ 9♥." in text
    assert review.startswith("Runde 2, ana: 1 Zug, den der Experte anders gespielt hätte.")
    assert empty == "Runde 1, ana: kein Zug war deutlich schlechter als der des Experten."
    for word in ENGLISH:
        assert word not in text and word not in review
