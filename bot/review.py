"""``rummy-bot review FILE [--seat N]``: the coach's notes on every deal of a game record.

Reads a game record (the JSON that ``rummy-bot simulate --record`` and the bot's
``export`` write), replays it and prints, for the seat chosen (every seat when none is),
per deal the moves where the expert's alternative was clearly better
(:func:`engine.ai.coach.review_record`, :mod:`bot.render.coach`), or one line saying none
was. The review runs in this process (a command-line tool, no event loop to keep free).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.i18n import _
from bot.i18n.errors import localize_error
from bot.record_files import load_record
from bot.render.coach import deal_review_text
from engine.ai.coach import review_record
from engine.commands import find_player
from engine.errors import EngineError
from engine.records import RecordError, ReplayStopped, read_record

__all__ = ["SEED", "BadSeat", "review_file"]

SEED = 0
"""The coach's seed: the same record gives the same notes every time."""


class BadSeat(Exception):
    """``--seat`` names no seat of the record: ``text`` as given, ``players`` at the table."""

    def __init__(self, text: str, players: tuple[str, ...]) -> None:
        super().__init__(text)
        self.text = text
        self.players = players


def _seat(text: str, players: tuple[str, ...]) -> int:
    """The 0-based seat of ``--seat`` (1-based number or a player's name)."""
    if text.strip().isdigit():
        number = int(text.strip())
        if 1 <= number <= len(players):
            return number - 1
        raise BadSeat(text, players)
    try:
        return find_player(text, players)
    except EngineError:
        raise BadSeat(text, players) from None


def review_file(path: str, seat: str | None, write: Callable[[str], object]) -> tuple[int, str]:
    """Review the record in ``path`` (see the module docstring), writing each deal's text
    with ``write`` (blank lines between). Returns (exit code, error line): (0, "") when
    every deal was reviewed, (2, one localized line) for a file that cannot be read, a
    record that does not replay or a seat not at the table. Call inside ``use_locale``."""
    try:
        record = load_record(path)
        players = read_record(record).players
        seats = range(len(players)) if seat is None else [_seat(seat, players)]
        first = True
        for number in seats:
            for review in review_record(record, number, seed=SEED):
                if not first:
                    write("")
                write(deal_review_text(review, players))
                first = False
    except RecordError as error:
        return 2, localize_error(error)
    except ReplayStopped as stop:
        return 2, _("The record does not replay: {error}").format(error=localize_error(stop.error))
    except BadSeat as error:
        return 2, _("--seat takes a number from 1 to {count} or a name: {names}.").format(
            count=len(error.players), names=", ".join(error.players)
        )
    except EngineError as error:  # rules of the record that do not exist
        return 2, localize_error(error)
    return 0, ""
