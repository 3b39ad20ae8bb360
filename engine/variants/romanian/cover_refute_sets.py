"""The sets of one number in the relaxed walk (:mod:`.cover_refute`): whether the tiles
that the colours send to sets there make new sets and lay-offs on the table sets of the
number, and with how few Jolys.

romanian-rummy.de.txt: "Ein Satz (terta) besteht aus drei oder vier Steinen mit
derselben Zahl und in verschiedenen Farben." "Eine Meldung muss immer mindestens doppelt
so viele echte Steine enthalten wie Jolys."
"""

from __future__ import annotations

import functools

from engine.variants.romanian.melds import MELD_RULES

__all__ = ["NEVER", "least_set_jolys"]

NEVER = 99
"""The Jolys "needed" when the tiles make no sets at all."""

_COLOURS = 4


@functools.cache
def least_set_jolys(
    left: tuple[int, ...], tables: tuple[tuple[int, int], ...], owed: int, credit: int
) -> int:
    """The least Jolys with which ``left[c]`` tiles of each colour ``c`` (0-2) make new
    sets (three or four distinct colours, or two and a Joly: a Joly beside three colours
    is never needed) and lay-offs on ``tables`` (each a table set of the number as its
    colour mask and size: each once, tiles of colours it lacks, four tiles at most, no
    Joly needed); :data:`NEVER` when they cannot. ``owed``: the colour of a tile owed
    from the row that a new set of this number must pay, or -1; ``credit``: the colours
    whose tile of this number was on the rack before the take (a paying set holds the
    tile owed with two of them). Cached for the process: a pure function of small
    keys."""
    first = next((c for c in range(_COLOURS) if left[c]), -1)
    if first < 0:
        return 0 if owed < 0 else NEVER
    best = NEVER
    for mask in range(1, 1 << _COLOURS):
        if not mask >> first & 1 or any(mask >> c & 1 and not left[c] for c in range(_COLOURS)):
            continue
        rest = tuple(n - (mask >> c & 1) for c, n in enumerate(left))
        size = mask.bit_count()
        if size >= 2:
            joly = int(size == 2)
            paid = (
                owed >= 0 and mask >> owed & 1 and (credit & mask & ~(1 << owed)).bit_count() >= 2
            )
            best = min(best, joly + least_set_jolys(rest, tables, -1 if paid else owed, credit))
        for t, (present, table_size) in enumerate(tables):
            if not present & mask and table_size + size <= MELD_RULES.max_set:
                others = tables[:t] + tables[t + 1 :]
                best = min(best, least_set_jolys(rest, others, owed, credit))
    return best
