"""Romanian Rummy's own state: ``GameState.extra`` (:class:`RomanianExtra`) and
``TurnState.extra`` (:class:`TurnExtra`), with their exact JSON form.

The discard row is the shared ``GameState.discard`` (bottom first): its first
tile, the first player's opening discard, stays at index 0 for the whole game
("Dieser Stein darf während des ganzen Spiels nicht benutzt werden").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from engine import jsonio
from engine.cards import Card, parse_face
from engine.errors import CardParseError
from engine.frozen import fast_init

_T = TypeVar("_T")

HINTS = ("high", "low")
"""What a doubla may be announced as: "nur ... ihre Doublas als „hoch“ oder „niedrig“
ansagen". Reading: ``low`` is a pair of 1..7, ``high`` a pair of 8..13."""


@fast_init
@dataclass(frozen=True, slots=True)
class JolyPlace:
    """One place a Joly stood in: meld index (0-based), its face there, and the seat that
    put it there."""

    meld: int
    face: Card
    seat: int


@fast_init
@dataclass(frozen=True, slots=True)
class Replacement:
    """The tiles that took a Joly's place in meld ``meld`` and the seat that laid them
    ("werden die Steine, die benutzt wurden, um einen Joly zu ersetzen, in der Meldung
    umgedreht")."""

    meld: int
    tiles: tuple[Card, ...]
    seat: int


@fast_init
@dataclass(frozen=True, slots=True)
class JolyTrack:
    """The history of one Joly on the table: every place it stood in (first first) and
    the replacement that freed it from each earlier place. ``replacements[i]`` freed it
    from ``places[i]``; while a freed Joly waits to be melded again there is one
    replacement more than there are later places."""

    places: tuple[JolyPlace, ...]
    replacements: tuple[Replacement, ...] = ()

    @property
    def first_seat(self) -> int:
        """The seat that melded it first: it scores the Joly's 50 points."""
        return self.places[0].seat

    @property
    def pending(self) -> bool:
        """True while the Joly is freed and not yet melded again."""
        return len(self.replacements) == len(self.places)


@fast_init
@dataclass(frozen=True, slots=True)
class Offer:
    """A doubla swap offered by ``seat`` to ``partner`` with the pair of ``tile`` (hidden)."""

    seat: int
    partner: int
    tile: Card


@fast_init
@dataclass(frozen=True, slots=True)
class PrePlay:
    """The step before the first discard (doubla and the face-up announcement).

    ``ready[seat]``: the seat has finished. ``hints[seat]``: ``None`` (no doubla
    announced), ``""`` (doubla, no hint), ``"high"`` or ``"low"``. ``swapped[seat]``:
    took part in a swap; ``offered[seat]``: has made its one offer. ``offer``: the
    offer awaiting an answer (the partner is the current seat then).
    """

    ready: tuple[bool, ...]
    hints: tuple[str | None, ...]
    swapped: tuple[bool, ...]
    offered: tuple[bool, ...]
    offer: Offer | None = None


@fast_init
@dataclass(frozen=True, slots=True)
class RomanianExtra:
    """``GameState.extra`` of a Romanian table.

    ``face_up``: the face-up tile, ``None`` once taken (or when the deal has none).
    ``preplay``: the pre-play step, ``None`` once the first player may discard.
    ``announced``: seats that announced holding the face-up tile's twin (+25).
    ``jolys``: the track of every Joly that has been on the table.
    ``low``: per seat, the tile count last announced (3 or fewer) or ``None``.
    ``played``: per seat, a turn of play ended (with a discard) this game: the face-up
    twin is announced before the seat's first turn (:func:`.preplay.may_announce`).
    """

    face_up: Card | None
    preplay: PrePlay | None
    announced: tuple[bool, ...]
    jolys: tuple[JolyTrack, ...] = ()
    low: tuple[int | None, ...] = ()
    played: tuple[bool, ...] = ()


@fast_init
@dataclass(frozen=True, slots=True)
class Obligation:
    """A meld the seat owes before anything else this turn.

    ``kind``: ``"row"`` (a tile taken from the discard row must be melded at once with
    at least two tiles of the rack, ``rack`` = the rack before the take), ``"joly"``
    (a freed Joly must be melded at once in a new meld with two rack tiles; ``track``
    its index in ``RomanianExtra.jolys``) or ``"opening"`` (the previous discard, taken
    under ``opening_take``, must be in the opening meld). ``tile``: the tile owed.
    """

    kind: str
    tile: Card
    rack: tuple[Card, ...] = ()
    track: int = -1


@fast_init
@dataclass(frozen=True, slots=True)
class TurnExtra:
    """``TurnState.extra``: a pending :class:`Obligation`, ``out`` when the face-up tile
    was taken (the turn must end by going out), and ``opening`` when the seat opened this
    turn (no lay-off on others' melds, no Joly exchange)."""

    obligation: Obligation | None = None
    out: bool = False
    opening: bool = False


# --- JSON -------------------------------------------------------------------------------------


def _face_to_json(card: Card) -> str:
    return str(card) if card.suit is not None else str(card.rank)


def _face_from_json(value: Any, where: str) -> Card:
    text = jsonio.as_str(value, where)
    try:
        return parse_face(text)
    except CardParseError:
        raise jsonio.RecordError(where, f"'{text}' is not a face") from None


def _places_to_json(track: JolyTrack) -> dict[str, Any]:
    return {
        "places": [[p.meld, _face_to_json(p.face), p.seat] for p in track.places],
        "replacements": [
            [r.meld, jsonio.cards_to_json(r.tiles), r.seat] for r in track.replacements
        ],
    }


def _triples(
    data: Mapping[str, Any], key: str, where: str, middle: str, read: Callable[[Any, str], _T]
) -> list[tuple[int, _T, int]]:
    """The list ``data[key]`` of ``[meld, middle, seat]`` items: the meld number and the
    seat as whole numbers from 0, the ``middle`` item read by ``read``."""
    out = []
    for i, raw in enumerate(jsonio.as_list(jsonio.need(data, key, where), f"{where}.{key}")):
        at = f"{where}.{key}[{i}]"
        item = jsonio.as_list(raw, at)
        if len(item) != 3:
            raise jsonio.RecordError(at, f"expected [meld, {middle}, seat]")
        out.append(
            (jsonio.as_int(item[0], at, 0), read(item[1], at), jsonio.as_int(item[2], at, 0))
        )
    return out


def _track_from_json(value: Any, where: str) -> JolyTrack:
    data = jsonio.as_mapping(value, where)
    places = [
        JolyPlace(meld, face, seat)
        for meld, face, seat in _triples(data, "places", where, "face", _face_from_json)
    ]
    reps = [
        Replacement(meld, tiles, seat)
        for meld, tiles, seat in _triples(
            data, "replacements", where, "tiles", jsonio.cards_from_json
        )
    ]
    if not places:
        raise jsonio.RecordError(f"{where}.places", "a Joly track has at least one place")
    return JolyTrack(tuple(places), tuple(reps))


def _opt_card(value: Any, where: str) -> Card | None:
    return None if value is None else jsonio.card_from_json(value, where)


def extra_to_json(extra: Any) -> Any:
    """:class:`RomanianExtra` or :class:`TurnExtra` (or ``None``) as JSON."""
    if extra is None:
        return None
    if isinstance(extra, TurnExtra):
        ob = extra.obligation
        return {
            "obligation": None
            if ob is None
            else {
                "kind": ob.kind,
                "tile": str(ob.tile),
                "rack": jsonio.cards_to_json(ob.rack),
                "track": ob.track,
            },
            "out": extra.out,
            "opening": extra.opening,
        }
    assert isinstance(extra, RomanianExtra)
    pre = extra.preplay
    return {
        "face_up": None if extra.face_up is None else str(extra.face_up),
        "preplay": None
        if pre is None
        else {
            "ready": list(pre.ready),
            "hints": list(pre.hints),
            "swapped": list(pre.swapped),
            "offered": list(pre.offered),
            "offer": None
            if pre.offer is None
            else [pre.offer.seat, pre.offer.partner, str(pre.offer.tile)],
        },
        "announced": list(extra.announced),
        "jolys": [_places_to_json(t) for t in extra.jolys],
        "low": list(extra.low),
        "played": list(extra.played),
    }


def _bools(value: Any, where: str) -> tuple[bool, ...]:
    return tuple(
        jsonio.as_bool(v, f"{where}[{i}]") for i, v in enumerate(jsonio.as_list(value, where))
    )


def _hint(value: Any, where: str) -> str | None:
    if value is None:
        return None
    text = jsonio.as_str(value, where)
    if text and text not in HINTS:
        raise jsonio.RecordError(where, f"'{text}' is not a doubla hint")
    return text


def _preplay_from_json(value: Any, where: str) -> PrePlay | None:
    if value is None:
        return None
    data = jsonio.as_mapping(value, where)
    offer_raw = data.get("offer")
    offer = None
    if offer_raw is not None:
        item = jsonio.as_list(offer_raw, f"{where}.offer")
        if len(item) != 3:
            raise jsonio.RecordError(f"{where}.offer", "expected [seat, partner, tile]")
        offer = Offer(
            jsonio.as_int(item[0], f"{where}.offer", 0),
            jsonio.as_int(item[1], f"{where}.offer", 0),
            jsonio.card_from_json(item[2], f"{where}.offer"),
        )
    hints = jsonio.as_list(jsonio.need(data, "hints", where), f"{where}.hints")
    return PrePlay(
        ready=_bools(jsonio.need(data, "ready", where), f"{where}.ready"),
        hints=tuple(_hint(h, f"{where}.hints[{i}]") for i, h in enumerate(hints)),
        swapped=_bools(jsonio.need(data, "swapped", where), f"{where}.swapped"),
        offered=_bools(jsonio.need(data, "offered", where), f"{where}.offered"),
        offer=offer,
    )


def _low(value: Any, where: str) -> tuple[int | None, ...]:
    return tuple(
        None if v is None else jsonio.as_int(v, f"{where}[{i}]", 0)
        for i, v in enumerate(jsonio.as_list(value, where))
    )


def extra_from_json(data: Any, where: str) -> Any:
    """The inverse of :func:`extra_to_json` (``where`` is ``"extra"`` or ``"turn.extra"``);
    raises ``RecordError`` for bad data."""
    if data is None:
        return None
    body: Mapping[str, Any] = jsonio.as_mapping(data, where)
    if where.startswith("turn"):
        ob_raw = jsonio.need(body, "obligation", where)
        ob = None
        if ob_raw is not None:
            ob_data = jsonio.as_mapping(ob_raw, f"{where}.obligation")
            kind = jsonio.as_str(jsonio.need(ob_data, "kind", where), f"{where}.obligation.kind")
            if kind not in ("row", "joly", "opening"):
                raise jsonio.RecordError(
                    f"{where}.obligation.kind", f"'{kind}' is not an obligation"
                )
            ob = Obligation(
                kind,
                jsonio.card_from_json(
                    jsonio.need(ob_data, "tile", where), f"{where}.obligation.tile"
                ),
                jsonio.cards_from_json(
                    jsonio.need(ob_data, "rack", where), f"{where}.obligation.rack"
                ),
                jsonio.as_int(
                    jsonio.need(ob_data, "track", where), f"{where}.obligation.track", -1
                ),
            )
        return TurnExtra(
            obligation=ob,
            out=jsonio.as_bool(jsonio.need(body, "out", where), f"{where}.out"),
            opening=jsonio.as_bool(jsonio.need(body, "opening", where), f"{where}.opening"),
        )
    return RomanianExtra(
        face_up=_opt_card(jsonio.need(body, "face_up", where), f"{where}.face_up"),
        preplay=_preplay_from_json(jsonio.need(body, "preplay", where), f"{where}.preplay"),
        announced=_bools(jsonio.need(body, "announced", where), f"{where}.announced"),
        jolys=tuple(
            _track_from_json(t, f"{where}.jolys[{i}]")
            for i, t in enumerate(
                jsonio.as_list(jsonio.need(body, "jolys", where), f"{where}.jolys")
            )
        ),
        low=_low(jsonio.need(body, "low", where), f"{where}.low"),
        # saved before the field existed: every seat counts as having played (the
        # announcement closed with the pre-play step then)
        played=_bools(body["played"], f"{where}.played")
        if "played" in body
        else tuple(
            True
            for _ in jsonio.as_list(jsonio.need(body, "announced", where), f"{where}.announced")
        ),
    )
