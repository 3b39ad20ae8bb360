"""The terminal game loop: the human's lines in, the game service moving the AI seats.

:class:`TerminalGame` asks for a line only when the player is to move (their turn,
or the score sheet between deals); meanwhile it lets the service run the AI moves
that are due (:meth:`GameService.tick`), pausing the table's ``ai_delay`` before
each. Game commands and the table verbs go through
:func:`bot.interaction.commands.handle_text`, the chat command language; the screen verbs
the service does not have (``sort``, ``hint``, ``hand``, ``table``, ``score``,
``help``, ``quit``, and ``back`` unless the AI plays the seat) are answered here.
``quit`` (or the end of input) leaves the game stored: ``rummy-bot play`` resumes it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

from bot.i18n import _, use_locale
from bot.i18n.errors import localize_error
from bot.i18n.notation import action_text
from bot.interaction.commands import handle_text, parse
from bot.interaction.hand import SortMode
from bot.ports.model import Status, TableInfo, UserRef
from bot.render.guide import guide_line
from bot.render.text import render_hand, render_hand_end, render_help, render_scores, render_table
from bot.render.variants import variant_call_choices
from bot.service.service import GameService
from bot.terminal.input import AsyncLineReader
from bot.terminal.notifier import TerminalNotifier
from bot.terminal.setup import TERMINAL_KEY
from engine.actions import NextDeal
from engine.commands import canonical_verb
from engine.errors import EngineError
from engine.state import Phase
from engine.views import PlayerView

if TYPE_CHECKING:
    from engine.search import Partition

__all__ = ["LOCAL_VERBS", "Sleep", "TerminalGame"]

Sleep = Callable[[float], Awaitable[None]]
"""Waits the given seconds (``asyncio.sleep``; tests move a manual clock instead)."""

LOCAL_VERBS = ("sort", "hint", "hand", "table", "score", "help", "quit")
"""Verbs answered by the terminal itself; every other line goes to the service."""

POLL = 0.05
"""Seconds to wait when an AI move is not due yet after the table's ``ai_delay``."""

CALL_PROMPT_SECONDS = 15.0
"""How long the out-of-turn call prompt waits for a line; then the game goes on as if
Enter had been pressed (the chat tables' call window is shorter: people there need not
read a prompt first)."""


SORT_WORDS: dict[str, SortMode] = {
    "suit": SortMode.SUIT, "farbe": SortMode.SUIT, "rank": SortMode.RANK, "rang": SortMode.RANK,
    "melds": SortMode.MELDS, "meldungen": SortMode.MELDS,
}
"""``sort suit|rank|melds`` (German: farbe, rang, meldungen); ``sort`` alone cycles."""


def _is_cancel(line: str) -> bool:
    """True for the table verb ``cancel`` (or its alias ``abbrechen``)."""
    try:
        return parse(line).verb == "cancel"
    except EngineError:
        return False


class TerminalGame:
    """Plays the terminal table of ``service`` for ``user`` until the match ends or the
    player leaves.

    ``notifier`` is the service's notifier for the terminal (it prints the moves).
    ``read_line``: the player's lines; ``sleep``: the pause before AI moves;
    ``call_timeout``: seconds the out-of-turn call prompt (Rummy 500's "Rommé!") waits
    for a line before the game goes on without a call.
    """

    def __init__(self, service: GameService, user: UserRef, notifier: TerminalNotifier,
                 read_line: AsyncLineReader, sleep: Sleep = asyncio.sleep,
                 call_timeout: float = CALL_PROMPT_SECONDS, guide: bool = True) -> None:
        self.service = service
        self._guide = guide
        self._guided = False  # set in run(): the first game of this variant, guide on
        self.user = user
        self.notifier = notifier
        notifier.melds_of = self._melds
        self._passed_call = -1  # table version whose call window the human let pass
        self._read_line = read_line
        self._sleep = sleep
        self._call_timeout = call_timeout

    def _write(self, text: str) -> None:
        self.notifier.write(text)

    async def run(self) -> int:
        """Play on; returns the exit code 0 (the match ended, or the player left it
        stored for later). Raises ``BrokenPipeError`` when the output's reader has gone
        (``rummy-bot play | head``): the game stays stored."""
        first = await self.service.table_info(TERMINAL_KEY)
        if first is not None and self._guide:
            self._guided = await self.service.first_game(self.user, first.variant)
        while True:
            if self.notifier.closed:
                raise BrokenPipeError("the output of the game was closed")
            info = await self.service.table_info(TERMINAL_KEY)
            if info is None or info.status is not Status.PLAYING:
                return 0  # over or cancelled: the notifier has said so
            seat = info.seat_of(self.user.key)
            if seat is None:
                return 0
            view = (await self.service.player_view(TERMINAL_KEY, self.user))[1]
            table = view.table
            hand_over = table.phase is Phase.HAND_OVER
            # A variant's call window (Rummy 500's "Rommé!") lets the human act out of turn.
            may_call = seat in getattr(table.extra, "may_call", ()) \
                and self._passed_call != table.version and not info.seats[seat].automated \
                and (table.current == seat or await self._can_call())
            if not hand_over and not may_call and (table.current != seat
                                                   or info.seats[seat].automated):
                await self._let_ai_move(info)
                continue
            if hand_over and await self._only_watching(view):
                # Out of the match (German elimination) with nothing to decide: the AI-only
                # deals go on by themselves after the score sheet.
                await self._sleep(info.settings.ai_delay)
                if not await self._handle("next"):
                    return self._leave(view)
                continue
            line = await self._ask(view, hand_over, calling=may_call and table.current != seat)
            if may_call and table.current != seat and line is not None and not line.strip():
                self._passed_call = table.version
                continue
            if line is None:
                return self._leave(view)
            if not line.strip():
                if not hand_over:
                    continue
                line = "next"
            if not await self._handle(line):
                return self._leave(view)

    async def _only_watching(self, view: PlayerView) -> bool:
        """True when the player is out of the match (German Rommé's elimination: the
        variant's public ``eliminated`` flags) and may only start the next deal, no
        buy-back to decide."""
        out = getattr(view.table.extra, "eliminated", ())
        if not (view.seat < len(out) and out[view.seat]):
            return False
        legal = (await self.service.hand_facts(TERMINAL_KEY, self.user)).legal
        return bool(legal) and all(isinstance(action, NextDeal) for action in legal)

    async def _can_call(self) -> bool:
        """True when the player has a legal move out of turn now (a call in Rummy 500):
        only then does the game stop to ask."""
        facts = await self.service.hand_facts(TERMINAL_KEY, self.user)
        return bool(facts.legal)

    async def _let_ai_move(self, info: TableInfo) -> None:
        await self._sleep(info.settings.ai_delay)
        if not await self.service.tick():
            await self._sleep(POLL)

    async def _ask(self, view: PlayerView, hand_over: bool,
                   calling: bool = False) -> str | None:
        """Draw the screen if due, prompt for the move (or the next deal, or an out-of-turn
        call) and wait for a line."""
        self.notifier.remember(view)
        with use_locale(self.notifier.locale):
            if self.notifier.screen_due:
                await self._show_screen(view)
            if hand_over:
                prompt = _("Press Enter or type next for the next deal> ")
            elif calling:
                facts = await self.service.hand_facts(TERMINAL_KEY, self.user)
                choices = variant_call_choices(facts.view, facts.legal) or []
                self._write(_("Rommé! You may call now:"))
                for choice in choices:
                    self._write(f"  {choice}")
                prompt = _("Type one of these, or press Enter to play on> ")
            else:
                await self._show_guide()
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

    async def _show_guide(self) -> None:
        """In a first game of the variant: what the player can do now and what to type
        (:func:`bot.render.guide.guide_line`)."""
        if not self._guided:
            return
        facts = await self.service.hand_facts(TERMINAL_KEY, self.user)
        line = guide_line(facts.view, facts.legal, facts.suggestion)
        if line:
            self._write(line)

    async def _show_screen(self, view: PlayerView) -> None:
        self._write("")
        if view.table.phase is Phase.HAND_OVER:
            self._write(render_hand_end(view))
        else:
            self._write(render_table(view.table))
            self._write(await self._hand(view, self.notifier.sort))
        self.notifier.screen_due = False

    async def _hand(self, view: PlayerView, sort: SortMode) -> str:
        """The hand in ``sort`` order (melds first: found by the service's engine workers)."""
        if sort is SortMode.MELDS:
            return render_hand(view, await self._melds())
        return render_hand(view, by_rank=sort is SortMode.RANK)

    async def _melds(self) -> Partition | None:
        """The best melds of the player's hand, found by the service's engine workers
        within their budget (``None`` when not in time: the hand is then shown sorted)."""
        facts = await self.service.hand_facts(TERMINAL_KEY, self.user, melds=True)
        return facts.melds

    def _leave(self, view: PlayerView) -> int:
        with use_locale(self.notifier.locale):
            self._write(render_scores(view))
            self._write(_("Your game is saved; rummy-bot play continues it."))
            self._write(_("Goodbye."))
        return 0

    async def _handle(self, line: str) -> bool:
        """Carry out one line; False for ``quit``. Errors are explained, change nothing."""
        words = line.strip().lstrip("/!").split()
        verb = canonical_verb(words[0]) if words else None
        if verb == "back" and not await self._on_autopilot():
            verb = "table"  # nothing to take back: back to the table screen
        if _is_cancel(line) and not await self._confirm_cancel():
            return True
        if verb in LOCAL_VERBS:
            with use_locale(self.notifier.locale):
                try:
                    return await self._local(verb or "", [w.lower() for w in words[1:]])
                except EngineError as error:
                    self._write(localize_error(error))
                    return True
        # in a first game the first refusal of a kind also explains its rule
        reply = await handle_text(self.service, TERMINAL_KEY, self.user, line,
                                  guide=self._guide)
        if reply.text:
            self._write(reply.text)
        self.notifier.locale = await self.service.locale_of(self.user)  # after `lang`
        return True

    async def _confirm_cancel(self) -> bool:
        """Ask before a typed ``cancel`` ends the game for good; True to go ahead."""
        with use_locale(self.notifier.locale):
            self.notifier.out.write(_("This ends the game for good. Type cancel again to "
                                      "confirm, or press Enter to play on> "))
            self.notifier.out.flush()
            answer = await self._read_line()
            if answer is not None and _is_cancel(answer):
                return True
            self._write(_("The game goes on."))
            return False

    async def _on_autopilot(self) -> bool:
        info = await self.service.table_info(TERMINAL_KEY)
        seat = None if info is None else info.seat_of(self.user.key)
        return info is not None and seat is not None and info.seats[seat].autopilot

    async def _local(self, verb: str, args: Sequence[str]) -> bool:
        if verb == "quit":
            return False
        info, view = await self.service.player_view(TERMINAL_KEY, self.user)
        if verb == "help":
            self._write(render_help(args[0] if args else None, info.variant,
                                    view.table.rules))
            self._write(_("Also: rules, lang de|en, stats, export, cancel (ends the game). "
                          "quit keeps the game for the next rummy-bot play."))
        elif verb == "hand":
            melds_first = bool(args and args[0] in ("melds", "grouped"))
            self._write(await self._hand(view, SortMode.MELDS if melds_first
                                         else self.notifier.sort))
        elif verb == "sort":
            wanted = SORT_WORDS.get(args[0]) if args else None
            self.notifier.sort = wanted if wanted is not None else self.notifier.sort.next()
            self._write(await self._hand(view, self.notifier.sort))
        elif verb == "hint":
            await self._hint()
        elif verb == "score":
            self._write(render_scores(view))
        else:  # table
            await self._show_screen(view)
        return True

    async def _hint(self) -> None:
        """The hand grouped into its best melds and, on the player's turn, the move the
        engine suggests (one of the legal moves), both from the service's engine workers:
        the terminal reads no hidden state and runs no search on the event loop."""
        facts = await self.service.hand_facts(TERMINAL_KEY, self.user, melds=True)
        self._write(render_hand(facts.view, facts.melds))
        if facts.suggestion is not None:  # on the seat's turn, or a call out of turn
            self._write(_("Suggestion: {command}").format(
                command=action_text(facts.suggestion, facts.view.table.rules.var.uses_tiles)))
