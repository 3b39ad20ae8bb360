"""The seat screens a process was last shown, kept so a chat front end can carry out a
hand step (a card toggled, the selection cleared, the next order) without a table load.

Telegram's and Discord's hand controls name the table version they were drawn at and a
digest of the hand. When this process keeps that seat's screen at that version, the pure
reducer of :mod:`bot.interaction.hand_session` gives the next hand model from it; when it
does not (another worker drew the control, a restart, a newer change), the front end hands
the step to the entry point, which loads the table. The web page keeps its screen in its
hub and the terminal in its notifier, so they need no such memory.
"""

from __future__ import annotations

from cachetools import LRUCache

from bot.i18n import use_locale
from bot.interaction.hand import hand_digest
from bot.interaction.hand_session import HandSession, HandStep, Stepped, step
from bot.ports.model import Status
from bot.ports.screens import SeatScreen, TableUpdate

__all__ = ["SEAT_SCREENS", "KeptScreens"]

SEAT_SCREENS = 2_000
"""Seat screens kept per front end (the people playing now on this worker)."""


class KeptScreens:
    """The newest seat screen per (table id, user key) this process was shown, bounded
    to ``size`` entries (least recently used first out)."""

    def __init__(self, size: int = SEAT_SCREENS) -> None:
        self._screens: LRUCache[tuple[int, str], SeatScreen] = LRUCache(size)
        #: Table id -> the version at which it ended (a late older update keeps nothing).
        self._ended: LRUCache[int, int] = LRUCache(size)

    def keep(self, update: TableUpdate) -> None:
        """Keep the seat screens of ``update`` (a change shown by this process); an older
        update arriving late never replaces a newer screen. A table that is no longer
        played (finished, cancelled) keeps none: a control of its last screens must ask
        the service, which says the game is over."""
        info = update.info
        if info.status is not Status.PLAYING:
            self._ended[info.id] = max(info.version, self._ended.get(info.id, 0))
            for key in [key for key in self._screens if key[0] == info.id]:
                del self._screens[key]
            return
        if info.version <= self._ended.get(info.id, -1):
            return
        for screen in update.seats:
            key = (update.info.id, screen.user_key)
            kept = self._screens.get(key)
            if kept is None or kept.view.table.version <= screen.view.table.version:
                self._screens[key] = screen

    def get(self, table_id: int, user_key: str) -> SeatScreen | None:
        """The newest kept screen of ``user_key`` at ``table_id``, or ``None``."""
        return self._screens.get((table_id, user_key))

    def drawn_at(
        self, table_id: int, user_key: str, version: int, digest: str | None
    ) -> SeatScreen | None:
        """The kept screen a control was drawn on: the one of table ``version`` whose hand
        has ``digest`` (:func:`bot.interaction.hand.hand_digest`; an empty or missing
        digest, from a control drawn before digests, is not compared). ``None`` when this
        process does not keep that screen."""
        screen = self._screens.get((table_id, user_key))
        if screen is None or screen.view.table.version != version:
            return None
        if digest and digest != hand_digest(screen.view.hand):
            return None
        return screen


def step_kept(screen: SeatScreen, session: HandSession, event: HandStep) -> Stepped:
    """:func:`bot.interaction.hand_session.step` on a kept screen, in that screen's
    language (the hand model's words, a hint's sentence)."""
    with use_locale(screen.locale):
        return step(screen, session, event)
