"""Tests for bot.render: the text screens built from engine views, in English and German."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from bot.i18n import translate, use_locale
from bot.render.cards import meld_text, points_text, signed_points_text
from bot.render.rules import COMMAND_HELP, render_presets, render_variants
from bot.render.text import (
    MAX_CHARS,
    render_event,
    render_hand,
    render_hand_end,
    render_help,
    render_match_goal,
    render_rules,
    render_scores,
    render_table,
)
from engine.actions import Action
from engine.ai import make_ai
from engine.cards import Card, Suit, parse_card, parse_cards
from engine.commands import COMMANDS, UiCommand, parse_command
from engine.dealing import DealSpec, new_game
from engine.events import (
    DealStarted,
    Discarded,
    Drew,
    Event,
    GameEnded,
    HandEnded,
    JokerSwapped,
    LaidOff,
    Melded,
    StockRenewed,
    TookDiscard,
    WentOut,
)
from engine.game import apply, current_player, is_over, legal_actions
from engine.melds import CardSpec, Meld, MeldKind, Placed
from engine.rules import make_rules
from engine.search import Partition, best_melds
from engine.state import GameState, Phase
from engine.views import public_view, view_for

NAMES = ("ana", "ben", "cem", "dan", "eve", "fay")


def stacked(
    hands: Sequence[str],
    upcard: str | None,
    stock: str = "",
    preset: str | None = None,
    **options: Any,
) -> GameState:
    """A game whose first deal is given in card notation; seat 0 moves first."""
    rules = make_rules("basic", preset, options)
    return new_game(
        rules,
        NAMES[: len(hands)],
        seed=1,
        dealer=len(hands) - 1,
        deal=DealSpec.parse(hands, upcard, stock),
    )


def play(state: GameState, *commands: str) -> tuple[GameState, list[Event]]:
    """Apply commands for whoever is to move; returns the state and all events."""
    events: list[Event] = []
    for text in commands:
        seat = current_player(state)
        action = parse_command(text, 0 if seat is None else seat)
        assert not isinstance(action, UiCommand)
        state, new = apply(state, action)
        events.extend(new)
    return state, events


# --- cards and scores -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(12), "12"),
        (Fraction(25, 2), "12½"),
        (Fraction(-7, 2), "-3½"),
        (Fraction(1, 3), "⅓"),
        (Fraction(20, 3), "6⅔"),
        (Fraction(36, 5), "7.20"),
        (0, "0"),
    ],
)
def test_points_text(value: Fraction | int, text: str) -> None:
    assert points_text(value) == text


def test_signed_points_text() -> None:
    assert signed_points_text(Fraction(35)) == "+35"
    assert signed_points_text(Fraction(0)) == "0"
    assert signed_points_text(Fraction(-25, 2)) == "-12½"


def test_a_joker_on_the_table_shows_what_it_stands_for() -> None:
    meld = Meld(
        MeldKind.RUN,
        (
            Placed(parse_card("7h"), parse_card("7h"), 0),
            Placed(parse_card("8h"), parse_card("8h"), 0),
            Placed(parse_card("jk"), parse_card("9h"), 0),
        ),
        0,
    )
    assert meld_text(meld) == "7♥ 8♥ 🃏(9♥)"
    nines = Meld(
        MeldKind.SET,
        (
            Placed(parse_card("9c"), parse_card("9c"), 1),
            Placed(parse_card("9d"), parse_card("9d"), 1),
            Placed(parse_card("jk"), Card(9, None), 1),
        ),
        1,
    )
    assert meld_text(nines) == "9♣ 9♦ 🃏(9)"


# --- the table --------------------------------------------------------------------------------


def _table_with_melds() -> GameState:
    state = stacked(["7h 8h 9h 4c 2d", "4h 4d 4s 2c kc", "5c 6c qd"], "kd", "jk 9s 8s 3c", jokers=1)
    state, _events = play(state, "draw", "meld 7h 8h 9h", "discard 4c", "take", "meld 4h 4d 4s")
    return state


def test_render_table_in_english() -> None:
    state = _table_with_melds()
    with use_locale("en"):
        text = render_table(public_view(state))
    lines = text.splitlines()
    assert lines[0] == "Deal 1 · dealer: cem"
    assert lines[1] == "ben to play: meld, lay off or discard."
    assert "Melds:" in lines
    assert "  1. ana: 7♥ 8♥ 9♥" in lines
    assert "  2. ben: 4♦ 4♥ 4♠" in lines
    assert "Discard pile: K♦ (1 card) · stock: 3 cards" in lines
    assert "ben took 4♣ from the discard pile this turn." in lines
    assert "Players:" in lines
    assert "  ana  2 cards · melded · 0" in lines
    assert "▶ ben  3 cards · melded · 0" in lines
    assert "  cem  3 cards · 0" in lines


def test_render_table_in_german() -> None:
    state = _table_with_melds()
    with use_locale("de"):
        text = render_table(public_view(state))
    assert text.startswith("Runde 1 · Geber: cem\nben ist am Zug: melden, anlegen oder abwerfen.")
    assert "Meldungen:" in text
    assert "Ablagestapel: K♦ (1 Karte) · Nachziehstapel: 3 Karten" in text
    assert "ben hat in diesem Zug 4♣ vom Ablagestapel genommen." in text
    assert "  ana  2 Karten · hat gemeldet · 0" in text


def test_render_table_before_any_meld_and_with_an_empty_pile() -> None:
    state = stacked(["7h 8h", "4h 4d"], "kd", "9s 8s")
    state, _events = play(state, "take")
    with use_locale("en"):
        text = render_table(public_view(state))
    assert "No melds on the table yet." in text
    assert "Discard pile: empty · stock: 2 cards" in text
    assert "ana to play: meld, lay off or discard." in text


def test_render_table_shows_the_draw_phase_and_running_totals() -> None:
    state = stacked(["7h 8h", "4h 4d"], "kd", "9s 8s")
    state = replace(state, totals=(Fraction(25, 2), Fraction(3)))
    with use_locale("en"):
        text = render_table(public_view(state))
    assert "ana to play: draw from the stock or take the upcard." in text
    assert "▶ ana  2 cards · 12½" in text


# --- the hand ---------------------------------------------------------------------------------


def test_render_hand_is_sorted_by_suit_and_rank() -> None:
    state = stacked(["ks 2c 9h jk 10d 3c 9s", "4h"], "kd", "9d", jokers=1)
    with use_locale("en"):
        text = render_hand(view_for(state, 0))
    assert text == "Your hand (7 cards): 2♣ 3♣  10♦  9♥  9♠ K♠  🃏"


def test_render_hand_grouped_by_an_explicit_partition() -> None:
    state = stacked(["7h 8h 9h jk 2c ks", "4h"], "kd", "9d", jokers=1)
    hint = Partition(
        melds=(
            (
                CardSpec(parse_card("7h")),
                CardSpec(parse_card("8h")),
                CardSpec(parse_card("9h")),
                CardSpec(parse_card("jk"), parse_card("10h")),
            ),
        ),
        deadwood=parse_cards("ks 2c"),
        deadwood_points=12,
    )
    with use_locale("en"):
        text = render_hand(view_for(state, 0), hint)
    assert text.splitlines() == [
        "Your hand (6 cards), grouped:",
        "  meld: 7♥ 8♥ 9♥ 🃏(10♥)",
        "  deadwood: 2♣  K♠ (12 points)",
    ]
    with use_locale("de"):
        german = render_hand(view_for(state, 0), hint)
    assert "  Restkarten: 2♣  K♠ (12 Punkte)" in german


# --- the end of a deal ------------------------------------------------------------------------


FINISHED_DEAL = (["7h 8h 9h 4c", "kh qs 2d 3c", "5c 6c qd 2h"], "kd", "9s 8s 7s 10h")
FINISHED_MOVES = (
    "draw",
    "meld 7h 8h 9h",
    "discard 9s",
    "draw",
    "discard kh",
    "draw",
    "discard qd",
    "draw",
    "layoff 10h 1",
    "discard 4c",
)


def _finished_deal(**options: Any) -> tuple[GameState, list[Event]]:
    """ana melds, lays off and goes out in her second turn; ben and cem keep 23 and 20."""
    state = stacked(*FINISHED_DEAL, **options)
    state, events = play(state, *FINISHED_MOVES)
    assert state.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
    return state, events


def test_render_hand_end_shows_hands_points_and_totals() -> None:
    state, _events = _finished_deal()
    with use_locale("en"):
        text = render_hand_end(view_for(state, 1))
    assert text.splitlines() == [
        "Deal 1 is over: ana went out.",
        "  ana  deal +43 · total 43 · hand: —",
        "  ben  deal 0 · total 0 · hand: 3♣  2♦  8♠ Q♠ (23 points)",
        "  cem  deal 0 · total 0 · hand: 5♣ 6♣  2♥  7♠ (20 points)",
    ]


def test_render_hand_end_at_the_end_of_the_match_names_the_winner() -> None:
    state, _events = _finished_deal(deals=1)
    assert state.phase is Phase.GAME_OVER
    with use_locale("en"):
        text = render_hand_end(public_view(state))
    assert text.endswith("Game over. The winner is ana with 43 points.")
    with use_locale("de"):
        german = render_hand_end(public_view(state))
    assert german.startswith("Runde 1 ist vorbei: ana ist ausgegangen.")
    assert german.endswith("Die Partie ist vorbei. Es gewinnt ana mit 43 Punkten.")


def test_render_scores_lists_every_deal_and_the_goal() -> None:
    state, _events = _finished_deal()
    with use_locale("en"):
        text = render_scores(view_for(state, 0))
    assert text.splitlines() == [
        "Scores",
        "Playing to 100 points.",
        "  deal 1: ana +43, ben 0, cem 0",
        "Totals: ana 43, ben 0, cem 0",
    ]


def test_render_hand_end_before_any_deal_is_scored() -> None:
    state = stacked(["7h 8h", "4h 4d"], "kd", "9s 8s")
    with use_locale("en"):
        assert render_hand_end(public_view(state)) == "No deal has been scored yet."


# --- events -----------------------------------------------------------------------------------


def _run_meld(owner: int, cards: str) -> Meld:
    return Meld(MeldKind.RUN, tuple(Placed(c, c, owner) for c in parse_cards(cards)), owner)


@pytest.mark.parametrize(
    ("event", "english"),
    [
        (DealStarted(2, 1, parse_card("7h")), "Deal 2: ben deals, the upcard is 7♥."),
        (DealStarted(1, 0, None), "Deal 1: ana deals."),
        (Drew(1), "ben draws from the stock."),
        (TookDiscard(0, parse_card("7h")), "ana takes 7♥ from the discard pile."),
        (
            StockRenewed(30, False, 1),
            "The stock is used up: the discard pile is turned over as the new stock (30 cards).",
        ),
        (
            StockRenewed(1, True, 1),
            "The stock is used up: the discard pile is shuffled into a new stock (1 card).",
        ),
        (Melded(0, 2, _run_meld(0, "7h 8h 9h")), "ana melds 7♥ 8♥ 9♥ (meld 3)."),
        (
            LaidOff(1, 0, parse_cards("10h"), _run_meld(0, "7h 8h 9h 10h")),
            "ben lays off 10♥ on meld 1: 7♥ 8♥ 9♥ 10♥.",
        ),
        (JokerSwapped(2, 1, parse_card("8s")), "cem swaps 8♠ for the joker in meld 2."),
        (Discarded(0, parse_card("ks")), "ana discards K♠."),
        (WentOut(0, True), "ana goes out — going rummy!"),
        (WentOut(1, False), "ben goes out."),
        (
            HandEnded(
                3, None, False, ((), (), ()), (0, 0, 0), (Fraction(0),) * 3, (Fraction(0),) * 3
            ),
            "Deal 3 is over: nobody went out, the stock ran out.",
        ),
        (
            HandEnded(3, 2, False, ((), (), ()), (0, 0, 0), (Fraction(0),) * 3, (Fraction(0),) * 3),
            "Deal 3 is over: cem went out.",
        ),
        (
            GameEnded((0,), (Fraction(120), Fraction(40), Fraction(3))),
            "Game over. The winner is ana with 120 points.",
        ),
        (
            GameEnded((0, 1), (Fraction(201, 2), Fraction(201, 2), Fraction(3))),
            "Game over. The winners are ana, ben with 100½ points each.",
        ),
    ],
)
def test_render_event_in_english(event: Event, english: str) -> None:
    with use_locale("en"):
        assert render_event(event, NAMES[:3]) == english


@pytest.mark.parametrize(
    ("event", "german"),
    [
        (Drew(1), "ben zieht vom Nachziehstapel."),
        (TookDiscard(0, parse_card("7h")), "ana nimmt 7♥ vom Ablagestapel."),
        (Melded(0, 2, _run_meld(0, "7h 8h 9h")), "ana meldet 7♥ 8♥ 9♥ (Meldung 3)."),
        (Discarded(0, parse_card("ks")), "ana wirft K♠ ab."),
        (WentOut(0, True), "ana geht aus — Rommé!"),
    ],
)
def test_render_event_in_german(event: Event, german: str) -> None:
    with use_locale("de"):
        assert render_event(event, NAMES[:3]) == german


def test_every_event_of_a_played_deal_renders_as_one_line() -> None:
    state, events = _finished_deal(deals=1)
    assert state.phase is Phase.GAME_OVER
    assert {type(e) for e in events} >= {
        DealStarted,
        Drew,
        Melded,
        Discarded,
        LaidOff,
        WentOut,
        HandEnded,
        GameEnded,
    } - {DealStarted}
    for locale in ("en", "de"):
        with use_locale(locale):
            lines = [render_event(e, NAMES[:3]) for e in events]
        assert all(line and "\n" not in line for line in lines)
    with use_locale("en"):
        assert render_event(events[-3], NAMES[:3]) == "ana goes out."


# --- rules and help ---------------------------------------------------------------------------


def test_render_rules_lists_every_option_with_help_and_source() -> None:
    rules = make_rules("basic")
    with use_locale("en"):
        text = render_rules(rules)
    assert text.startswith("Rules: Basic Rummy (basic), preset standard")
    for name, _value in rules.values:
        assert f"  {name} = " in text
    assert "  target = 100\n    Match ends when someone reaches this score" in text
    assert "Source: basic-rummy.de.txt" in text
    assert not [line for line in text.splitlines()[2:] if line.startswith("*")]


def test_render_rules_marks_changed_and_preset_options() -> None:
    rules = make_rules("basic", "beginner", {"ace": "high_or_low"})
    with use_locale("en"):
        text = render_rules(rules)
    assert "* multiple_melds = on (default off; preset beginner)" in text
    assert "* target = 150 (default 100; preset beginner)" in text
    assert "* ace = high_or_low (default low; changed)" in text
    assert "  deals = none\n" in text
    with use_locale("de"):
        german = render_rules(rules)
    assert "* ace = high_or_low (Standard low; geändert)" in german
    assert "Quelle: basic-rummy.de.txt" in german


def test_presets_and_variants() -> None:
    with use_locale("en"):
        presets = render_presets("basic")
        variants = render_variants()
    assert "  standard (default): Basic (Straight) Rummy" in presets
    assert "  wrotham: Wrotham Rummy" in presets
    assert "  basic: Basic Rummy, 2-6 players" in variants


def test_render_help_lists_every_command() -> None:
    with use_locale("en"):
        text = render_help()
    for command in COMMANDS:
        assert f"  {command.syntax} — {command.help}" in text
    assert "(also: d, ziehen)" in text
    with use_locale("de"):
        german = render_help()
    # issue 37: "verbs shown are the German ones (English stays accepted as an alias)"
    assert "  ziehen — Die oberste Karte des Nachziehstapels ziehen.\n" in german
    assert (
        "  nehmen — Die offene Karte nehmen (die oberste Karte des Ablagestapels). "
        "(auch: aufnehmen)" in german
    )
    assert "  melden 7he 8he 9he | 2kr 2ka 2pi — " in german
    assert "draw" not in german and "discard" not in german


def test_help_on_one_command() -> None:
    with use_locale("en"):
        text = render_help("anlegen")
    assert text.splitlines()[1:] == [
        "  layoff 10h 3 — Add cards from your hand to meld number 3 on the table (the number "
        "comes last). (also: l, lay, anlegen)"
    ]


def test_command_help_msgids_are_the_engine_help_texts() -> None:
    # A changed engine help text shows up here, so its translation gets updated too.
    assert set(COMMAND_HELP) == {c.verb for c in COMMANDS}
    for command in COMMANDS:
        assert COMMAND_HELP[command.verb] == command.help
        assert translate(command.help, "de") != command.help


# --- size limits ------------------------------------------------------------------------------


def _big_table() -> GameState:
    """Six players with long names and all 52 cards in 13 melds: the longest table."""
    names = tuple(f"{n}-with-a-very-long-name-{i}"[:32] for i, n in enumerate(NAMES))
    rules = make_rules("basic", None, {"jokers": 4})
    state = new_game(rules, names, seed=3)
    melds = tuple(
        Meld(
            MeldKind.SET,
            tuple(Placed(Card(rank, suit), Card(rank, suit), rank % 6) for suit in Suit),
            rank % 6,
        )
        for rank in range(1, 14)
    )
    big_hand = parse_cards("jk jk jk jk") + tuple(Card(r, s) for s in Suit for r in (1, 2))
    hands = (big_hand, *state.hands[1:])
    results = state.results
    return replace(
        state,
        melds=melds,
        hands=hands,
        totals=tuple(Fraction(1000 * i + 1, 3) for i in range(6)),
        has_melded=(True,) * 6,
        results=results,
    )


@pytest.mark.parametrize("locale", ["en", "de"])
def test_screens_stay_below_the_limit_for_a_big_six_player_table(locale: str) -> None:
    state = _big_table()
    view = view_for(state, 0)
    with use_locale(locale):
        screens = [
            render_table(view.table),
            render_hand(view),
            render_hand(view, best_melds(view.hand, view.table.rules)),
            render_help(),
            render_rules(make_rules("basic", "wrotham")),
            render_scores(view),
        ]
    for text in screens:
        assert len(text) < MAX_CHARS


@pytest.mark.parametrize("locale", ["en", "de"])
def test_every_screen_of_a_six_player_ai_match_stays_below_the_limit(locale: str) -> None:
    rules = make_rules(
        "basic", None, {"deals": 2, "target": "none", "jokers": 2, "multiple_melds": "on"}
    )
    state = new_game(rules, NAMES, seed=11)
    ais = [make_ai("greedy", seed=s) for s in range(6)]
    longest = 0
    steps = 0
    with use_locale(locale):
        while not is_over(state) and steps < 5000:
            seat = current_player(state)
            actor = 0 if seat is None else seat
            legal: list[Action] = legal_actions(state, actor)
            action = ais[actor].decide(view_for(state, actor), legal)
            state, events = apply(state, action)
            steps += 1
            view = view_for(state, actor)
            texts = [
                render_table(view.table),
                render_hand(view),
                render_hand(view, best_melds(view.hand, view.table.rules)),
                render_scores(view),
                *(render_event(e, state.players) for e in events),
            ]
            if state.phase is not Phase.DRAW and state.phase is not Phase.PLAY:
                texts.append(render_hand_end(view))
            longest = max(longest, *(len(t) for t in texts))
    assert is_over(state)
    assert longest < MAX_CHARS


def test_german_rommé_states_its_elimination_limit_not_a_target() -> None:
    """german-romme.de.txt: "Es wird eine bestimmte Punktzahl definiert (150, 200 oder mehr
    ...), ein Spieler welcher mehr Verlustpunkte geschrieben hat scheidet aus." The header
    used to say "Playing to 150 points" ("Gespielt wird bis 150 Punkte")."""
    with use_locale("en"):
        assert (
            render_match_goal(make_rules("german"))
            == "Out above 150 penalty points; the last player left wins."
        )
        assert (
            render_match_goal(make_rules("german", "deals"))
            == "5 deals; the fewest penalty points win."
        )
        assert render_match_goal(make_rules("basic")) == "Playing to 100 points."
    with use_locale("de"):
        assert "Ausscheiden über 150 Minuspunkten" in render_match_goal(make_rules("german"))


def test_help_speaks_each_variants_notation_and_leaves_out_impossible_verbs() -> None:
    """romanian-rummy.de.txt plays with tiles ("rot, gelb, blau und schwarz"); rummy-500.de.txt
    lets a player take the pile down to a deeper card ("es kann mehr als eine Karte
    aufgenommen werden"); swap exists only where jokers may be exchanged."""
    with use_locale("en"):
        romanian = render_help(variant="romanian")
        rummy500 = render_help(variant="500")
        basic = render_help(variant="basic", rules=make_rules("basic"))
        wrotham = render_help(variant="basic", rules=make_rules("basic", "wrotham"))
    assert romanian.startswith("Commands (tiles are written like r7 y10 b13 k1 jo):")
    assert "  meld r5 r6 r7 | b9 k9 y9 — " in romanian and "7h" not in romanian
    assert "  take [7h] — Take the upcard, or the discard pile down to a card" in rummy500
    assert "  swap " not in basic and "  swap 8h 3 — " in wrotham
    with use_locale("de"):
        german = render_help(variant="romanian")
    assert german.startswith("Befehle (Steine schreibt man so: r7 g10 b13 s1 jo):")
    assert "  melden r5 r6 r7 | b9 s9 g9 — " in german
    assert "Einen Stein abwerfen" in german


def test_render_hand_by_rank() -> None:
    state = stacked(["ks 2c 9h jk 10d 3c 9s", "4h"], "kd", "9d", jokers=1)
    with use_locale("en"):
        text = render_hand(view_for(state, 0), by_rank=True)
    assert text == "Your hand (7 cards): 2♣  3♣  9♥ 9♠  10♦  K♠  🃏"


def test_german_presets_say_out_above_the_target() -> None:
    """german-romme.de.txt: "ein Spieler welcher mehr Verlustpunkte geschrieben hat scheidet
    aus": above the target, not at it (issue 37: "German preset text says 'Ausscheiden ab 150
    Minuspunkten'; the rule is 'über 150'")."""
    with use_locale("de"):
        german = render_presets("german")
    with use_locale("en"):
        english = render_presets("german")
    assert "Ausscheiden über 150 Minuspunkten" in german and " ab 1" not in german
    assert "Ausscheiden über 100 Minuspunkten" in german
    assert "out above 150 penalty points" in english and "elimination at" not in english
