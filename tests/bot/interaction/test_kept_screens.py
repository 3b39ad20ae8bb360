"""The seat screens a chat front end keeps for hand steps without a table load
(:mod:`bot.interaction.kept_screens`): the newest screen per seat wins, a late older
update never replaces it, and a control is carried out here only on the very screen it
was drawn on (its table version and hand digest)."""

from __future__ import annotations

from dataclasses import replace

from bot.interaction.hand import hand_digest
from bot.interaction.kept_screens import KeptScreens
from bot.ports.model import Status
from bot.ports.screens import SeatScreen, TableScreen, TableUpdate
from tests.bot.interaction.test_hand_session import _screen


def _update(screen: SeatScreen) -> TableUpdate:
    return TableUpdate(TableScreen(screen.info, None), (screen,))


def _at(screen: SeatScreen, version: int) -> SeatScreen:
    table = replace(screen.view.table, version=version)
    return replace(screen, view=replace(screen.view, table=table))


def test_a_late_older_update_keeps_the_newer_screen() -> None:
    screen = _screen("basic", 7, 4)
    newer, older = _at(screen, 12), _at(screen, 11)
    kept = KeptScreens()
    kept.keep(_update(newer))
    kept.keep(_update(older))
    assert kept.get(screen.info.id, screen.user_key) is newer
    kept.keep(_update(_at(screen, 13)))
    found = kept.get(screen.info.id, screen.user_key)
    assert found is not None and found.view.table.version == 13


def test_a_control_is_stepped_only_on_the_screen_it_was_drawn_on() -> None:
    screen = _at(_screen("german", 3, 6), 20)
    kept = KeptScreens()
    kept.keep(_update(screen))
    table, user = screen.info.id, screen.user_key
    digest = hand_digest(screen.view.hand)
    assert kept.drawn_at(table, user, 20, digest) is screen
    assert kept.drawn_at(table, user, 20, "") is screen  # drawn before digests
    assert kept.drawn_at(table, user, 20, None) is screen
    assert kept.drawn_at(table, user, 19, digest) is None  # another version
    assert kept.drawn_at(table, user, 20, digest + "x") is None  # another hand
    assert kept.drawn_at(table + 1, user, 20, digest) is None  # another table
    assert kept.drawn_at(table, user + "x", 20, digest) is None  # another person


def test_the_memory_is_bounded() -> None:
    screen = _screen("basic", 1, 2)
    kept = KeptScreens(size=3)
    for table_id in range(10):
        info = replace(screen.info, id=table_id)
        kept.keep(_update(replace(screen, info=info)))
    assert [kept.get(t, screen.user_key) is not None for t in range(10)] == [False] * 7 + [True] * 3


def test_an_ended_table_keeps_no_screen_even_when_an_older_update_comes_late() -> None:
    """A control of a finished or cancelled game's last screen must reach the service (which
    says the game is over), so nothing of that table is kept any more."""
    screen = _at(_screen("basic", 5, 3), 30)
    playing = replace(screen, info=replace(screen.info, version=40))
    kept = KeptScreens()
    kept.keep(_update(playing))
    other = replace(playing, info=replace(playing.info, id=playing.info.id + 1))
    kept.keep(_update(other))
    ended = replace(playing.info, status=Status.CANCELLED, version=41)
    kept.keep(TableUpdate(TableScreen(ended, None), ()))
    table, user = playing.info.id, playing.user_key
    assert kept.get(table, user) is None
    assert kept.drawn_at(table, user, 30, hand_digest(playing.view.hand)) is None
    kept.keep(_update(playing))  # the version-40 update, delivered after the end
    assert kept.get(table, user) is None
    assert kept.get(other.info.id, user) is other  # another table is untouched
