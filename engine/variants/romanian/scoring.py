"""Scoring a game of Romanian Rummy.

romanian-rummy.de.txt, "Die Wertung":

- "Der Gewinner bekommt 100 Punkte und den Wert der Steine, die er gemeldet hat. Die
  anderen Spieler bekommen den Wert der Steine, die sie gemeldet haben, vermindert um
  den Wert der Steine, die sie noch auf ihren Ständern haben." A tile counts for the
  player who put it on the table (melded or laid off), at the value of its place.
- "Eine Ausnahme bildet der Joly, der + 50 Punkte für den Spieler bringt, der ihn
  zuerst gemeldet hat, aber – 25 Punkte für einen Spieler, der ihn am Ende des Spiels
  noch auf seinem Ständer hat."
- The exchange chain: "Am Ende einer Partie wird der Joly von seiner letzten Position
  durch alle vorangehenden Positionen, bei denen er für eine Meldung eingesetzt wurde,
  zurückgegeben, bis er zu der Meldung kommt, bei der er das erste Mal eingesetzt
  wurde. Die umgedrehten Steine, die ihn ersetzten, werden jedes Mal dem Spieler, der
  sie gelegt hatte, zurückgegeben, so dass sie für den Spieler gewertet werden
  können." (:func:`joly_chain`): the Joly scores its 50 in its first meld only, for
  the player who melded it there; its later places score nothing; the tiles that
  replaced it score for the players who laid them.
- "Ein Spieler, der überhaupt keine Meldungen gemacht hat, verliert 200 Punkte – die
  Punktwerte der Steine auf seinem Ständer spielen keine Rolle." (option ``no_meld``:
  "100 Punkte und den Punktwert der Steine auf seinem Ständer").
- "Wenn ein Spieler dadurch gewinnt, dass er alle 14 Steine auf einmal meldet, ohne
  vorher eine Meldung gemacht zu haben, bekommt er eine Zusatzprämie von 100 Punkten"
  (going out in the turn of the first meld).
- "Wenn ein Spieler den gleichen Stein wie den aufgedeckten Anfangsstein beim Geben
  bekommt und das ansagt, erhält er 25 Extrapunkte."
- No winner: "bekommt jeder die Pluspunkte für alle Steine, die er gemeldet hat, und
  Minuspunkte für die Steine, die noch auf dem Ständer sind. Keiner bekommt die 100
  Punkte".
- Option ``joly_double``: "Wenn man gewinnt, indem man einen Joly ablegt und vorher
  alle seine Steine gemeldet hat, wird der Punktgewinn dieses Spiels verdoppelt."

Readings: the no-meld penalty replaces every rack value (a Joly's -25 too) but not
the +25 of an announced face-up tile; doubling doubles the winner's whole score of
the game.
"""

from __future__ import annotations

from engine.cards import Card
from engine.state import GameState
from engine.variants.romanian.events import SeatScore
from engine.variants.romanian.state import JolyTrack, RomanianExtra
from engine.variants.romanian.tiles import face_value, rack_value

JOLY_BONUS = 50
JOLY_ON_RACK = 25
WIN_BONUS = 100
ALL_AT_ONCE_BONUS = 100
FACE_UP_BONUS = 25


def _extra(state: GameState) -> RomanianExtra:
    extra = state.extra
    assert isinstance(extra, RomanianExtra)
    return extra


def replacement_places(state: GameState) -> set[tuple[int, Card]]:
    """(meld index, tile) of every tile that replaced a Joly (the face-down tiles)."""
    return {
        (r.meld, tile)
        for track in _extra(state).jolys
        for r in track.replacements
        for tile in r.tiles
    }


def _tile_value(state: GameState, meld_index: int, tile: Card) -> int:
    meld = state.melds[meld_index]
    for i, placed in enumerate(meld.cards):
        if placed.card == tile:
            return face_value(meld, i)
    return 0


def joly_chain(state: GameState, track: JolyTrack) -> list[tuple[int, int]]:
    """Walk ``track`` from the Joly's last place back to its first: (seat, points) for
    each set of replacement tiles given back to the seat that laid them, then the
    first melder's 50 for the Joly itself."""
    out: list[tuple[int, int]] = []
    for replacement in reversed(track.replacements):
        points = sum(_tile_value(state, replacement.meld, t) for t in replacement.tiles)
        out.append((replacement.seat, points))
    out.append((track.first_seat, JOLY_BONUS))
    return out


def melded_values(state: GameState) -> tuple[list[int], list[int]]:
    """Per seat: the value of the real tiles it put on the table (replacement tiles by the
    chain), and the Joly points it earned (50 per Joly it melded first)."""
    tiles = [0] * state.seats
    jolys = [0] * state.seats
    replaced = replacement_places(state)
    for index, meld in enumerate(state.melds):
        for i, placed in enumerate(meld.cards):
            if not placed.card.is_joker and (index, placed.card) not in replaced:
                tiles[placed.owner] += face_value(meld, i)
    for track in _extra(state).jolys:
        chain = joly_chain(state, track)
        for seat, points in chain[:-1]:
            tiles[seat] += points
        seat, points = chain[-1]
        jolys[seat] += points
    return tiles, jolys


def rack_points(state: GameState, hand: tuple[Card, ...]) -> int:
    """The value left on a rack: a Joly 25, a 1 ``rack_one``, else the number's value."""
    one = state.rules.number("rack_one")
    return sum(rack_value(c, 25 if one is None else one, JOLY_ON_RACK) for c in hand)


def score_sheet(state: GameState, winner: int | None, rummy: bool) -> tuple[SeatScore, ...]:
    """Every seat's score of the finished game (``winner`` went out; ``rummy``: in the turn
    of its first meld), with how it was made up."""
    rules = state.rules
    tiles, jolys = melded_values(state)
    extra = _extra(state)
    doubled_win = (
        winner is not None
        and rules.flag("joly_double")
        and bool(state.discard)
        and state.discard[-1].is_joker
    )
    out = []
    for seat in range(state.seats):
        rack = rack_points(state, state.hands[seat])
        bonus = FACE_UP_BONUS if extra.announced[seat] else 0
        no_meld = 0
        if not state.has_melded[seat]:
            if rules.text("no_meld") == "flat200":
                no_meld, rack = -200, 0
            else:
                no_meld = -100
            melded, joly = 0, 0
        else:
            melded, joly = tiles[seat], jolys[seat]
        if seat == winner:
            bonus += WIN_BONUS + (ALL_AT_ONCE_BONUS if rummy else 0)
        total = melded + joly - rack + no_meld + bonus
        doubled = doubled_win and seat == winner
        out.append(
            SeatScore(melded, joly, rack, no_meld, bonus, doubled, total * 2 if doubled else total)
        )
    return tuple(out)
