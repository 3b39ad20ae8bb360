"""The German catalogue keeps to docs/glossary.md: one word per concept."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

REPO = Path(__file__).resolve().parents[2]
PO = REPO / "bot" / "i18n" / "locale" / "de" / "LC_MESSAGES" / "messages.po"

REJECTED = {
    "Figur": "Meldung",
    "Anfangsmeldung": "Erstmeldung",
    "Bänkchen": "Ständer",
    "Talon": "Nachziehstapel",
    "Rummy!": "Rommé!",
}
"""Words the glossary rejects, with the word the screens use instead."""

TILE_ONLY = ("bot/render/variants/romanian.py", "engine/variants/romanian/")
"""Sources whose texts speak of tiles only (Romanian Rummy)."""


def german_messages() -> list[tuple[str, str]]:
    with PO.open("rb") as handle:
        catalog = read_po(handle)
    out = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        where = " ".join(location for location, _line in message.locations)
        out.extend((where, text) for text in strings if text)
    return out


def test_the_german_catalogue_uses_one_word_per_concept() -> None:
    found = [
        (word, text)
        for _where, text in german_messages()
        for word in REJECTED
        if re.search(rf"\b{re.escape(word)}", text)
    ]
    assert found == []


def test_romanian_texts_speak_of_tiles_not_cards() -> None:
    """romanian-rummy.de.txt: "Ein Satz für das Spiel besteht aus 106 hölzernen Steinen",
    drawn from the "Mauer" onto the "Ständer"."""
    cards = [
        (where, text)
        for where, text in german_messages()
        if any(source in where for source in TILE_ONLY)
        and re.search(r"\bKarte|Nachziehstapel|\bHand\b", text)
    ]
    assert cards == []
