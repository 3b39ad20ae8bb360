"""The opening: the first melds of a player.

romanian-rummy.de.txt: "Bei der ersten Meldung muss man Meldungen von seinem Ständer
machen, die folgende Bedingungen erfüllen: Bei den Meldungen muss mindestens eine eine
Folge sein; Der Gesamtwert der Meldungen muss mindestens 50 Punkte betragen." The
opening is one meld action (several melds may go down together); further melds may
follow in the same turn ("kann man sofort oder später ... weitere Sätze und Folgen
melden").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from engine.cards import Card
from engine.melds import CardSpec, Meld, MeldKind, MeldProblem, check_meld
from engine.search import best_partition
from engine.variants.romanian.melds import MELD_RULES
from engine.variants.romanian.plan import most_value, new_melds
from engine.variants.romanian.tiles import meld_value, rack_value

Groups = tuple[tuple[CardSpec, ...], ...]

_SEARCH_BUDGET = 3000


def opening_value(melds: Sequence[Meld]) -> int:
    """The value of the opening melds (Jolys as the tile they stand for)."""
    return sum(meld_value(m) for m in melds)


def has_run(melds: Sequence[Meld]) -> bool:
    """True when at least one of ``melds`` is a run."""
    return any(m.kind is MeldKind.RUN for m in melds)


def qualifies(melds: Sequence[Meld], threshold: int) -> bool:
    """True when ``melds`` make an opening: a run among them and ``threshold`` points."""
    return has_run(melds) and opening_value(melds) >= threshold


def _specs(meld: Meld) -> tuple[CardSpec, ...]:
    return tuple(CardSpec(p.card, p.face) if p.card.is_joker else CardSpec(p.card)
                 for p in meld.cards)


def _read(group: tuple[CardSpec, ...], seat: int) -> Meld | None:
    try:
        found = check_meld(group, seat, MELD_RULES)
    except MeldProblem:
        return None
    return found[0] if len(found) == 1 else None


def opening_choices(hand: Sequence[Card], seat: int, threshold: int,
                    rack_one: int = 25) -> list[Groups]:
    """Openings the hand can make, best first (a canonical selection, not every one):
    every qualifying subset of the best partition's melds and every single meld that is
    an opening alone; each leaves at least one tile to discard."""
    part = best_partition(hand, MELD_RULES, lambda c: rack_value(c, rack_one, 25))
    melds = [m for m in (_read(g, seat) for g in part.melds) if m is not None]
    found: dict[Groups, int] = {}
    for size in range(len(melds), 0, -1):
        for combo in combinations(melds, size):
            if qualifies(combo, threshold) and sum(len(m.cards) for m in combo) < len(hand):
                found.setdefault(tuple(_specs(m) for m in combo), opening_value(combo))
    for meld in new_melds(hand, seat):
        if qualifies((meld,), threshold) and len(meld.cards) < len(hand):
            found.setdefault((_specs(meld),), meld_value(meld))
    return sorted(found, key=lambda g: (-found[g], -sum(len(x) for x in g)))


def opening_with(hand: Sequence[Card], seat: int, threshold: int, tile: Card) -> Groups | None:
    """An opening of ``hand`` whose melds hold ``tile`` (the previous discard, taken this
    turn) and leave a tile to discard other than ``tile`` (a twin of the taken tile may not
    be discarded either: :func:`engine.moves.verify_discard`), or ``None``. Branches whose
    tiles left cannot reach ``threshold`` however they are melded are cut (each tile at
    most :func:`engine.variants.romanian.plan.most_value`); a step budget stays as a
    guard."""
    melds = new_melds(hand, seat)
    first = [m for m in melds if any(p.card == tile for p in m.cards)]
    have = Counter(hand)
    steps = 0

    def grow(chosen: list[Meld], left: Counter[Card], start: int) -> Groups | None:
        nonlocal steps
        steps += 1
        if steps > _SEARCH_BUDGET:
            return None
        if qualifies(chosen, threshold) and any(n > 0 and c != tile for c, n in left.items()):
            return tuple(_specs(m) for m in chosen)
        # pruning by value: the tiles left cannot lift the melds to the threshold
        if opening_value(chosen) + sum(n * most_value(c) for c, n in left.items()) < threshold:
            return None
        for i in range(start, len(melds)):
            use = Counter(p.card for p in melds[i].cards)
            if all(left[c] >= n for c, n in use.items()) and sum(left.values()) > len(use):
                found = grow([*chosen, melds[i]], left - use, i + 1)
                if found is not None:
                    return found
        return None

    for meld in first:
        use = Counter(p.card for p in meld.cards)
        if all(have[c] >= n for c, n in use.items()) and sum(have.values()) > len(use):
            found = grow([meld], have - use, 0)
            if found is not None:
                return found
    return None
