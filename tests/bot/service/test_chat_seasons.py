"""``season new``: a chat's rating seasons (docs/ratings.md, "Seasons"), through the
service on SQLite and PostgreSQL.

Issue 47: "Seasons: a chat's host (or the operator for the global board) starts a new
season; past seasons' standings stay viewable (`top season 3`)"; "Bad input: ... one clear
line in the person's language, nothing changed."
"""

from __future__ import annotations

from bot.ports.model import ChatKey, UserRef
from bot.service.boards import MIN_RATED_GAMES
from tests.bot.people import say
from tests.bot.test_storage_ratings import finish_game

from .support import Harness

HERE = ChatKey("test", "seasons")
ELSEWHERE = ChatKey("test", "elsewhere")
ANA = UserRef("test", "1", "Ana", "en")
BEN = UserRef("test", "2", "Ben", "en")
CEM = UserRef("test", "3", "Cem", "en")


async def _games(
    h: Harness, first: str, second: str, chat: ChatKey = HERE, totals: tuple[int, ...] = (120, 10)
) -> None:
    """:data:`MIN_RATED_GAMES` basic games in ``chat`` hosted by ``first`` (seat 0, named
    P0; ``second`` P1, an AI seat beside them), the seats' ``totals`` (the first wins)."""
    for _ in range(MIN_RATED_GAMES):
        await finish_game(h.service.repo, [first, second, None], [*totals, 40], chat=chat)


async def test_the_host_starts_a_new_season_and_the_old_one_stays_viewable(
    harness: Harness,
) -> None:
    await _games(harness, ANA.key, BEN.key)
    await _games(harness, CEM.key, BEN.key, chat=ELSEWHERE)
    before = await say(harness.people, HERE, ANA, "top")
    assert (before.text or "").startswith("Best players here · Basic Rummy · season 1")
    elsewhere = await say(harness.people, ELSEWHERE, CEM, "top")
    everywhere = await say(harness.people, HERE, ANA, "top global")

    started = await say(harness.people, HERE, ANA, "season new")
    assert started.ok
    lines = (started.text or "").splitlines()
    assert lines[0] == "Season 1 is over. Final standings:"
    board = (before.text or "").splitlines()
    assert board[-1].startswith("AI seats for comparison:")
    assert lines[1:-1] == board[:-1]  # the standings, without the AI levels' line
    assert lines[-1] == ("Season 2 begins now; see it with top, the last one with top season 1.")
    # season 2 is empty until games finish; season 1 stays viewable
    now = await say(harness.people, HERE, ANA, "top")
    assert (now.text or "").startswith("Nobody has 3 rated games of Basic Rummy in season 2 yet.")
    assert (await say(harness.people, HERE, BEN, "top season 1")).text == before.text
    refused = await say(harness.people, HERE, ANA, "top season 3")
    assert not refused.ok
    assert refused.text == "Season 3 has not started; the current season is 2."
    # other chats and the global board keep their seasons
    assert (await say(harness.people, ELSEWHERE, CEM, "top")).text == elsewhere.text
    assert (await say(harness.people, HERE, ANA, "top global")).text == everywhere.text

    await _games(harness, ANA.key, BEN.key, totals=(10, 120))  # Ben wins season 2
    board = (await say(harness.people, HERE, ANA, "top")).text or ""
    lines = board.splitlines()
    assert lines[0] == "Best players here · Basic Rummy · season 2 (skill rating):"
    assert len(lines) == 4 and lines[1].endswith("(3 rated games)")
    rows = await harness.service.repo.rating_board("basic", 2, MIN_RATED_GAMES, 10, str(HERE))
    assert [row["user"] for row in rows] == [BEN.key, ANA.key]
    assert (await say(harness.people, HERE, BEN, "top season 1")).text == before.text
    assert (await say(harness.people, HERE, BEN, "rangliste saison 2")).text == board


async def test_only_the_host_or_an_admin_starts_a_season(harness: Harness) -> None:
    await _games(harness, ANA.key, BEN.key)
    before = await say(harness.people, HERE, ANA, "top")
    refused = await say(harness.people, HERE, BEN, "season new")
    assert not refused.ok and refused.text == "Only the host can start a new season."
    assert (await say(harness.people, HERE, ANA, "top")).text == before.text  # unchanged
    assert (await say(harness.people, HERE, ANA, "top season 2")).ok is False
    # a chat without any table: only an admin
    refused = await say(harness.people, ChatKey("test", "empty"), ANA, "season new")
    assert not refused.ok and refused.text == "Only the host can start a new season."
    admin = await say(harness.people, HERE, CEM, "season new", is_admin=True)
    assert admin.ok and (admin.text or "").endswith(
        "Season 2 begins now; see it with top, the last one with top season 1."
    )
    # a second press (or two people at once): the new season has no game yet, it goes on
    again = await say(harness.people, HERE, ANA, "season new")
    assert not again.ok
    assert again.text == "Season 2 has no rated game yet, so it goes on; finish a game first."
    assert (await say(harness.people, HERE, ANA, "top season 3")).ok is False
    empty = await say(harness.people, ChatKey("test", "empty"), CEM, "season new", is_admin=True)
    assert not empty.ok
    assert empty.text == "Season 1 has no rated game yet, so it goes on; finish a game first."


async def test_bad_season_words_are_refused_with_the_usage(harness: Harness) -> None:
    await _games(harness, ANA.key, BEN.key)
    before = await say(harness.people, HERE, ANA, "top")
    for line, word in (("season", "season"), ("season old", "old"), ("season new 2", "new 2")):
        refused = await say(harness.people, HERE, ANA, line)
        assert not refused.ok
        assert refused.text == f"'{word}' is not understood; to start a new season: season new"
    assert (await say(harness.people, HERE, ANA, "top")).text == before.text  # unchanged
    assert (await say(harness.people, HERE, ANA, "lang de")).ok
    refused = await say(harness.people, HERE, ANA, "saison alt")
    assert refused.text == "„alt“ verstehe ich nicht; eine neue Saison beginnt mit: saison neu"
    refused = await say(harness.people, HERE, BEN, "saison neu")
    assert refused.text == "Only the host can start a new season."  # Ben reads English
    started = await say(harness.people, HERE, ANA, "saison neu")
    lines = (started.text or "").splitlines()
    assert lines[0] == "Saison 1 ist vorbei. Endstand:"
    assert lines[1].startswith("Die Besten hier · Einfaches Rommé · Saison 1 (Wertung):")
    assert lines[-1] == (
        "Saison 2 beginnt jetzt; sie zeigt rangliste, die letzte rangliste saison 1."
    )


async def test_stats_shows_the_chats_current_season_next_to_the_global_one(
    harness: Harness,
) -> None:
    await _games(harness, ANA.key, BEN.key)
    here = (await say(harness.people, HERE, ANA, "stats")).text or ""
    lines = here.splitlines()
    assert "In this chat, season 1:" in lines
    chat_part = lines[lines.index("In this chat, season 1:") + 1 :]
    assert chat_part[-1] == "Against AI seats: normal 3 games, 3 won"  # the last line
    chat_part = chat_part[:-1]
    assert len(chat_part) == 1 and chat_part[0].startswith("Basic Rummy: rating ")
    assert f"{MIN_RATED_GAMES} rated games" in chat_part[0]
    # a new season of the chat: no rating there yet, the global one stays
    await say(harness.people, HERE, ANA, "season new")
    after = (await say(harness.people, HERE, ANA, "stats")).text or ""
    assert "In this chat" not in after and "Basic Rummy: rating " in after
    elsewhere = (await say(harness.people, ELSEWHERE, ANA, "stats")).text or ""
    assert "In this chat" not in elsewhere
