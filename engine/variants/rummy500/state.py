"""Rummy 500's own state: the call window (game extra) and the obligation to play a card
taken from the discard pile (turn extra), with their exact JSON form.

JSON: the game extra is ``{"call_window": null | {"discarder": 1, "card": "7h" | null}}``
(with ``"out": true`` while a last card may be called, ``going_out=callable``); the turn
extra is ``null`` or ``{"must_play": "7h", "new_meld": false}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.cards import Card
from engine.frozen import fast_init
from engine.jsonio import as_bool, as_int, as_mapping, card_from_json, need


@fast_init
@dataclass(frozen=True, slots=True)
class CallWindow:
    """The interrupt after a turn: any seat but ``discarder`` may call "Rommé!" until the
    next player (``GameState.current``) draws or takes. ``card``: the card just
    discarded (``None`` after a player floated away without a discard). ``out``: the
    card was the discarder's last and could have been laid off (``going_out=callable``):
    a call on it makes the discarder float, and the hand ends, the discarder out, when
    the next player draws instead.

    rummy-500.de.txt: "dann kann, bevor der nächste Spieler eine Karte zieht, außer dem
    Spieler, der gerade eine Karte abgelegt hat, jeder Spieler "Rommé!" rufen"; "In einer
    alternativen Variante wird so gespielt, dass jeder andere Spieler "Rommé!" rufen und
    die von Ihnen auf den Ablagestapel gelegte Karte melden kann. In diesem Fall werden Sie
    zu einem "Schwebenden"".
    """

    discarder: int
    card: Card | None
    out: bool = False


@fast_init
@dataclass(frozen=True, slots=True)
class GameExtra:
    """``GameState.extra`` of Rummy 500: the open call window, or ``None``."""

    call_window: CallWindow | None = None


@fast_init
@dataclass(frozen=True, slots=True)
class TurnExtra:
    """``TurnState.extra``: ``must_play`` is the card taken from the discard pile that must
    still be melded or laid off this turn; ``new_meld``: only a new meld counts.

    rummy-500.de.txt: "Da Sie jedoch die Karten von der -4 an aufgenommen haben, müssen
    Sie die -4 melden."
    """

    must_play: Card
    new_meld: bool = False


@fast_init
@dataclass(frozen=True, slots=True)
class PublicExtra:
    """What every seat sees of the variant's state (``PublicView.extra``).

    ``call_window``: open while "Rommé!" may be called (chats show a button to the seats
    in ``may_call``); ``calling``: the ``calling`` option. ``must_play``: the card the
    seat to play took from the pile and must still play. ``floating``: seats without
    cards that play on. ``melded_points``: each seat's points on the table this deal.
    """

    calling: str
    call_window: CallWindow | None
    may_call: tuple[int, ...]
    must_play: Card | None
    floating: tuple[int, ...]
    melded_points: tuple[int, ...]


def extra_to_json(extra: Any) -> Any:
    """:class:`GameExtra` / :class:`TurnExtra` / ``None`` as JSON."""
    if isinstance(extra, GameExtra):
        window = extra.call_window
        if window is None:
            return {"call_window": None}
        out: dict[str, Any] = {
            "discarder": window.discarder,
            "card": None if window.card is None else str(window.card),
        }
        if window.out:
            out["out"] = True
        return {"call_window": out}
    if isinstance(extra, TurnExtra):
        return {"must_play": str(extra.must_play), "new_meld": extra.new_meld}
    return None


def extra_from_json(data: Any, where: str) -> Any:
    """Inverse of :func:`extra_to_json`: ``where`` is ``"turn.extra"`` for the turn
    record, else the game's. Raises :class:`engine.serialize.RecordError` naming the
    place of a problem (engine.serialize imports the variant registry, hence the late
    import)."""
    if data is None:
        return None
    obj = as_mapping(data, where)
    if where.startswith("turn"):
        return TurnExtra(
            card_from_json(need(obj, "must_play", where), f"{where}.must_play"),
            as_bool(need(obj, "new_meld", where), f"{where}.new_meld"),
        )
    raw = need(obj, "call_window", where)
    if raw is None:
        return GameExtra(None)
    win = as_mapping(raw, f"{where}.call_window")
    at = f"{where}.call_window"
    card_raw = need(win, "card", at)
    card = None if card_raw is None else card_from_json(card_raw, f"{at}.card")
    out = as_bool(win["out"], f"{at}.out") if "out" in win else False
    return GameExtra(
        CallWindow(as_int(need(win, "discarder", at), f"{at}.discarder", 0), card, out)
    )
