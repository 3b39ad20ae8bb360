"""The terminal's :class:`bot.ports.notifier.Notifier`: what the game service reports,
printed as lines of text.

Printed: the table's notices (:func:`bot.render.notices.render_notice`), one line per
public event as it happens (:func:`bot.render.text.render_event`), the score sheet when
a deal ends (and the totals when the match ends), and the player's hand while their turn
goes on (``You drew 9♠.`` after a draw). Lobby steps are not printed: the terminal
sets its own table up. Nothing is read here; :class:`bot.terminal.game.TerminalGame`
asks for input and redraws the whole table when :attr:`TerminalNotifier.screen_due`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from bot.i18n import _, use_locale
from bot.ports.hand import SortMode
from bot.ports.model import Status, TableInfo
from bot.ports.screens import (
    CoachAdvice,
    SeatScreen,
    TableFault,
    TableScreen,
    TableUpdate,
    TimerWarning,
)
from bot.render.cards import card_text
from bot.render.events import event_line
from bot.render.notices import render_fault, render_notice
from bot.render.text import render_hand, render_hand_end, render_scores
from bot.terminal.colour import Painter
from engine.cards import Card
from engine.events import DealStarted, Drew, Event, GameEnded, HandEnded
from engine.state import Phase
from engine.views import PlayerView, PublicView

__all__ = ["TerminalNotifier"]


class TerminalNotifier:
    """Prints the notifications for the user ``user_key`` to ``out``.

    ``locale``: the language of the printed lines (the game may change it).
    ``sort``: the hand's order (the ``sort`` command): by suit, by rank, melds first.
    ``screen_due``: another seat moved or a deal began since the table was last
    drawn, so the whole table should be drawn before the player's next move.
    ``closed``: the output's reader has gone (a broken pipe); nothing more is written.
    ``seen``: the table and the player's own seat screen of the newest change published
    (``None`` before the first), so the game loop draws its prompt without asking the
    service again.
    """

    def __init__(self, out: TextIO, user_key: str, locale: str = "en") -> None:
        self.out = out
        self.user_key = user_key
        self.locale = locale
        self.sort = SortMode.SUIT
        self.screen_due = True
        self.closed = False
        self._painter = Painter(out)
        self._hand: tuple[Card, ...] = ()
        self._drew = False
        self.seen: tuple[TableInfo, SeatScreen | None] | None = None

    def write(self, text: str) -> None:
        """One or more lines to the output. When the reader has gone (``play | head``) the
        line is dropped and :attr:`closed` set: the service calls the notifier and must
        not fail for it; the game loop stops at its next step (exit code 141)."""
        if self.closed:
            return
        try:
            self.out.write(self._painter.paint(text) + "\n")
            self.out.flush()
        except BrokenPipeError:
            self.closed = True

    def remember(self, view: PlayerView) -> None:
        """The hand the player sees now (to name the card of their next draw)."""
        self._hand = view.hand

    async def publish(self, update: TableUpdate) -> None:
        """A change of the table: its lines, then the player's own hand (see
        :meth:`_table` and :meth:`_seat`)."""
        seat = update.info.seat_of(self.user_key)
        own = None if seat is None else update.seat_screen(seat)
        if self.seen is None or self.seen[0].version <= update.info.version:
            self.seen = (update.info, own)
        self._table(update.table)
        for screen in update.seats:
            if screen.user_key == self.user_key and update.hand_changed(screen.seat):
                self._seat(screen)

    async def coach(self, advice: CoachAdvice) -> None:
        """The coach's notes on the deal that ended, for this player."""
        if advice.user_key == self.user_key:
            self.write(advice.text)

    def _table(self, table: TableScreen) -> None:
        """Notices, then a line per event; the score sheet when a deal ends."""
        info, view = table.info, table.view
        if info.status is Status.LOBBY:
            return
        with use_locale(self.locale):
            for notice in table.notices:
                self.write(render_notice(notice))
            if view is None:
                return
            self._game_start(table, view)
            self._events(table.events, view, info.seat_of(self.user_key))
            if any(isinstance(event, HandEnded) for event in table.events):
                self._score_sheet(view)

    def _game_start(self, table: TableScreen, view: PublicView) -> None:
        """When the game just started without a deal event: the first deal's line (the
        table is drawn again before the next prompt)."""
        if any(notice.code == "game_started" for notice in table.notices) and not any(
            isinstance(event, DealStarted) for event in table.events
        ):
            self.write(event_line(DealStarted(view.deal_number, view.dealer, view.upcard), view))
            self.screen_due = True

    def _score_sheet(self, view: PublicView) -> None:
        """The end of a deal: its score sheet, and the final scores after the last deal."""
        self.write("")
        self.write(render_hand_end(view))
        if view.phase is Phase.GAME_OVER:
            self.write(render_scores(view, winners=False))
        self.screen_due = False

    def _events(self, events: Sequence[Event], view: PublicView, seat: int | None) -> None:
        """A line per event (the score sheet says the end of a deal); the table is drawn
        again before the player's next prompt when another seat moved or a deal began;
        whether the player drew (their drawn card is named)."""
        self._drew = False
        for event in events:
            if isinstance(event, HandEnded | GameEnded):
                continue  # the score sheet says the same
            self.write(event_line(event, view))
            mover = getattr(event, "seat", None)
            if isinstance(event, DealStarted) or (mover is not None and mover != seat):
                self.screen_due = True
            if isinstance(event, Drew) and event.seat == seat:
                self._drew = True

    def _seat(self, screen: SeatScreen) -> None:
        """The drawn card, and the hand while the player's turn goes on (a new turn
        redraws the whole table instead)."""
        view = screen.view
        before, self._hand = self._hand, view.hand
        with use_locale(self.locale):
            if self._drew:
                self._drew = False
                drawn = list(view.hand)
                for card in before:
                    if card in drawn:
                        drawn.remove(card)
                if len(drawn) == 1:
                    self.write(_("You drew {card}.").format(card=card_text(drawn[0])))
            if (
                screen.info.status is Status.PLAYING
                and view.table.current == screen.seat
                and not self.screen_due
            ):
                melds = screen.facts.melds if self.sort is SortMode.MELDS else None
                self.write(render_hand(view, melds, by_rank=self.sort is SortMode.RANK))

    async def warn(self, warning: TimerWarning) -> None:
        """A line saying how much of the turn is left (only with a turn timer)."""
        if warning.user_key != self.user_key:
            return
        with use_locale(self.locale):
            self.write(
                _("Hurry: your turn ends in {seconds} seconds.").format(
                    seconds=max(round(warning.seconds_left), 0)
                )
            )

    async def fault(self, fault: TableFault) -> None:
        """A line saying that the stored game cannot be loaded."""
        with use_locale(self.locale):
            self.write(render_fault(fault))
