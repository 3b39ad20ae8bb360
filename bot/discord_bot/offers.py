"""Which moves the controls offer, from what a player may see (no engine state).

The adapter never asks :func:`engine.game.legal_actions` (it holds no game state); it
derives the offered moves from the :class:`engine.views.PlayerView` (phase, whose turn,
melds, upcard), the variant's hooks and :func:`engine.commands.command_table`. The
engine still decides: an offered move it refuses comes back as a localised error.

Variant-only verbs (:attr:`engine.variants.base.Variant.commands`, e.g. Rummy 500's
``call``, "Rommé!") appear without changes here: a verb whose arguments are all
optional (``call [kh] [2]``) becomes a button on the public table message that sends
the bare verb (anyone seated may press it, also out of turn); a verb with a required
argument becomes a button of the hand message that sends the verb with the selected
cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import N_
from engine.commands import COMMANDS, CommandHelp, command_table
from engine.state import Phase
from engine.variants import get_variant
from engine.views import PlayerView, PublicView

#: Labels of variant verbs the catalogues already translate ("Rommé!" in German for
#: Rummy 500's call).
VERB_LABELS: dict[str, str] = {
    "call": N_("Rummy!"),
    "rummy": N_("Rummy!"),
}


@dataclass(frozen=True, slots=True)
class VariantVerb:
    """A variant-only verb: its English ``verb`` and whether it needs ``cards`` (its
    syntax has a required argument; ``[kh]`` is optional)."""

    verb: str
    cards: bool


def variant_verbs(variant: str) -> tuple[VariantVerb, ...]:
    """The verbs ``variant`` adds to the shared command language, in table order."""
    shared = set(COMMANDS)
    return tuple(_verb(c) for c in command_table(variant) if c not in shared)


def _verb(command: CommandHelp) -> VariantVerb:
    required = [w for w in command.syntax.split()[1:] if not w.startswith("[")]
    return VariantVerb(command.verb, bool(required))


def verb_label_msgid(verb: str) -> str:
    """The msgid of a verb's button label (the verb itself when no label is known)."""
    return VERB_LABELS.get(verb, verb.capitalize())


@dataclass(frozen=True, slots=True)
class Offer:
    """What the hand message of one seat offers now."""

    my_turn: bool
    draw: bool
    take: bool
    meld: bool
    layoff: bool
    swap: bool
    discard: bool
    next_deal: bool
    select_cards: bool
    verbs: tuple[VariantVerb, ...]


def playing(table: PublicView) -> bool:
    """True while a deal is being played (someone is to move)."""
    return table.phase in (Phase.DRAW, Phase.PLAY) and table.current is not None


def offer_for(view: PlayerView) -> Offer:
    """The moves to offer ``view.seat``: draw/take at the start of its turn, meld, lay-off,
    joker swap and discard after drawing, the next deal between deals, and the
    variant's own verbs (that take cards) while a deal is played."""
    table = view.table
    var = get_variant(table.rules.variant)
    rules = table.rules
    mine = playing(table) and table.current == view.seat
    draw_phase = mine and table.phase is Phase.DRAW
    play_phase = mine and table.phase is Phase.PLAY
    all_at_once = var.all_at_once(rules, table.deal_number)
    verbs = tuple(v for v in variant_verbs(rules.variant) if v.cards) if playing(table) else ()
    return Offer(
        my_turn=mine,
        draw=draw_phase,
        take=draw_phase and table.upcard is not None,
        meld=play_phase,
        layoff=play_phase and bool(table.melds) and not all_at_once,
        swap=play_phase and bool(table.melds) and var.joker_swap(rules),
        discard=play_phase,
        next_deal=table.phase is Phase.HAND_OVER,
        select_cards=playing(table) and bool(view.hand),
        verbs=verbs,
    )
