"""The chat command language reads every table verb, in English and German, into the typed
request of that verb (a closed union, bot/ports/intents.py), and every other line into a
move or an unknown word."""

from __future__ import annotations

import typing

import pytest

from bot.interaction.commands import MAX_COMMAND, VERBS, parse, request_of
from bot.ports.intents import (
    AddAI,
    Configure,
    Move,
    OpenTable,
    RemoveAI,
    Request,
    ShowHand,
    TooLong,
    Unknown,
)


@pytest.mark.parametrize("name", sorted(VERBS))
def test_every_table_verb_and_alias_reads_into_its_own_request(name: str) -> None:
    request = request_of(name)
    assert request.verb == name
    for word in (name, *VERBS[name].aliases):
        assert type(parse(f"/{word}")) is type(request), word


def test_every_request_kind_is_made_by_the_language_or_a_control() -> None:
    """Each member of the union has a verb name of its own (the game record's command
    column and the logs use it)."""
    kinds = typing.get_args(Request)
    names = [kind.verb for kind in kinds]
    assert len(set(names)) == len(names) == len(kinds)


def test_words_are_kept_where_the_service_reads_them() -> None:
    assert parse("new 500 jokers=off") == OpenTable(("500", "jokers=off"))
    assert parse("einstellungen timer=2m") == Configure(("timer=2m",))
    assert parse("addbot hard") == AddAI("hard")
    assert parse("ki") == AddAI(None)
    assert parse("removebot 3") == RemoveAI("3")
    assert parse("hand melds") == ShowHand(grouped=True)
    assert parse("hand") == ShowHand(grouped=False)


def test_other_lines_are_moves_or_unknown() -> None:
    assert parse("meld 7h 8h 9h") == Move(("meld", "7h", "8h", "9h"))
    assert parse("/DRAW@RummyBot") == Move(("draw",))
    assert parse("   ") == Unknown("")
    assert parse("x" * (MAX_COMMAND + 1)) == TooLong()
    assert request_of("fly") == Unknown("fly")
