"""Text rendering of engine views and events, shared by the terminal and the chat adapters."""

from __future__ import annotations

from bot.render.text import (
    MAX_CHARS,
    render_event,
    render_hand,
    render_hand_end,
    render_help,
    render_match_goal,
    render_rules,
    render_scores,
    render_table,
)

__all__ = [
    "MAX_CHARS",
    "render_event",
    "render_hand",
    "render_hand_end",
    "render_help",
    "render_match_goal",
    "render_rules",
    "render_scores",
    "render_table",
]
