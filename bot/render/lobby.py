"""The lobby screen: variant, preset, changed options, timer and the seats."""

from __future__ import annotations

from bot.i18n import N_, _
from bot.ports.model import SeatKind, Status, TableInfo
from bot.ports.table_rules import level_of, table_rules
from engine.variants import get_variant

LEVEL_NAMES = {
    "easy": N_("easy"),
    "normal": N_("normal"),
    "hard": N_("hard"),
    "expert": N_("expert"),
}
"""The AI levels' names (:mod:`bot.service.ai_levels`)."""


def ai_level_label(level: str) -> str:
    """The label of the lobby button that adds an AI seat of ``level`` (a key of
    :data:`LEVEL_NAMES`), the same on every chat: "+🤖 easy", "+🤖 leicht". Call inside
    ``use_locale``."""
    return "+🤖 " + _(LEVEL_NAMES[level])


def render_lobby(info: TableInfo) -> str:
    """A short text of a lobby (or of a table's seats once it runs)."""
    var = get_variant(info.variant)
    lines = [_("Table: {variant}").format(variant=_(var.name))]
    if info.preset:
        lines[0] += f" · {info.preset}"
    rules = table_rules(info.variant, info.preset, dict(info.options))
    changed = rules.changed()
    if changed:
        lines.append(
            _("Rules: {options}").format(options=", ".join(f"{k}={v}" for k, v in changed.items()))
        )
    lines.append(_("Turn timer: {timer}").format(timer=info.settings.timer))
    lines.append(
        _("Players ({count} of {minimum}-{maximum}):").format(
            count=len(info.seats), minimum=var.min_players, maximum=var.max_players
        )
    )
    for number, seat in enumerate(info.seats, start=1):
        marks = []
        if seat.user == info.host:
            marks.append(_("host"))
        if seat.kind is SeatKind.AI:
            level = level_of(seat.ai)
            marks.append(
                _("AI, {level}").format(level=_(LEVEL_NAMES[level]))
                if level in LEVEL_NAMES
                else _("AI")
            )
        elif seat.autopilot:
            marks.append(_("AI plays for now"))
        suffix = f" ({', '.join(marks)})" if marks else ""
        lines.append(f"  {number}. {seat.name}{suffix}")
    if info.status is Status.LOBBY:
        lines.append(
            _(
                "Join with join; the host adds AI players with addbot easy, normal, "
                "hard or expert and starts with start."
            )
        )
    return "\n".join(lines)
