"""What each request of an :class:`~bot.ports.intents.Intent` does (:class:`Handling`, one
per intent, run by :class:`bot.service.entry.EntryPoint`): the table requests of the chat
command language, game moves, and the hand screen's own requests (select, sort, hint,
offer). Requests and addresses are closed unions matched exhaustively
(:func:`table_need`, :meth:`Handling.carry_out`, :meth:`Handling.find_table`).

A handling finds its table once (:meth:`Handling.find_table`), the languages once
(:meth:`Handling.languages`), runs the request — a lobby step, a move or a question — and
builds the :class:`~bot.ports.intents.Outcome`: the reply in the person's language, their
hand model for the selection asked for, and the committed change's screens for everyone
else (:meth:`bot.service.screens.Screens.update`).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import assert_never

from cachetools import LRUCache

from bot.i18n import _, normalize_locale, use_locale
from bot.i18n.errors import localize_error
from bot.interaction.commands import (
    MAX_COMMAND,
    RULES_HINT,
    RULES_TOPICS,
    TABLE_HELP,
    CommandTooLong,
    pairs,
    seat_number,
    split_new_args,
)
from bot.interaction.hand import build_hand_model, hand_digest
from bot.interaction.hand_session import (
    HandSession,
    HandStep,
    HintFound,
    SelectCards,
    ShowHint,
    SortBy,
    Stepped,
    hint_reply,
    sort_named,
    step,
)
from bot.ports.hand import HandModel, SortMode
from bot.ports.intents import (
    AddAI,
    AtTable,
    Back,
    Cancel,
    Coach,
    Configure,
    Export,
    Help,
    Hint,
    InChat,
    Intent,
    Join,
    Leave,
    Mine,
    Move,
    NewSeason,
    OpenTable,
    Outcome,
    PlayRequest,
    PressOffer,
    Question,
    RemoveAI,
    ReplayGame,
    Reply,
    Request,
    Rules,
    Select,
    Selection,
    SetLanguage,
    ShowHand,
    Sort,
    Start,
    Stats,
    TableRequest,
    TooLong,
    Top,
    Unknown,
)
from bot.ports.model import Status, TableInfo, UserRef
from bot.ports.screens import SeatScreen
from bot.ports.table_rules import AI_LEVELS, DEFAULT_LEVEL, table_rules
from bot.render.guide import refusal_lesson
from bot.render.howto import render_how_to_play, topic_of
from bot.render.lobby import render_lobby
from bot.render.ratings import (
    against_ai_line,
    ai_reference_line,
    board_lines,
    board_title,
    nobody_rated,
    rating_line,
    season_started,
)
from bot.render.text import render_hand, render_help, render_rules
from bot.service.boards import MIN_RATED_GAMES, board_words, check_new_season
from bot.service.changes import Committed, TableChanges
from bot.service.errors import (
    BadSetting,
    NoHintInTime,
    NoSuchSeason,
    NoTable,
    NotFinished,
    NotHost,
    NotPlaying,
    NotSeated,
    NotYourTable,
    StaleControl,
    UnknownOffer,
    UnreadableTable,
)
from bot.service.lobby_steps import LobbySteps
from bot.service.model import Table
from bot.service.play import PlaySteps
from bot.service.queries import Queries
from bot.service.ratings import AI_RATINGS
from bot.service.replays import replay_choice, replay_offer_text
from bot.service.screens import Locales, Screens
from engine.errors import EngineError
from engine.variants import VARIANTS

__all__ = ["Handling", "Verbs"]


class Need(Enum):
    """What a request needs of its table (:func:`table_need`)."""

    NONE = "none"
    """No table (it may have none: ``new``, ``lang``, ``stats``, ...)."""
    ANY = "any"
    """The table when there is one (``rules``, ``help``)."""
    TABLE = "table"
    """A table, else it is refused (:class:`NoTable`)."""


def table_need(request: Request) -> Need:
    """What ``request`` needs of its table."""
    match request:
        case (
            OpenTable()
            | SetLanguage()
            | Coach()
            | Stats()
            | Top()
            | Export()
            | Unknown()
            | TooLong()
        ):
            return Need.NONE
        case NewSeason():
            return Need.NONE
        case Rules() | Help() | ReplayGame():
            return Need.ANY
        case (
            Join()
            | Leave()
            | AddAI()
            | RemoveAI()
            | Configure()
            | Start()
            | Cancel()
            | Back()
            | ShowHand()
            | Move()
            | Select()
            | Sort()
            | Hint()
            | PressOffer()
        ):
            return Need.TABLE
        case _:
            assert_never(request)


COACH_WORDS = {"on": True, "an": True, "off": False, "aus": False}
"""The words of ``coach on|off`` (German ``an|aus``)."""

STALE = (StaleControl, UnknownOffer)
"""Refusals that come with the fresh hand screen (the control was drawn for another)."""


EXPLAINED = 10_000
"""(person, variant, refusal kind) whose rule was explained, kept at most."""


@dataclass(frozen=True)
class Verbs:
    """The parts a verb acts through, and the memory of the rules explained after a first
    refusal of a kind (:meth:`Handling._lesson`)."""

    changes: TableChanges
    screens: Screens
    lobby: LobbySteps
    play: PlaySteps
    queries: Queries
    default_locale: str
    explained: LRUCache[tuple[str, str, str], None] = field(
        default_factory=lambda: LRUCache(EXPLAINED)
    )


SeatStep = Callable[[int, UserRef, str | None, Table | None], Awaitable[Committed]]
"""A step of :class:`LobbySteps` or :class:`PlaySteps` taking the table's id, the person,
the update key and the table already loaded (join, leave, start, back)."""


class Handling:
    """One intent being carried out (see the module docstring)."""

    def __init__(self, verbs: Verbs, intent: Intent) -> None:
        self.v = verbs
        self.intent = intent
        self.user = intent.user
        self.table: Table | None = None
        self.among = 1
        """Of how many of the person's tables the table was chosen (:class:`Mine`)."""
        self.locales: Locales | None = None
        self.locale = normalize_locale(intent.user.locale or verbs.default_locale)

    # --- the flow ----------------------------------------------------------------------------

    async def run(self) -> Outcome:
        """Find the table, the languages, carry the request out."""
        request = self.intent.request
        need = table_need(request)
        if need is Need.ANY:
            try:
                self.table = await self.find_table()
            except (NoTable, NotYourTable):
                self.table = None
        elif need is Need.TABLE:
            try:
                self.table = await self.find_table()
            except NoTable:
                done = await self._applied()
                if done is None:
                    raise
                self.table = done  # a late duplicate of an update that ended the table
                await self.languages()
                return self.outcome(Reply(None))
        await self.languages()
        with use_locale(self.locale):
            return await self.carry_out(request)

    async def carry_out(self, request: Request) -> Outcome:
        """What ``request`` does, at the table found (see :func:`table_need`)."""
        match request:
            case (
                OpenTable()
                | Join()
                | Leave()
                | AddAI()
                | RemoveAI()
                | Configure()
                | Start()
                | Cancel()
                | Back()
            ):
                return await self._table_request(request)
            case (
                SetLanguage()
                | Coach()
                | Stats()
                | Top()
                | Export()
                | ReplayGame()
                | ShowHand()
                | Rules()
                | Help()
            ):
                return await self._question(request)
            case NewSeason():
                return await self._question(request)
            case Move() | Select() | Sort() | Hint() | PressOffer():
                return await self._play(request)
            case Unknown():
                return self.outcome(
                    Reply(
                        _("Type help for the commands."),
                        private=True,
                        ok=False,
                        code="unknown_verb",
                    )
                )
            case TooLong():
                raise CommandTooLong(limit=MAX_COMMAND)
            case _:
                assert_never(request)

    async def _table_request(self, request: TableRequest) -> Outcome:
        match request:
            case OpenTable(words):
                return await self.new(words)
            case Join():
                return await self._seat_step(self.v.lobby.join)
            case Leave():
                return await self._seat_step(self.v.lobby.leave)
            case AddAI(level):
                return await self.addbot(level)
            case RemoveAI(word):
                return await self.removebot(word)
            case Configure(words):
                return await self.set(words)
            case Start():
                return await self._seat_step(self.v.lobby.start)
            case Cancel():
                return await self.cancel()
            case Back():
                return await self._seat_step(self.v.play.back)
            case _:
                assert_never(request)

    async def _seat_step(self, step: SeatStep) -> Outcome:
        """A lobby or seat step that needs only the table, the person and the update key
        (join, leave, start, back), committed."""
        return await self.committed(
            await step(self._where(), self.user, self.intent.update_key, self.table)
        )

    async def _question(self, request: Question) -> Outcome:
        match request:
            case SetLanguage(word):
                return await self.lang(word)
            case Coach(word):
                return await self.coach(word)
            case Stats():
                return await self.stats()
            case Top(words):
                return await self.top(words)
            case NewSeason(words):
                return await self.season(words)
            case Export():
                return await self.export()
            case ReplayGame():
                info, running = await replay_choice(
                    self.v.queries, self.table, self.intent.key, self.user
                )
                return Outcome(Reply(replay_offer_text(info, running)), self.locale, info)
            case ShowHand(grouped):
                return await self.hand(grouped)
            case Rules(topic):
                return await self.rules(topic)
            case Help(topic):
                return await self.help(topic)
            case _:
                assert_never(request)

    async def _play(self, request: PlayRequest) -> Outcome:
        match request:
            case Move():
                return await self.move(request)
            case Select():
                return await self.select()
            case Sort(word):
                return await self.sort(word)
            case Hint():
                return await self.hint()
            case PressOffer():
                return await self.offer()
            case _:
                assert_never(request)

    async def find_table(self) -> Table:
        """The table the intent's address names: a chat's (with a control's table id, that
        table, which must be the chat's), a table by id, or one of the person's own (the
        one it names, else their newest, a running game first). Raises :class:`NoTable` /
        :class:`NotYourTable`."""
        at = self.intent.at
        match at:
            case InChat(key, table_id):
                if table_id is None:
                    return await self.v.changes.load(key)
                table = await self.v.changes.load(table_id)
                if table.key != key:
                    raise NoTable()
                return table
            case AtTable(table_id):
                return await self.v.changes.load(table_id)
            case Mine(table_id):
                tables = await self.v.changes.tables_of(self.user.key)
                self.among = max(len(tables), 1)
                if table_id is not None:
                    named = next((t for t in tables if t.id == table_id), None)
                    if named is None:
                        raise NotYourTable(table=table_id)
                    return named
                if not tables:
                    raise NoTable()
                return max(tables, key=lambda t: (t.status is Status.PLAYING, t.id))
            case _:
                assert_never(at)

    async def _applied(self) -> Table | None:
        """The table this intent's update was already applied to (a redelivery)."""
        key = self.intent.update_key
        return None if key is None else await self.v.changes.applied(key)

    async def languages(self) -> None:
        """The languages of the person and the table's people and host, one query."""
        if self.locales is None:
            self.locales = await self.v.screens.locales(self.table, [self.user.key])
            self.locale = self.locales.of(self.user.key, self.user.locale)

    async def refusal(self, error: EngineError) -> Outcome:
        """The localised refusal of ``error``; a stale control gets the fresh hand screen,
        a refused move the screen it was pressed on."""
        with contextlib.suppress(EngineError):
            await self.languages()
        with use_locale(self.locale):
            text = localize_error(error)
            if isinstance(self.intent.request, Move | PressOffer):
                lesson = await self._lesson(error.code)
                if lesson:
                    text = f"{text}\n{lesson}"
            hand = None
            if self.table is not None and self.intent.selection is not None:
                selection = self.intent.selection
                stale = isinstance(error, STALE)
                try:
                    self.table = await self.v.changes.load(self.table.id) if stale else self.table
                    hand = await self.hand_now(
                        0 if stale else selection.mask, selection.sort, check=not stale
                    )
                except EngineError:
                    hand = None
            return Outcome(
                Reply(text, private=True, ok=False, code=error.code),
                self.locale,
                await self._table_info_after(error),
                hand,
                error=error,
            )

    async def _table_info_after(self, error: EngineError) -> TableInfo | None:
        """The table a refusal is about; for a control whose table is no longer the chat's
        (:class:`NoTable`), the chat's table now (``None``: none), so the front end can say
        whether the game ended or the control belongs to an older table without asking
        again."""
        if self.table is not None:
            return self.table.info()
        at = self.intent.at
        if not isinstance(error, NoTable) or not isinstance(at, InChat) or at.table_id is None:
            return None
        try:
            return (await self.v.changes.load(at.key)).info()
        except (NoTable, UnreadableTable):
            return None

    async def _lesson(self, code: str) -> str | None:
        """The rule behind the first refusal of kind ``code`` in the person's first game
        of the table's variant, once per person, variant and kind; else ``None``. Which
        ones were said is this service's memory only: the table never changes."""
        table = self.table
        if table is None or not self.v.screens.guide:
            return None
        key = (self.user.key, table.variant, code)
        explained = self.v.explained
        if key in explained or self.user.key not in await self.v.screens.first_games(
            [self.user.key], table.variant
        ):
            return None
        lesson = refusal_lesson(code, table_rules(table.variant, table.preset, dict(table.options)))
        if lesson is not None:
            explained[key] = None
        return lesson

    # --- building the outcome ----------------------------------------------------------------

    def outcome(self, reply: Reply, hand: HandModel | None = None) -> Outcome:
        """An outcome that stored nothing."""
        info = None if self.table is None else self.table.info()
        return Outcome(reply, self.locale, info, hand)

    def _seat(self) -> int:
        table = self.table
        if table is None:
            raise NoTable()
        seat = table.seat_of(self.user.key)
        if seat is None:
            raise NotSeated()
        if table.state is None or table.status is not Status.PLAYING:
            raise NotPlaying()
        return seat

    async def hand_now(
        self, mask: int = 0, sort: SortMode = SortMode.SUIT, check: bool = True
    ) -> HandModel:
        """The person's hand model at the loaded table for ``mask`` in ``sort`` order
        (facts remembered or from one worker call). ``check``: refuse a selection drawn
        for another hand (:class:`StaleControl`)."""
        return build_hand_model(await self.seat_screen(check), mask=mask, sort=sort)

    async def seat_screen(self, check: bool = True) -> SeatScreen:
        """The person's seat screen at the loaded table (facts remembered or from one
        worker call). ``check``: refuse a selection drawn for another hand
        (:class:`StaleControl`)."""
        seat = self._seat()
        table = self.table
        assert table is not None and table.state is not None and self.locales is not None
        selection = self.intent.selection
        if (
            check
            and selection is not None
            and selection.digest is not None
            and selection.digest != hand_digest(table.state.hands[seat])
        ):
            raise StaleControl()
        facts = (await self.v.screens.facts(table, [seat]))[seat]
        guided = self.user.key in await self.v.screens.guided(table)
        return self.v.screens.seat_screen(table, seat, facts, self.locale, guided)

    async def committed(self, committed: Committed, reply: Reply | None = None) -> Outcome:
        """The outcome of a change: the table after it, the person's fresh hand screen
        (nothing selected, the same order) and the screens for everyone else."""
        self.table = committed.table
        reply = reply or Reply(None)
        if not committed.stored:
            return self.outcome(reply, await self._hand_after())
        if self.locales is None or any(
            s.user not in self.locales.known and s.user is not None for s in committed.table.seats
        ):
            self.locales = await self.v.screens.locales(committed.table, [self.user.key])
        update = await self.v.screens.update(committed, self.locales, self.user.key)
        hand = None
        seat = committed.table.seat_of(self.user.key)
        own = None if seat is None else update.seat_screen(seat)
        if own is not None and committed.table.status is Status.PLAYING:
            hand = build_hand_model(own, sort=self._sort())
        return Outcome(reply, self.locale, committed.table.info(), hand, update)

    async def _hand_after(self) -> HandModel | None:
        try:
            return await self.hand_now(sort=self._sort(), check=False)
        except EngineError:
            return None

    def _sort(self) -> SortMode:
        selection = self.intent.selection
        return SortMode.SUIT if selection is None else selection.sort

    # --- table verbs ---------------------------------------------------------------------

    async def new(self, words: tuple[str, ...]) -> Outcome:
        if self.intent.key is None:
            raise NoTable()
        variant, preset, options = split_new_args(words)
        committed = await self.v.lobby.new_table(
            self.intent.key, self.user, variant, preset, options
        )
        return await self.committed(committed, Reply(render_lobby(committed.table.info())))

    async def addbot(self, level: str | None) -> Outcome:
        level = level or DEFAULT_LEVEL
        return await self.committed(
            await self.v.lobby.add_ai(
                self._where(), self.user, level, self.intent.update_key, self.table
            )
        )

    async def removebot(self, word: str | None) -> Outcome:
        return await self.committed(
            await self.v.lobby.remove_ai(
                self._where(), self.user, seat_number(word), self.intent.update_key, self.table
            )
        )

    async def set(self, words: tuple[str, ...]) -> Outcome:
        """``set name=value ...``: the host changes settings before the start; ``set`` alone:
        the table's settings, for anyone, nothing stored."""
        if not words and self.table is not None:
            return self.outcome(Reply(render_lobby(self.table.info())))
        return await self.committed(
            await self.v.lobby.configure(
                self._where(), self.user, pairs("set", words), self.intent.update_key, self.table
            )
        )

    async def cancel(self) -> Outcome:
        return await self.committed(
            await self.v.lobby.cancel(
                self._where(), self.user, self.intent.is_admin, self.intent.update_key, self.table
            )
        )

    async def lang(self, word: str | None) -> Outcome:
        if word is None or word.lower() in ("auto", "platform"):
            await self.v.queries.set_locale(self.user, None)
            self.locale = normalize_locale(self.user.locale or self.v.default_locale)
            with use_locale(self.locale):
                return self.outcome(Reply(_("Language: from your app settings."), private=True))
        word = word.lower()
        if word[:2] not in ("en", "de"):
            raise BadSetting(name="lang", value=word, accepts="en, de, auto")
        self.locale = normalize_locale(word)
        await self.v.queries.set_locale(self.user, self.locale)
        with use_locale(self.locale):
            return self.outcome(Reply(_("Language: English."), private=True))

    async def coach(self, word: str | None) -> Outcome:
        """``coach [on|off]`` (German ``trainer [an|aus]``): the coach's notes after each
        deal on or off for this person (:mod:`bot.service.coaching`); no word: say which,
        and how it is changed. Anything else is refused with the words it takes."""
        repo = self.v.queries.repo
        if word is not None:
            choice = COACH_WORDS.get(word.lower())
            if choice is None:
                raise BadSetting(name="coach", value=word, accepts="on, off")
            await repo.set_coach(self.user.key, choice)
            text = (
                _("Coach on: after each deal you get your costliest moves, privately.")
                if choice
                else _("Coach off: no notes after the deals.")
            )
            return self.outcome(Reply(text, private=True))
        chosen = (await repo.coach_choices([self.user.key])).get(self.user.key)
        if chosen is None:
            text = _(
                "The coach is on for your first three games of a variant; "
                "coach on or coach off decides for good."
            )
        elif chosen:
            text = _("The coach is on; coach off stops it.")
        else:
            text = _("The coach is off; coach on starts it.")
        return self.outcome(Reply(text, private=True))

    async def stats(self) -> Outcome:
        stats = await self.v.queries.stats(self.user, self.intent.key)
        lines = [
            _("{name}: {games} games, {wins} won.").format(
                name=self.user.name, games=stats["games"], wins=stats["wins"]
            ),
            *(rating_line(rating) for rating in stats["ratings"]),
        ]
        if stats["chat_ratings"]:  # next to the global ones: this chat's current season
            lines.append(_("In this chat, season {season}:").format(season=stats["chat_season"]))
            lines += [rating_line(rating) for rating in stats["chat_ratings"]]
        against = against_ai_line(stats["against_ai"])
        if against is not None:
            lines.append(against)
        return self.outcome(Reply("\n".join(lines), private=True))

    async def top(self, words: tuple[str, ...]) -> Outcome:
        """``top [global] [variant] [season N]``: the skill-rating board (docs/ratings.md)
        of the chat (or everywhere), with the chat's board by wins under it while nobody
        has :data:`MIN_RATED_GAMES` rated games there. Raises :class:`BadSetting` for a
        word it does not know, :class:`NoSuchSeason` for a season not started."""
        asked = board_words(words)
        key = None if asked.everywhere else self.intent.key
        variant = asked.variant or await self._chat_variant()
        current = await self.v.queries.current_season(key)
        season = current if asked.season is None else asked.season
        if season > current:
            raise NoSuchSeason(season=season, current=current)
        rows = await self.v.queries.rating_board(variant, season, MIN_RATED_GAMES, key)
        lines = [board_title(variant, season, everywhere=key is None), *board_lines(rows)]
        if rows:
            lines.append(ai_reference_line({k: AI_RATINGS[k].shown for k in AI_LEVELS}))
        else:
            lines = [nobody_rated(variant, season, MIN_RATED_GAMES)]
            wins = await self.v.queries.leaderboard(key, 10)
            if wins:
                lines.append(_("Best players here:") if key else _("Best players everywhere:"))
            lines += [
                _("{rank}. {name}: {wins} won of {games}").format(rank=rank, **row)
                for rank, row in enumerate(wins, start=1)
            ]
        return self.outcome(Reply("\n".join(lines)))

    async def season(self, words: tuple[str, ...]) -> Outcome:
        """``season new``: the host of the chat's current or last table, or a chat admin,
        ends the chat's rating season and starts the next; the answer has the ended
        season's final standings (every variant with a board) and the new season's number.
        Raises :class:`BadSeasonWord` for any words but ``new`` (nothing changes),
        :class:`NoTable` outside a chat, :class:`NotHost` for anyone else."""
        check_new_season(words)
        key = self.intent.key
        if key is None:
            raise NoTable()
        last = await self.v.queries.table_info(key) or await self.v.queries.latest_ended(key)
        if (last is None or last.host != self.user.key) and not self.intent.is_admin:
            raise NotHost(action="start a new season")
        ended = await self.v.queries.start_chat_season(key, self.user) - 1
        boards = {
            variant: await self.v.queries.rating_board(variant, ended, MIN_RATED_GAMES, key)
            for variant in VARIANTS
        }
        return self.outcome(Reply(season_started(ended, boards, MIN_RATED_GAMES)))

    async def _chat_variant(self) -> str:
        """The variant of the chat's table, else of its last finished game, else basic."""
        key = self.intent.key
        if key is None:
            return "basic"
        info = await self.v.queries.table_info(key) or await self.v.queries.latest_ended(key)
        return "basic" if info is None else info.variant

    async def export(self) -> Outcome:
        key = self.intent.key
        ended = None if key is None else await self.v.queries.latest_ended(key)
        if ended is None:
            running = None if key is None else await self.v.queries.table_info(key)
            if running is not None and running.status is Status.PLAYING:
                raise NotFinished()
            raise NoTable()
        record = await self.v.queries.export(ended.id)
        return self.outcome(Reply(json.dumps(record, ensure_ascii=False), private=True))

    async def hand(self, grouped: bool) -> Outcome:
        model = await self.hand_now(sort=SortMode.MELDS if grouped else self._sort(), check=False)
        return self.outcome(
            Reply(render_hand(model.view, model.melds if grouped else None), private=True), model
        )

    async def rules(self, topic: str | None) -> Outcome:
        """``rules``: how to play this table's variant (:mod:`bot.render.howto`), then its
        options; ``rules <topic>`` one topic (``regeln folge``, ``rules scoring``);
        ``rules options`` the options only."""
        if self.table is None:
            return self.outcome(Reply(_(RULES_HINT), private=True))
        table = self.table
        rules = table_rules(table.variant, table.preset, dict(table.options))
        word = (topic or "").lower()
        if word in ("options", "optionen"):
            return self.outcome(Reply(render_rules(rules), private=True))
        part = topic_of(word) if word else None
        if part is not None:
            return self.outcome(Reply(render_how_to_play(rules, part), private=True))
        return self.outcome(
            Reply(
                render_how_to_play(rules) + "\n\n" + _(RULES_TOPICS) + "\n\n" + render_rules(rules),
                private=True,
            )
        )

    async def help(self, topic: str | None) -> Outcome:
        table = self.table
        rules = (
            None if table is None else table_rules(table.variant, table.preset, dict(table.options))
        )
        text = render_help(topic, None if table is None else table.variant, rules)
        return self.outcome(Reply(text + "\n\n" + _(TABLE_HELP), private=True))

    # --- moves -----------------------------------------------------------------------------

    async def move(self, request: Move) -> Outcome:
        move = request.action if request.action is not None else " ".join(request.words)
        return await self.committed(
            await self.v.play.act(
                self._where(),
                self.user,
                move,  # type: ignore[arg-type]
                self.intent.update_key,
                self.table,
                self.intent.version,
            )
        )

    async def offer(self) -> Outcome:
        selection = self._selection()
        if selection.offer is None or self.intent.version is None:
            raise UnknownOffer()
        return await self.committed(
            await self.v.play.press(
                self._where(),
                self.user,
                selection,
                self.intent.version,
                self.intent.update_key,
                self.table,
            )
        )

    # --- the hand screen's own verbs -------------------------------------------------------

    def _selection(self) -> Selection:
        return self.intent.selection or Selection()

    async def hand_step(self, event: HandStep) -> Stepped:
        """The person's hand session after ``event`` (:func:`bot.interaction.hand_session.step`),
        from the order and selection their control carried."""
        selection = self._selection()
        session = HandSession(selection.sort, selection.mask)
        return step(await self.seat_screen(), session, event)

    async def select(self) -> Outcome:
        stepped = await self.hand_step(SelectCards(self._selection().mask))
        return self.outcome(Reply(None), stepped.model)

    async def sort(self, word: str | None) -> Outcome:
        stepped = await self.hand_step(SortBy(sort_named(word)))
        return self.outcome(Reply(None), stepped.model)

    async def hint(self) -> Outcome:
        stepped = await self.hand_step(ShowHint())
        if stepped.found is HintFound.NOT_IN_TIME:
            raise NoHintInTime()
        return self.outcome(Reply(hint_reply(stepped), private=True), stepped.model)

    def _where(self) -> int:
        if self.table is None:
            raise NoTable()
        return self.table.id
