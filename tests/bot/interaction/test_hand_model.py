"""The hand model over random reachable states of every variant (hypothesis).

- every move the model offers, for any selection, is accepted by the engine
  (:func:`engine.game.can`), and so is every hint;
- every legal action of the seat is reachable from the model: selecting exactly its hand
  cards offers it (a move), or it is offered whatever is selected (a control or a pile
  card);
- the first player's forced discard offers only discards (romanian-rummy.de.txt: the first
  player "beginnt das Spiel, indem er einen Stein ablegt").
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.i18n import use_locale
from bot.interaction.hand import (
    Group,
    SortMode,
    hand_cards,
    mask_of,
    model_of,
    order_cards,
)
from bot.ports.model import ChatKey, Seat, SeatKind, Status, TableInfo, TableSettings
from bot.service.engine_work import pressed_offer, seat_facts
from engine.actions import Discard
from engine.dealing import new_game
from engine.game import apply, can, current_player, legal_actions
from engine.rules import make_rules
from engine.state import GameState, Phase
from engine.views import view_for
from tests.examples import share

NAMES = ["ana", "ben", "cem"]
VARIANTS = ("basic", "500", "german", "romanian")


def _info(state: GameState) -> TableInfo:
    seats = tuple(Seat(SeatKind.HUMAN, n, f"t:{n}") for n in state.players)
    return TableInfo(
        1,
        ChatKey("t", "1"),
        Status.PLAYING,
        state.rules.variant,
        None,
        (),
        "t:ana",
        seats,
        TableSettings(),
        state.version,
    )


def _reach(variant: str, seed: int, steps: int) -> GameState:
    """A state reached by ``steps`` random legal actions (melds preferred now and then, so
    tables fill up) from a fresh deal of ``variant``."""
    rng = random.Random(seed)
    state = new_game(make_rules(variant), NAMES, seed=seed)
    for _ in range(steps):
        seat = current_player(state)
        if seat is None:
            if state.phase is Phase.GAME_OVER:
                break
            seat = 0
        legal = legal_actions(state, seat)
        if not legal:
            break
        state, _events = apply(state, rng.choice(legal))
    return state


@settings(max_examples=share(0.4))
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 30),
    sort=st.sampled_from(list(SortMode)),
    masks=st.lists(st.integers(0, 2**20), max_size=4),
)
def test_offers_are_legal_and_every_legal_move_is_reachable(
    variant: str, seed: int, steps: int, sort: SortMode, masks: list[int]
) -> None:
    state = _reach(variant, seed, steps)
    info = _info(state)
    with use_locale("en"):
        for seat in range(len(NAMES)):
            view = view_for(state, seat)
            facts = seat_facts(state, seat, seed)
            legal, suggestion, melds = list(facts.legal), facts.suggestion, facts.melds
            order = order_cards(view.hand, sort, melds)
            assert sorted(map(str, order)) == sorted(map(str, view.hand))
            for mask in [0, *masks]:
                model = model_of(info, view, legal, suggestion, mask=mask, sort=sort, melds=melds)
                for number, offer in enumerate(model.offers):
                    assert can(state, offer.action), offer  # type: ignore[arg-type]
                    assert offer.label
                    # the worker resolves a pressed number to the offer the screen showed
                    assert (
                        pressed_offer(
                            state, seat, mask & ((1 << len(order)) - 1), int(sort), number, seed
                        )
                        == offer.action
                    )
                if model.hint is not None:
                    assert model.hint.action in legal
                    assert can(state, model.hint.action)  # type: ignore[arg-type]
            for action in legal:
                used = hand_cards(action)
                mask = mask_of(order, used or ())
                model = model_of(info, view, legal, suggestion, mask=mask, sort=sort, melds=melds)
                found = model.moves if used else (*model.controls, *model.pile)
                assert action in [o.action for o in found], action
            if legal and suggestion is None:
                raise AssertionError("a seat with legal moves got no hint")


def test_forced_first_discard_offers_only_discards() -> None:
    """Romanian: after pre-play the first player may only discard; the hand offers only
    the discards, one per selected tile, and says so."""
    state = new_game(make_rules("romanian"), NAMES, seed=3)
    seat = current_player(state)
    assert seat is not None
    for _ in range(20):  # pre-play: everybody says ready
        legal = legal_actions(state, seat)
        ready = [a for a in legal if type(a).__name__ == "Ready"]
        if not ready:
            break
        state, _events = apply(state, ready[0])
        seat = current_player(state)
        assert seat is not None
    legal = legal_actions(state, seat)
    assert legal and all(isinstance(a, Discard) for a in legal)
    view = view_for(state, seat)
    with use_locale("en"):
        model = model_of(
            _info(state),
            view,
            legal,
            legal[0],
            mask=mask_of(order_cards(view.hand, SortMode.SUIT), [view.hand[0]]),
        )
        assert [o.action for o in model.moves] == [Discard(seat, view.hand[0])]
        assert not model.controls and not model.pile
        assert model.phase_line == "Your turn: discard a tile."  # a tile game


def test_preplay_controls_only_during_preplay() -> None:
    """Romanian pre-play moves (doubla, offer, ready) are controls of the seat to act
    before the first discard, and gone once play began."""
    state = new_game(make_rules("romanian"), NAMES, seed=5)
    seat = current_player(state)
    assert seat is not None
    view = view_for(state, seat)
    with use_locale("en"):
        legal = legal_actions(state, seat)
        model = model_of(_info(state), view, legal, None)
        names = {type(o.action).__name__ for o in model.controls}
        assert "Ready" in names
        assert all(o.group is Group.CONTROL for o in model.controls)
        assert model.phase_line.startswith("Before play")
        for _ in range(20):
            legal = legal_actions(state, seat)
            ready = [a for a in legal if type(a).__name__ == "Ready"]
            if not ready:
                break
            state, _events = apply(state, ready[0])
            seat = current_player(state)
            assert seat is not None
        for other in range(len(NAMES)):
            later = model_of(
                _info(state), view_for(state, other), legal_actions(state, other), None
            )
            assert not any(type(o.action).__name__ == "Ready" for o in later.controls)
            assert not later.phase_line.startswith("Before play")
