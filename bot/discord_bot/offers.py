"""The variant's own verbs a public table button may send (Rummy 500's ``call``,
"Rommé!"): a verb whose arguments are all optional becomes a button on the public table
message while the variant's public view names seats that may call out of turn. Every
other move is on the player's hand message, laid out from the hand model
(:mod:`bot.interaction.hand`)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import N_
from engine.commands import COMMANDS, CommandHelp, command_table

#: Labels of variant verbs the catalogues already translate ("Rommé!" in German for
#: Rummy 500's call).
VERB_LABELS: dict[str, str] = {
    "call": N_("Rommé!"),
    "rummy": N_("Rommé!"),
}


@dataclass(frozen=True, slots=True)
class VariantVerb:
    """A variant-only verb: its English ``verb`` and whether it needs ``cards`` (its
    syntax has a required argument; ``[kh]`` is optional)."""

    verb: str
    cards: bool


def variant_verbs(variant: str) -> tuple[VariantVerb, ...]:
    """The verbs ``variant`` adds to the shared command language, in table order."""
    shared = {c.verb for c in COMMANDS}
    return tuple(_verb(c) for c in command_table(variant) if c.verb not in shared)


def _verb(command: CommandHelp) -> VariantVerb:
    required = [w for w in command.syntax.split()[1:] if not w.startswith("[")]
    return VariantVerb(command.verb, bool(required))


def verb_label_msgid(verb: str) -> str:
    """The msgid of a verb's button label (the verb itself when no label is known)."""
    return VERB_LABELS.get(verb, verb.capitalize())
