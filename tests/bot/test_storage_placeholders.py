"""The PostgreSQL backend runs the SQLite repository's statements with their parameters
rewritten from ``?`` / ``?N`` to ``$n`` (:func:`bot.storage.postgres.to_postgres`). The
rewrite reads the SQL with a lexer: a ``?`` in a string literal, a quoted identifier or a
comment is text, not a parameter (issue 34: splitting on every ``?`` broke such
statements). The same statements give the same rows on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.storage import open_database
from bot.storage.postgres import PostgresRepository, open_postgres, to_postgres
from bot.storage.repository import SqliteRepository


def test_a_question_mark_in_a_string_literal_is_text() -> None:
    assert (
        to_postgres("SELECT 'why?', ? FROM t WHERE a = ?")
        == "SELECT 'why?', $1 FROM t WHERE a = $2"
    )
    # a doubled quote stays inside the literal
    assert to_postgres("SELECT 'it''s ?', ?") == "SELECT 'it''s ?', $1"


def test_a_question_mark_in_a_quoted_identifier_is_text() -> None:
    assert (
        to_postgres('SELECT "who?" FROM t WHERE "a?b" = ?')
        == 'SELECT "who?" FROM t WHERE "a?b" = $1'
    )


def test_a_question_mark_in_a_comment_is_text() -> None:
    assert (
        to_postgres("SELECT ? -- how many?\n, ? /* and ? here */ FROM t")
        == "SELECT $1 -- how many?\n, $2 /* and ? here */ FROM t"
    )


def test_numbered_parameters_keep_their_number() -> None:
    assert (
        to_postgres("UPDATE t SET a = ?2 WHERE id = ?1 AND b = ?2")
        == "UPDATE t SET a = $2 WHERE id = $1 AND b = $2"
    )


def test_a_bare_parameter_after_numbered_ones_takes_the_next_number_as_in_sqlite() -> None:
    # SQLite: "?" takes one more than the largest parameter number already assigned
    assert to_postgres("SELECT ?3, ?, ?1, ?") == "SELECT $3, $4, $1, $5"
    assert to_postgres("SELECT ?1, ?1, ?") == "SELECT $1, $1, $2"
    assert to_postgres("SELECT ?-1") == "SELECT $1-1"  # "? - 1", not parameter -1


def test_a_named_parameter_is_refused() -> None:
    with pytest.raises(ValueError, match=":who"):
        to_postgres("SELECT * FROM t WHERE a = :who")
    with pytest.raises(ValueError, match=r"\$who"):
        to_postgres("SELECT * FROM t WHERE a = $who")


def test_the_translation_is_cached_per_sql_text() -> None:
    sql = "SELECT ? AS cached_probe"
    to_postgres(sql)
    hits = to_postgres.cache_info().hits
    assert to_postgres(sql) == "SELECT $1 AS cached_probe"
    assert to_postgres.cache_info().hits == hits + 1


_TEXT = st.text(alphabet=st.sampled_from("abcXYZ019 _,.;()=<>*+-/|'\"\n\t%#[]"), max_size=60)


@given(_TEXT)
def test_sql_without_parameters_comes_back_unchanged(sql: str) -> None:
    """The rewrite puts the lexer's tokens back together: every character survives, even
    in text that is no valid SQL (an unclosed quote)."""
    assert to_postgres(sql) == sql


@given(st.lists(st.sampled_from(["'?'", '"q?"', "-- ?\n", "/* ? */", "?", " x "]), max_size=12))
def test_only_the_parameters_outside_literals_and_comments_are_numbered(parts: list[str]) -> None:
    expected: list[str] = []
    number = 0
    for part in parts:
        if part == "?":
            number += 1
            expected.append(f"${number}")
        else:
            expected.append(part)
    assert to_postgres(" ".join(parts)) == " ".join(expected)


@pytest.fixture(params=["sqlite", "postgres"])
async def repo(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Any]:
    """A fresh repository on each backend."""
    if request.param == "sqlite":
        db: Any = await open_database(tmp_path / "placeholders.sqlite3")
        yield SqliteRepository(db)
    else:
        db = await open_postgres(request.getfixturevalue("pg_server").create())
        yield PostgresRepository(db)
    await db.close()


async def test_literals_with_question_marks_run_on_both_backends(repo: Any) -> None:
    await repo.execute_one('CREATE TABLE notes ("id?" INTEGER, note TEXT, kind TEXT)')
    async with repo._transaction() as conn:
        await conn.execute("INSERT INTO notes VALUES (?, 'why?', ?) -- one row?", (1, "a"))
        await conn.executemany(
            "INSERT INTO notes VALUES (?2, /* ? */ 'it''s ?', ?1)", [("b", 2), ("c", 3)]
        )
    rows = await repo.fetch_all(
        'SELECT "id?", note, kind FROM notes WHERE note <> ? AND kind <> \'?\' ORDER BY "id?"',
        ("none?",),
    )
    assert [tuple(row) for row in rows] == [
        (1, "why?", "a"),
        (2, "it's ?", "b"),
        (3, "it's ?", "c"),
    ]
