"""The hand session's reducer (:mod:`bot.interaction.hand_session`) over random reachable
states of every variant (hypothesis):

- a sort keeps exactly the selected cards selected, whatever the order before and after;
- a selection of cards the hand holds is taken as it is; one naming cards beyond the hand
  leaves the session unchanged;
- clear selects nothing; the order stays;
- a hint selects exactly the cards of the suggested move (one of the legal moves) and keeps
  the order; a screen whose engine did not answer in time finds nothing and changes nothing.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.i18n import use_locale
from bot.interaction.hand import hand_cards, order_cards, selected_cards
from bot.interaction.hand_session import (
    Clear,
    HandSession,
    HintFound,
    SelectCards,
    ShowHint,
    SortBy,
    sort_named,
    step,
)
from bot.ports.hand import SortMode
from bot.ports.screens import SeatScreen
from bot.service.engine_work import seat_facts
from engine.game import current_player
from engine.views import view_for
from tests.bot.interaction.test_hand_model import VARIANTS, _info, _reach
from tests.examples import share

SORTS = st.sampled_from(list(SortMode))


def _screen(variant: str, seed: int, steps: int, complete: bool = True) -> SeatScreen:
    state = _reach(variant, seed, steps)
    seat = current_player(state)
    seat = 0 if seat is None else seat
    facts = seat_facts(state, seat, seed)
    if not complete:
        facts = type(facts)(complete=False)
    return SeatScreen(_info(state), seat, "t:ana", view_for(state, seat), facts, "en")


@settings(max_examples=share(0.5), deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 30),
    before=SORTS,
    after=st.one_of(st.none(), SORTS),
    bits=st.integers(0, (1 << 80) - 1),
)
def test_sort_keeps_the_selected_cards(
    variant: str, seed: int, steps: int, before: SortMode, after: SortMode | None, bits: int
) -> None:
    screen = _screen(variant, seed, steps)
    order = order_cards(screen.view.hand, before, screen.facts.melds)
    mask = bits & ((1 << len(order)) - 1)
    with use_locale("en"):
        stepped = step(screen, HandSession(before, mask), SortBy(after))
    expected_sort = before.next() if after is None else after
    assert stepped.session.sort is expected_sort
    assert Counter(stepped.model.selected) == Counter(selected_cards(order, mask))
    assert stepped.model.sort is expected_sort and stepped.model.mask == stepped.session.mask


@settings(max_examples=share(0.5), deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 30),
    sort=SORTS,
    bits=st.integers(0, (1 << 90) - 1),
)
def test_select_takes_a_selection_of_the_hand_and_ignores_one_beyond_it(
    variant: str, seed: int, steps: int, sort: SortMode, bits: int
) -> None:
    screen = _screen(variant, seed, steps)
    size = len(screen.view.hand)
    before = HandSession(sort, 1 if size else 0)
    with use_locale("en"):
        stepped = step(screen, before, SelectCards(bits))
        cleared = step(screen, stepped.session, Clear())
    if bits < 1 << size:
        assert stepped.session == HandSession(sort, bits)
    else:
        assert stepped.session == before
    assert cleared.session == HandSession(sort, 0) and cleared.model.selected == ()
    assert stepped.found is None and cleared.found is None


@settings(max_examples=share(0.5), deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 30),
    sort=SORTS,
)
def test_hint_selects_the_suggested_move(
    variant: str, seed: int, steps: int, sort: SortMode
) -> None:
    screen = _screen(variant, seed, steps)
    with use_locale("en"):
        stepped = step(screen, HandSession(sort), ShowHint())
    suggestion = screen.facts.suggestion
    if suggestion is None:
        assert stepped.found is HintFound.NONE and stepped.hint is None
        assert stepped.session == HandSession(sort)
        return
    assert stepped.found is HintFound.MOVE and stepped.hint is not None
    assert stepped.hint.action == suggestion and suggestion in screen.facts.legal
    assert stepped.session.sort is sort
    assert Counter(stepped.model.selected) == Counter(hand_cards(suggestion) or ())


def test_hint_without_the_engines_answer_finds_nothing() -> None:
    screen = _screen("basic", 7, 3, complete=False)
    session = HandSession(SortMode.RANK, 0b101)
    with use_locale("en"):
        stepped = step(screen, session, ShowHint())
    assert stepped.found is HintFound.NOT_IN_TIME and stepped.hint is None
    assert stepped.session == session


def test_sort_words_of_both_languages() -> None:
    """``sort suit|rank|melds`` (``colour`` for tiles; German: farbe, rang, meldungen); any
    other word or none: the next order."""
    assert [sort_named(w) for w in ("suit", "Farbe", "RANK", "rang", "melds", "meldungen")] == [
        SortMode.SUIT,
        SortMode.SUIT,
        SortMode.RANK,
        SortMode.RANK,
        SortMode.MELDS,
        SortMode.MELDS,
    ]
    assert sort_named("colour") is SortMode.SUIT  # tiles
    assert sort_named(None) is None and sort_named("wild") is None
