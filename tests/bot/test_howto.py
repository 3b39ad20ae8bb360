"""How to play (bot/render/howto.py): every variant in both languages covers every topic,
every example meld is legal in that variant, and every worked scoring example is what the
engine scores for that position (issue 37, acceptance)."""

from __future__ import annotations

import pytest

from bot.i18n import use_locale
from bot.render.howto import TOPICS, how_to_play, render_how_to_play, scoring_example, topic_of
from engine.cards import parse_cards
from engine.dealing import new_game
from engine.events import HandEnded
from engine.frozen import replace
from engine.melds import CardSpec, check_meld
from engine.rules import RuleSet, make_rules
from engine.scoring import end_hand
from engine.state import Phase

RULES = [
    ("basic", None),
    ("basic", "beginner"),
    ("basic", "block"),
    ("basic", "wrotham"),
    ("500", None),
    ("500", "original"),
    ("german", None),
    ("german", "deals"),
    ("romanian", None),
    ("romanian", "variations"),
]


def _rules(variant: str, preset: str | None) -> RuleSet:
    return make_rules(variant, preset)


@pytest.mark.parametrize(("variant", "preset"), RULES)
@pytest.mark.parametrize("locale", ["en", "de"])
def test_every_topic_is_covered(variant: str, preset: str | None, locale: str) -> None:
    with use_locale(locale):
        sections = how_to_play(_rules(variant, preset))
        text = render_how_to_play(_rules(variant, preset))
    assert [s.topic for s in sections] == list(TOPICS)
    for section in sections:
        assert section.title and section.paragraphs, (section.topic, locale)
        for paragraph in section.paragraphs:
            assert "{" not in paragraph and paragraph in text
    if locale == "de":
        assert text.startswith("So wird gespielt:")


@pytest.mark.parametrize(("variant", "preset"), RULES)
def test_every_example_meld_is_legal_in_its_variant(variant: str, preset: str | None) -> None:
    rules = _rules(variant, preset)
    meld_rules = rules.var.meld_rules(rules)
    sections = how_to_play(rules)
    melds = [codes for section in sections for codes in section.melds]
    assert len(melds) >= 3
    for codes in melds:
        specs = [CardSpec.parse(word) for word in codes.split()]
        assert check_meld(specs, 0, meld_rules), (variant, preset, codes)


@pytest.mark.parametrize("variant", ["basic", "500", "german", "romanian"])
def test_the_worked_scoring_example_is_what_the_engine_scores(variant: str) -> None:
    """The position of the example (hands left, melds on the table, who went out) scored
    by the engine's own end of a deal gives the scores the text states."""
    rules = make_rules(variant)
    example = scoring_example(variant)
    state = new_game(rules, list(example.players), seed=1)
    meld_rules = rules.var.meld_rules(rules)
    melds = tuple(
        check_meld([CardSpec.parse(w) for w in codes.split()], owner, meld_rules)[0]
        for owner, codes in example.melds
    )
    hands = tuple(parse_cards(h) if h else () for h in example.hands)
    melded = tuple(
        any(owner == seat for owner, _codes in example.melds)
        for seat in range(len(example.players))
    )
    state = replace(state, hands=hands, melds=melds, has_melded=melded, phase=Phase.PLAY)
    _state, events = end_hand(state, example.winner)
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert tuple(int(s) for s in ended.scores) == example.scores
    with use_locale("de"):
        text = example.render(rules)
    for score in example.scores:
        assert not score or str(score) in text


def test_topic_words_in_both_languages() -> None:
    assert topic_of("Folge") == topic_of("melds") == "melds"
    assert topic_of("wertung") == topic_of("scoring") == "scoring"
    assert topic_of("erstmeldung") == "first_meld"
    assert topic_of("nonsense") is None
    with use_locale("de"):
        one = render_how_to_play(make_rules("romanian"), "first_meld")
    assert one.startswith("Die Erstmeldung:") and "50" in one


@pytest.mark.parametrize("locale", ["en", "de"])
def test_each_way_of_going_out_in_rummy_500_is_taught_apart(locale: str) -> None:
    """rummy-500.de.txt gives five ways to go out (any, a final discard, floating, "Nicht
    spielbare Karte für Ablagestapel", and "In einer alternativen Variante ... kann jeder
    andere Spieler "Rommé!" rufen ... Sie werden zu einem "Schwebenden""): the going-out
    section reads differently for each value of the option."""
    values = ("any", "discard", "float", "unplayable", "callable")
    texts = {}
    with use_locale(locale):
        for value in values:
            rules = make_rules("500", None, {"going_out": value})
            [section] = [s for s in how_to_play(rules) if s.topic == "going_out"]
            texts[value] = " ".join(section.paragraphs)
    assert len(set(texts.values())) == len(values), texts
    call = "rufen 7he" if locale == "de" else "call 7h"
    assert call in texts["callable"] and call not in texts["unplayable"]
