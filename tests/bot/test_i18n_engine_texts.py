"""German screens show no English: the texts that come from the engine (variant names,
option, preset and verb help) are translated, and the help, rules, presets and variants
screens of every variant say nothing in German that they also say in English.

Issue "Every screen in the player's language": "A test renders every help, rules, option
... screen of every variant in `de` and fails on a msgid without a German translation; a
second check compares the rendered German screens against the English ones and flags
identical sentences longer than three words (allow-list for card notation)."
"""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from bot.i18n import LOCALE_DIR, _, use_locale
from bot.i18n.engine_texts import POT, engine_texts, missing_texts
from bot.render.rules import render_help, render_presets, render_rules, render_variants
from engine.rules import make_rules
from engine.variants import VARIANTS

DE_PO = LOCALE_DIR / "de" / "LC_MESSAGES" / "messages.po"
EN_PO = LOCALE_DIR / "en" / "LC_MESSAGES" / "messages.po"


def test_every_engine_text_has_a_german_translation() -> None:
    with DE_PO.open("rb") as handle:
        catalog = read_po(handle)
    untranslated = [
        f"{origin}: {text!r}"
        for text, origin in engine_texts().items()
        if catalog.get(text) is None or not catalog.get(text).string or catalog.get(text).fuzzy
    ]
    assert not untranslated, "\n".join(untranslated)


def test_the_template_and_the_english_catalogue_list_every_engine_text() -> None:
    assert not missing_texts(POT)
    assert not missing_texts(EN_PO)


def test_the_collector_sees_every_kind_of_engine_text() -> None:
    """The list is read from the registry, so a new option or verb joins it by itself."""
    origins = set(engine_texts().values())
    assert "german name" in origins
    assert "german option opening" in origins
    assert "500 preset book" in origins
    assert "romanian verb joly" in origins


def screens(variant_id: str) -> list[str]:
    """Every help-like screen of a variant, in the current locale."""
    variant = VARIANTS[variant_id]
    shown = [render_help(variant=variant_id), render_presets(variant_id), render_variants()]
    for preset in variant.presets:
        shown.append(render_rules(make_rules(variant_id, preset)))
    return shown


# Words that are the same in both languages by design (the allow-list): the German rule
# texts' quotes ("Source: file.de.txt: ..."; our own remarks there are translated), the
# typed command syntax before " — " and a verb's aliases ("(also: rommé, romme, rufen)").
QUOTE = re.compile(r"^\s*(Source|Quelle): [\w-]+\.de\.txt: ")
ALIASES = re.compile(r"\((also|auch): [^)]*\)")


def sentences(text: str) -> set[str]:
    """The sentences of a screen with more than three words, notation left out."""
    found = set()
    for line in text.splitlines():
        if QUOTE.match(line):
            continue
        line = ALIASES.sub("", line.split(" — ", 1)[-1])
        for sentence in re.split(r"(?<=[.:;!?])\s+|\s+\(|\)", line):
            words = [w for w in sentence.split() if re.search(r"[A-Za-zÄÖÜäöüß]{2}", w)]
            if len(words) > 3:
                found.add(" ".join(sentence.split()))
    return found


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_german_screens_repeat_no_english_sentence(variant_id: str) -> None:
    with use_locale("en"):
        english = [sentences(text) for text in screens(variant_id)]
    with use_locale("de"):
        german = [sentences(text) for text in screens(variant_id)]
    same = sorted({s for en, de in zip(english, german, strict=True) for s in en & de})
    assert not same, "\n".join(same)


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_german_screens_name_the_variant_in_german(variant_id: str) -> None:
    variant = VARIANTS[variant_id]
    with use_locale("de"):
        german_name = _(variant.name)
        assert german_name != variant.name
        assert german_name in render_variants()
        assert german_name in render_rules(make_rules(variant_id))
        assert german_name in render_presets(variant_id)
