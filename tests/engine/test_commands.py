"""The text command language: parsing, canonical formatting, record lines, help table."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.actions import (
    Action,
    Discard,
    Draw,
    LayOff,
    MeldCards,
    NextDeal,
    SwapJoker,
    TakeDiscard,
)
from engine.cards import JOKER, Card, Suit, parse_card, standard_deck
from engine.commands import (
    ACTION_VERBS,
    COMMANDS,
    UI_VERBS,
    BadMeldNumber,
    CommandHelp,
    EmptyCommand,
    MissingCards,
    MissingMeldNumber,
    MissingPlayer,
    NotAnAction,
    TooManyArgs,
    UiCommand,
    UnknownCommand,
    UnknownPlayer,
    canonical_verb,
    command_table,
    format_action,
    format_record_line,
    parse_action,
    parse_command,
    parse_record_line,
)
from engine.errors import CardParseError, CommandError
from engine.game import apply, current_player, legal_actions, new_game
from engine.melds import CardSpec
from engine.rules import make_rules
from engine.variants import VARIANTS
from engine.verbs import help_override

PLAYERS = ("ana", "ben", "cem")


def specs(text: str) -> tuple[CardSpec, ...]:
    return tuple(CardSpec.parse(w) for w in text.split())


# --- verbs and aliases ----------------------------------------------------------------------


@pytest.mark.parametrize("word", ["draw", "d", "ziehen", "DRAW", "Ziehen", " draw "])
def test_draw_and_its_aliases(word: str) -> None:
    assert parse_command(word, 2) == Draw(2)


@pytest.mark.parametrize("word", ["take", "t", "nehmen", "aufnehmen", "Take"])
def test_take_and_its_aliases(word: str) -> None:
    assert parse_command(word, 1) == TakeDiscard(1)


@pytest.mark.parametrize("word", ["next", "weiter", "deal", "NEXT"])
def test_next_and_its_aliases(word: str) -> None:
    assert parse_command(word, 0) == NextDeal(0)


@pytest.mark.parametrize("word", ["discard", "x", "drop", "abwerfen"])
def test_discard_and_its_aliases(word: str) -> None:
    assert parse_command(f"{word} ks", 1) == Discard(1, parse_card("ks"))


@pytest.mark.parametrize("word", ["meld", "m", "melden", "MELD"])
def test_meld_and_its_aliases(word: str) -> None:
    assert parse_command(f"{word} 7h 8h 9h", 0) == MeldCards(0, (specs("7h 8h 9h"),))


@pytest.mark.parametrize("word", ["layoff", "l", "lay", "anlegen"])
def test_layoff_and_its_aliases(word: str) -> None:
    assert parse_command(f"{word} 10h 3", 0) == LayOff(0, specs("10h"), 2)


@pytest.mark.parametrize("word", ["swap", "tauschen"])
def test_swap_and_its_aliases(word: str) -> None:
    assert parse_command(f"{word} 8h 3", 1) == SwapJoker(1, parse_card("8h"), 2)


@pytest.mark.parametrize(
    ("text", "verb"),
    [
        ("sort", "sort"),
        ("sortieren", "sort"),
        ("hint", "hint"),
        ("tipp", "hint"),
        ("help", "help"),
        ("hilfe", "help"),
        ("?", "help"),
        ("rules", "rules"),
        ("regeln", "rules"),
        ("hand", "hand"),
        ("table", "table"),
        ("tisch", "table"),
        ("score", "score"),
        ("punkte", "score"),
        ("quit", "quit"),
        ("exit", "quit"),
        ("ende", "quit"),
        ("back", "back"),
        ("zurück", "back"),
        ("ZURÜCK", "back"),
    ],
)
def test_ui_verbs(text: str, verb: str) -> None:
    assert parse_command(text, 0) == UiCommand(verb)


def test_ui_verbs_keep_their_arguments_lower_cased() -> None:
    assert parse_command("Hilfe Meld", 0) == UiCommand("help", ("meld",))
    assert parse_command("rules wrotham", 3) == UiCommand("rules", ("wrotham",))


def test_chat_prefixes_are_ignored() -> None:
    assert parse_command("/draw", 0) == Draw(0)
    assert parse_command("!discard ks", 0) == Discard(0, parse_card("ks"))


# --- cards in commands ----------------------------------------------------------------------


def test_cards_accept_symbols_ten_as_t_and_german_ranks() -> None:
    """Suit symbols, ``t`` for ten and German rank letters B (Bube) / D (Dame)."""
    action = parse_command("meld 10♥ B♥ D♥", 0)
    assert action == MeldCards(0, (specs("10h jh qh"),))
    assert parse_command("MELD TH JH QH", 0) == action
    assert parse_command("discard K♠", 0) == Discard(0, parse_card("ks"))


def test_several_melds_in_one_action_with_bar_or_slash() -> None:
    expected = MeldCards(0, (specs("7h 8h 9h"), specs("2c 2d 2s")))
    assert parse_command("meld 7h 8h 9h | 2c 2d 2s", 0) == expected
    assert parse_command("meld 7h 8h 9h / 2c 2d 2s", 0) == expected
    assert parse_command("meld 7h 8h 9h|2c 2d 2s", 0) == expected
    assert parse_command("meld 7h, 8h, 9h | 2c, 2d, 2s |", 0) == expected


def test_joker_declarations() -> None:
    """``jk=8h`` declares a card; ``jk=8`` a set's rank of any suit."""
    run = parse_command("meld 6h 7h jk=8h", 0)
    assert run == MeldCards(
        0,
        (
            (
                CardSpec(parse_card("6h")),
                CardSpec(parse_card("7h")),
                CardSpec(JOKER, parse_card("8h")),
            ),
        ),
    )
    group = parse_command("meld 8c 8d jk=8", 0)
    assert isinstance(group, MeldCards)
    assert group.groups[0][2] == CardSpec(JOKER, Card(8, None))
    assert parse_command("meld 6h 7h JK = 8H", 0) == run
    assert parse_command("layoff jk=9h 2", 0) == LayOff(0, (CardSpec(JOKER, parse_card("9h")),), 1)


def test_layoff_takes_several_cards_and_the_meld_number_last() -> None:
    assert parse_command("layoff 7h jh 3", 1) == LayOff(1, specs("7h jh"), 2)
    assert parse_command("lay off 10h #1", 1) == LayOff(1, specs("10h"), 0)


# --- errors ---------------------------------------------------------------------------------


def test_empty_command() -> None:
    with pytest.raises(EmptyCommand) as info:
        parse_command("   ", 0)
    assert info.value.code == "empty"


def test_unknown_verb_names_the_verb() -> None:
    with pytest.raises(UnknownCommand) as info:
        parse_command("Fly 7h", 0)
    assert info.value.code == "unknown_command"
    assert info.value.params == {"verb": "fly"}
    assert isinstance(info.value, CommandError)


@pytest.mark.parametrize("text", ["meld", "meld |", "discard", "layoff 3", "swap 2"])
def test_missing_cards(text: str) -> None:
    with pytest.raises(MissingCards) as info:
        parse_command(text, 0)
    assert info.value.code == "missing_cards"
    assert info.value.params["verb"] == canonical_verb(text.split()[0])


@pytest.mark.parametrize(
    ("text", "verb"), [("layoff 10h", "layoff"), ("anlegen 7h jh", "layoff"), ("swap 8h", "swap")]
)
def test_missing_meld_number(text: str, verb: str) -> None:
    with pytest.raises(MissingMeldNumber) as info:
        parse_command(text, 0)
    assert info.value.code == "missing_meld_number"
    assert info.value.params["verb"] == verb
    assert "number of the meld" in info.value.message


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("layoff 10h 0", "0"),
        ("layoff 10h drei", "drei"),
        ("swap 8h -1", "-1"),
        ("layoff 10h 2x", "2x"),
    ],
)
def test_bad_meld_number(text: str, bad: str) -> None:
    with pytest.raises(BadMeldNumber) as info:
        parse_command(text, 0)
    assert info.value.code == "bad_meld_number"
    assert info.value.params == {"text": bad}


@pytest.mark.parametrize(
    ("text", "verb"),
    [
        ("draw 7h", "draw"),
        ("take ks qh", "take"),
        ("discard ks qh", "discard"),
        ("next 2", "next"),
        ("swap 8h 9h 3", "swap"),
        ("layoff 7h | 8h 3", "layoff"),
    ],
)
def test_too_many_arguments(text: str, verb: str) -> None:
    with pytest.raises(TooManyArgs) as info:
        parse_command(text, 0)
    assert info.value.code == "too_many_args"
    assert info.value.params["verb"] == verb


@pytest.mark.parametrize(
    "text", ["discard 11h", "meld 7h 8h 9x", "meld 7h=8h 9h 10h", "swap jk=8h 2", "layoff jk=jk 2"]
)
def test_bad_cards_raise_card_parse_errors(text: str) -> None:
    with pytest.raises(CardParseError) as info:
        parse_command(text, 0)
    assert info.value.code == "bad_card"


# --- formatting and the round trip ------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (Draw(0), "draw"),
        (TakeDiscard(1), "take"),
        (TakeDiscard(1, parse_card("7h")), "take 7h"),
        (
            MeldCards(
                0,
                (
                    (
                        CardSpec(parse_card("6h")),
                        CardSpec(parse_card("7h")),
                        CardSpec(JOKER, parse_card("8h")),
                    ),
                ),
            ),
            "meld 6h 7h jk=8h",
        ),
        (MeldCards(0, (specs("7h 8h 9h"), specs("2c 2d 2s"))), "meld 7h 8h 9h | 2c 2d 2s"),
        (
            MeldCards(
                0,
                (
                    (
                        CardSpec(parse_card("9c")),
                        CardSpec(parse_card("9d")),
                        CardSpec(JOKER, Card(9, None)),
                    ),
                ),
            ),
            "meld 9c 9d jk=9",
        ),
        (LayOff(2, specs("10h"), 2), "layoff 10h 3"),
        (LayOff(2, specs("7h jh"), 0), "layoff 7h jh 1"),
        (SwapJoker(1, parse_card("8h"), 2), "swap 8h 3"),
        (Discard(1, parse_card("ks")), "discard ks"),
        (NextDeal(0), "next"),
    ],
)
def test_format_action_examples(action: Action, text: str) -> None:
    assert format_action(action) == text
    assert parse_command(text, action.seat) == action


_suits = st.sampled_from(list(Suit))
_naturals = st.builds(Card, st.integers(1, 13), _suits)
_faces = st.one_of(_naturals, st.builds(Card, st.integers(1, 13), st.none()))
_any_card = st.one_of(_naturals, st.just(JOKER))
_specs = st.one_of(
    _naturals.map(CardSpec), st.just(CardSpec(JOKER)), _faces.map(lambda f: CardSpec(JOKER, f))
)
_spec_tuples = st.lists(_specs, min_size=1, max_size=6).map(tuple)
_seats = st.integers(0, 5)
_melds = st.integers(0, 40)
ACTIONS = st.one_of(
    st.builds(Draw, _seats),
    st.builds(TakeDiscard, _seats, st.none() | st.sampled_from(standard_deck(1, 1))),
    st.builds(NextDeal, _seats),
    st.builds(MeldCards, _seats, st.lists(_spec_tuples, min_size=1, max_size=4).map(tuple)),
    st.builds(LayOff, _seats, _spec_tuples, _melds),
    st.builds(SwapJoker, _seats, _any_card, _melds),
    st.builds(Discard, _seats, _any_card),
)


@given(ACTIONS)
def test_parse_of_format_is_the_action(action: Action) -> None:
    assert parse_command(format_action(action), action.seat) == action


@given(ACTIONS)
def test_record_line_round_trip(action: Action) -> None:
    players = ("ana", "ben", "cem", "dora", "emil", "fritz")
    line = format_record_line(action, players)
    assert line.startswith(players[action.seat] + ": ")
    assert parse_record_line(line, players) == action


@pytest.mark.parametrize("preset", ["standard", "beginner", "block", "wrotham"])
def test_every_legal_action_of_a_playout_round_trips(preset: str) -> None:
    rng = random.Random(preset)
    state = new_game(make_rules("basic", preset), PLAYERS, seed=11, dealer=0)
    for _ in range(250):
        seat = current_player(state)
        seat = rng.randrange(3) if seat is None else seat
        legal = legal_actions(state, seat)
        if not legal:
            break
        for action in legal:
            assert parse_command(format_action(action), seat) == action
        state, _ = apply(state, rng.choice(legal))


# --- record lines ---------------------------------------------------------------------------


def test_record_lines() -> None:
    assert parse_record_line("ben: meld 7h 8h 9h", PLAYERS) == MeldCards(1, (specs("7h 8h 9h"),))
    assert parse_record_line("  cem :draw", PLAYERS) == Draw(2)
    assert parse_record_line("Ana: Discard KS", PLAYERS) == Discard(0, parse_card("ks"))
    assert format_record_line(LayOff(2, specs("10h"), 2), PLAYERS) == "cem: layoff 10h 3"


def test_record_line_prefers_the_exact_name() -> None:
    players = ("Ana", "ana")
    assert parse_record_line("ana: draw", players) == Draw(1)
    assert parse_record_line("Ana: draw", players) == Draw(0)
    with pytest.raises(UnknownPlayer):
        parse_record_line("ANA: draw", players)


def test_record_line_errors() -> None:
    with pytest.raises(MissingPlayer) as missing:
        parse_record_line("draw", PLAYERS)
    assert missing.value.code == "missing_player"
    with pytest.raises(UnknownPlayer) as unknown:
        parse_record_line("bob: draw", PLAYERS)
    assert unknown.value.code == "unknown_player"
    assert unknown.value.params == {"name": "bob", "players": "ana, ben, cem"}
    with pytest.raises(NotAnAction) as ui:
        parse_record_line("ana: help", PLAYERS)
    assert ui.value.code == "not_an_action"
    with pytest.raises(NotAnAction):
        parse_action("sort", 0)


# --- the help table -------------------------------------------------------------------------


def test_help_table_covers_every_verb_once() -> None:
    verbs = [c.verb for c in COMMANDS]
    assert sorted(verbs) == sorted(ACTION_VERBS + UI_VERBS)
    words = [w for c in COMMANDS for w in (c.verb, *c.aliases)]
    assert len(words) == len(set(words)), "an alias names two commands"


@pytest.mark.parametrize("entry", COMMANDS, ids=lambda c: c.verb)
def test_help_syntax_parses_and_aliases_resolve(entry: CommandHelp) -> None:
    assert entry.help and entry.syntax.split()[0] == entry.verb
    for alias in entry.aliases:
        assert canonical_verb(alias) == entry.verb
    parsed = parse_command(entry.syntax.replace("[command]", "meld"), 0)
    if isinstance(parsed, UiCommand):
        assert parsed == UiCommand(entry.verb, ("meld",) if "[command]" in entry.syntax else ())
    else:
        assert entry.verb in ACTION_VERBS
        assert format_action(parsed) == entry.syntax


@pytest.mark.parametrize("variant", ["basic", "500", "german", "romanian"])
def test_a_variants_help_lines_keep_the_shared_verbs_and_aliases(variant: str) -> None:
    """A variant's own line for a shared verb (tiles, the deep take) changes only its syntax
    and help sentence: the verb and its aliases are the shared ones, so a German alias
    typed at any table finds the same verb and its help."""
    shared = {c.verb: c for c in COMMANDS}
    lines = command_table(variant)
    for line in VARIANTS[variant].help_overrides:
        assert line.aliases == shared[line.verb].aliases
        assert line.syntax.split()[0] == line.verb and line in lines
    with pytest.raises(KeyError):
        help_override("fly", "fly", "Fly.")


def test_format_action_refuses_what_is_no_action() -> None:
    with pytest.raises(TypeError):
        format_action(UiCommand("help"))  # type: ignore[arg-type]
