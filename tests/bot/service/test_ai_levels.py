"""AI levels: ``addbot easy|normal|hard|expert`` (bot/service/ai_levels.py), shown in the
lobby."""

from __future__ import annotations

import pytest

from bot.i18n import gettext, use_locale
from bot.ports.model import SeatKind
from bot.ports.table_rules import DEFAULT_LEVEL, level_of
from bot.render.lobby import LEVEL_NAMES, render_lobby
from bot.service.ai_levels import LEVELS, ai_kind, level_word
from bot.service.engine_work import ai_move
from bot.service.errors import AILevelUnavailable, BadSetting
from engine.ai import ExpertPlayer, HardPlayer, UnknownAI, make_ai
from engine.dealing import new_game
from engine.game import legal_actions
from engine.rules import make_rules
from tests.bot.people import say

from .support import ANA, BEN, CHAT, Harness


def test_levels_map_to_engine_players() -> None:
    assert LEVELS["easy"] == "random" and LEVELS["normal"] == "greedy"
    assert LEVELS["hard"] == "hard" and LEVELS["expert"] == "expert"
    assert level_word("Experte") == "expert" and level_of("expert") == "expert"
    assert DEFAULT_LEVEL == "normal"
    assert level_word(None) == "normal" and level_word("Schwer") == "hard"
    assert level_word("greedy") == "normal" and level_word("random") == "easy"
    assert level_of("greedy") == "normal" and level_of("random") == "easy"
    with pytest.raises(BadSetting):
        level_word("brilliant")


def test_hard_plays_the_engines_hard_player() -> None:
    assert ai_kind("hard") == "hard" and ai_kind("schwer") == "hard"
    assert isinstance(make_ai(ai_kind("hard"), 1), HardPlayer)


def test_expert_plays_the_engines_expert_player() -> None:
    assert ai_kind("expert") == "expert" and ai_kind("profi") == "expert"
    assert isinstance(make_ai(ai_kind("expert"), 1), ExpertPlayer)
    with use_locale("de"):
        assert gettext(LEVEL_NAMES["expert"]) == "Experte"


def test_a_level_the_engine_lacks_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(LEVELS, "hard", "superhuman")
    with pytest.raises(UnknownAI):
        make_ai("superhuman")
    with pytest.raises(AILevelUnavailable):
        ai_kind("hard")


async def test_addbot_levels_in_the_lobby(harness: Harness) -> None:
    s = harness.people
    await say(s, CHAT, ANA, "new")
    assert (await say(s, CHAT, ANA, "addbot easy")).ok
    assert (await say(s, CHAT, ANA, "addbot")).ok
    info = await s.table_info(CHAT)
    assert info is not None
    ais = [seat.ai for seat in info.seats if seat.kind is SeatKind.AI]
    assert ais == ["random", "greedy"]
    with use_locale("en"):
        text = render_lobby(info)
    assert "(AI, easy)" in text and "(AI, normal)" in text
    with use_locale("de"):
        assert "(KI, leicht)" in render_lobby(info)
    version = info.version
    bad = await say(s, CHAT, ANA, "addbot superb")
    assert not bad.ok and bad.text is not None and "superb" in bad.text
    assert (await say(s, CHAT, ANA, "addbot hard")).ok
    info = await s.table_info(CHAT)
    assert info is not None and info.version > version
    assert [x.ai for x in info.seats if x.kind is SeatKind.AI] == ["random", "greedy", "hard"]
    with use_locale("en"):
        assert "(AI, hard)" in render_lobby(info)


async def test_addbot_expert_in_the_lobby_and_its_move_in_the_engine_worker(
    harness: Harness,
) -> None:
    s = harness.people
    await say(s, CHAT, ANA, "new")
    assert (await say(s, CHAT, ANA, "addbot experte")).ok
    info = await s.table_info(CHAT)
    assert info is not None
    assert [x.ai for x in info.seats if x.kind is SeatKind.AI] == ["expert"]
    with use_locale("en"):
        text = render_lobby(info)
    assert "(AI, expert)" in text and "addbot easy, normal, hard or expert" in text
    with use_locale("de"):
        assert "(KI, Experte)" in render_lobby(info)
    state = new_game(make_rules("basic"), ["ana", "ada"], seed=5, dealer=0)
    action, after, _, _ = ai_move(state, 1, "expert", [None, "expert"], 11)
    assert action in legal_actions(state, 1) and after.version == state.version + 1


async def test_an_unavailable_level_is_refused_in_the_players_language(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = harness.people
    monkeypatch.setitem(LEVELS, "hard", "superhuman")
    await say(s, CHAT, ANA, "new")
    refused = await say(s, CHAT, ANA, "addbot hard")
    assert not refused.ok and refused.private
    assert refused.text == "The hard AI is not available yet; pick easy, normal, hard or expert."
    await say(s, CHAT, BEN, "join")
    assert (await say(s, CHAT, ANA, "lang de")).ok
    refused = await say(s, CHAT, ANA, "addbot schwer")
    assert refused.text == (
        "Die KI-Stufe hard gibt es noch nicht; wähle leicht, normal, schwer oder experte."
    )
    after = await s.table_info(CHAT)
    assert after is not None and not [x for x in after.seats if x.kind is SeatKind.AI]
