"""The web table's JSON protocol: every message a page and the server exchange, in one
place. A WebSocket carries one JSON object per text frame; every object has a ``type``.

Cards and tiles are written as the engine's codes (:meth:`engine.cards.Card.__str__`):
``qh`` (queen of hearts), ``10d``, ``jk`` (a joker or the Joly), tiles colour first
``r7``, ``y13``, ``b1``, ``k5``. A joker on the table is ``["jk", "9h"]`` (the card and
the face it stands for). The page names every card in the reader's language from its
strings (:mod:`bot.web.strings`), so the codes are the only card data on the wire.

Server -> page
--------------
``screen``: the whole table as this page may see it (sent on connect, after every change
of the table, and after a refused press)::

    {"type": "screen", "table": 12, "version": 34, "status": "playing",
     "locale": "de", "seat": 1,            # null: a spectator
     "tiles": false, "variant": "Basic Rummy",
     "public": PUBLIC | null,              # null in the lobby
     "hand": HAND | null,                  # this seat's own hand; null for spectators
     "events": ["ana legt 7♥ ab."],        # what this change did, oldest first
     "notices": ["Das Spiel hat begonnen."],
     "lobby": "Table: ..." | null,         # the lobby's text before the game starts
     "sheet": SHEET | null,                # the score sheet between deals and at the end
     "recent": false}                      # true: a new page's first screen, whose events
                                           # are the table's last changes (its last moves)

    PUBLIC = {"deal": 2, "dealer": 0, "current": 1 | null, "phase": "play",
              "stock": 21, "discard": ["kd", "7h"], "discard_size": 5,
              "face_up": "r7" | null, "taken": "7c" | null,
              "players": [{"name": "ana", "cards": 7, "score": "12", "melded": true,
                           "ai": false, "away": false, "dealer": true}],
              "melds": [{"owner": 0, "cards": ["7h", "8h", ["jk", "9h"]]}],
              "lines": ["ben ist am Zug: ..."],   # the turn line, the variant's lines and
                                                  # the fair deal's commitment line
              "turn_left": 118.5 | null,          # seconds of the turn timer
              "commitment": "7743cbb8…" | null}   # the deal's commitment, 64 hex digits

    HAND = {"cards": ["2c", "7h", ...],     # display order of ``sort``
            "sort": "suit" | "rank" | "melds", "selected": [0, 2], "digest": "ab12",
            "phase": "Du bist dran: ...", "turn": true, "complete": true,
            "offers": [OFFER, ...],          # HandModel.offers: the number pressed is
                                             # the index in this list
            "hint": {"label": "...", "selected": [0, 1, 2]} | null,
            "groups": [[0, 1, 2], ...]}      # the melds when sorted melds first

    OFFER = {"label": "Melden", "tone": "go" | "stop" | "plain",
             "group": "move" | "control" | "pile", "cards": [0, 1, 2], "hint": false,
             "kind": "draw" | "take" | "meld" | "layoff" | "discard" | null,
             "meld": 3 | null}               # optional (pages before them ignore them):
                                             # what the move does, for dragging a card
                                             # onto the pile, the table or meld ``meld``

    SHEET = {"text": "Runde 1 ist vorbei: ...", "over": false,   # the whole sheet as text
             "hands": [["7c", "9d"], ...],   # hands laid open for scoring
             "title": "Runde 1 ist vorbei: ana ist ausgegangen.",
             "head": ["Spieler", "Diese Runde", "Gesamt", "Rest auf der Hand"],
             "rows": [["ana", "+35", "35", "0"], ...],   # one per seat, as "head"
             "lines": ["Geheimnis der Runde 1: ..."],   # below the table
             "scores": "Punktestand ..."}                # every deal so far

``hand``: the hand for a new selection or order (``{"type": "hand", "table", "version",
"hand": HAND}``). ``reply``: the answer to a press (``{"type": "reply", "ok": false,
"code": "stale_control", "text": "..."}``). ``warn``: the turn timer runs out
(``{"type": "warn", "seconds": 24, "text": "..."}``). ``error``: a message that was
refused before reaching the game (``{"type": "error", "code": "bad_message" |
"not_your_table" | "session" | "too_many", "text": "...", "field": "sort"}``;
``field``, with ``bad_message`` only: the part of the message that was refused).

Close codes of the page's WebSocket (after an ``error`` saying why): 4001 the session
was refused (the page stops reconnecting and asks to open the table from the chat
again), 4002 too many malformed messages (:data:`MAX_BAD`), 4003 too many pages of one
session (``WEB_SOCKETS_PER_SESSION``), 1013 the process holds all the pages it may.

Page -> server
--------------
Every message names the ``table`` of its session (another table is refused) and, where
it acts on a screen, the ``version`` and the hand's ``digest`` it was drawn for. A
selection is the list of the selected cards' indices in the hand's display order (the
order of ``HAND.cards``)::

    {"type": "select", "table": 12, "version": 34, "selected": [0, 2], "sort": "suit"}
    {"type": "sort", "table": 12, "sort": "rank"}     # the selection is kept
    {"type": "hint", "table": 12}                     # selects the suggested move
    {"type": "offer", "table": 12, "version": 34, "digest": "ab12", "selected": [0, 2],
     "sort": "suit", "offer": 0, "id": "p1-7"}        # ``id``: the press's unique id
    {"type": "refresh", "table": 12}                  # send the screen again
    {"type": "lobby", "table": 12, "action": "join" | "leave" | "start" | "addbot",
     "level": "easy" | "normal" | "hard" | "expert"}  # a lobby step; level: addbot only

A message that does not parse gets an ``error`` and changes nothing: more than 4,096
bytes, nesting deeper than 3, more than 16 fields, a field of the wrong type or size.
Strings (``id``, ``digest``) are cleaned of lone surrogates.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from bot.i18n import _, use_locale
from bot.ports.clean import clean_text
from bot.ports.hand import HandModel, SortMode
from bot.ports.model import SeatKind, Status, TableInfo
from bot.ports.table_rules import AI_LEVELS
from bot.render.cards import points_text, signed_points_text
from bot.render.text import render_hand_end, render_scores
from engine.actions import Discard, Draw, LayOff, MeldCards, TakeDiscard
from engine.cards import Card
from engine.melds import Meld
from engine.state import Phase
from engine.views import PublicView

__all__ = [
    "MAX_BAD",
    "SORTS",
    "BadMessage",
    "Incoming",
    "card_code",
    "encode",
    "hand_json",
    "meld_json",
    "offer_kind",
    "parse_incoming",
    "public_json",
    "sheet_json",
]

SORTS: dict[str, SortMode] = {"suit": SortMode.SUIT, "rank": SortMode.RANK, "melds": SortMode.MELDS}
"""The sort words of the protocol."""
SORT_WORDS = {mode: word for word, mode in SORTS.items()}

MAX_MESSAGE = 4096
"""Bytes a page's message may have (they are a few dozen)."""

MAX_BAD = 5
"""Malformed messages a page's socket may send before it is closed (code 4002); each one
is answered with an ``error`` first."""

MAX_HAND = 256
"""Cards a selection may name at most (no hand holds more)."""


def encode(message: dict[str, Any]) -> str:
    """One message as compact JSON text."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def card_code(card: Card) -> str:
    """The engine's code of ``card``: ``qh``, ``10d``, ``jk``, ``r7``."""
    return str(card)


def meld_json(meld: Meld) -> dict[str, Any]:
    """``{"owner": seat, "cards": [...]}``; a joker as ``[card, face]``."""
    return {
        "owner": meld.owner,
        "cards": [
            [card_code(p.card), card_code(p.face)] if p.card.is_joker else card_code(p.card)
            for p in meld.cards
        ],
    }


def _points(value: Fraction) -> str:
    return points_text(value)


def public_json(
    view: PublicView, info: TableInfo, lines: Sequence[str], turn_left: float | None
) -> dict[str, Any]:
    """The public table (see the module docstring): what every seat and spectator sees."""
    seats = info.seats
    face_up = getattr(view.extra, "face_up", None)
    players = []
    for seat, name in enumerate(view.players):
        about = seats[seat] if seat < len(seats) else None
        players.append(
            {
                "name": name,
                "cards": view.hand_sizes[seat],
                "score": _points(view.totals[seat]),
                "melded": view.has_melded[seat],
                "ai": about is not None and about.kind is SeatKind.AI,
                "away": about is not None and about.autopilot,
                "dealer": seat == view.dealer,
            }
        )
    return {
        "deal": view.deal_number,
        "dealer": view.dealer,
        "current": view.current,
        "phase": view.phase.name.lower(),
        "stock": view.stock_size,
        "discard": [card_code(c) for c in view.discard],
        "discard_size": view.discard_size,
        "face_up": None if face_up is None else card_code(face_up),
        "taken": None if view.taken is None else card_code(view.taken),
        "players": players,
        "melds": [meld_json(m) for m in view.melds],
        "lines": list(lines),
        "turn_left": None if turn_left is None else round(turn_left, 1),
        "commitment": view.commitment,
    }


def sheet_json(view: PublicView) -> dict[str, Any] | None:
    """The score sheet between deals and at the end of the match (call inside
    ``use_locale``); ``None`` while a deal is played."""
    if view.phase not in (Phase.HAND_OVER, Phase.GAME_OVER) or not view.results:
        return None
    over = view.phase is Phase.GAME_OVER
    end = render_hand_end(view)
    scores = render_scores(view, winners=False)
    hands = [[card_code(c) for c in hand] for hand in view.shown_hands or ()]
    result = view.results[-1]
    ended = end.splitlines()
    rows = [
        [
            name,
            signed_points_text(result.scores[seat]),
            points_text(view.totals[seat]),
            points_text(result.points[seat]),
        ]
        for seat, name in enumerate(view.players)
    ]
    return {
        "text": end + "\n\n" + scores,
        "over": over,
        "hands": hands,
        "title": ended[0],
        "head": [
            _("Player"),
            _("This deal"),
            _("Total"),
            _("Left on the rack") if view.rules.var.uses_tiles else _("Left in hand"),
        ],
        "rows": rows,
        "lines": ended[1 + len(view.players) :],
        "scores": scores,
    }


OFFER_KINDS: dict[type, str] = {
    Draw: "draw",
    TakeDiscard: "take",
    MeldCards: "meld",
    LayOff: "layoff",
    Discard: "discard",
}
"""The ``kind`` of an offer whose action is one of these (the page's drop targets: the pile
for a discard, the table for a meld, a meld for a lay-off; the stock and the pile for a
draw)."""


def offer_kind(action: object) -> tuple[str | None, int | None]:
    """``(kind, meld)`` of an offer's action: see :data:`OFFER_KINDS`; ``meld`` the number
    of the meld a lay-off goes to."""
    kind = OFFER_KINDS.get(type(action))
    return kind, action.meld if isinstance(action, LayOff) else None


def hand_json(model: HandModel, hint: Any = None) -> dict[str, Any]:
    """The hand model (see the module docstring); ``hint``: the action of the suggested
    move, whose offer is flagged (after the Hint button selected its cards)."""
    order = model.cards
    groups: list[list[int]] = []
    if model.sort is SortMode.MELDS and model.melds is not None:
        start = 0
        for group in model.melds.melds:
            groups.append(list(range(start, start + len(group))))
            start += len(group)

    def indices(cards: Sequence[Card]) -> list[int]:
        used: list[int] = []
        for card in cards:
            for index, candidate in enumerate(order):
                if candidate == card and index not in used:
                    used.append(index)
                    break
        return used

    offers = []
    for offer in model.offers:
        kind, meld = offer_kind(offer.action)
        offers.append(
            {
                "label": offer.label,
                "tone": offer.tone,
                "group": offer.group.value,
                "cards": indices(offer.cards),
                "hint": hint is not None and offer.action == hint,
                "kind": kind,
                "meld": meld,
            }
        )
    return {
        "cards": [card_code(c) for c in order],
        "sort": SORT_WORDS[model.sort],
        "selected": bits(model.mask),
        "digest": model.digest,
        "phase": model.phase_line,
        "turn": model.my_turn,
        "complete": model.complete,
        "offers": offers,
        "hint": None
        if model.hint is None
        else {"label": model.hint.label, "selected": bits(model.hint_mask)},
        "groups": groups,
    }


def bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    return [index for index in range(mask.bit_length()) if mask >> index & 1]


def mask_of_indices(indices: Sequence[int]) -> int:
    """The bit set of ``indices``."""
    mask = 0
    for index in indices:
        mask |= 1 << index
    return mask


def status_word(status: Status) -> str:
    """``lobby``, ``playing``, ``finished``, ``cancelled``."""
    return status.value


# --- page -> server --------------------------------------------------------------------------


class BadMessage(ValueError):
    """A page's message that does not parse (``code``: ``bad_message``)."""

    code = "bad_message"


@dataclass(frozen=True, slots=True)
class Incoming:
    """One parsed page message (see the module docstring)."""

    type: str
    table: int
    version: int | None = None
    mask: int = 0
    sort: SortMode | None = None
    digest: str | None = None
    offer: int | None = None
    id: str | None = None
    action: str | None = None
    level: str | None = None


TYPES = frozenset({"select", "sort", "hint", "offer", "refresh", "lobby"})
LOBBY_ACTIONS = frozenset({"join", "leave", "start", "addbot"})
"""The lobby steps a page may ask for (``lobby`` messages)."""

MAX_DEPTH = 3
"""Nesting of arrays and objects a page's message may have (its shapes have 2: the
message and its ``selected`` list); a deeper one is refused before it is parsed."""

MAX_FIELDS = 16
"""Fields a page's message may have (its shapes have at most 7)."""


def nesting_depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in JSON ``text``, brackets inside strings
    not counted (a cheap scan, so a deep document is refused before the parser recurses
    into it)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _int(data: dict[str, Any], name: str, required: bool = False) -> int | None:
    value = data.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 1 << 53:
        raise BadMessage(name)
    return value


def _text(data: dict[str, Any], name: str, longest: int) -> str | None:
    """A string field of 1 to ``longest`` characters, cleaned of lone surrogates and
    NULs (:func:`bot.ports.clean.clean_text`), or ``None`` when absent."""
    value = data.get(name)
    if value is None:
        return None
    if not isinstance(value, str) or not 0 < len(value) <= longest:
        raise BadMessage(name)
    return clean_text(value)


def _object(text: str | bytes) -> dict[str, Any]:
    """The JSON object of one page message; raises :class:`BadMessage` when ``text`` is
    too long (:data:`MAX_MESSAGE`), not UTF-8, nested deeper than :data:`MAX_DEPTH`, not
    JSON, not an object or has more than :data:`MAX_FIELDS` fields."""
    if len(text) > MAX_MESSAGE:
        raise BadMessage("too long")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise BadMessage("not JSON") from None
    if nesting_depth(text) > MAX_DEPTH:
        raise BadMessage("depth")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise BadMessage("not JSON") from None
    if not isinstance(data, dict) or len(data) > MAX_FIELDS:
        raise BadMessage("not an object")
    return data


def _sort(data: dict[str, Any]) -> str | None:
    """The ``sort`` field, one of :data:`SORTS`'s keys, or ``None`` when absent."""
    sort = data.get("sort")
    if sort is not None and (not isinstance(sort, str) or sort not in SORTS):
        raise BadMessage("sort")
    return sort


def _is_index(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < MAX_HAND


def _selected(data: dict[str, Any]) -> list[int]:
    """The ``selected`` field: a list of at most :data:`MAX_HAND` hand indices (empty
    when absent)."""
    selected = data.get("selected", [])
    if (
        not isinstance(selected, list)
        or len(selected) > MAX_HAND
        or not all(_is_index(i) for i in selected)
    ):
        raise BadMessage("selected")
    return selected


def parse_incoming(text: str | bytes) -> Incoming:
    """One page message; raises :class:`BadMessage` (its text names the field) for
    anything that is not one of the shapes of the module docstring: too long
    (:data:`MAX_MESSAGE`), nested deeper than :data:`MAX_DEPTH`, not JSON, not an object,
    more than :data:`MAX_FIELDS` fields, an unknown ``type``, any field of the wrong type
    or size. Strings are cleaned of lone surrogates and NULs, so nothing that reaches the
    entry point can fail to be stored."""
    data = _object(text)
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in TYPES:
        raise BadMessage("type")
    table = _int(data, "table", required=True)
    assert table is not None
    sort = _sort(data)
    digest = _text(data, "digest", 16)
    ident = _text(data, "id", 64)
    selected = _selected(data)
    incoming = Incoming(
        kind,
        table,
        _int(data, "version"),
        mask_of_indices(selected),
        None if sort is None else SORTS[sort],
        digest,
        _int(data, "offer"),
        ident,
    )
    if kind == "offer" and (
        incoming.offer is None or incoming.version is None or incoming.id is None
    ):
        raise BadMessage("offer")
    if kind == "lobby":
        return _lobby(data, incoming)
    return incoming


def _lobby(data: dict[str, Any], incoming: Incoming) -> Incoming:
    """A ``lobby`` message's step: ``action`` one of :data:`LOBBY_ACTIONS`, ``level`` (for
    ``addbot`` only, optional) one of the AI levels. Raises :class:`BadMessage`."""
    action = _text(data, "action", 16)
    if action not in LOBBY_ACTIONS:
        raise BadMessage("action")
    level = _text(data, "level", 16)
    if level is not None and (action != "addbot" or level not in AI_LEVELS):
        raise BadMessage("level")
    return replace(incoming, action=action, level=level)


def error_message(code: str, locale: str, field: str | None = None) -> dict[str, Any]:
    """An ``error`` message in ``locale``; ``field``: what of the page's message was
    refused (:class:`BadMessage`'s text), sent as ``"field"``."""
    with use_locale(locale):
        texts = {
            "bad_message": _(
                "The page sent something the table does not understand; nothing was done."
            ),
            "not_your_table": _("This page belongs to another table; nothing was done."),
            "session": _("Your sign-in ran out; open the table again from the chat."),
            "too_many": _(
                "This table is open in too many windows; close one and "
                "open the table again from the chat."
            ),
        }
        message = {"type": "error", "code": code, "text": texts.get(code, texts["bad_message"])}
        if field is not None:
            message["field"] = field
        return message
