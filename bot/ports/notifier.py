"""The notifier port: how the service shows committed changes on each front end.

Each front end implements :class:`Notifier` for its platform. A notifier receives computed
screens (:mod:`bot.ports.screens`) and lays them out (an inline keyboard, Discord
components, terminal lines, a web page); it never calls the service. It sends a
:class:`~bot.ports.screens.SeatScreen` to its owner only.
"""

from __future__ import annotations

from typing import Protocol

from bot.ports.screens import CoachAdvice, TableFault, TableUpdate, TimerWarning

__all__ = ["Notifier"]


class Notifier(Protocol):
    """Implemented by each front end."""

    async def publish(self, update: TableUpdate) -> None:
        """A table changed: redraw its public message and the private screens whose hand
        changed (or whose turn began), the person who made the change first
        (:attr:`~bot.ports.screens.TableUpdate.seats_actor_first`), ping the seat whose
        turn began. A screen is drawn once per table version: one that already shows
        this version (drawn by the front end's own answer, where the platform answers
        with it: a Discord hand message) is left alone."""

    async def warn(self, warning: TimerWarning) -> None:
        """A person's turn time runs out soon."""

    async def coach(self, advice: CoachAdvice) -> None:
        """The coach's notes on a deal, to ``advice.user_key`` only (their private place
        on this front end); nothing when this front end cannot reach them privately now."""

    async def fault(self, fault: TableFault) -> None:
        """A table of this platform cannot be loaded any more: say so in its chat, in the
        fault's language (:func:`bot.render.notices.render_fault`), once (the service
        calls this once per fault)."""
