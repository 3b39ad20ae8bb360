"""The out-of-turn call buttons of the table message (Rummy 500's "Rommé!"), the same on
every platform: only while the variant's public view names seats that may call."""

from __future__ import annotations

from bot.i18n import use_locale
from bot.interaction.calls import public_calls, variant_verbs
from engine.actions import Discard, Draw
from engine.dealing import new_game
from engine.game import apply, current_player, legal_actions
from engine.rules import make_rules
from engine.views import public_view


def test_rummy_500_offers_the_call_only_while_someone_may_call() -> None:
    """rummy-500.de.txt: after a discard the other players may call "Rommé!" before the
    next player draws."""
    state = new_game(make_rules("500"), ["ana", "ben", "cem"], seed=4)
    assert public_calls(public_view(state)) == []  # nobody discarded yet
    seat = current_player(state)
    assert seat is not None
    state, _events = apply(state, Draw(seat))
    discard = next(a for a in legal_actions(state, seat) if isinstance(a, Discard))
    state, _events = apply(state, discard)
    view = public_view(state)
    assert view.extra.may_call
    with use_locale("de"):
        calls = public_calls(view)
    assert [(c.verb, c.label) for c in calls] == [("call", "Rommé!")]
    assert variant_verbs("500")[calls[0].number].verb == "call"


def test_other_variants_have_no_call_buttons() -> None:
    for variant in ("basic", "german", "romanian"):
        state = new_game(make_rules(variant), ["ana", "ben"], seed=1)
        assert public_calls(public_view(state)) == [], variant
