"""A game in the terminal: one human seat against AI seats, on the engine directly.

:class:`TerminalTable` is the whole loop. It never calls ``print`` or
``input``: it reads lines from an injected :data:`LineReader` and writes to an
injected text stream, so tests can drive it line by line (and a later issue
can move it onto the game service). Each turn of the human it redraws the
table and the hand; AI moves are printed as they happen, one line per event,
optionally with a small ``delay``; bad input is explained in the player's
language and changes nothing (the engine state is immutable). The caller sets
the locale with :func:`bot.i18n.use_locale`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import TextIO

from bot.i18n import _
from bot.i18n.errors import localize_error
from bot.render.text import (
    render_event,
    render_hand,
    render_hand_end,
    render_help,
    render_rules,
    render_scores,
    render_table,
)
from engine.actions import Action, Draw, NextDeal
from engine.ai import Player
from engine.commands import UiCommand, format_action, parse_command
from engine.errors import EngineError
from engine.events import DealStarted, Event, GameEnded, HandEnded
from engine.game import apply, current_player, is_over, legal_actions
from engine.search import best_melds
from engine.state import GameState
from engine.variants import get_variant
from engine.views import PlayerView, view_for

__all__ = ["LineReader", "TerminalTable", "stream_reader"]

LineReader = Callable[[], str | None]
"""Returns the next line typed (without its newline), or ``None`` at the end of input."""


def stream_reader(stream: TextIO) -> LineReader:
    """A :data:`LineReader` over a text stream such as ``sys.stdin``."""

    def read() -> str | None:
        line = stream.readline()
        if line == "":
            return None
        return line.rstrip("\r\n")

    return read


class TerminalTable:
    """One human seat against AI seats, played through text commands.

    ``state``: a started game (:func:`engine.game.new_game`). ``human``: the
    seat typed for. ``ais``: a :class:`engine.ai.Player` for every other seat.
    ``read_line`` / ``out``: the input and output. ``delay``: seconds to wait
    after each AI event line (``sleep`` is injectable for tests). ``adviser``:
    the AI asked for the ``hint`` suggestion (``None``: no suggestion).
    """

    def __init__(
        self,
        state: GameState,
        *,
        human: int,
        ais: Mapping[int, Player],
        read_line: LineReader,
        out: TextIO,
        delay: float = 0.0,
        sleep: Callable[[float], None] = time.sleep,
        adviser: Player | None = None,
    ) -> None:
        missing = [s for s in range(state.seats) if s != human and s not in ais]
        if missing:
            raise ValueError(f"no AI for seats {missing}")
        self._state = state
        self._human = human
        self._ais = dict(ais)
        self._read_line = read_line
        self._out = out
        self._delay = delay
        self._sleep = sleep
        self._adviser = adviser
        self._grouped = False
        self._redraw = True

    @property
    def state(self) -> GameState:
        """The current game state."""
        return self._state

    @property
    def human(self) -> int:
        """The seat of the human player."""
        return self._human

    # --- output ---------------------------------------------------------------------------

    def _write(self, text: str) -> None:
        self._out.write(text + "\n")
        self._out.flush()

    def _view(self) -> PlayerView:
        return view_for(self._state, self._human)

    def _show_table(self) -> None:
        view = self._view()
        self._write("")
        self._write(render_table(view.table))
        self._write(render_hand(view, grouped=self._grouped))

    def _show_events(self, events: tuple[Event, ...], ai: bool) -> None:
        for event in events:
            if isinstance(event, HandEnded | GameEnded):
                continue  # the score sheet follows at once and says the same
            self._write(render_event(event, self._state.players))
            if ai and self._delay > 0:
                self._sleep(self._delay)

    def _prompt(self, text: str) -> str | None:
        self._out.write(text)
        self._out.flush()
        return self._read_line()

    # --- the loop -------------------------------------------------------------------------

    def run(self) -> int:
        """Play until the match ends (exit code 0) or the human quits or input ends (0)."""
        view = self._view()
        self._write(
            _("{variant}, preset {preset}. You are {name}. Type help for the commands.").format(
                variant=self._variant_name(), preset=self._state.rules.preset,
                name=self._state.players[self._human],
            )
        )
        table = view.table
        self._write(render_event(DealStarted(table.deal_number, table.dealer, table.upcard),
                                 self._state.players))
        while not is_over(self._state):
            seat = current_player(self._state)
            if seat is None:
                if not self._between_deals():
                    return self._leave()
            elif seat == self._human:
                if not self._human_turn():
                    return self._leave()
            else:
                self._ai_turn(seat)
        self._write("")
        self._write(render_hand_end(self._view()))
        self._write(render_scores(self._view(), winners=False))
        return 0

    def _variant_name(self) -> str:
        return get_variant(self._state.rules.variant).name

    def _leave(self) -> int:
        self._write(render_scores(self._view()))
        self._write(_("Goodbye."))
        return 0

    def _ai_turn(self, seat: int) -> None:
        player = self._ais[seat]
        action = player.decide(view_for(self._state, seat), legal_actions(self._state, seat))
        self._state, events = apply(self._state, action)
        self._show_events(events, ai=True)
        self._redraw = True

    def _human_turn(self) -> bool:
        """One line of input on the human's turn; False when the human leaves."""
        if self._redraw:
            self._show_table()
            self._redraw = False
        line = self._prompt(_("Your move> "))
        if line is None:
            return False
        if not line.strip():
            return True
        return self._handle(line)

    def _between_deals(self) -> bool:
        """The score sheet, then Enter / ``next`` deals the next hand; False to leave."""
        if self._redraw:
            self._write("")
            self._write(render_hand_end(self._view()))
            self._redraw = False
        line = self._prompt(_("Press Enter or type next for the next deal> "))
        if line is None:
            return False
        return self._handle(line if line.strip() else "next")

    def _handle(self, line: str) -> bool:
        """Parse and carry out one command; errors are explained and change nothing."""
        try:
            parsed = parse_command(line, self._human)
            if isinstance(parsed, UiCommand):
                return self._ui(parsed)
            self._act(parsed)
        except EngineError as error:
            self._write(localize_error(error))
        return True

    def _act(self, action: Action) -> None:
        before = self._state.hands[self._human]
        self._state, events = apply(self._state, action)
        self._show_events(events, ai=False)
        if isinstance(action, Draw):
            drawn = list(self._state.hands[self._human])
            for card in before:
                if card in drawn:
                    drawn.remove(card)
            if len(drawn) == 1:
                self._write(_("You drew {card}.").format(card=drawn[0].pretty()))
        if isinstance(action, NextDeal) or current_player(self._state) != self._human:
            self._redraw = True
        else:
            self._write(render_hand(self._view(), grouped=self._grouped))

    def _ui(self, command: UiCommand) -> bool:
        """A UI command; False for ``quit``."""
        view = self._view()
        match command.verb:
            case "quit":
                return False
            case "help":
                self._write(render_help(command.args[0] if command.args else None))
            case "rules":
                self._write(render_rules(self._state.rules))
            case "hand":
                self._write(render_hand(view, grouped=self._grouped))
            case "sort":
                self._grouped = not self._grouped
                self._write(render_hand(view, grouped=self._grouped))
            case "hint":
                self._hint(view)
            case "score":
                self._write(render_scores(view))
            case _:  # table, back: show the whole screen again
                self._show_table()
        return True

    def _hint(self, view: PlayerView) -> None:
        partition = best_melds(view.hand, self._state.rules)
        self._write(render_hand(view, grouped=True, hint=partition))
        legal = legal_actions(self._state, self._human)
        if self._adviser is None or not legal or current_player(self._state) != self._human:
            return
        action = self._adviser.decide(view, legal)
        self._write(_("Suggestion: {command}").format(command=format_action(action)))
