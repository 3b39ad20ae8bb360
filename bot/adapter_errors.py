"""Why a chat platform could not be started, in two kinds the runner treats differently.

An adapter's ``start`` translates its library's errors into these, so that
:func:`bot.runner.run_bot` needs no platform import: an unreachable platform is tried
again with back-off while the other platforms keep working; a refused one (a wrong
token) stays off until the operator fixes the setting.
"""

from __future__ import annotations

__all__ = ["PlatformRefused", "PlatformUnreachable"]


class PlatformUnreachable(Exception):
    """The platform's servers could not be reached (DNS, connection, timeout): worth
    trying again later. ``str(error)`` is one line for the operator's log."""


class PlatformRefused(Exception):
    """The platform refused the bot (wrong or revoked token, missing permission): trying
    again does not help. ``str(error)`` is one line for the operator's log."""
