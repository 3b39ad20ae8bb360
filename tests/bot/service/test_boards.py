"""``top``: the skill-rating boards (docs/ratings.md, "Boards"), on SQLite and PostgreSQL.

Issue: "`top` (per chat) and a global board per variant rank by it, with a minimum of rated
games"; "past seasons' standings stay viewable (`top season 3`)"; "Bad input: `top season
x`, a season that does not exist ...: one clear line in the person's language, nothing
changed."
"""

from __future__ import annotations

import pytest

from bot.i18n import use_locale
from bot.ports.model import ChatKey, UserRef
from bot.service.boards import MIN_RATED_GAMES, BoardAsk, board_words
from bot.service.errors import BadSetting
from tests.bot.people import say
from tests.bot.test_storage_ratings import finish_game

from .support import Harness

HERE = ChatKey("test", "boards")
ELSEWHERE = ChatKey("test", "other")
ANA = UserRef("test", "1", "Ana", "en")
ANA_KEY, BEN_KEY, CEM_KEY, DIA_KEY = "test:1", "test:2", "test:3", "test:4"


async def _games(h: Harness) -> None:
    """Three basic games here (Ana beats Ben each time, an AI seat beside them) and three
    elsewhere (Cem beats Dia)."""
    repo = h.service.repo
    for _ in range(MIN_RATED_GAMES):
        await finish_game(repo, [ANA_KEY, BEN_KEY, None], [120, 10, 40], chat=HERE)
        await finish_game(repo, [CEM_KEY, DIA_KEY], [200, 0], chat=ELSEWHERE)


def test_board_words() -> None:
    assert board_words([]) == BoardAsk()
    assert board_words(["Global", "german", "season", "2"]) == BoardAsk(True, "german", 2)
    assert board_words(["saison", "3", "alle"]) == BoardAsk(True, None, 3)
    for words in (["season", "x"], ["season"], ["season", "0"], ["season", "١"], ["wins"]):
        with pytest.raises(BadSetting):
            board_words(words)
    with pytest.raises(BadSetting):
        board_words(["basic", "german"])  # one variant


async def test_the_chats_board_and_the_global_board_rank_by_rating(harness: Harness) -> None:
    await _games(harness)
    here = await say(harness.people, HERE, ANA, "top")
    lines = (here.text or "").splitlines()
    assert lines[0] == "Best players here · Basic Rummy · season 1 (skill rating):"
    assert [line.split(":")[0] for line in lines[1:3]] == ["1. P0", "2. P1"]
    assert lines[3].startswith("AI seats for comparison: easy 12.0 ·")  # where the levels stand
    assert lines[1].endswith("(3 rated games)")
    ana = float(lines[1].split(": ")[1].split(" ")[0])
    ben = float(lines[2].split(": ")[1].split(" ")[0])
    assert ana > ben  # Ana won every game
    everywhere = await say(harness.people, HERE, ANA, "top global basic")
    lines = (everywhere.text or "").splitlines()
    assert lines[0] == "Best players everywhere · Basic Rummy · season 1 (skill rating):"
    assert lines[-1] == "AI seats for comparison: easy 12.0 · normal 22.0 · hard 27.0 · expert 28.0"
    assert len(lines) == 6 and {line.split(":")[0][3:] for line in lines[1:-1]} == {
        "P0",
        "P1",
        "P2",
        "P3",
    }  # the four people of both chats
    # the operator's seasons are the global board's: past ones stay viewable; the chat's
    # board keeps the chat's own seasons (tests/bot/service/test_chat_seasons.py)
    await harness.service.repo.start_season(harness.clock.now() + 60)
    assert (await say(harness.people, HERE, ANA, "top global")).text == everywhere.text  # not yet
    harness.clock.advance(61)
    old = await say(harness.people, HERE, ANA, "top global season 1")
    assert old.text == everywhere.text
    new = await say(harness.people, HERE, ANA, "top global")
    assert (new.text or "").startswith("Nobody has 3 rated games of Basic Rummy in season 2 yet.")
    assert "Best players everywhere:" in (new.text or "")  # the board by wins, meanwhile
    assert (await say(harness.people, HERE, ANA, "top")).text == here.text


async def test_bad_board_words_are_refused_in_the_persons_language(harness: Harness) -> None:
    await _games(harness)
    refused = await say(harness.people, HERE, ANA, "top season 7")
    assert not refused.ok and refused.text == ("Season 7 has not started; the current season is 1.")
    refused = await say(harness.people, HERE, ANA, "top season x")
    assert not refused.ok and refused.text == ("season: 'x' is not allowed; expected 1, 2, 3, ....")
    assert (await say(harness.people, HERE, ANA, "lang de")).ok
    refused = await say(harness.people, HERE, ANA, "top saison 9")
    assert refused.text == "Saison 9 hat noch nicht begonnen; die laufende Saison ist 1."
    board = await say(harness.people, HERE, ANA, "rangliste")
    assert (board.text or "").startswith("Die Besten hier · Einfaches Rommé · Saison 1 (Wertung):")
    with use_locale("de"):
        assert "(3 gewertete Partien)" in (board.text or "")


async def test_stats_name_the_ai_levels_met(harness: Harness) -> None:
    """Issue 46: "the stats and leaderboard say which level an AI seat played"."""
    await _games(harness)
    await finish_game(harness.service.repo, [ANA_KEY, "ai:expert"], [0, 150], chat=HERE)
    stats = await say(harness.people, HERE, ANA, "stats")
    assert (stats.text or "").splitlines()[-1] == (
        "Against AI seats: normal 3 games, 3 won · expert 1 game, 0 won"
    )
    german = await say(harness.people, HERE, UserRef("test", "1", "Ana", "de"), "statistik")
    assert (german.text or "").splitlines()[-1] == (
        "Gegen KI-Plätze: normal 3 Spiele, 3 gewonnen · Experte 1 Spiel, 0 gewonnen"
    )
