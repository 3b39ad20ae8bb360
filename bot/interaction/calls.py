"""Out-of-turn calls on the public table message, the same on every chat platform.

A variant verb whose arguments are all optional (Rummy 500's ``call [kh] [2]``,
"Rommé!") gets a button under the table message while the variant's public view names
seats that may call (``may_call``); whoever presses it sends the bare verb and the engine
decides. Every other move is on the player's hand message (:mod:`bot.interaction.hand`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from bot.i18n import N_, _
from bot.interaction.catalogue import variant_ids
from engine.commands import COMMANDS, CommandHelp, command_table
from engine.state import Phase
from engine.views import PublicView

__all__ = ["PublicCall", "call_verbs", "public_calls", "variant_verbs"]

_LABELS: dict[str, str] = {"call": N_("Rommé!"), "rummy": N_("Rommé!")}
"""Variant verb -> English label of its button; a verb not listed shows itself."""


@dataclass(frozen=True, slots=True)
class PublicCall:
    """A call button: ``number`` of the verb in :func:`variant_verbs`, the ``verb`` and
    its localised ``label``."""

    number: int
    verb: str
    label: str


def variant_verbs(variant: str) -> list[CommandHelp]:
    """The verbs only ``variant`` has, in the order of its command table."""
    shared = {c.verb for c in COMMANDS}
    return [c for c in command_table(variant) if c.verb not in shared]


def _bare(help_entry: CommandHelp) -> bool:
    return all(word.startswith("[") for word in help_entry.syntax.split()[1:])


def public_calls(view: PublicView) -> list[PublicCall]:
    """The call buttons of the table message now (inside ``use_locale``): none unless a
    deal is being played and someone may call out of turn."""
    if view.phase not in (Phase.DRAW, Phase.PLAY) or not getattr(view.extra, "may_call", None):
        return []
    return [
        PublicCall(
            number,
            verb.verb,
            _(_LABELS[verb.verb]) if verb.verb in _LABELS else verb.verb.capitalize(),
        )
        for number, verb in enumerate(variant_verbs(view.rules.variant))
        if _bare(verb)
    ]


@cache
def call_verbs() -> frozenset[str]:
    """Every verb that any variant offers as a call button (a button that names one of
    these, and nothing else, is a call)."""
    return frozenset(
        verb.verb for variant in variant_ids() for verb in variant_verbs(variant) if _bare(verb)
    )
