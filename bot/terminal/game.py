"""The terminal game loop: the human's lines in, the game service moving the AI seats.

:class:`TerminalGame` asks for a line only when the player is to move (their turn,
or the score sheet between deals); meanwhile it lets the service run the AI moves
that are due (``tick``: :meth:`bot.service.service.GameService.tick`), pausing the
table's ``ai_delay`` before each. Game commands and the table verbs are intents of the
chat command language (:func:`bot.interaction.commands.parse`) for the service's entry
point (:class:`bot.ports.entry.Entry`); the screen verbs the service does not have
(``sort``, ``hint``, ``hand``, ``table``, ``score``, ``help``, ``quit``, and ``back``
unless the AI plays the seat) are answered here from the seat's screen
(:class:`bot.ports.screens.SeatScreen`). ``quit`` (or the end of input) leaves the game
stored: ``rummy-bot play`` resumes it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence

from bot.i18n import _, use_locale
from bot.i18n.errors import localize_error
from bot.i18n.notation import action_text
from bot.interaction.commands import parse
from bot.interaction.hand_session import HandSession, SortBy, sort_named, step
from bot.ports.entry import Entry
from bot.ports.hand import SortMode
from bot.ports.host import Host
from bot.ports.intents import Cancel, InChat, Intent, ReplayGame
from bot.ports.model import Status, TableInfo, UserRef
from bot.ports.screens import SeatScreen
from bot.render.guide import guide_line
from bot.render.text import render_hand, render_hand_end, render_help, render_scores, render_table
from bot.render.variants import variant_call_choices
from bot.terminal.input import AsyncLineReader
from bot.terminal.notifier import TerminalNotifier
from bot.terminal.setup import TERMINAL_KEY
from engine.actions import NextDeal
from engine.commands import canonical_verb
from engine.errors import EngineError
from engine.state import Phase
from engine.views import PlayerView

__all__ = ["LOCAL_VERBS", "Sleep", "TerminalGame", "Tick"]

Sleep = Callable[[float], Awaitable[None]]
"""Waits the given seconds (``asyncio.sleep``; tests move a manual clock instead)."""

Tick = Callable[[], Awaitable[int]]
"""Runs the table steps that are due now (AI moves, the next deal); returns how many."""


LOCAL_VERBS = ("sort", "hint", "hand", "table", "score", "help", "quit")
"""Verbs answered by the terminal itself; every other line goes to the service."""

POLL = 0.05
"""Seconds to wait when an AI move is not due yet after the table's ``ai_delay``."""

CALL_PROMPT_SECONDS = 15.0
"""How long the out-of-turn call prompt waits for a line; then the game goes on as if
Enter had been pressed (the chat tables' call window is shorter: people there need not
read a prompt first)."""


def _is_cancel(line: str) -> bool:
    """True for the table verb ``cancel`` (or its alias ``abbrechen``)."""
    return isinstance(parse(line), Cancel)


class TerminalGame:
    """Plays the terminal table for ``user`` through the ``host``'s entry point until
    the match ends or the player leaves.

    ``host.run_due`` runs the due table steps (the AI's moves; required: the terminal
    paces them); ``notifier`` is the service's
    notifier for the terminal (it prints the moves). ``read_line``: the player's lines;
    ``sleep``: the pause before AI moves; ``call_timeout``: seconds the out-of-turn call
    prompt (Rummy 500's "Rommé!") waits for a line before the game goes on without a call.
    """

    def __init__(
        self,
        host: Host,
        user: UserRef,
        notifier: TerminalNotifier,
        read_line: AsyncLineReader,
        sleep: Sleep = asyncio.sleep,
        call_timeout: float = CALL_PROMPT_SECONDS,
    ) -> None:
        if host.run_due is None:
            raise ValueError("the terminal paces the automatic steps: host.run_due")
        self.entry: Entry = host.entry
        self.tick: Tick = host.run_due
        self.user = user
        self.notifier = notifier
        self._passed_call = -1  # table version whose call window the human let pass
        self._table_id: int | None = None
        self._read_line = read_line
        self._sleep = sleep
        self._call_timeout = call_timeout

    def _write(self, text: str) -> None:
        self.notifier.write(text)

    async def run(self) -> int:
        """Play on; returns the exit code 0 (the match ended, or the player left it
        stored for later). Raises ``BrokenPipeError`` when the output's reader has gone
        (``rummy-bot play | head``): the game stays stored."""
        while True:
            if self.notifier.closed:
                raise BrokenPipeError("the output of the game was closed")
            found = await self._look()
            if found is None:
                return 0  # over or cancelled (the notifier has said so), or no seat
            info, screen = found
            if screen is None:
                continue  # the table moved on meanwhile: look again
            left = await self._turn(info, screen)
            if left is not None:
                return left

    async def _look(self) -> tuple[TableInfo, SeatScreen | None] | None:
        """The running table and the player's own screen: those of the newest change the
        notifier was shown, else (before the first) asked of the service once; ``None``
        when the game is over or the player has no seat."""
        seen = self.notifier.seen
        if seen is None:
            if self._table_id is None:
                info = await self.entry.table_info(TERMINAL_KEY)
                if info is None:
                    return None
                self._table_id = info.id
            found = await self.entry.screens(self._table_id, self.user)
            if found is None:
                return None
            seen = found.table.info, found.own
        info, own = seen
        if info.status is not Status.PLAYING or info.seat_of(self.user.key) is None:
            return None
        return info, own

    async def _turn(self, info: TableInfo, screen: SeatScreen) -> int | None:
        """One step of play: wait while the AI moves, or ask the player for a line and
        carry it out; the exit code when the player left."""
        view = screen.view
        table = view.table
        seat = view.seat
        hand_over = table.phase is Phase.HAND_OVER
        may_call = self._may_call(info, screen)
        calling = may_call and table.current != seat
        if not hand_over and not may_call and not self._own_turn(info, screen):
            await self._let_ai_move(info)
            return None
        if hand_over and self._only_watching(screen):
            # Out of the match (German elimination) with nothing to decide: the AI-only
            # deals go on by themselves after the score sheet.
            await self._sleep(info.settings.ai_delay)
            return None if await self._handle("next") else self._leave(view)
        return await self._read_and_handle(screen, hand_over, calling=calling)

    async def _read_and_handle(
        self, screen: SeatScreen, hand_over: bool, calling: bool
    ) -> int | None:
        """Ask the player for a line (a move, the next deal, an out-of-turn call) and carry
        it out; the exit code when the player left."""
        view = screen.view
        line = await self._ask(screen, hand_over, calling=calling)
        if line is None:
            return self._leave(view)
        if not line.strip():
            line = self._on_enter(view.table.version, hand_over, calling=calling)
            if line is None:
                return None
        return None if await self._handle(line) else self._leave(view)

    @staticmethod
    def _own_turn(info: TableInfo, screen: SeatScreen) -> bool:
        """Whether it is the player's turn (their seat to move, not on the AI)."""
        table = screen.view.table
        seat = screen.view.seat
        return table.current == seat and not info.seats[seat].automated

    def _on_enter(self, version: int, hand_over: bool, calling: bool) -> str | None:
        """What an empty line means: the next deal between deals; while calling, letting
        this call window (table ``version``) pass; nothing during a turn (``None``)."""
        if calling:
            self._passed_call = version
            return None
        if not hand_over:
            return None
        return "next"

    def _may_call(self, info: TableInfo, screen: SeatScreen) -> bool:
        """Whether a variant's call window (Rummy 500's "Rommé!") lets the player act now,
        out of turn too (and they did not let this one pass)."""
        table = screen.view.table
        seat = screen.view.seat
        return (
            seat in getattr(table.extra, "may_call", ())
            and self._passed_call != table.version
            and not info.seats[seat].automated
            and (table.current == seat or bool(screen.facts.legal))
        )

    @staticmethod
    def _only_watching(screen: SeatScreen) -> bool:
        """True when the player is out of the match (German Rommé's elimination: the
        variant's public ``eliminated`` flags) and may only start the next deal, no
        buy-back to decide."""
        view = screen.view
        out = getattr(view.table.extra, "eliminated", ())
        if not (view.seat < len(out) and out[view.seat]):
            return False
        legal = screen.facts.legal
        return bool(legal) and all(isinstance(action, NextDeal) for action in legal)

    async def _let_ai_move(self, info: TableInfo) -> None:
        await self._sleep(info.settings.ai_delay)
        if not await self.tick():
            await self._sleep(POLL)

    async def _ask(self, screen: SeatScreen, hand_over: bool, calling: bool = False) -> str | None:
        """Draw the screen if due, prompt for the move (or the next deal, or an out-of-turn
        call) and wait for a line."""
        view = screen.view
        self.notifier.remember(view)
        with use_locale(self.notifier.locale):
            if self.notifier.screen_due:
                self._show_screen(screen)
            if hand_over:
                prompt = _("Press Enter or type next for the next deal> ")
            elif calling:
                choices = variant_call_choices(view, screen.facts.legal) or []
                self._write(_("Rommé! You may call now:"))
                for choice in choices:
                    self._write(f"  {choice}")
                prompt = _("Type one of these, or press Enter to play on> ")
            else:
                self._show_guide(screen)
                prompt = _("Your move> ")
            self.notifier.out.write(prompt)
            self.notifier.out.flush()
        if not calling:
            return await self._read_line()
        try:
            return await asyncio.wait_for(self._read_line(), self._call_timeout)
        except TimeoutError:
            # The line being typed is not lost: the next prompt receives it.
            with use_locale(self.notifier.locale):
                self._write("")
                self._write(_("No call: the game goes on."))
            return ""

    def _show_guide(self, screen: SeatScreen) -> None:
        """In a first game of the variant (``screen.guided``): what the player can do now
        and what to type (:func:`bot.render.guide.guide_line`)."""
        if not screen.guided:
            return
        line = guide_line(screen.view, screen.facts.legal, screen.facts.suggestion)
        if line:
            self._write(line)

    def _show_screen(self, screen: SeatScreen) -> None:
        view = screen.view
        self._write("")
        if view.table.phase is Phase.HAND_OVER:
            self._write(render_hand_end(view))
        else:
            self._write(render_table(view.table))
            self._write(self._hand(screen, self.notifier.sort))
        self.notifier.screen_due = False

    @staticmethod
    def _hand(screen: SeatScreen, sort: SortMode) -> str:
        """The hand in ``sort`` order (melds first: found by the service's engine workers;
        sorted by suit when they were not found in time)."""
        if sort is SortMode.MELDS:
            return render_hand(screen.view, screen.facts.melds)
        return render_hand(screen.view, by_rank=sort is SortMode.RANK)

    def _leave(self, view: PlayerView) -> int:
        with use_locale(self.notifier.locale):
            self._write(render_scores(view))
            self._write(_("Your game is saved; rummy-bot play continues it."))
            self._write(_("Goodbye."))
        return 0

    async def _handle(self, line: str) -> bool:
        """Carry out one line; False for ``quit``. Errors are explained, change nothing."""
        words = line.strip().lstrip("/!").split()
        verb = await self._verb_of(words)
        if _is_cancel(line) and not await self._confirm_cancel():
            return True
        if verb in LOCAL_VERBS:
            return await self._local_line(verb or "", [w.lower() for w in words[1:]])
        # in a first game the first refusal of a kind also explains its rule
        request = parse(line)
        outcome = await self.entry.handle(Intent(request, self.user, InChat(TERMINAL_KEY)))
        if outcome.reply.text:
            self._write(outcome.reply.text)
        if isinstance(request, ReplayGame) and outcome.ok:
            with use_locale(outcome.locale):
                self._write(
                    _(
                        "Here, export prints the game's record once it is over; saved as a "
                        "file, rummy-bot replay FILE --step steps through it move by move."
                    )
                )
        self.notifier.locale = outcome.locale  # after `lang`
        return True

    async def _verb_of(self, words: Sequence[str]) -> str | None:
        """The verb of a line's ``words`` (``None`` for an empty line); ``back`` with
        nothing to take back (not on autopilot) is ``table``."""
        verb = canonical_verb(words[0]) if words else None
        if verb == "back" and not await self._on_autopilot():
            verb = "table"  # nothing to take back: back to the table screen
        return verb

    async def _local_line(self, verb: str, args: Sequence[str]) -> bool:
        """:meth:`_local` in the player's language, a refusal explained; False for
        ``quit``."""
        with use_locale(self.notifier.locale):
            try:
                return await self._local(verb, args)
            except EngineError as error:
                self._write(localize_error(error))
                return True

    async def _confirm_cancel(self) -> bool:
        """Ask before a typed ``cancel`` ends the game for good; True to go ahead."""
        with use_locale(self.notifier.locale):
            self.notifier.out.write(
                _(
                    "This ends the game for good. Type cancel again to "
                    "confirm, or press Enter to play on> "
                )
            )
            self.notifier.out.flush()
            answer = await self._read_line()
            if answer is not None and _is_cancel(answer):
                return True
            self._write(_("The game goes on."))
            return False

    async def _on_autopilot(self) -> bool:
        info = await self.entry.table_info(TERMINAL_KEY)
        seat = None if info is None else info.seat_of(self.user.key)
        return info is not None and seat is not None and info.seats[seat].autopilot

    async def _local(self, verb: str, args: Sequence[str]) -> bool:
        if verb == "quit":
            return False
        found = await self._look()
        screen = None if found is None else found[1]
        if found is None or screen is None:
            return True
        info = found[0]
        view = screen.view
        if verb == "help":
            self._show_help(info, view, args)
        elif verb == "hand":
            self._show_hand(screen, args)
        elif verb == "sort":
            self._sort(screen, args)
        elif verb == "hint":
            self._hint(screen)
        elif verb == "score":
            self._write(render_scores(view))
        else:  # table
            self._show_screen(screen)
        return True

    def _show_help(self, info: TableInfo, view: PlayerView, args: Sequence[str]) -> None:
        """``help [command]``: the commands of the table's variant and rules (or the one
        named), then the terminal's own."""
        self._write(render_help(args[0] if args else None, info.variant, view.table.rules))
        self._write(
            _(
                "Also: rules, lang de|en, stats, export, replay, cancel (ends the game). "
                "quit keeps the game for the next rummy-bot play."
            )
        )

    def _show_hand(self, screen: SeatScreen, args: Sequence[str]) -> None:
        """``hand [melds]``: the hand in the chosen order, or grouped into melds."""
        melds_first = bool(args and args[0] in ("melds", "grouped"))
        self._write(self._hand(screen, SortMode.MELDS if melds_first else self.notifier.sort))

    def _sort(self, screen: SeatScreen, args: Sequence[str]) -> None:
        """``sort [order]``: the named hand order (the next one without a name), kept for
        the following screens, and the hand in it."""
        event = SortBy(sort_named(args[0] if args else None))
        with use_locale(self.notifier.locale):
            session = step(screen, HandSession(self.notifier.sort), event).session
        self.notifier.sort = session.sort
        self._write(self._hand(screen, self.notifier.sort))

    def _hint(self, screen: SeatScreen) -> None:
        """The hand grouped into its best melds and, on the player's turn, the move the
        engine suggests (one of the legal moves), both from the service's engine workers:
        the terminal reads no hidden state and runs no search on the event loop."""
        facts = screen.facts
        self._write(render_hand(screen.view, facts.melds))
        if facts.suggestion is not None:  # on the seat's turn, or a call out of turn
            self._write(
                _("Suggestion: {command}").format(
                    command=action_text(facts.suggestion, screen.view.table.rules.var.uses_tiles)
                )
            )
