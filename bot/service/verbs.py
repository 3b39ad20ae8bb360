"""What each verb of an :class:`~bot.ports.intents.Intent` does (:class:`Handling`, one per
intent, run by :class:`bot.service.entry.EntryPoint`): the table verbs of the chat command
language, game moves, and the hand screen's own verbs (select, sort, hint, offer).

A handling finds its table once (:meth:`Handling.find_table`), the languages once
(:meth:`Handling.languages`), runs the verb — a lobby step, a move or a question — and
builds the :class:`~bot.ports.intents.Outcome`: the reply in the person's language, their
hand model for the selection asked for, and the committed change's screens for everyone
else (:meth:`bot.service.screens.Screens.update`).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace

from cachetools import LRUCache

from bot.i18n import _, normalize_locale, use_locale
from bot.i18n.errors import localize_error
from bot.interaction.commands import (
    RULES_HINT,
    RULES_TOPICS,
    TABLE_HELP,
    pairs,
    seat_number,
    split_new_args,
)
from bot.interaction.hand import build_hand_model, hand_digest, mask_of, order_cards
from bot.ports.hand import HandModel, SortMode
from bot.ports.intents import Intent, Outcome, Reply, Selection
from bot.ports.model import Status
from bot.ports.screens import TableUpdate
from bot.ports.table_rules import DEFAULT_LEVEL, table_rules
from bot.render.guide import refusal_lesson
from bot.render.hand import hint_text
from bot.render.howto import render_how_to_play, topic_of
from bot.render.lobby import render_lobby
from bot.render.text import render_hand, render_help, render_rules
from bot.service.changes import Committed, TableChanges
from bot.service.errors import (
    BadSetting,
    NoHintInTime,
    NoTable,
    NotFinished,
    NotPlaying,
    NotSeated,
    NotYourTable,
    StaleControl,
    UnknownOffer,
)
from bot.service.lobby_steps import LobbySteps
from bot.service.model import Table
from bot.service.play import PlaySteps
from bot.service.queries import Queries
from bot.service.screens import Locales, Screens
from engine.errors import EngineError

__all__ = ["Handling", "Verbs"]

SORT_WORDS: dict[str, SortMode] = {
    "suit": SortMode.SUIT, "farbe": SortMode.SUIT, "rank": SortMode.RANK,
    "rang": SortMode.RANK, "melds": SortMode.MELDS, "meldungen": SortMode.MELDS,
}
"""``sort suit|rank|melds`` (German: farbe, rang, meldungen); ``sort`` alone cycles."""

NO_TABLE = frozenset({"new", "lang", "stats", "top", "export"})
"""Verbs that need no table of the chat."""
ANY_TABLE = frozenset({"rules", "help"})
"""Verbs that use the chat's table when there is one."""
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
        default_factory=lambda: LRUCache(EXPLAINED))


Handler = Callable[["Handling"], Awaitable[Outcome]]


class Handling:
    """One intent being carried out (see the module docstring)."""

    def __init__(self, verbs: Verbs, intent: Intent) -> None:
        self.v = verbs
        self.intent = intent
        self.user = intent.user
        self.table: Table | None = None
        self.locales: Locales | None = None
        self.locale = normalize_locale(intent.user.locale or verbs.default_locale)

    @property
    def args(self) -> tuple[str, ...]:
        """The command's words."""
        return self.intent.command.args

    # --- the flow ----------------------------------------------------------------------------

    async def run(self) -> Outcome:
        """Find the table, the languages, run the verb."""
        verb = self.intent.command.verb
        handler = HANDLERS.get(verb)
        if verb in NO_TABLE:
            pass
        elif verb in ANY_TABLE:
            try:
                self.table = await self.find_table()
            except (NoTable, NotYourTable):
                self.table = None
        elif handler is not None:
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
            if handler is None:
                return self.outcome(Reply(_("Type help for the commands."), private=True,
                                          ok=False, code="unknown_verb"))
            return await handler(self)

    async def find_table(self) -> Table:
        """The table the intent is for: the one its control names (``table_id``; in a
        chat, it must be that chat's), else the chat's, else (a private chat) the
        person's table it names or their newest one. Raises :class:`NoTable` /
        :class:`NotYourTable`."""
        intent = self.intent
        if intent.table_id is not None and (intent.key is not None
                                            or intent.command.verb == "join"
                                            or intent.selection is not None
                                            or intent.version is not None):
            table = await self.v.changes.load(intent.table_id)
            if intent.key is not None and table.key != intent.key:
                raise NoTable()
            return table
        if intent.key is not None:
            return await self.v.changes.load(intent.key)
        tables = await self.v.changes.tables_of(self.user.key)
        if intent.table_id is not None:
            named = next((t for t in tables if t.id == intent.table_id), None)
            if named is None:
                raise NotYourTable(table=intent.table_id)
            return named
        if not tables:
            raise NoTable()
        return max(tables, key=lambda t: (t.status is Status.PLAYING, t.id))

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
            if self.intent.command.verb in ("move", "offer"):
                lesson = await self._lesson(error.code)
                if lesson:
                    text = f"{text}\n{lesson}"
            hand = None
            if self.table is not None and self.intent.selection is not None:
                selection = self.intent.selection
                stale = isinstance(error, STALE)
                try:
                    self.table = await self.v.changes.load(self.table.id) if stale \
                        else self.table
                    hand = await self.hand_now(0 if stale else selection.mask,
                                               selection.sort, check=not stale)
                except EngineError:
                    hand = None
            return Outcome(Reply(text, private=True, ok=False, code=error.code),
                           self.locale, None if self.table is None else self.table.info(),
                           hand, error=error)

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
                [self.user.key], table.variant):
            return None
        lesson = refusal_lesson(code, table_rules(table.variant, table.preset,
                                                  dict(table.options)))
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

    async def hand_now(self, mask: int = 0, sort: SortMode = SortMode.SUIT,
                       check: bool = True) -> HandModel:
        """The person's hand model at the loaded table for ``mask`` in ``sort`` order
        (facts remembered or from one worker call). ``check``: refuse a selection drawn
        for another hand (:class:`StaleControl`)."""
        seat = self._seat()
        table = self.table
        assert table is not None and table.state is not None and self.locales is not None
        selection = self.intent.selection
        if check and selection is not None and selection.digest is not None \
                and selection.digest != hand_digest(table.state.hands[seat]):
            raise StaleControl()
        facts = (await self.v.screens.facts(table, [seat]))[seat]
        guided = self.user.key in await self.v.screens.guided(table)
        screen = self.v.screens.seat_screen(table, seat, facts, self.locale, guided)
        return build_hand_model(screen, mask=mask, sort=sort)

    async def committed(self, committed: Committed, reply: Reply | None = None
                        ) -> Outcome:
        """The outcome of a change: the table after it, the person's fresh hand screen
        (nothing selected, the same order) and the screens for everyone else."""
        self.table = committed.table
        reply = reply or Reply(None)
        if not committed.stored:
            return self.outcome(reply, await self._hand_after())
        if self.locales is None or any(s.user not in self.locales.known and s.user is not None
                                       for s in committed.table.seats):
            self.locales = await self.v.screens.locales(committed.table, [self.user.key])
        origin = self.intent.origin
        update = await self.v.screens.update(committed, self.locales)
        hand = None
        seat = committed.table.seat_of(self.user.key)
        own = None if seat is None else update.seat_screen(seat)
        if own is not None and committed.table.status is Status.PLAYING:
            hand = build_hand_model(own, sort=self._sort())
        if hand is not None and origin is not None:
            update = _answered(update, origin, self.user.key)
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

    async def new(self) -> Outcome:
        if self.intent.key is None:
            raise NoTable()
        variant, preset, options = split_new_args(self.args)
        committed = await self.v.lobby.new_table(self.intent.key, self.user, variant, preset,
                                                 options)
        return await self.committed(committed, Reply(render_lobby(committed.table.info())))

    async def join(self) -> Outcome:
        return await self.committed(await self.v.lobby.join(
            self._where(), self.user, self.intent.update_key, self.table))

    async def leave(self) -> Outcome:
        return await self.committed(await self.v.lobby.leave(
            self._where(), self.user, self.intent.update_key, self.table))

    async def addbot(self) -> Outcome:
        level = self.args[0] if self.args else DEFAULT_LEVEL
        return await self.committed(await self.v.lobby.add_ai(
            self._where(), self.user, level, self.intent.update_key, self.table))

    async def removebot(self) -> Outcome:
        return await self.committed(await self.v.lobby.remove_ai(
            self._where(), self.user, seat_number(self.args), self.intent.update_key,
            self.table))

    async def set(self) -> Outcome:
        return await self.committed(await self.v.lobby.configure(
            self._where(), self.user, pairs("set", self.args), self.intent.update_key,
            self.table))

    async def start(self) -> Outcome:
        return await self.committed(await self.v.lobby.start(
            self._where(), self.user, self.intent.update_key, self.table))

    async def cancel(self) -> Outcome:
        return await self.committed(await self.v.lobby.cancel(
            self._where(), self.user, self.intent.is_admin, self.intent.update_key,
            self.table))

    async def back(self) -> Outcome:
        return await self.committed(await self.v.play.back(
            self._where(), self.user, self.intent.update_key, self.table))

    async def lang(self) -> Outcome:
        if not self.args or self.args[0].lower() in ("auto", "platform"):
            await self.v.queries.set_locale(self.user, None)
            self.locale = normalize_locale(self.user.locale or self.v.default_locale)
            with use_locale(self.locale):
                return self.outcome(Reply(_("Language: from your app settings."),
                                          private=True))
        word = self.args[0].lower()
        if word[:2] not in ("en", "de"):
            raise BadSetting(name="lang", value=word, accepts="en, de, auto")
        self.locale = normalize_locale(word)
        await self.v.queries.set_locale(self.user, self.locale)
        with use_locale(self.locale):
            return self.outcome(Reply(_("Language: English."), private=True))

    async def stats(self) -> Outcome:
        stats = await self.v.queries.stats(self.user)
        return self.outcome(Reply(_("{name}: {games} games, {wins} won.").format(
            name=self.user.name, **stats), private=True))

    async def top(self) -> Outcome:
        rows = await self.v.queries.leaderboard(self.intent.key, 10)
        if not rows:
            return self.outcome(Reply(_("No finished games here yet.")))
        lines = [_("Best players here:")]
        for rank, row in enumerate(rows, start=1):
            lines.append(_("{rank}. {name}: {wins} won of {games}").format(rank=rank, **row))
        return self.outcome(Reply("\n".join(lines)))

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

    async def hand(self) -> Outcome:
        grouped = bool(self.args and self.args[0] in ("melds", "grouped"))
        model = await self.hand_now(sort=SortMode.MELDS if grouped else self._sort(),
                                    check=False)
        return self.outcome(Reply(render_hand(model.view, model.melds if grouped else None),
                                  private=True), model)

    async def rules(self) -> Outcome:
        """``rules``: how to play this table's variant (:mod:`bot.render.howto`), then its
        options; ``rules <topic>`` one topic (``regeln folge``, ``rules scoring``);
        ``rules options`` the options only."""
        if self.table is None:
            return self.outcome(Reply(_(RULES_HINT), private=True))
        table = self.table
        rules = table_rules(table.variant, table.preset, dict(table.options))
        word = self.args[0].lower() if self.args else ""
        if word in ("options", "optionen"):
            return self.outcome(Reply(render_rules(rules), private=True))
        topic = topic_of(word) if word else None
        if topic is not None:
            return self.outcome(Reply(render_how_to_play(rules, topic), private=True))
        return self.outcome(Reply(render_how_to_play(rules) + "\n\n" + _(RULES_TOPICS)
                                  + "\n\n" + render_rules(rules), private=True))

    async def help(self) -> Outcome:
        table = self.table
        rules = None if table is None else \
            table_rules(table.variant, table.preset, dict(table.options))
        text = render_help(self.args[0] if self.args else None,
                           None if table is None else table.variant, rules)
        return self.outcome(Reply(text + "\n\n" + _(TABLE_HELP), private=True))

    # --- moves -----------------------------------------------------------------------------

    async def move(self) -> Outcome:
        command = self.intent.command
        move = command.action if command.action is not None else " ".join(command.args)
        return await self.committed(await self.v.play.act(
            self._where(), self.user, move, self.intent.update_key, self.table,  # type: ignore[arg-type]
            self.intent.version))

    async def offer(self) -> Outcome:
        selection = self._selection()
        if selection.offer is None or self.intent.version is None:
            raise UnknownOffer()
        return await self.committed(await self.v.play.press(
            self._where(), self.user, selection, self.intent.version,
            self.intent.update_key, self.table))

    # --- the hand screen's own verbs -------------------------------------------------------

    def _selection(self) -> Selection:
        return self.intent.selection or Selection()

    async def select(self) -> Outcome:
        selection = self._selection()
        return self.outcome(Reply(None), await self.hand_now(selection.mask, selection.sort))

    async def sort(self) -> Outcome:
        selection = self._selection()
        before = await self.hand_now(selection.mask, selection.sort)
        wanted = SORT_WORDS.get(self.args[0].lower()) if self.args else None
        sort = wanted if wanted is not None else selection.sort.next()
        order = order_cards(before.view.hand, sort, before.melds)
        return self.outcome(Reply(None), await self.hand_now(mask_of(order, before.selected),
                                                             sort))

    async def hint(self) -> Outcome:
        selection = self._selection()
        model = await self.hand_now(selection.mask, selection.sort)
        if not model.complete:
            raise NoHintInTime()
        if model.hint is None:
            return self.outcome(Reply(_("Hint: no meld in your hand yet."), private=True),
                                model)
        chosen = await self.hand_now(model.hint_mask or selection.mask, selection.sort)
        return self.outcome(Reply(hint_text(model.hint.action, model.view), private=True),
                            chosen)

    def _where(self) -> int:
        if self.table is None:
            raise NoTable()
        return self.table.id


def _answered(update: TableUpdate, origin: str, user_key: str) -> TableUpdate:
    return replace(update, answered=(origin, user_key))


HANDLERS: dict[str, Handler] = {
    "new": Handling.new, "join": Handling.join, "leave": Handling.leave,
    "addbot": Handling.addbot, "removebot": Handling.removebot, "set": Handling.set,
    "start": Handling.start, "cancel": Handling.cancel, "back": Handling.back,
    "lang": Handling.lang, "stats": Handling.stats, "top": Handling.top,
    "export": Handling.export, "hand": Handling.hand, "rules": Handling.rules,
    "help": Handling.help, "move": Handling.move, "offer": Handling.offer,
    "select": Handling.select, "sort": Handling.sort, "hint": Handling.hint,
}
"""Verb -> what it does."""
