"""Commands and cards in the reader's language (bot/i18n/notation.py): every German word
shown is read back by the command language, and a suggested move written in German is the
same move (issue 37: "verbs shown are the German ones (English stays accepted as an
alias), hints in German verbs and card names")."""

from __future__ import annotations

import random

import pytest

from bot.i18n import use_locale
from bot.i18n.notation import GERMAN_VERBS, action_text, card_text, command_text, verb_word
from bot.interaction.commands import TABLE_VERBS
from engine.cards import CARD_SUITS, TILE_COLOURS, Card
from engine.commands import canonical_verb, parse_command
from engine.dealing import new_game
from engine.game import apply, legal_actions
from engine.rules import make_rules


def test_every_german_word_is_read_as_its_verb() -> None:
    for verb, words in GERMAN_VERBS.items():
        for word in words:
            assert canonical_verb(word) == verb or TABLE_VERBS.get(word) == verb, word


@pytest.mark.parametrize(
    ("variant", "preset"),
    [("basic", None), ("basic", "wrotham"), ("500", None), ("german", None), ("romanian", None)],
)
def test_german_moves_read_back_as_the_same_action(variant: str, preset: str | None) -> None:
    """Random play: each legal move written as a German command (``abwerfen dhe``) parses
    to that very move."""
    rules = make_rules(variant, preset)
    tiles = rules.var.uses_tiles
    state = new_game(rules, ["ana", "ben"], seed=5)
    rng = random.Random(5)
    checked = 0
    for _step in range(120):
        legal = [a for seat in range(2) for a in legal_actions(state, seat)]
        if not legal:
            break
        for action in legal[:40]:
            with use_locale("de"):
                text = action_text(action, tiles)
            assert parse_command(text, action.seat) == action, text
            checked += 1
        state = apply(state, rng.choice(legal))[0]
    assert checked > 100


def test_german_screens_write_german_ranks() -> None:
    with use_locale("de"):
        assert [card_text(Card(rank, CARD_SUITS[2])) for rank in (1, 11, 12, 13)] == [
            "A♥",
            "B♥",
            "D♥",
            "K♥",
        ]
        assert card_text(Card(12, TILE_COLOURS[0])) == "🔴12"
        assert verb_word("discard") == "abwerfen"
        assert command_text("discard qh") == "abwerfen dhe"
    with use_locale("en"):
        assert card_text(Card(12, CARD_SUITS[2])) == "Q♥"
        assert command_text("discard qh") == "discard qh"
