"""Going-out plans: can a seat meld and lay off all its tiles but one this turn?

romanian-rummy.de.txt: "Um das Spiel zu gewinnen, muss man alle Steine, die man noch
hat, melden bis auf einen Stein – dieser letzte Stein muss abgelegt werden. Nur bei
diesem letzten Spielzug darf man den offen liegenden Anfangsstein vom Ende der Mauer
aufnehmen". Taking the face-up tile is allowed only when a plan exists, and every
later move of that turn must keep one (so the turn can always end by going out).

A plan is a set of new melds (one action) plus, for some table melds, the tiles laid
off on each (one action per meld), covering every tile but one, which is discarded. A
seat that has not opened needs new melds worth the opening value with at least one run,
and lays off only on its own melds in the turn of its opening. While a meld is owed (a
tile taken from the row, a freed Joly, the previous discard taken for the opening), the
new melds must pay it (:func:`engine.variants.romanian.obligation.pays`, the check the
moves make): they are played first, before every lay-off and the discard.

The answer is exact: a quick necessary condition first (:func:`_loose`: at most one tile
fits nowhere; most racks of a game end there), then, on racks of
fewer than :data:`WALK_FROM` tiles, the item search of :mod:`engine.variants.romanian.items`,
else the walk over the run places of :mod:`engine.variants.romanian.cover`; each decides it
whatever the rack, its cost bounded by the rack's tiles and never by a budget of steps.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from engine.candidates import unmeldable
from engine.cards import SORT_KEY, Card
from engine.frozen import picklable
from engine.melds import (
    CardSpec,
    Meld,
    MeldKind,
    declared_run,
    declared_set,
    joker_spec,
    natural_spec,
    rank_at,
)
from engine.variants.romanian.cover import cover
from engine.variants.romanian.items import item_plan
from engine.variants.romanian.melds import MELD_RULES
from engine.variants.romanian.shapes import new_meld_shapes
from engine.variants.romanian.state import Obligation


@dataclass(frozen=True, slots=True)
class PlanContext:
    """What limits a plan: the table ``melds``, the acting ``seat``, the table melds it
    may lay off on (``targets``), the opening value still needed (``threshold``, ``None``
    once opened), a tile that may not be the last discard (``keep``: the tile taken this
    turn) and the meld owed before anything else (``obligation``: one of the plan's new
    melds must pay it)."""

    melds: tuple[Meld, ...]
    seat: int
    targets: tuple[int, ...]
    threshold: int | None = None
    keep: Card | None = None
    obligation: Obligation | None = None


@dataclass(frozen=True, slots=True)
class Plan:
    """How to go out: ``melds`` (new melds, one action), ``layoffs`` (table meld index and
    the tiles laid off on it) and the ``discard`` that ends the game."""

    melds: tuple[tuple[CardSpec, ...], ...]
    layoffs: tuple[tuple[int, tuple[CardSpec, ...]], ...]
    discard: Card


picklable(PlanContext)
picklable(Plan)


def new_melds(hand: Sequence[Card], seat: int) -> list[Meld]:
    """Every meld the hand can make (one reading each, faces declared), owned by ``seat``:
    the melds of its shapes (:func:`engine.variants.romanian.shapes.new_meld_shapes`:
    the candidates of one reading, and runs where one Joly stands for a tile the hand
    holds), each built from its tiles without a reading (a property test holds them equal
    to the readings of the candidates)."""
    return [
        declared_run(s.specs, seat) if s.run else declared_set(s.specs, seat)
        for s in new_meld_shapes(hand)
    ]


def specs_of(meld: Meld) -> tuple[CardSpec, ...]:
    """The tiles of ``meld`` as a meld command names them (a Joly with its face)."""
    return tuple(
        joker_spec(p.face.rank, p.face.suit) if p.card.is_joker else natural_spec(p.card)
        for p in meld.cards
    )


def going_out_plan(hand: Sequence[Card], ctx: PlanContext) -> Plan | None:
    """A way to go out this turn with ``hand`` under ``ctx``, or ``None`` when there is
    none (exact: :mod:`engine.variants.romanian.items` or
    :mod:`engine.variants.romanian.cover`).

    The plan melds and lays off every tile but one and discards that one (never
    ``ctx.keep``); an opening, when needed, is worth ``ctx.threshold`` with a run; an
    owed meld (``ctx.obligation``) is among its new melds. The answer depends on the
    tiles of ``hand``, not their order, and is cached per (tiles, ``ctx``): the legal
    moves of one turn ask the same question many times.
    """
    loose = _loose(hand, ctx) if hand else False
    if loose is False:
        return None
    return _cached_plan(tuple(sorted(hand, key=SORT_KEY)), ctx, loose)


WALK_FROM = 30
"""Racks of this many tiles or more are answered by the walk over the run places
(:func:`engine.variants.romanian.cover.cover`), smaller ones item by item
(:func:`engine.variants.romanian.items.item_plan`). Both are exact; the item search is the
quicker on the racks of a game (most questions: 15 tiles with an opening to reach), the
walk on racks of dozens of tiles, whose items and sub-racks run into the millions."""


# The same question recurs within a turn only.
@functools.lru_cache(maxsize=64)
def _cached_plan(hand: tuple[Card, ...], ctx: PlanContext, only: Card | None) -> Plan | None:
    """:func:`going_out_plan` for sorted tiles; ``only``: the one tile that fits nowhere
    (:func:`_loose`; it can only be the discard)."""
    if len(hand) < WALK_FROM:
        items = item_plan(
            hand, ctx.melds, ctx.targets, ctx.seat, ctx.threshold, ctx.keep, ctx.obligation
        )
        return None if items is None else Plan(*items)
    found = cover(
        hand,
        ctx.melds,
        ctx.targets,
        need=ctx.threshold,
        keep=ctx.keep,
        owed=ctx.obligation,
        only=only,
    )
    if found is None:
        return None
    return Plan(found.melds, found.layoffs, found.left[0])


def _loose(hand: Sequence[Card], ctx: PlanContext) -> Card | Literal[False] | None:
    """A quick necessary condition for a plan, with its reason: at most one tile (not
    ``ctx.keep``) is in no meld the rack might make (:func:`engine.candidates.unmeldable`)
    and fits no table meld it may lay off on (:func:`may_lay_off`). ``False`` when no plan
    can exist (the search would find every copy of such a tile loose too; most racks of a
    game end here, before the candidate melds are built), the one tile that fits nowhere
    (it can only be the discard) or ``None`` when every tile might fit."""
    refused = unmeldable(hand, MELD_RULES)
    if not refused:
        return None
    jolys = sum(1 for t in hand if t.is_joker)
    loose = 0
    last: Card | None = None
    for tile, copies in refused.items():
        if any(may_lay_off(tile, ctx.melds[i], hand, jolys) for i in ctx.targets):
            continue
        loose += copies
        last = tile
        if loose > 1:
            return False
    if last is not None and last == ctx.keep:
        return False
    return last


def may_lay_off(tile: Card, meld: Meld, hand: Sequence[Card], jolys: int) -> bool:
    """Whether natural ``tile`` might join ``meld`` in a lay-off group from ``hand``: a set
    of its number with room, or a run of its colour that the rack's tiles of that colour
    (gaps filled by its Jolys) reach from either end (the 1 also after the 13). A
    necessary condition: ``False`` means no lay-off group from ``hand`` holds ``tile``."""
    first = meld.cards[0].face
    if meld.kind is MeldKind.SET:
        return tile.rank == first.rank and len(meld.cards) < MELD_RULES.max_set
    if tile.suit is not first.suit:
        return False
    low = first.rank
    high = low + len(meld.cards) - 1  # positions: 14 is the 1 after the 13
    held = {t.rank for t in hand if t.suit is tile.suit}
    for pos in (tile.rank, 14) if tile.rank == 1 else (tile.rank,):
        if pos < low:
            between = range(pos + 1, low)
        elif pos > high:
            between = range(high + 1, pos)
        else:
            continue
        if sum(1 for p in between if rank_at(p) not in held) <= jolys:
            return True
    return False
