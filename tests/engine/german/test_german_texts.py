"""The texts of German Rommé in the bot: every event has a line (English and German),
every refusal a translated message."""

from __future__ import annotations

import inspect
import string
from fractions import Fraction

import pytest

import engine.variants.german.errors as german_errors
from bot.i18n import use_locale
from bot.i18n.errors import error_template, localize_error
from bot.render.events import render_event
from engine.cards import parse_cards
from engine.errors import EngineError
from engine.melds import Meld, MeldKind, Placed
from engine.variants.german.events import (
    POT,
    BoughtBack,
    BuyBackDeclined,
    BuyBackOffered,
    ChipsMoved,
    ClosingLayOffs,
    DealBlocked,
    Eliminated,
    JokerExchanged,
    JokerStolen,
    LayOffsDone,
    OpeningProgress,
    OpeningWithdrawn,
    Payment,
)

PLAYERS = ("ana", "ben", "cem")
RUN = Meld(MeldKind.RUN, tuple(Placed(c, c, 0) for c in parse_cards("6h 7h 8h")), 0)
BALANCES = (Fraction(5), Fraction(-2), Fraction(-3))
EVENTS = [
    OpeningProgress(0, 24, 40, False, 5),
    OpeningProgress(0, 45, 40, True, 5),
    OpeningProgress(0, 38, 40, False, 1),
    OpeningWithdrawn(1, parse_cards("10h jh qh"), 1),
    JokerExchanged(0, 2, parse_cards("7h"), RUN, 1),
    JokerExchanged(0, 2, parse_cards("7h"), RUN, 2),
    JokerStolen(2),
    DealBlocked(3),
    ClosingLayOffs(0, (1, 2)),
    LayOffsDone(1),
    Eliminated((1,), 150),
    Eliminated((1, 2), 150),
    BuyBackOffered(1, Fraction(4), Fraction(52)),
    BoughtBack(1, Fraction(4), Fraction(52)),
    BuyBackDeclined(1),
    ChipsMoved("stakes", (Payment(0, POT, Fraction(1)),), BALANCES, Fraction(3)),
    ChipsMoved("rummy_stakes", (Payment(1, 0, Fraction(1)),), BALANCES, Fraction(0)),
    ChipsMoved("round_bonus", (Payment(1, 0, Fraction(10)),), BALANCES, Fraction(0)),
    ChipsMoved("buyback", (Payment(1, POT, Fraction(4)),), BALANCES, Fraction(4)),
    ChipsMoved("settlement", (Payment(1, 0, Fraction(35)),), BALANCES, Fraction(0)),
    ChipsMoved("pot", (Payment(POT, 0, Fraction(21, 2)),), BALANCES, Fraction(0)),
]


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: type(e).__name__)
def test_every_event_has_a_line_in_english_and_german(event: object) -> None:
    with use_locale("en"):
        english = render_event(event, PLAYERS)  # type: ignore[arg-type]
    with use_locale("de"):
        german = render_event(event, PLAYERS)  # type: ignore[arg-type]
    assert english != str(event) and german != str(event)
    assert english != german


def test_the_running_total_is_shown() -> None:
    """ "Show the running total while a player builds the opening": 24 of 40."""
    with use_locale("de"):
        text = render_event(OpeningProgress(0, 24, 40, False), PLAYERS)  # type: ignore[arg-type]
    assert "24" in text and "40" in text and "ana" in text


def _errors() -> list[type[EngineError]]:
    return [
        c
        for _n, c in inspect.getmembers(german_errors, inspect.isclass)
        if issubclass(c, EngineError) and c.__module__ == german_errors.__name__
    ]


def _fields(text: str) -> set[str]:
    return {f for _l, f, _s, _c in string.Formatter().parse(text) if f}


@pytest.mark.parametrize("cls", _errors(), ids=lambda c: c.__name__)
def test_every_refusal_has_a_translated_template(cls: type[EngineError]) -> None:
    template = error_template(cls)
    assert template is not None
    assert _fields(template) <= _fields(cls.template)
    params = {f: "7" for f in _fields(cls.template)}
    error = cls() if not params else cls(**params)
    with use_locale("de"):
        german = localize_error(error)
    with use_locale("en"):
        english = localize_error(error)
    assert german != english


def test_the_table_screen_shows_the_first_meld_and_the_chips(german) -> None:
    """The table screen of a German table shows the running total of the seat to move and,
    with chips, every balance and the pot; other variants' tables get no such lines."""
    from bot.render.text import render_table
    from bot.render.variants.german import table_lines
    from engine.dealing import new_game
    from engine.rules import make_rules
    from engine.views import public_view

    t = german(
        ["10h jh qh 5c 5d 5s 2c 7d 8s 9d kc 4h 3s", "6c 7c 8c kd kh ks 2d 3h 4s 9c 10d jd qs"],
        "7s",
        "kh",
        preset="pot",
    )
    t.play("draw")
    t.play("meld 10h jh qh")
    with use_locale("en"):
        screen = render_table(public_view(t.state))
    assert "ana's first meld: 30 of 40 points this turn." in screen
    assert "Chips: ana -1 · ben -1 · pot 2" in screen
    basic = new_game(make_rules("basic"), ["ana", "ben"], seed=1)
    assert table_lines(public_view(basic)) == []
