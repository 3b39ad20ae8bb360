"""Tests for bot.i18n: locale isolation, normalisation, catalogue loading and completeness.

The completeness tests guard every translatable string anyone adds under bot/:
each must have a non-fuzzy German translation with the same ``{placeholders}``.
"""

from __future__ import annotations

import asyncio
import string
from collections.abc import Iterable
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po
from hypothesis import given
from hypothesis import strategies as st

import bot.i18n as i18n
from bot.i18n import (
    DEFAULT_LOCALE,
    LOCALE_DIR,
    N_,
    SUPPORTED_LOCALES,
    _,
    current_locale,
    gettext,
    is_supported_locale,
    load_translations,
    ngettext,
    normalize_locale,
    translate,
    use_locale,
)

BOT_DIR = Path(i18n.__file__).resolve().parent.parent
DE_PO = LOCALE_DIR / "de" / "LC_MESSAGES" / "messages.po"

# Same keywords as the documented `pybabel extract -k N_ -k _` (gettext and
# ngettext are pybabel defaults). None: the first argument is the msgid.
KEYWORDS: dict[str, tuple[int, ...] | None] = {
    "_": None,
    "N_": None,
    "gettext": None,
    "ngettext": (1, 2),
}

# A msgid used in bot/settings.py, with its German translation.
KNOWN_MSGID = "{variable} must not contain whitespace."
KNOWN_DE = "{variable} darf keine Leerzeichen enthalten."


# --------------------------------------------------------------------------- helpers


def extracted_messages() -> dict[str | tuple[str, ...], list[str]]:
    """All msgids marked in bot/ and engine/ (the engine's error templates, marked with its
    own ``N_``; plural ones as tuples), mapped to their "file:line"s."""
    found: dict[str | tuple[str, ...], list[str]] = {}
    for folder in (BOT_DIR, BOT_DIR.parent / "engine"):
        for filename, lineno, message, _comments, _context in extract_from_dir(
            folder, method_map=[("**.py", "python")], keywords=KEYWORDS
        ):
            key = message if isinstance(message, str) else tuple(m for m in message if m)
            found.setdefault(key, []).append(f"{folder.name}/{filename}:{lineno}")
    return found


def read_de_catalog() -> Catalog:
    """The German catalogue as Babel parses it."""
    with DE_PO.open("rb") as po_file:
        return read_po(po_file, locale="de")


def placeholders(text: str) -> set[str]:
    """Names of the ``str.format`` fields in ``text`` ("{a.b!r:>{w}}" -> {"a", "w"})."""
    names: set[str] = set()
    for _literal, field_name, format_spec, _conversion in string.Formatter().parse(text):
        if field_name is None:
            continue
        names.add(field_name.split(".", 1)[0].split("[", 1)[0])
        if format_spec:
            names |= placeholders(format_spec)
    return names


def as_tuple(value: str | Iterable[str]) -> tuple[str, ...]:
    """Babel stores plural ids/strings as tuples and singular ones as str."""
    return (value,) if isinstance(value, str) else tuple(value)


def describe(ids: tuple[str, ...]) -> str:
    """A msgid for failure messages: 'text' or ('singular', 'plural')."""
    return repr(ids[0]) if len(ids) == 1 else repr(ids)


def format_list(items: Iterable[str]) -> str:
    """One "  - item" line per item."""
    return "\n".join(f"  - {item}" for item in items)


# --------------------------------------------------------------------------- normalisation


@pytest.mark.parametrize(
    ("tag", "expected"),
    [
        ("de", "de"),
        ("de-DE", "de"),
        ("de_AT", "de"),
        ("DE", "de"),
        ("de-CH", "de"),
        ("de_DE.UTF-8", "de"),
        ("en", "en"),
        ("en-US", "en"),
        ("en_GB", "en"),
        ("EN", "en"),
        ("fr", "en"),
        ("pt-BR", "en"),
        ("", "en"),
        (None, "en"),
        ("  de  ", "de"),
        ("deu", "en"),
    ],
)
def test_normalize_locale(tag: str | None, expected: str) -> None:
    assert normalize_locale(tag) == expected


@given(st.one_of(st.none(), st.text()))
def test_normalize_locale_always_returns_a_supported_locale(tag: str | None) -> None:
    assert normalize_locale(tag) in SUPPORTED_LOCALES


def test_is_supported_locale() -> None:
    assert is_supported_locale("de-AT")
    assert is_supported_locale("EN")
    assert not is_supported_locale("fr")
    assert not is_supported_locale("")
    assert not is_supported_locale(None)


# --------------------------------------------------------------------------- lookups


def test_default_locale_is_english() -> None:
    assert DEFAULT_LOCALE == "en"
    assert current_locale.get() == "en"
    assert _(KNOWN_MSGID) == KNOWN_MSGID


def test_translate_explicit_locale() -> None:
    assert translate(KNOWN_MSGID, "de") == KNOWN_DE
    assert translate(KNOWN_MSGID, "de-AT") == KNOWN_DE
    assert translate(KNOWN_MSGID, "en") == KNOWN_MSGID
    assert translate(KNOWN_MSGID, "fr") == KNOWN_MSGID
    assert translate(KNOWN_MSGID, None) == KNOWN_MSGID


def test_unknown_msgid_falls_back_to_msgid() -> None:
    with use_locale("de"):
        assert gettext("No such message {x}") == "No such message {x}"


def test_use_locale_sets_and_restores() -> None:
    with use_locale("de-DE") as locale:
        assert locale == "de"
        assert current_locale.get() == "de"
        assert _(KNOWN_MSGID) == KNOWN_DE
        with use_locale("en"):
            assert _(KNOWN_MSGID) == KNOWN_MSGID
        assert current_locale.get() == "de"
    assert current_locale.get() == "en"


def test_use_locale_restores_on_exception() -> None:
    with pytest.raises(RuntimeError), use_locale("de"):
        raise RuntimeError("boom")
    assert current_locale.get() == "en"


def test_n_marker_is_identity() -> None:
    with use_locale("de"):
        assert N_(KNOWN_MSGID) == KNOWN_MSGID
        assert _(N_(KNOWN_MSGID)) == KNOWN_DE


def test_ngettext_falls_back_to_english_plural_rule() -> None:
    for locale in SUPPORTED_LOCALES:
        with use_locale(locale):
            assert (
                ngettext("{n} untranslated card", "{n} untranslated cards", 1).format(n=1)
                == "1 untranslated card"
            )
            assert (
                ngettext("{n} untranslated card", "{n} untranslated cards", 3).format(n=3)
                == "3 untranslated cards"
            )


async def test_locale_is_isolated_between_concurrent_tasks() -> None:
    barrier = asyncio.Barrier(2)

    async def translate_in(locale: str) -> tuple[str, str]:
        with use_locale(locale):
            # Both tasks have set their locale before either translates.
            await barrier.wait()
            first = _(KNOWN_MSGID)
            await asyncio.sleep(0)
            return first, _(KNOWN_MSGID)

    german, english = await asyncio.gather(translate_in("de"), translate_in("en"))
    assert german == (KNOWN_DE, KNOWN_DE)
    assert english == (KNOWN_MSGID, KNOWN_MSGID)
    assert current_locale.get() == "en"


def test_load_translations_compiles_po_in_memory(tmp_path: Path) -> None:
    catalog = Catalog(locale="de", domain="messages")
    catalog.add(("{n} card", "{n} cards"), ("{n} Karte", "{n} Karten"))
    catalog.add(("{n} point", "{n} points"), ("", ""))  # untranslated plural
    catalog.add("Draw", "Ziehen")
    catalog.add("Discard", "Abwerfen", flags=["fuzzy"])
    catalog.add("Pass", "")
    po_dir = tmp_path / "de" / "LC_MESSAGES"
    po_dir.mkdir(parents=True)
    with (po_dir / "messages.po").open("wb") as po_file:
        write_po(po_file, catalog)

    translations = load_translations("de", locale_dir=tmp_path)

    assert translations.ngettext("{n} card", "{n} cards", 1) == "{n} Karte"
    assert translations.ngettext("{n} card", "{n} cards", 2) == "{n} Karten"
    assert translations.ngettext("{n} point", "{n} points", 2) == "{n} points"
    assert translations.gettext("Draw") == "Ziehen"
    assert translations.gettext("Discard") == "Discard"  # fuzzy: not used
    assert translations.gettext("Pass") == "Pass"  # empty: msgid
    assert not list(tmp_path.rglob("*.mo")), "catalogues are compiled in memory only"


def test_load_translations_without_po_file_is_identity(tmp_path: Path) -> None:
    translations = load_translations("de", locale_dir=tmp_path)
    assert translations.gettext("Draw") == "Draw"


# --------------------------------------------------------------------------- completeness


def test_bot_has_translatable_messages() -> None:
    # Guards the extraction itself: if nothing is found, the checks below are void.
    assert KNOWN_MSGID in extracted_messages()


def test_every_msgid_has_a_german_translation() -> None:
    catalog = read_de_catalog()
    missing: list[str] = []
    for msgid, places in sorted(extracted_messages().items(), key=lambda item: str(item[0])):
        ids = as_tuple(msgid)
        entry = catalog.get(ids[0])
        where = ", ".join(places)
        if entry is None:
            missing.append(f"{describe(ids)} (not in catalogue; {where})")
        elif not all(as_tuple(entry.string)):
            missing.append(f"{describe(ids)} (empty msgstr; {where})")
        elif len(ids) > 1 and not entry.pluralizable:
            missing.append(f"{describe(ids)} (needs msgid_plural/msgstr[n] entries; {where})")
    assert not missing, (
        f"{len(missing)} message(s) without a German translation in {DE_PO}.\n"
        "Run the pybabel extract/update commands from bot/i18n/__init__.py and fill in "
        f"the msgstr:\n{format_list(missing)}"
    )


def test_german_catalogue_has_no_fuzzy_entries() -> None:
    catalog = read_de_catalog()
    fuzzy = [repr(message.id) for message in catalog if message.id and message.fuzzy]
    assert not catalog.fuzzy, f"{DE_PO}: the header is marked '#, fuzzy'; remove the flag"
    assert not fuzzy, (
        f"{len(fuzzy)} fuzzy entr(y/ies) in {DE_PO}; check the translation and remove "
        f"'#, fuzzy':\n{format_list(fuzzy)}"
    )


def test_german_placeholders_match_msgid() -> None:
    catalog = read_de_catalog()
    problems: list[str] = []
    for message in catalog:
        if not message.id or not all(as_tuple(message.string)):
            continue  # header; missing translations are reported above
        problems.extend(_placeholder_problems(message))
    assert not problems, (
        f"{len(problems)} German translation(s) in {DE_PO} whose {{placeholders}} differ "
        f"from the msgid:\n{format_list(problems)}"
    )


def _placeholder_problems(message: Message) -> list[str]:
    ids = as_tuple(message.id)
    forms = as_tuple(message.string)
    try:
        expected = set().union(*(placeholders(text) for text in ids))
        found_per_form = [placeholders(text) for text in forms]
    except ValueError as error:  # e.g. a lone "{"
        return [f"{describe(ids)}: malformed format string ({error})"]
    if len(ids) == 1:
        if found_per_form[0] != expected:
            return [
                f"{ids[0]!r}: msgid has {sorted(expected)}, msgstr has {sorted(found_per_form[0])}"
            ]
        return []
    # Plural forms may drop the count ("eine Karte"), but may not invent names,
    # and together they must use every name of the msgids.
    found = set().union(*found_per_form)
    if found != expected or any(not form <= expected for form in found_per_form):
        return [
            f"{describe(ids)}: msgids have {sorted(expected)}, msgstr forms have {found_per_form}"
        ]
    return []
