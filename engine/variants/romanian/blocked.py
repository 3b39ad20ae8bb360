"""A Romanian game that can never end.

romanian-rummy.de.txt renews the wall from the discard row without limit ("Diese jetzt
verdeckt liegenden Steine von der alten Ablagereihe werden gründlich gemischt und
benutzt, um eine neue Mauer zu bauen, ... so dass das Spiel weitergehen kann") and ends a
game without a winner only "wenn alle Steine von der Mauer gezogen worden sind und keiner
es geschafft hat, seine Hand zu vervollständigen". Late in a game nearly every tile can
be on the table: when no tile still in play (the racks, the wall, the row but its first
tile, which stays face up, and the face-up tile at the end of the wall) can go into a new
meld, be laid off or take a Joly's place, no rack can shrink, and nobody can go out
(going out places a tile: a turn starts with a tile drawn or taken and ends with one
discarded). The wall would be renewed for ever; the game ends there instead, without a
winner, scored as the text scores a game without a winner.
"""

from __future__ import annotations

from engine.candidates import unmeldable
from engine.cards import Card
from engine.melds import Meld, MeldKind
from engine.state import GameState
from engine.variants.romanian.flow import extra_of
from engine.variants.romanian.melds import MELD_RULES
from engine.variants.romanian.plan import may_lay_off


def tiles_in_play(state: GameState) -> list[Card]:
    """Every tile not on the table that a player may still get: the racks, the wall, the
    discard row but its first tile (it stays face up when the wall is renewed) and the
    face-up tile."""
    tiles = [tile for hand in state.hands for tile in hand]
    tiles += state.stock
    tiles += state.discard[1:]
    face_up = extra_of(state).face_up
    if face_up is not None:
        tiles.append(face_up)
    return tiles


def blocked(state: GameState) -> bool:
    """True when no tile in play (:func:`tiles_in_play`) can ever be placed: no meld the
    tiles might make holds any of them (:func:`engine.candidates.unmeldable`, which never
    refuses a Joly), none might be laid off on a table meld with the others
    (:func:`engine.variants.romanian.plan.may_lay_off`) and none stands for a Joly on the
    table. Each test only over-counts what could be placed, so ``True`` is certain; asked
    when the wall is to be renewed (rarely), not per move."""
    tiles = tiles_in_play(state)
    loose = unmeldable(tiles, MELD_RULES)
    if len(loose) < len(set(tiles)):
        return False
    return not any(
        may_lay_off(tile, meld, tiles, 0) or _frees_joly(tile, meld)
        for meld in state.melds
        for tile in loose
    )


def _frees_joly(tile: Card, meld: Meld) -> bool:
    """Whether ``tile`` is one a Joly of ``meld`` stands for (a run: its tile; a set: its
    number in a colour the set lacks)."""
    if not any(place.card.is_joker for place in meld.cards):
        return False
    if meld.kind is MeldKind.RUN:
        return any(place.card.is_joker and place.face == tile for place in meld.cards)
    colours = {place.card.suit for place in meld.cards if not place.card.is_joker}
    return tile.rank == meld.rank and tile.suit not in colours
