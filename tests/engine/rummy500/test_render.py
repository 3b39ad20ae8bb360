"""Rummy 500 event texts (bot/render/variants/rummy500.py) in English and German, and the
error messages of the variant's refusals."""

from __future__ import annotations

import pytest

from bot.i18n import use_locale
from bot.i18n.errors import localize_error
from bot.render.events import render_event
from engine.cards import parse_card, parse_cards
from engine.melds import Meld, MeldKind, Placed
from engine.variants.rummy500.errors import CallNeedsMeld, MustPlayPileCard
from engine.variants.rummy500.events import Floated, PileTaken, RummyCalled

PLAYERS = ["ana", "ben", "cem"]
RUN = Meld(MeldKind.RUN, tuple(Placed(c, c, 0) for c in parse_cards("7h 8h 9h 10h")), 0)


@pytest.mark.parametrize(
    ("event", "english", "german"),
    [
        (
            PileTaken(0, parse_card("4c"), parse_cards("4c qd 7h")),
            "ana takes 4♣ Q♦ 7♥ from the discard pile and must meld or lay off 4♣.",
            "ana nimmt 4♣ D♦ 7♥ vom Ablagestapel und muss 4♣ melden oder anlegen.",
        ),
        (
            RummyCalled(2, 1, parse_card("ks"), parse_cards("ks 2c")),
            "Rommé! cem calls on ben's discard, takes K♠ 2♣ and must meld or lay off K♠.",
            "Rommé! cem ruft nach dem Abwurf von ben, nimmt K♠ 2♣ und muss K♠ melden oder anlegen.",
        ),
        (
            RummyCalled(0, 1, parse_card("10h"), parse_cards("10h"), 0, RUN),
            "Rommé! ana lays 10♥ off on meld 1: 7♥ 8♥ 9♥ 10♥.",
            "Rommé! ana legt 10♥ an Meldung 1 an: 7♥ 8♥ 9♥ 10♥.",
        ),
        (
            Floated(1),
            "ben melds every card and floats.",
            "ben hat alle Karten ausgelegt und schwebt.",
        ),
    ],
)
def test_event_texts(event: object, english: str, german: str) -> None:
    with use_locale("en"):
        assert render_event(event, PLAYERS) == english  # type: ignore[arg-type]
    with use_locale("de"):
        assert render_event(event, PLAYERS) == german  # type: ignore[arg-type]


def test_refusals_are_translated() -> None:
    with use_locale("de"):
        assert localize_error(MustPlayPileCard(card="4c")) == (
            "Melde 4♣ zuerst oder lege die Karte an: Du hast sie in diesem Zug vom "
            "Ablagestapel genommen."
        )
        assert localize_error(CallNeedsMeld(card="9h", numbers="1, 2")) == (
            "Sag, an welche Meldung du 9♥ anlegst: 1, 2."
        )


def test_table_lines_show_the_spread_pile_and_the_call_window() -> None:
    from bot.render.text import render_table
    from engine.commands import parse_record_line
    from engine.dealing import DealSpec, new_game
    from engine.game import apply
    from engine.rules import make_rules
    from engine.views import public_view

    deal = DealSpec.parse(
        ["7h 8h 9h 2c 3c 4d kc", "10h 5s 6s 2d 3d jc qc", "6h 4c 5c 8d 9d js qs"], "ks", "ad 2s 3s"
    )
    state = new_game(make_rules("500"), PLAYERS, seed=1, dealer=2, deal=deal)
    for line in (
        "ana: draw",
        "ana: meld 7h 8h 9h",
        "ana: discard kc",
        "ben: draw",
        "ben: discard 10h",
    ):
        state, _ = apply(state, parse_record_line(line, PLAYERS))
    with use_locale("en"):
        text = render_table(public_view(state))
    assert "Discard pile, bottom to top: K♠ K♣ 10♥" in text
    assert "Rommé! may be called after ben's turn until cem draws (all but ben)." in text
    assert "Points on the table: ana 24 · ben 0 · cem 0" in text
    state, _ = apply(state, parse_record_line("ana: call 10h", PLAYERS))
    with use_locale("de"):
        text = render_table(public_view(state))
    assert "ana hat 10♥ vom Ablagestapel genommen und muss die Karte melden oder anlegen." in text
