"""The fair deal as every table shows it (bot.render.text: the chat table messages, the
terminal and the web page's lines all draw the public table with it).

docs/fairness.md: "Before the first move of the deal, the table shows the deal's
commitment: the SHA-256 of the deck order and the secret. When the deal ends, the secret
is revealed (score sheet, game record)." Issue: "first 16 hex digits shown, the whole hash
in the record".
"""

from __future__ import annotations

import hashlib

import pytest

from bot.i18n import use_locale
from bot.render.text import fair_line, render_hand_end, render_table
from engine.ai import make_ai
from engine.dealing import new_game
from engine.game import apply, current_player, legal_actions
from engine.records import export_record, revealed_deals
from engine.rules import make_rules
from engine.state import GameState, Phase
from engine.views import public_view, view_for

KEY = bytes(range(32))


def _to_deal_end(state: GameState) -> GameState:
    players = [make_ai("greedy", seed=seat) for seat in range(len(state.players))]
    for _ in range(2_000):
        if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            return state
        seat = current_player(state)
        assert seat is not None
        action = players[seat].decide(view_for(state, seat), legal_actions(state, seat))
        state, _events = apply(state, action)
    raise AssertionError("the deal did not end")


@pytest.mark.parametrize("variant", ["basic", "500", "german", "romanian"])
@pytest.mark.parametrize("locale", ["en", "de"])
def test_the_table_shows_the_commitment_and_the_score_sheet_reveals_the_secret(
    variant: str, locale: str
) -> None:
    state = new_game(make_rules(variant), ["ana", "ben"], seed=5, fair_key=KEY)
    assert state.commitment is not None and state.deal_secret is not None
    secret_hex = state.deal_secret.hex()
    with use_locale(locale):
        table = render_table(public_view(state))
    assert state.commitment[:16] in table
    assert state.commitment not in table  # the table shows 16 digits; the record holds 64
    assert secret_hex not in table  # the secret is not shown before the deal ends
    ended = _to_deal_end(state)
    result = ended.results[-1]
    assert result.secret == secret_hex and result.commitment == state.commitment
    with use_locale(locale):
        sheet = render_hand_end(public_view(ended))
    assert result.secret in sheet and state.commitment[:16] in sheet
    assert ("Geheimnis der Runde 1" if locale == "de" else "Deal 1's secret") in sheet


def test_the_commitment_is_the_sha256_of_the_deck_and_the_secret() -> None:
    """docs/fairness.md: "The commitment is the SHA-256 of this text (UTF-8, two lines,
    each ending in a newline): <the deck's cards separated by single spaces> <the secret
    in lowercase hex>"."""

    state = new_game(make_rules("basic"), ["ana", "ben"], seed=5, fair_key=KEY)
    record = export_record(
        state.rules, ["ana", "ben"], 5, state.dealer, [], fair=revealed_deals(state)
    )
    deal = record["deals"][0]["deal"] if "deals" in record else record["deal"]
    text = " ".join(deal["deck"]) + "\n" + deal["secret"] + "\n"
    assert hashlib.sha256(text.encode()).hexdigest() == state.commitment
    with use_locale("en"):
        assert fair_line(public_view(state)) == (f"Fair deal · commitment {state.commitment[:16]}")


def test_a_deal_without_a_secret_shows_no_fair_line() -> None:
    state = new_game(make_rules("basic"), ["ana", "ben"], seed=5)
    with use_locale("en"):
        assert fair_line(public_view(state)) is None
        assert "commitment" not in render_table(public_view(state))
