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

Romanian Rummy's pre-play step (doubla, offers, the face-up twin, ``ready``) is the
exception: its moves depend on the hand in ways the view does not spell out (which
pairs, which partners), so while it lasts (:func:`before_play`) the hand message shows
the seat's legal commands themselves, asked from the service
(:meth:`bot.service.service.GameService.legal_commands`), one button each; a button
names its command by :func:`move_key` and does it only if it is still legal then.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n import N_
from engine.commands import COMMANDS, CommandHelp, command_table
from engine.state import Phase
from engine.variants import get_variant
from engine.variants.romanian.variant import PublicExtra as RomanianExtra
from engine.views import PlayerView, PublicView

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
    preplay: bool = False


def playing(table: PublicView) -> bool:
    """True while a deal is being played (someone is to move)."""
    return table.phase in (Phase.DRAW, Phase.PLAY) and table.current is not None


def before_play(table: PublicView) -> bool:
    """True during Romanian Rummy's pre-play step (before the first discard), when the
    seat to move may only announce, offer or answer a doubla swap and say ``ready``."""
    extra = table.extra
    return playing(table) and isinstance(extra, RomanianExtra) and extra.preplay


def move_key(command: str) -> str:
    """Eight hex digits naming a listed ``command`` in a custom id (``p.<key>``)."""
    return hashlib.sha1(command.encode()).hexdigest()[:8]


def listed_order(commands: Sequence[str]) -> list[str]:
    """The listed commands in button order: those without arguments first (``ready``,
    ``reject``, ``announce``: they must not be cut off), then the rest, each group in the
    engine's order; each once."""
    unique = list(dict.fromkeys(commands))
    return [c for c in unique if len(c.split()) == 1] + [c for c in unique if len(c.split()) > 1]


def offer_for(view: PlayerView) -> Offer:
    """The moves to offer ``view.seat``: draw/take at the start of its turn, meld, lay-off,
    joker swap and discard after drawing, the next deal between deals, and the
    variant's own verbs (that take cards) while a deal is played. Before play
    (:func:`before_play`) none of them: the hand message lists the seat's commands."""
    table = view.table
    if before_play(table):
        return Offer(my_turn=table.current == view.seat, draw=False, take=False, meld=False,
                     layoff=False, swap=False, discard=False, next_deal=False,
                     select_cards=bool(view.hand), verbs=(), preplay=True)
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
