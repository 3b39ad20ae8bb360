"""Tests for bot.i18n.errors: every engine error code has a localised message."""

from __future__ import annotations

import inspect
import string

import pytest

import engine.commands as commands
import engine.errors as errors
from bot.i18n import translate, use_locale
from bot.i18n.errors import ERROR_TEMPLATES, error_template, localize_error
from engine.errors import (
    AllAtOnceRequired,
    AmbiguousJoker,
    CannotDiscardTaken,
    CardNotInHand,
    CardParseError,
    EngineError,
    IllegalMove,
    InvalidJokerSwap,
    InvalidLayOff,
    InvalidMeld,
    MeldLimit,
    NoSuchMeld,
    NotYourTurn,
    RuleOptionError,
    WrongPhase,
)
from engine.records import RecordError
from engine.rules import make_rules


def _subclasses(base: type) -> list[type]:
    found: list[type] = []
    for cls in base.__subclasses__():
        found.append(cls)
        found.extend(_subclasses(cls))
    return found


def _placeholders(text: str) -> set[str]:
    return {field for _lit, field, _spec, _conv in string.Formatter().parse(text) if field}


# The shared moves' errors and every variant's own (engine/variants/<pkg>/...).
ILLEGAL_MOVES = [
    c
    for c in _subclasses(IllegalMove)
    if c.__module__ == "engine.errors" or c.__module__.startswith("engine.variants.")
]
COMMAND_ERRORS = [
    c
    for _name, c in inspect.getmembers(commands, inspect.isclass)
    if issubclass(c, errors.CommandError) and c is not errors.CommandError
]


def test_the_engine_has_illegal_moves_and_command_errors() -> None:
    # Guards the introspection below: an empty list would make the checks void.
    assert len(ILLEGAL_MOVES) >= 15
    assert {c.code for c in COMMAND_ERRORS} >= {
        "unknown_command",
        "missing_cards",
        "missing_meld_number",
        "bad_meld_number",
        "too_many_args",
        "empty",
    }


@pytest.mark.parametrize("cls", [IllegalMove, *ILLEGAL_MOVES], ids=lambda c: c.__name__)
def test_every_illegal_move_has_a_template(cls: type[EngineError]) -> None:
    template = error_template(cls)
    assert template is not None and translate(template, "de") != template


@pytest.mark.parametrize("cls", COMMAND_ERRORS, ids=lambda c: c.__name__)
def test_every_command_error_has_a_template_with_the_engine_params(
    cls: type[EngineError],
) -> None:
    template = error_template(cls)
    assert template is not None
    # The English template may use only params the engine's own template has.
    assert _placeholders(template) <= _placeholders(cls.template)


@pytest.mark.parametrize("code", ["bad_card", "bad_option", "bad_record", "bad_command"])
def test_other_engine_codes_have_templates(code: str) -> None:
    assert code in ERROR_TEMPLATES


def test_every_template_is_translated_to_german() -> None:
    """The bot's own templates and every engine template written once as a msgid."""
    engine_templates = [error_template(c) for c in [IllegalMove, *ILLEGAL_MOVES, *COMMAND_ERRORS]]
    untranslated = [
        m
        for m in [*ERROR_TEMPLATES.values(), *engine_templates]
        if m is not None and translate(m, "de") == m
    ]
    assert not untranslated


def test_engine_errors_are_written_once() -> None:
    """Issue "errors written once": an engine template that is the msgid is not repeated
    in the bot's table."""
    doubled = [
        c.code
        for c in [*ILLEGAL_MOVES, *COMMAND_ERRORS]
        if c.code in ERROR_TEMPLATES and ERROR_TEMPLATES[c.code] == c.template
    ]
    assert doubled == []


def test_card_not_in_hand_in_german_and_english() -> None:
    """The card is named as the screen shows it, in the reader's language (issue 37:
    "typing `abwerfen dh` answers 'qh ist nicht auf deiner Hand.'")."""
    error = CardNotInHand(card="7h")
    with use_locale("de"):
        assert localize_error(error) == "7♥ ist nicht auf deiner Hand."
        assert localize_error(CardNotInHand(card="qh")) == "D♥ ist nicht auf deiner Hand."
        assert localize_error(CardNotInHand(card="jk")) == "🃏 ist nicht auf deiner Hand."
    with use_locale("en"):
        assert localize_error(error) == "7♥ is not in your hand."
        assert localize_error(CardNotInHand(card="qh")) == "Q♥ is not in your hand."


def test_not_your_turn_names_the_player() -> None:
    with use_locale("de"):
        assert localize_error(NotYourTurn(player="ben", seat=0)) == (
            "Du bist nicht am Zug (ben ist dran)."
        )


@pytest.mark.parametrize(
    ("phase", "action", "english", "german"),
    [
        (
            "draw",
            "discard",
            "You cannot discard now: draw a card or take the upcard first.",
            "Du kannst jetzt nicht abwerfen: Ziehe zuerst eine Karte oder nimm die offene Karte.",
        ),
        (
            "play",
            "draw",
            "You cannot draw now: you have already drawn; meld, lay off or discard.",
            "Du kannst jetzt nicht ziehen: Du hast schon gezogen; melde, lege an oder wirf ab.",
        ),
        (
            "draw",
            "deal",
            "You cannot deal the next hand now: the hand is still being played.",
            "Du kannst jetzt nicht die nächste Runde geben: Die Runde läuft noch.",
        ),
    ],
)
def test_wrong_phase_is_rebuilt_from_the_phase(
    phase: str, action: str, english: str, german: str
) -> None:
    error = WrongPhase(action=action, expected="(engine English)", phase=phase)
    with use_locale("en"):
        assert localize_error(error) == english
    with use_locale("de"):
        assert localize_error(error) == german


def test_invalid_meld_reason_is_translated_from_its_code() -> None:
    error = InvalidMeld(
        cards="2c 3d 9h", reason="neither one rank (set) nor one suit (run)", reason_code="mixed"
    )
    with use_locale("de"):
        text = localize_error(error)
    assert text.startswith("2♣ 3♦ 9♥ ist keine gültige Meldung")
    assert "(set)" not in text


def test_invalid_meld_without_cards_asks_for_them() -> None:
    error = InvalidMeld(cards="", reason="no cards named", reason_code="too_few")
    with use_locale("en"):
        assert localize_error(error) == "Name the cards to meld, e.g. meld 7h 8h 9h."


def test_invalid_layoff_and_no_such_meld() -> None:
    with use_locale("de"):
        assert localize_error(NoSuchMeld(number=9)) == "Auf dem Tisch liegt keine Meldung 9."
        layoff = localize_error(InvalidLayOff(cards="7h", number=2, reason="English"))
    assert layoff.startswith("7♥ kann nicht an Meldung 2 angelegt werden")
    assert "English" not in layoff


def test_meld_limit_with_other_limit() -> None:
    with use_locale("en"):
        assert localize_error(MeldLimit(limit=1)) == "Only one new meld per turn is allowed."
        assert localize_error(MeldLimit(limit=2)) == "Only 2 new melds per turn are allowed."


def test_joker_errors() -> None:
    with use_locale("de"):
        swap = localize_error(InvalidJokerSwap(reason="x", reason_code="not_allowed"))
        ambiguous = localize_error(AmbiguousJoker(readings="6h 7h jk=8h | 6h jk=7h 8h", options=[]))
    assert swap == "Kein Jokertausch: Diese Regeln kennen keinen Jokertausch."
    assert ambiguous.endswith("6h 7h jk=8h | 6h jk=7h 8h")
    assert "Joker" in ambiguous


def test_other_illegal_moves_in_german() -> None:
    with use_locale("de"):
        assert "7♥" in localize_error(CannotDiscardTaken(card="7h"))
        assert "ganze Hand" in localize_error(AllAtOnceRequired())


def test_card_parse_error_and_command_errors_in_german() -> None:
    with use_locale("de"):
        assert localize_error(CardParseError("7x")) == (
            "'7x' ist keine Karte (Beispiele: 7he 10ka dpi akr jk)."
        )
        assert localize_error(commands.UnknownCommand("fly")).startswith("Unbekannter Befehl 'fly'")
        assert localize_error(commands.MissingMeldNumber("layoff")) == (
            "anlegen: Gib am Ende die Nummer der Meldung auf dem Tisch an, z. B. anlegen 10he 3."
        )
        assert localize_error(commands.EmptyCommand()) == (
            "Gib einen Befehl ein (hilfe zeigt alle)."
        )


@pytest.mark.parametrize(
    ("variant", "preset", "options", "german"),
    [
        ("poker", None, {}, "Unbekannte Variante 'poker'. Varianten: basic"),
        ("basic", "turbo", {}, "Unbekannte Voreinstellung 'turbo'."),
        ("basic", None, {"colour": "red"}, "Unbekannte Option 'colour'."),
        (
            "basic",
            None,
            {"ace": "middle"},
            "Option ace: 'middle' ist nicht erlaubt; erwartet: eins von low, high_or_low, around.",
        ),
        (
            "basic",
            None,
            {"multiple_melds": "maybe"},
            "Option multiple_melds: 'maybe' ist nicht erlaubt; erwartet: an oder aus.",
        ),
        (
            "basic",
            None,
            {"target": "0"},
            "Option target: '0' ist nicht erlaubt; erwartet: eine ganze Zahl von 1 bis 10000 oder "
            "none.",
        ),
        ("basic", None, {"target": "none"}, "Lege eine Zielpunktzahl oder eine Anzahl"),
    ],
)
def test_rule_option_errors_in_german(
    variant: str, preset: str | None, options: dict[str, str], german: str
) -> None:
    with pytest.raises(RuleOptionError) as caught:
        make_rules(variant, preset, options)
    with use_locale("de"):
        assert localize_error(caught.value).startswith(german)


def test_record_error_in_german() -> None:
    with use_locale("de"):
        text = localize_error(RecordError("deal.hands", "no hand for ana"))
    assert text == "Die Spielaufzeichnung ist ungültig bei deal.hands: no hand for ana"


def test_unknown_code_falls_back_to_the_english_message() -> None:
    class Strange(EngineError):
        code = "something_new"
        template = "something new happened to {card}"

    with use_locale("de"):
        assert localize_error(Strange(card="7h")) == "something new happened to 7♥"


def test_params_that_do_not_fit_fall_back_to_the_english_message() -> None:
    error = CardNotInHand()  # no card param: the engine message is its code
    with use_locale("de"):
        assert localize_error(error) == error.message
