"""Best partition of a hand into melds (hints, AI, going-out checks)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from engine.candidates import candidate_melds
from engine.cards import Card
from engine.melds import CardSpec, MeldRules

Groups = tuple[tuple[CardSpec, ...], ...]


def going_out_partitions(hand: Sequence[Card], rules: MeldRules,
                         limit: int = 64) -> list[Groups]:
    """Ways to meld the whole ``hand`` at once, or all of it but one card (kept to discard).

    Shape: a list (at most ``limit``) of group tuples, each group one meld.
    """
    candidates = candidate_melds(hand, rules)
    out: list[Groups] = []
    need = Counter(hand)

    def walk(start: int, left: Counter[Card], chosen: list[tuple[CardSpec, ...]]) -> None:
        if len(out) >= limit:
            return
        remaining = sum(left.values())
        if chosen and remaining <= 1:
            out.append(tuple(chosen))
        if remaining < rules.min_cards:
            return
        for i in range(start, len(candidates)):
            group = candidates[i]
            use = Counter(s.card for s in group)
            if all(left[c] >= n for c, n in use.items()):
                chosen.append(group)
                walk(i + 1, left - use, chosen)
                chosen.pop()

    walk(0, need, [])
    return out


def cards_of(groups: Iterable[tuple[CardSpec, ...]]) -> list[Card]:
    """The physical cards of several groups."""
    return [s.card for g in groups for s in g]
