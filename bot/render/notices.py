"""Table announcements (:class:`bot.ports.screens.Notice`) as localised text."""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import N_, _
from bot.ports.screens import Notice

NOTICE_TEMPLATES: Mapping[str, str] = {
    "lobby_opened": N_("{name} opened a table. Join with join; the host starts with start."),
    "player_joined": N_("{name} joined the table."),
    "player_left": N_("{name} left the table."),
    "ai_added": N_("AI player {name} joined the table."),
    "ai_removed": N_("AI player {name} left the table."),
    "settings_changed": N_("Settings changed: {changes}"),
    "game_started": N_("The game has started. Good luck!"),
    "game_cancelled": N_("The game was cancelled."),
    "lobby_expired": N_("Nobody started the game, so the table was closed."),
    "game_idle_ended": N_("Nobody has played for days, so the game ended here."),
    "autopilot_turn": N_("{name}'s time ran out; the AI played this turn."),
    "autopilot_on": N_("The AI plays for {name} now; say back to take the seat again."),
    "autopilot_off": N_("{name} is back and plays again."),
}
"""Notice code -> English template (an ``N_`` msgid with ``{params}``)."""


def render_notice(notice: Notice) -> str:
    """The notice in the current locale; an unknown code gives the code itself."""
    template = NOTICE_TEMPLATES.get(notice.code)
    if template is None:
        return notice.code
    try:
        return _(template).format(**notice.params)
    except (KeyError, IndexError):
        return _(template)
