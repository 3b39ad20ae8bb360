"""Errors of the game service: typed, with stable codes, localised by the adapters
(:func:`bot.i18n.errors.localize_error`). A service error changes nothing."""

from __future__ import annotations

from bot.ports.model import ChatKey
from engine.errors import EngineError


class ServiceError(EngineError):
    """Base class of the service's refusals."""

    code = "service_error"
    template = "{detail}"


class NoTable(ServiceError):
    """The chat has no lobby or game."""

    code = "no_table"
    template = "there is no game here; start one with 'new'"


class TableBusy(ServiceError):
    """The table kept changing under this move (other moves won the race several times,
    e.g. another bot process); nothing was applied, the player may send it again."""

    code = "table_busy"
    template = "the table is busy; please try again"


class TableExists(ServiceError):
    """The chat already has a lobby or game."""

    code = "table_exists"
    template = "there is already a game here"


class NotHost(ServiceError):
    """Only the host (or a chat admin) may do this."""

    code = "not_host"
    template = "only the host can {action}"


class NotSeated(ServiceError):
    """The user has no seat at this table."""

    code = "not_seated"
    template = "you are not playing at this table"


class AlreadySeated(ServiceError):
    """The user already sits at this table."""

    code = "already_seated"
    template = "you are already at this table"


class TableFull(ServiceError):
    """No free seat for the variant."""

    code = "table_full"
    template = "the table is full ({seats} seats)"


class NotEnoughPlayers(ServiceError):
    """The game cannot start with this many seats."""

    code = "not_enough_players"
    template = "{variant} needs {minimum} to {maximum} players, there are {seats}"


class NotInLobby(ServiceError):
    """Lobby changes once the game runs."""

    code = "not_in_lobby"
    template = "the game has already started"


class NotPlaying(ServiceError):
    """Game moves before the game started."""

    code = "not_playing"
    template = "the game has not started yet"


class BadSetting(ServiceError):
    """An unknown table setting or a bad value (timer, language)."""

    code = "bad_setting"
    template = "{name}: '{value}' is not allowed, expected {accepts}"


class NoSuchSeason(ServiceError):
    """``top season N`` for a rating season that has not started."""

    code = "no_such_season"
    template = "season {season} has not started; the current season is {current}"


class SeasonStillEmpty(ServiceError):
    """``season new`` while no game of the chat was rated in its running season yet (a
    second press, or two people at once): it goes on, nothing changes."""

    code = "season_still_empty"
    template = "season {season} has no rated game yet; it goes on"


class BadSeasonWord(ServiceError):
    """``season`` without ``new`` or with another word: the usage ``season new``."""

    code = "bad_season_word"
    template = "'{word}' is not understood; to start a new season: season new"


class NoSuchSeat(ServiceError):
    """A seat number that does not exist or is no AI seat."""

    code = "no_such_seat"
    template = "there is no AI at seat {seat}"


class NotFinished(ServiceError):
    """A record of a game that is still running would show every hand (its seed)."""

    code = "not_finished"
    template = "a game can be exported once it is over"


class EngineTimeout(ServiceError):
    """The engine did not finish this move within its budget (the bot is busy, or the
    position is unusually hard); nothing changed, the player may send it again."""

    code = "engine_timeout"
    template = "that took too long to check; nothing changed, please try again"


class NoHintInTime(ServiceError):
    """No hint was found within the budget for this position."""

    code = "no_hint_in_time"
    template = "no hint was found in time for this hand"


class NotYourTable(ServiceError):
    """``#<table>`` names a table the user does not sit at (or none)."""

    code = "not_your_table"
    template = "you are not playing at table #{table}"


class TooManyTables(ServiceError):
    """The user already sits at the most active tables one person may have."""

    code = "too_many_tables"
    template = "you already play at {limit} tables; finish or leave one first"


class StorageUnavailable(ServiceError):
    """The database refused the write or read (locked by another program, disk full,
    read-only file); nothing changed, the player may send it again later."""

    code = "storage_unavailable"
    template = "the game could not be saved just now; nothing changed, please try again"


class TableLocked(StorageUnavailable):
    """A row the change needs stayed locked longer than the database's lock timeout (a
    worker stopped inside a transaction), or a statement ran over its time limit; nothing
    changed. A person is asked to try again; the scheduler backs off that table only."""


class UnreadableTable(ServiceError):
    """The stored table ``table`` cannot be loaded (written by another release, or
    damaged); it is set aside, the operator is told (``rummy-bot faults``) and so is its
    chat, once (:class:`bot.service.faults.TableFaults`). What the storage could still
    read of the row, to tell the chat: its chat ``key`` and language (``locale``: the
    table's setting, else ``None``) and its ``host``'s user key; ``reason``: what failed
    (for the operator)."""

    code = "unreadable_table"
    template = "this table cannot be loaded (table #{table}); the operator has been told"

    def __init__(
        self,
        table: int,
        key: ChatKey | None = None,
        locale: str | None = None,
        host: str | None = None,
        reason: str = "",
    ) -> None:
        super().__init__(table=table)
        self.table_id = table
        self.key = key
        self.locale = locale
        self.host = host
        self.reason = reason


class TableFromNewerRelease(UnreadableTable):
    """The stored table was written by a newer release of the bot."""

    code = "table_from_newer_release"
    template = (
        "table #{table} was saved by a newer version of the bot and cannot be loaded by this one"
    )


class AILevelUnavailable(ServiceError):
    """An AI level whose player the engine does not offer (yet)."""

    code = "ai_level_unavailable"
    template = "the {level} AI is not available yet"


class StaleControl(ServiceError):
    """A control drawn for an older table version or another hand: nothing was done; the
    person gets the fresh screen."""

    code = "stale_control"
    template = "the table has changed since; look again and press once more if it still fits"


class UnknownOffer(ServiceError):
    """An offer number the hand screen it names never listed (a forged or garbled
    control): nothing was done."""

    code = "unknown_offer"
    template = "that button is not in use (any more); here is your hand again"


class ReplayRefused(ServiceError):
    """A replay that cannot be given (:func:`bot.service.replays.replay_of`); nothing was
    changed. ``refusal`` is the front ends' code of it, one of
    :data:`bot.ports.replays.REPLAY_REFUSALS` (the web table's JSON answers with it)."""

    code = "replay_refused"
    refusal = "no_table"


class NothingToReplay(ReplayRefused):
    """The table is unknown, or its game never started."""

    code = "nothing_to_replay"
    template = "there is no game of that table to replay"


class ReplayNotAllowed(ReplayRefused):
    """The person neither sat at the table nor may watch it."""

    code = "replay_not_allowed"
    template = "you neither played at that table nor may watch it"
    refusal = "not_at_table"


class NoDealOver(ReplayRefused):
    """The game runs and none of its deals is over yet: a running game replays only the
    deals already over."""

    code = "no_deal_over"
    template = "no deal of that table is over yet; a deal can be replayed once it is"
    refusal = "no_deal"


class ReplayDamaged(ReplayRefused):
    """The stored record does not load or does not replay; ``detail`` (optional) is the
    engine's reason, already in the person's language."""

    code = "replay_damaged"
    template = "the stored record of that table cannot be replayed; nothing was changed"
    refusal = "damaged"


class ReplayBusy(ReplayRefused):
    """No engine worker replayed the record within the budget."""

    code = "replay_busy"
    template = "the replay could not be prepared now; try again in a moment"
    refusal = "busy"
