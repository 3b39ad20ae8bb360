"""A piece that cannot be read is explained in the table's notation: tiles at a Romanian
table (romanian-rummy.de.txt: "rot, gelb, blau und schwarz"), cards elsewhere."""

from __future__ import annotations

from pathlib import Path

from bot.ports.model import ChatKey, UserRef
from tests.bot.people import say
from tests.bot.service.support import make_harness

ANA = UserRef("test", "1", "ana", "en")
BEA = UserRef("test", "2", "bea", "de")


async def test_a_bad_tile_is_explained_with_tile_examples(tmp_path: Path) -> None:
    harness = await make_harness(tmp_path / "bot.sqlite3")
    try:
        s = harness.people
        romanian, basic = ChatKey("test", "ro"), ChatKey("test", "basic")
        await s.new_table(romanian, ANA, variant="romanian")
        await s.new_table(basic, ANA)
        tile = await say(s, romanian, ANA, "discard r66")
        card = await say(s, basic, ANA, "discard r66")
        assert tile.text == "'r66' is not a tile (examples: r7 y10 b13 k1 jo)."
        assert card.text == "'r66' is not a card (examples: 7h 10d qs ac jk)."
        german = await say(s, romanian, BEA, "discard r66")  # Bea's app is German
        assert german.text == "'r66' ist kein Stein (Beispiele: r7 g10 b13 s1 jo)."
    finally:
        await harness.db.close()
