"""Bot tables keep Basic Rummy finite: the text's own suggestion to limit how often the
discard pile becomes the stock (basic-rummy.de.txt: "Ich schlage vor, dass, nachdem der
Vorrat zum dritten Mal erschöpft ist, das Spiel enden sollte")."""

from __future__ import annotations

from bot.i18n import use_locale
from bot.ports.table_rules import table_rules
from bot.render.lobby import render_lobby
from engine.actions import Draw
from engine.ai import make_ai
from engine.dealing import new_game
from engine.game import apply, current_player, is_over, legal_actions
from engine.views import view_for
from tests.bot.people import say

from .support import ANA, CHAT, Harness


def test_basic_tables_reuse_the_discard_pile_twice_unless_chosen_otherwise() -> None:
    assert table_rules("basic", None).get("reuses") == 2
    assert table_rules("basic", "beginner").get("reuses") == 2
    assert table_rules("basic", "block").get("reuses") == 0  # the preset decides
    assert table_rules("basic", None, {"reuses": "unlimited"}).get("reuses") is None
    assert table_rules("basic", None, {"reuses": "5"}).get("reuses") == 5


def test_romanian_tables_rebuild_the_wall_twice_unless_chosen_otherwise() -> None:
    """romanian-rummy.de.txt ends a game without a winner "wenn alle Steine von der Mauer
    gezogen worden sind"; the wall is rebuilt from the row twice before that."""
    assert table_rules("romanian", None).get("renewals") == 2
    assert table_rules("romanian", None, {"renewals": "unlimited"}).get("renewals") is None


def test_other_variants_keep_their_defaults() -> None:
    """Rummy 500 ends the deal when the stock is empty; German Rommé shuffles the pile
    (rummy-500.de.txt, german-romme.de.txt): nothing to limit."""
    for variant in ("500", "german"):
        rules = table_rules(variant, None)
        assert rules.changed() == {}, variant


def test_the_stock_is_drawn_from_at_most_three_times_over() -> None:
    """Random players (who meld only by chance) with the table default: a deal ends after
    the stock ran out for the third time, so no deal draws more than the first stock and
    two piles' worth (52 cards each); with unlimited reuse the same players draw up to
    ~400 times in one deal."""
    rules = table_rules("basic", None, {"deals": "1", "target": "none"})
    for seed in range(8):
        state = new_game(rules, ["a", "b"], seed=seed)
        first_stock = len(state.stock)
        players = [make_ai("random", seed=seed * 2 + s) for s in range(2)]
        draws = 0
        while not is_over(state):
            seat = current_player(state)
            assert seat is not None
            action = players[seat].decide(view_for(state, seat), legal_actions(state, seat))
            draws += isinstance(action, Draw)
            state, _events = apply(state, action)
            assert draws <= first_stock + 2 * 52, f"seed {seed} drew {draws} times"


async def test_the_lobby_shows_the_table_default(harness: Harness) -> None:
    await say(harness.service, CHAT, ANA, "new")
    info = await harness.people.table_info(CHAT)
    assert info is not None
    with use_locale("en"):
        assert "reuses=2" in render_lobby(info)
    table = await harness.service.repo.active_table(CHAT)
    assert table is not None and harness.people.rules_of(table.info()).get("reuses") == 2
