"""Skill ratings (pure): the rating updates of one finished game.

Each person has a rating per variant (and season): ``mu`` (the skill estimate) and
``sigma`` (its uncertainty), updated with the Plackett-Luce model of ``openskill`` from the
game's final order (:func:`final_places`: first place shared by the match's winners, the
other seats ranked by the variant's own rule for the winners of a match, ties as ties).
Ties are rated as the mean of the strict orders in which each tied group takes its places
in turn (each member once at each of the group's places): openskill's own tie handling in
Plackett-Luce is not order-preserving (places 0, 0, 0, 1, 2 gave the tied first places
+0.44 and the fourth +1.0, measured with openskill 6.2), the mean is.
AI seats take part as opponents with a fixed rating per level (:data:`AI_RATINGS`) that
never changes. The rating shown is the conservative estimate ``mu - 3 sigma``
(:attr:`Rating.shown`), low while few games are rated.

Nothing here does I/O: storage (bot/storage) keeps the ratings, and rebuilds them by
folding :func:`rate_game` over the stored finished games in the order they ended.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from openskill.models import PlackettLuce

from engine.options import RuleSet

__all__ = ["AI_RATINGS", "MODEL", "NEW", "Rating", "final_places", "rate_game"]

MODEL = PlackettLuce()
"""The model: Plackett-Luce with openskill's defaults (``mu`` 25, ``sigma`` 25/3, the
dynamics ``tau`` 25/300 added to sigma before each game)."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A person's rating: ``mu``, ``sigma`` and the number of rated ``games``."""

    mu: float
    sigma: float
    games: int = 0

    @property
    def shown(self) -> float:
        """The conservative estimate ``mu - 3 sigma`` (what boards rank by)."""
        return self.mu - 3 * self.sigma


NEW = Rating(MODEL.mu, MODEL.sigma, 0)
"""The rating of a person's first game of a variant."""

AI_RATINGS: dict[str, Rating] = {
    "easy": Rating(15.0, 1.0),
    "normal": Rating(25.0, 1.0),
    "hard": Rating(30.0, 1.0),
    "expert": Rating(31.0, 1.0),
}
"""The fixed rating of an AI seat per level (bot.ports.table_rules.AI_LEVELS): the random
player below a new person's 25, the greedy one at it, the racing and the searching players
above (the expert won 48.6-52.5 % of its hands against hard in the strength bench); a small
sigma, so a game against AIs moves the person's rating and not theirs."""


def final_places(
    rules: RuleSet, totals: Sequence[Fraction], winners: Sequence[int]
) -> tuple[int, ...]:
    """The place of each seat (0 first; seats that tie share a place, the next place
    counts on: 0, 1, 1, 3): the match's ``winners`` first, then the others by the
    variant's rule for the winners of a match
    (:meth:`engine.variant.Variant.match_winners`) applied to the seats left, again and
    again. Raises ``ValueError`` when ``totals`` is empty."""
    if not totals:
        raise ValueError("no seats")
    places = [-1] * len(totals)
    left = list(range(len(totals)))
    first = [s for s in winners if 0 <= s < len(totals)] or _best(rules, totals, left)
    placed = 0
    while left:
        for seat in first:
            places[seat] = placed
        placed += len(first)
        left = [s for s in left if s not in first]
        if left:
            first = _best(rules, totals, left)
    return tuple(places)


def _best(rules: RuleSet, totals: Sequence[Fraction], seats: Sequence[int]) -> list[int]:
    """The seats among ``seats`` the variant would call winners of their totals."""
    chosen = rules.var.match_winners(rules, tuple(totals[s] for s in seats))
    picked = [seats[i] for i in chosen if 0 <= i < len(seats)]
    return picked or list(seats)  # a rule that names nobody: the rest share the place


def rate_game(places: Sequence[int], seats: Sequence[Rating | str]) -> list[Rating | None]:
    """The new rating of each person of a finished game: ``places`` as
    :func:`final_places` gives them, ``seats`` each person's rating before the game or,
    for an AI seat, its level (a key of :data:`AI_RATINGS`; an unknown level counts as
    ``normal``). Returns the new :class:`Rating` of each person (``games`` one more) and
    ``None`` for each AI seat. Raises ``ValueError`` for lists of different lengths or
    fewer than two seats."""
    if len(places) != len(seats) or len(seats) < 2:
        raise ValueError("one place per seat, at least two seats")
    before = [AI_RATINGS.get(s, AI_RATINGS["normal"]) if isinstance(s, str) else s for s in seats]
    mus, variances = _averaged(before, _strict_orders(places))
    return [
        None if isinstance(seat, str) else Rating(mus[i], math.sqrt(variances[i]), seat.games + 1)
        for i, seat in enumerate(seats)
    ]


def _averaged(
    before: Sequence[Rating], orders: Sequence[Sequence[int]]
) -> tuple[list[float], list[float]]:
    """Each seat's mean and variance after the game, averaged over the strict rankings
    ``orders`` (each rated from the ratings ``before``)."""
    mus = [0.0] * len(before)
    variances = [0.0] * len(before)
    for ranks in orders:
        teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
        after = MODEL.rate(teams, ranks=[float(r) for r in ranks])
        for i, team in enumerate(after):
            mus[i] += team[0].mu / len(orders)
            variances[i] += team[0].sigma ** 2 / len(orders)
    return mus, variances


def _strict_orders(places: Sequence[int]) -> list[list[int]]:
    """Strict rankings (0, 1, 2, ... per seat) that break the ties of ``places``: each tied
    group's members take the group's places in each rotation (a group of k gives k
    orders; all groups together the product of their sizes, at most 9 for six seats)."""
    groups = [[s for s, p in enumerate(places) if p == place] for place in sorted(set(places))]
    rotations = [[group[k:] + group[:k] for k in range(len(group))] for group in groups]
    orders = []
    for choice in itertools.product(*rotations):
        ranks = [0] * len(places)
        for position, seat in enumerate(s for group in choice for s in group):
            ranks[seat] = position
        orders.append(ranks)
    return orders
