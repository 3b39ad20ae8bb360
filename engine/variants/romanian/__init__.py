"""Romanian Rummy (``romanian``), played with 106 tiles: see :mod:`.variant`.

romanian-rummy.de.txt: "Das Spiel kann mit zwei, drei oder vier Spielern gespielt werden.
Ein Spieler zieht jedes Mal, wenn er dran ist, einen Stein und legt einen Stein ab."
"""

from __future__ import annotations

from engine.variants.romanian.variant import RomanianRummy

__all__ = ["RomanianRummy"]
