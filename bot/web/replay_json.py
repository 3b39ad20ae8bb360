"""The replay's JSON (``GET api/replay``, :mod:`bot.web.server.routes`): a table's finished
deals as the person may see them (:class:`bot.ports.replays.Replay`), each position drawn
by the page as it draws a screen (:mod:`bot.web.protocol`)::

    {"table": 12, "seat": 1 | null, "over": true, "locale": "de", "tiles": false,
     "variant": "Basic Rummy",
     "positions": [POSITION, ...]}        # in order: each deal as dealt, then each move

    POSITION = {"deal": 1, "number": 0,   # 0: the deal as dealt, else the move's number
                "public": PUBLIC,         # as a screen's (no turn timer)
                "hands": [["7c", ...] | null, ...],   # by seat; null: hidden from the person
                "events": ["ana legt 7♥ ab."],        # what the move did
                "sheet": SHEET | null}                # when the deal is over

A refusal is ``{"error": code, "text": line}`` (:data:`bot.ports.replays.REPLAY_REFUSALS`).
"""

from __future__ import annotations

from typing import Any

from bot.i18n import _, use_locale
from bot.interaction.catalogue import variant_name
from bot.ports.replays import Replay
from bot.web.protocol import card_code, public_json, sheet_json

__all__ = ["replay_json"]


def replay_json(replay: Replay) -> dict[str, Any]:
    """The JSON of ``replay`` (see the module docstring); ``replay`` must not be refused."""
    info = replay.info
    assert info is not None and replay.refused is None
    positions = []
    tiles = False
    with use_locale(replay.locale):
        for position in replay.positions:
            view = position.table
            tiles = view.rules.var.uses_tiles
            positions.append(
                {
                    "deal": position.deal,
                    "number": position.number,
                    "public": public_json(view, info, [], None),
                    "hands": [
                        None if hand is None else [card_code(c) for c in hand]
                        for hand in position.hands
                    ],
                    "events": list(position.events),
                    "sheet": sheet_json(view),
                }
            )
        variant = _(variant_name(info.variant))
    return {
        "table": info.id,
        "seat": replay.seat,
        "over": replay.over,
        "locale": replay.locale,
        "tiles": tiles,
        "variant": variant,
        "positions": positions,
    }
