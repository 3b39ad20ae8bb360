"""Fuzzing with hypothesis: the parsers and decoders that take input from outside take
anything without a crash, and a rejected input changes nothing.

Targets: the command language (:func:`engine.commands.parse_command`), the chat text entry
point (:func:`tests.bot.people.say` on a running game), the Telegram
``callback_data`` codec (:mod:`bot.telegram_bot.callbacks`), the Discord custom id codec
(:class:`bot.discord_bot.components.ControlId`, with the hand state it carries) and the
game-record reader (:mod:`engine.records`, :func:`bot.record_files.load_record`). Each is
fed arbitrary text (any Unicode, lone surrogates, control characters, very long strings)
and structured near misses built from the real grammar, and must answer with its result or
its documented typed error. Two bounded tests send garbage buttons through the real
Telegram and Discord stacks (fake servers) and check the answer and the table version.
"""

from __future__ import annotations

import asyncio
import copy
import json
import random
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.discord_bot.components import CUSTOM_ID_LIMIT, ControlId
from bot.discord_bot.hand import HandState
from bot.interaction.commands import TABLE_VERBS
from bot.ports.intents import Reply
from bot.ports.model import Status, UserRef
from bot.record_files import load_record
from bot.service.model import Table
from bot.telegram_bot.callbacks import (
    GROUP_ACTIONS,
    HAND_ACTIONS,
    MAX_BYTES,
    SORT_MODES,
    Callback,
    MalformedCallback,
    decode,
)
from engine.actions import Action
from engine.cards import standard_deck
from engine.commands import (
    UI_VERBS,
    UiCommand,
    UnknownPlayer,
    command_table,
    format_action,
    parse_command,
    parse_record_line,
)
from engine.errors import CardParseError, CommandError, RuleOptionError
from engine.game import apply, current_player, legal_actions, new_game
from engine.records import RecordPlan, export_record, parse_record_text, read_record, replay
from engine.rules import make_rules
from engine.serialize import RecordError, state_to_dict
from engine.state import Phase
from tests.bot.people import say
from tests.bot.service.support import ANA, BEN, CEM, CHAT, Harness, make_harness
from tests.examples import share

VARIANTS = ("basic", "500", "german", "romanian")
DATA = Path(__file__).resolve().parents[2] / "engine" / "data"

# --- shared strategies ----------------------------------------------------------------------

#: Any character at all, lone surrogates (category Cs) and control characters included.
ANY_CHAR = st.characters(exclude_categories=())
ANY_TEXT = st.text(ANY_CHAR, max_size=80)


@st.composite
def long_texts(draw: st.DrawFn) -> str:
    """A short piece repeated up to a few thousand times (long lines, long numbers)."""
    piece = draw(st.text(ANY_CHAR, min_size=1, max_size=6) | st.sampled_from(["1", "7h ", "|"]))
    return piece * draw(st.integers(10, 5000 // len(piece) + 1))


ARBITRARY_TEXT = ANY_TEXT | long_texts()

REAL_CARDS = sorted(
    {str(c) for c in standard_deck(jokers=2)} | {c.pretty() for c in standard_deck()}
)
REAL_TOKENS = [
    *REAL_CARDS,
    "10h",
    "th",
    "Qs",
    "A♣",
    "7♡",
    "jk",
    "jo",
    "joker",
    "joly",
    "*",
    "r7",
    "y13",
    "b1",
    "k5",
    "rot7",
    "red7",
    "gelb13",
    "schwarz5",
    "🔴7",
    "jk=8h",
    "jk=8",
    "jk=q",
    "jk=11",
    "jo=b11",
    "jo=12",
    "1",
    "2",
    "3",
    "#2",
    "12",
    "off",
    "high",
    "low",
    "hoch",
    "ben",
    "ana",
]
BROKEN_TOKENS = [
    "1h",
    "11h",
    "0h",
    "1x",
    "zz",
    "7x",
    "h7",
    "j",
    "jk=",
    "=8h",
    "jk=jk",
    "jk==8h",
    "7h=8h",
    "jk=8h=9h",
    "jo=b14",
    "jo=b0",
    "r14",
    "r0",
    "r07",
    "rot",
    "🔴",
    "🔴0",
    "b-1",
    "#",
    "#0",
    "#-1",
    "##1",
    "0",
    "-1",
    "+1",
    "1.5",
    "1e3",
    "²",
    "³h",
    "7²",
    "r²",
    "١",
    "٣h",
    "𝟕h",
    "１",
    "1" * 30,
    "9" * 5000,
    "ｄｒａｗ",
    "7h\u0301",
    "\u200b7h",
    "\x00",
    "\x1b[2J",
    "\ud800",
    "nan",
    "None",
    "{}",
    "[]",
    "@",
    "@bot",
    ":",
    "ben:",
    "a" * 300,
]
SEPARATORS = [" ", "  ", ",", ", ", " | ", "|", "/", " / ", "\t", " = ", "=", "\n"]


def verbs_of(variant: str | None) -> list[str]:
    """Every verb and alias of the command table of ``variant`` (all variants: None)."""
    return sorted({w for c in command_table(variant) for w in (c.verb, *c.aliases)})


@st.composite
def near_miss_commands(draw: st.DrawFn, variant: str | None = None) -> str:
    """A command built from a real verb of ``variant`` (any case, maybe a chat prefix) and
    real or broken argument words, joined by real or odd separators."""
    verb = draw(st.sampled_from(verbs_of(variant)) | st.sampled_from(BROKEN_TOKENS))
    verb = draw(
        st.sampled_from([verb, verb.upper(), verb.title(), f"/{verb}", f"!{verb}", f" {verb}\t"])
    )
    words = draw(
        st.lists(
            st.sampled_from(REAL_TOKENS)
            | st.sampled_from(BROKEN_TOKENS)
            | st.sampled_from(SEPARATORS)
            | st.text(ANY_CHAR, max_size=4),
            max_size=8,
        )
    )
    seps = draw(st.lists(st.sampled_from(SEPARATORS), min_size=len(words), max_size=len(words)))
    return verb + "".join(s + w for s, w in zip(seps, words, strict=True))


# --- 1. the command language ----------------------------------------------------------------


def check_command(text: str, seat: int) -> Action | UiCommand | None:
    """The contract of :func:`parse_command`: an action of ``seat`` that formats back to
    itself, a UI command, or a ``CommandError``/``CardParseError`` with a code and a
    message; ``None`` for a refusal."""
    try:
        parsed = parse_command(text, seat)
    except (CommandError, CardParseError) as error:
        assert isinstance(error.code, str) and error.code
        assert str(error) and str(error) != error.code  # the template was filled in
        return None
    if isinstance(parsed, UiCommand):
        assert parsed.verb in UI_VERBS
        return parsed
    assert parsed.seat == seat
    canonical = format_action(parsed)
    again = parse_command(canonical, seat)
    assert again == parsed, canonical
    assert not isinstance(again, UiCommand) and format_action(again) == canonical
    return parsed


@given(ARBITRARY_TEXT, st.integers(0, 5))
@example("layoff 7h ²", 0)
@example("swap 7h ³", 1)
@example("layoff 7h " + "1" * 5000, 0)
@example("call kh ²", 2)
@example("exchange 8h ² | jk 9h 10h", 0)
@example("joly k7 ²", 3)
@example("layoff 7h ١", 0)
@example("\ud800", 0)
def test_any_text_parses_or_is_refused_with_a_typed_error(text: str, seat: int) -> None:
    """Arbitrary text (any Unicode, lone surrogates, control characters, thousands of
    characters; the examples are found crashes: Unicode digits such as ``²`` pass
    ``str.isdigit`` but not ``int``, and ``int`` refuses more than 4300 digits) gives an
    action, a UI command or a ``CommandError``/``CardParseError``, never another exception;
    a parsed action formats back to itself."""
    check_command(text, seat)


@pytest.mark.parametrize("variant", VARIANTS)
@settings()
@given(data=st.data())
def test_near_miss_commands_of_each_variant(variant: str, data: st.DataObject) -> None:
    """Commands from the variant's command table with real and broken cards (``10h``,
    ``jo=b11``, ``1h``, ``zz``, ``²``), meld numbers and separators: an action (that
    round-trips through :func:`format_action`), a UI command or a typed refusal."""
    text = data.draw(near_miss_commands(variant), label="text")
    check_command(text, data.draw(st.integers(0, 5), label="seat"))


def test_near_misses_do_reach_actions_for_every_variant() -> None:
    """The near-miss strategy is not all refusals: for each variant it yields parsed
    actions of several kinds (so the round trip above is exercised)."""
    for variant in VARIANTS:
        kinds: set[str] = set()

        collect_kinds(variant, kinds)
        assert len(kinds) >= 3 and kinds - {"UiCommand", "NextDeal"}, (variant, kinds)


def collect_kinds(variant: str, kinds: set[str]) -> None:
    """Parse ten times the profile's count of near misses of ``variant`` (300 locally, a
    fixed sequence: the guard must not depend on luck); add the class name of each parsed
    result."""

    @settings(max_examples=share(10), database=None, derandomize=True)
    @given(near_miss_commands(variant))
    def collect(text: str) -> None:
        parsed = check_command(text, 0)
        if parsed is not None:
            kinds.add(type(parsed).__name__)

    collect()


@given(
    ARBITRARY_TEXT | near_miss_commands().map(lambda c: f"ben: {c}"),
    st.lists(st.sampled_from(["ana", "ben", "Ben", "cem", "", "a:b", "ANA"]), max_size=4),
)
def test_record_lines_parse_or_are_refused(line: str, players: list[str]) -> None:
    """A record line ``"<player>: <command>"`` gives an action of that player's seat or a
    ``CommandError``/``CardParseError`` (unknown or missing player, UI verb, bad command)."""
    try:
        action = parse_record_line(line, players)
    except (CommandError, CardParseError):
        return
    assert 0 <= action.seat < len(players)


# --- 2. chat text on a running game ---------------------------------------------------------

DORA = UserRef("test", "4", "dora", "de")

#: Table verbs a seated player may legitimately use to change a running table (the AI takes
#: the seat over; the seat is taken back): left out of the lines the seated tester types.
SEAT_CHANGERS = ("leave", "back")


@st.composite
def chat_lines(draw: st.DrawFn) -> str:
    """A chat line: arbitrary text, a near-miss game command, or a table verb (any alias,
    maybe ``/verb@Bot``) with real and broken arguments."""
    kind = draw(st.sampled_from(["text", "game", "table"]))
    if kind == "text":
        return draw(ARBITRARY_TEXT)
    if kind == "game":
        return draw(near_miss_commands())
    verb = draw(st.sampled_from(sorted(TABLE_VERBS)))
    verb = draw(st.sampled_from([verb, f"/{verb}", f"/{verb}@RummyBot", verb.upper()]))
    args = draw(
        st.lists(
            st.sampled_from(
                [
                    "basic",
                    "500",
                    "german",
                    "romanian",
                    "beginner",
                    "wrotham",
                    "greedy",
                    "random",
                    "timer=2m",
                    "timer=5s",
                    "jokers=off",
                    "target=50",
                    "x=",
                    "=y",
                    "=",
                    "de",
                    "en",
                    "auto",
                    "xx",
                    "1",
                    "2",
                    "9",
                    "0",
                    "-1",
                    "²",
                    "١",
                    "melds",
                    "meld",
                    "draw",
                ]
            )
            | st.sampled_from(BROKEN_TOKENS)
            | st.text(ANY_CHAR, max_size=5),
            max_size=4,
        )
    )
    return " ".join([verb, *args])


def chat_words(text: str) -> tuple[str | None, list[str]]:
    """The table verb of a chat line as :func:`handle_text` reads it (``None``: a game
    command) and the words after it."""
    body = text.strip()
    words = (body[1:] if body[:1] in ("/", "!") else body).split()
    if not words:
        return None, []
    return TABLE_VERBS.get(words[0].split("@", 1)[0].lower()), words[1:]


async def stored(harness: Harness, table_id: int) -> tuple[Table, str]:
    """The stored table without its state, and the state as JSON text."""
    table = await harness.service.repo.get_table(table_id)
    assert table is not None and table.state is not None
    return replace(table, state=None), json.dumps(state_to_dict(table.state), sort_keys=True)


async def three_player_game(harness: Harness) -> tuple[int, UserRef]:
    """ana (host), ben and cem playing basic rummy; returns the table id and a seated
    player who is neither the host nor to play."""
    service = harness.people
    for user, line in ((ANA, "new"), (BEN, "join"), (CEM, "join"), (ANA, "start")):
        reply = await say(service, CHAT, user, line)
        assert reply.ok, (line, reply)
    table = await service.repo.active_table(CHAT)
    assert table is not None and table.state is not None and table.status is Status.PLAYING
    on_turn = current_player(table.state)
    tester = BEN if on_turn != 1 else CEM
    return table.id, tester


def test_chat_lines_are_answered_and_refusals_change_nothing(tmp_path: Path) -> None:
    """On a running three-player game, arbitrary and near-miss chat lines from a seated
    player (not the host, not to play) and from a stranger always come back as a
    :class:`Reply` (a refusal: private, with a localized text), never as an exception; the
    stored table (version, seats, timers) and its state as JSON are unchanged after each
    line, and no table notice went out for a refusal. (Neither user can change a running
    table with these lines: not to play, not the host, ``leave``/``back`` left out.)"""
    runner = asyncio.Runner()
    with runner:
        harness = runner.run(make_harness(tmp_path / "rummy.sqlite3"))
        try:
            table_id, tester = runner.run(three_player_game(harness))
            seated_lines = chat_lines().filter(lambda t: chat_words(t)[0] not in SEAT_CHANGERS)

            async def one_line(user: UserRef, text: str) -> None:
                before = await stored(harness, table_id)
                notices = len(harness.notifier.public)
                reply = await say(
                    harness.service, CHAT, user, text, update_key=f"fuzz:{text[:20]!r}"
                )
                assert isinstance(reply, Reply)
                if not reply.ok:
                    assert reply.private and isinstance(reply.text, str) and reply.text
                    assert len(harness.notifier.public) == notices
                assert await stored(harness, table_id) == before, (text, reply)

            @settings(max_examples=share(0.5), database=None)
            @given(
                st.sampled_from([tester, DORA]).flatmap(
                    lambda u: st.tuples(st.just(u), seated_lines if u is tester else chat_lines())
                )
            )
            @example((DORA, "join"))
            @example((DORA, "cancel"))
            @example((DORA, "leave"))
            @example((DORA, "draw"))
            @example((tester, "discard zz"))
            @example((tester, "meld 7h 8h 9h"))
            @example((tester, "set timer=10m"))
            @example((tester, "cancel"))
            @example((tester, "removebot 1"))
            def check(case: tuple[UserRef, str]) -> None:
                user, text = case
                runner.run(one_line(user, text))

            check()
        finally:
            runner.run(harness.db.close())


async def test_removebot_with_a_digit_int_cannot_read_is_refused(tmp_path: Path) -> None:
    """``removebot ²`` is a refusal (``Reply(ok=False)``), like ``removebot x``."""
    harness = await make_harness(tmp_path / "rummy.sqlite3")
    try:
        await say(harness.service, CHAT, ANA, "new")
        for word in ("²", "1" * 5000):
            reply = await say(harness.service, CHAT, ANA, f"removebot {word}")
            assert not reply.ok and reply.private
    finally:
        await harness.db.close()


# --- 3. Telegram callback_data --------------------------------------------------------------

ARG_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789=,_-"


@st.composite
def callbacks(draw: st.DrawFn) -> Callback:
    """Any callback with fields in range (it may still be too long to encode)."""
    kind = draw(st.sampled_from(["g", "h"]))
    actions = GROUP_ACTIONS if kind == "g" else HAND_ACTIONS
    return Callback(
        kind,
        draw(st.sampled_from(sorted(actions))),
        draw(st.integers(0, 36**8) | st.integers(0, 36**13 - 1)),
        draw(st.integers(0, 36**6) | st.integers(0, 36**13 - 1)),
        draw(st.integers(0, 2**60) | st.just(0)),
        draw(st.integers(0, SORT_MODES - 1)),
        draw(st.text(ARG_CHARS, max_size=40)),
    )


@st.composite
def mutated_callback_data(draw: st.DrawFn) -> str:
    """Real callback_data with a few characters replaced, inserted or cut."""
    data = list(draw(callbacks().filter(_encodable).map(Callback.encode)))
    alphabet = st.sampled_from(list(".0123456789azZ_-=,²٣ä \n\ud800𝟕")) | ANY_CHAR
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.integers(0, len(data)))
        how = draw(st.sampled_from(["replace", "insert", "cut"]))
        if how == "insert" or where == len(data):
            data.insert(where, draw(alphabet))
        elif how == "replace":
            data[where] = draw(alphabet)
        else:
            del data[where:]
    return "".join(data)


def _encodable(data: Callback) -> bool:
    try:
        data.encode()
    except ValueError:
        return False
    return True


@given(
    st.none()
    | ARBITRARY_TEXT
    | mutated_callback_data()
    | st.text(ARG_CHARS + ".", min_size=MAX_BYTES - 4, max_size=MAX_BYTES + 40)
)
@example("gj².c.5..")
@example("hs٣.c.2f.bn.")
@example("gj0.c.5..\ud800")
@example("gj0.c.5.." + "a" * 56)
def test_any_callback_data_decodes_or_is_malformed(data: str | None) -> None:
    """``decode`` returns a callback or raises ``MalformedCallback``, nothing else (the
    examples were crashes: ``²`` in the sort digit, a lone surrogate). What it accepts is in
    range and encodes back, no longer than the input, to data that decodes the same."""
    try:
        decoded = decode(data)
    except MalformedCallback:
        return
    assert data is not None
    assert decoded.kind in ("g", "h") and 0 <= decoded.sort < SORT_MODES
    assert decoded.action in (GROUP_ACTIONS if decoded.kind == "g" else HAND_ACTIONS)
    assert min(decoded.table_id, decoded.version, decoded.mask) >= 0
    again = decoded.encode()
    assert len(again.encode("utf-8")) <= len(data.encode("utf-8")) <= MAX_BYTES
    assert decode(again) == decoded


@given(callbacks())
def test_every_callback_that_fits_round_trips(data: Callback) -> None:
    """A callback encodes to at most 64 ASCII bytes that decode to it, or ``encode`` says
    ``ValueError`` because the text would pass the 64 bytes."""
    try:
        encoded = data.encode()
    except ValueError:
        assert _too_long(data)
        return
    assert encoded.isascii() and len(encoded) <= MAX_BYTES
    assert decode(encoded) == data


def _too_long(data: Callback) -> bool:
    def b36(n: int) -> int:
        digits = 1
        while n >= 36:
            n //= 36
            digits += 1
        return digits

    mask = b36(data.mask) if data.mask else 0
    return (
        3 + 1 + b36(data.table_id) + 1 + b36(data.version) + 1 + mask + 1 + len(data.arg)
        > MAX_BYTES
    )


# --- 4. Discord custom ids ------------------------------------------------------------------

ACTION_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789_."
STATE_CHARS = "0123456789abcdefghijklmnopqrstuvwxyz."


def control_ids() -> st.SearchStrategy[ControlId]:
    """Control ids with fields the template allows (some too long for 100 characters)."""
    return st.builds(
        ControlId,
        st.integers(0, 10**15 - 1),
        st.integers(0, 10**9 - 1),
        st.text(ACTION_CHARS, min_size=1, max_size=24),
        st.text(STATE_CHARS, max_size=90),
    )


@st.composite
def mutated_custom_ids(draw: st.DrawFn) -> str:
    """A real custom id with a few characters replaced, inserted or cut."""
    text = list(draw(control_ids().map(lambda c: f"rm:{c.table}:{c.version}:{c.action}:{c.state}")))
    alphabet = st.sampled_from(list(":.0123456789azA_²٣\n𝟕")) | ANY_CHAR
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.integers(0, len(text)))
        how = draw(st.sampled_from(["replace", "insert", "cut"]))
        if how == "insert" or where == len(text):
            text.insert(where, draw(alphabet))
        elif how == "replace":
            text[where] = draw(alphabet)
        else:
            del text[where:]
    return "".join(text)


@given(
    ARBITRARY_TEXT
    | mutated_custom_ids()
    | st.text(STATE_CHARS + ":rm", min_size=CUSTOM_ID_LIMIT - 5, max_size=CUSTOM_ID_LIMIT + 60)
)
@example("rm:١٢:3:join:")
@example("rm:1:1:join:\n")
@example("rm:" + "9" * 16 + ":1:join:")
@example("rm:1:1:hand:" + "f" * 90)
def test_any_custom_id_parses_or_is_not_ours(custom_id: str) -> None:
    """``ControlId.parse`` returns a control or ``None``, never raises, also beyond Discord's
    100 characters; it accepts only ASCII (its ``\\d`` used to match ``١٢`` too). A control
    it accepts from at most 100 characters encodes back, within the limit, to an id that
    parses the same."""
    control = ControlId.parse(custom_id)
    if control is None:
        return
    assert custom_id.isascii()  # the encoder writes ASCII digits only, not "١٢"
    assert control.table >= 0 and control.version >= 0 and control.action
    if len(custom_id) <= CUSTOM_ID_LIMIT:
        again = control.encode()
        assert len(again) <= len(custom_id)
        assert ControlId.parse(again) == control


@given(control_ids())
def test_every_control_id_within_the_limit_round_trips(control: ControlId) -> None:
    """A control id encodes to at most 100 characters that parse back to it; ``encode``
    raises ``ValueError`` exactly when the text would be longer."""
    text = f"rm:{control.table}:{control.version}:{control.action}:{control.state}"
    if len(text) > CUSTOM_ID_LIMIT:
        with pytest.raises(ValueError):
            control.encode()
        return
    encoded = control.encode()
    assert encoded == text and len(encoded) <= CUSTOM_ID_LIMIT
    assert ControlId.parse(encoded) == control


@given(
    ARBITRARY_TEXT
    | st.text(STATE_CHARS + "012", max_size=90)
    | control_ids().map(lambda c: c.state)
)
@example("abcdg1.2r\u0663")
@example("abcdgf\n")
def test_any_hand_state_decodes_or_is_a_value_error(state: str) -> None:
    """The hand state a custom id carries decodes to a :class:`HandState` that encodes back
    to a state decoding the same, or raises ``ValueError`` (the hand flow then starts from
    a fresh selection)."""
    try:
        decoded = HandState.decode(state)
    except ValueError:
        return
    assert HandState.decode(decoded.encode()) == decoded


# --- 5. game records ------------------------------------------------------------------------

JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(-(2**80), 2**80)
    | st.floats()
    | ANY_TEXT
    | st.sampled_from(REAL_TOKENS + BROKEN_TOKENS)
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(
            ANY_TEXT | st.sampled_from(["variant", "players", "deal", "actions", "seed"]),
            inner,
            max_size=5,
        )
    ),
    max_leaves=20,
)

READ_ERRORS = (RecordError, RuleOptionError, UnknownPlayer)
REPORT_KEYS = {"ok", "applied", "error", "scores", "hand_over", "game_over", "winners", "state"}


def check_report(report: Any) -> None:
    """The documented shape of a :func:`replay` report, and that it is JSON."""
    assert isinstance(report, dict) and set(report) == REPORT_KEYS
    assert isinstance(report["ok"], bool) and isinstance(report["applied"], int)
    error = report["error"]
    if report["ok"]:
        assert error is None
    else:
        assert set(error) == {"index", "action", "code", "message", "params"}
        assert isinstance(error["code"], str) and isinstance(error["message"], str)
        assert error["index"] is None or 0 <= error["index"] == report["applied"]
    json.dumps(report)


def check_record(record: Any) -> None:
    """``read_record`` builds a plan or raises one of its documented errors, and ``replay``
    never raises; both agree on whether the record is readable."""
    try:
        plan = read_record(record)
    except READ_ERRORS:
        plan = None
    else:
        assert isinstance(plan, RecordPlan)
    report = replay(record)
    check_report(report)
    if plan is None:
        assert not report["ok"] and report["error"]["index"] is None


@cache
def base_records() -> tuple[dict[str, Any], ...]:
    """The records in tests/engine/data that replay cleanly and one exported random game
    per variant."""
    records = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(DATA.glob("*.json"))]
    records = [r for r in records if replay(r)["ok"]]
    for index, variant in enumerate(VARIANTS):
        rules = make_rules(variant)
        players = ["ana", "ben", "cem"][: 2 + index % 2]
        state = new_game(rules, players, seed=40 + index)
        rng = random.Random(index)
        log: list[Action] = []
        while len(log) < 40 and state.phase is not Phase.GAME_OVER:
            seat = current_player(state)
            if seat is None:
                seat = rng.randrange(state.seats)
            legal = legal_actions(state, seat)
            if not legal:
                break
            action = rng.choice(legal)
            state, _ = apply(state, action)
            log.append(action)
        record = export_record(
            rules, players, 40 + index, new_game(rules, players, seed=40 + index).dealer, log
        )
        assert replay(record)["ok"], (variant, replay(record)["error"])
        records.append(record)
    return tuple(records)


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key/index path inside a JSON value."""
    out = []
    if isinstance(value, dict):
        for key, item in value.items():
            out.append((*path, key))
            out.extend(_places(item, (*path, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out.append((*path, index))
            out.extend(_places(item, (*path, index)))
    return out


def _get(record: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        record = record[step]
    return record


#: What a mutation aims at: the places whose current value fits (any place if none does).
_TARGETS: dict[str, Callable[[Any], bool]] = {
    "delete": lambda v: True,
    "value": lambda v: True,
    "action": lambda v: isinstance(v, str) and ": " in v,
    "card": lambda v: isinstance(v, str) and len(v) <= 4,
    "number": lambda v: isinstance(v, int),
}


@st.composite
def mutated_records(draw: st.DrawFn) -> dict[str, Any]:
    """A real record (exported or from tests/engine/data) with one to four mutations:
    a key or list item deleted, a value of another type, an action line changed, a card,
    a number (seed, dealer), the players or an unknown key."""
    record: dict[str, Any] = copy.deepcopy(draw(st.sampled_from(base_records())))
    names = list(record.get("players", ["ana", "ben"]))
    for _ in range(draw(st.integers(1, 4))):
        how = draw(
            st.sampled_from(
                [
                    "delete",
                    "value",
                    "action",
                    "action",
                    "card",
                    "card",
                    "number",
                    "number",
                    "players",
                    "key",
                ]
            )
        )
        if how == "players":
            record["players"] = draw(
                st.lists(
                    st.sampled_from([*names, "", "a:b", "ANA", "zoe", " ben ", 7, None]), max_size=8
                )
            )
            continue
        if how == "key":
            record[draw(ANY_TEXT | st.sampled_from(["deals", "deal", "format", "comment"]))] = draw(
                JSON_VALUES
            )
            continue
        places = _places(record)
        fitting = [p for p in places if _TARGETS[how](_get(record, p))]
        if not places:
            break
        path = draw(st.sampled_from(fitting or places))
        parent, last = _get(record, path[:-1]), path[-1]
        if how == "delete":
            del parent[last]
            continue
        new: Any
        if how == "value":
            new = draw(JSON_VALUES)
        elif how == "action":
            who = draw(st.sampled_from(names) | ANY_TEXT)
            new = f"{who}: {draw(near_miss_commands())}"
        elif how == "card":
            new = draw(st.sampled_from(REAL_TOKENS + BROKEN_TOKENS))
        else:
            new = draw(
                st.integers(-3, 8)
                | st.integers()
                | st.integers(-(2**100), 2**100)
                | st.floats()
                | st.booleans()
            )
        parent[last] = new
    return record


@given(
    ARBITRARY_TEXT
    | JSON_VALUES.map(lambda v: json.dumps(v))
    | st.sampled_from(
        [
            "[" * 100_000,
            '{"a":' * 50_000,
            "1" * 5000,
            '{"seed": ' + "9" * 5000 + "}",
            "NaN",
            '{"players": Infinity}',
            "\ufeff{}",
            '{"a": "\\ud800"}',
        ]
    )
)
@example("[" * 100_000)
@example('{"seed": ' + "9" * 5000 + "}")
def test_any_record_text_parses_or_is_a_record_error(text: str) -> None:
    """``parse_record_text`` returns a dict or raises ``RecordError`` (invalid JSON or not
    an object); the examples were crashes (``RecursionError`` for deep nesting,
    ``ValueError`` for an integer of more than 4300 digits)."""
    try:
        data = parse_record_text(text)
    except RecordError as error:
        assert error.code == "bad_record"
        return
    assert isinstance(data, dict)


@given(
    JSON_VALUES
    | st.dictionaries(
        st.sampled_from(
            [
                "format",
                "variant",
                "preset",
                "options",
                "players",
                "dealer",
                "seed",
                "deal",
                "actions",
                "deals",
            ]
        ),
        JSON_VALUES,
        max_size=8,
    )
)
def test_any_json_value_is_read_and_replayed_without_a_crash(record: Any) -> None:
    """Arbitrary JSON values (and objects with the record's keys) make ``read_record``
    raise ``RecordError``/``RuleOptionError``/``UnknownPlayer`` or give a plan, and
    ``replay`` report (never raise), as their docstrings say."""
    check_record(record)


@settings(deadline=None)
@given(mutated_records())
@example({"variant": "basic", "players": ["a", "b"], "seed": 1, "actions": ["a: layoff 7h ²"]})
def test_mutated_real_records_are_read_and_replayed_without_a_crash(record: Any) -> None:
    """Real records (exported random games of every variant and the engine's data files)
    with keys deleted, values of other types, changed action lines, cards, seeds and
    players: read or refused with a documented error, replayed with a report."""
    check_record(record)
    check_record(json.loads(json.dumps(record)))


def test_the_base_records_replay() -> None:
    """The records the mutations start from replay cleanly (so a refusal of a mutant is
    the mutation's doing)."""
    assert len(base_records()) >= len(VARIANTS) + 1
    for record in base_records():
        report = replay(record)
        assert report["ok"], report["error"]


@given(
    st.binary(max_size=300)
    | JSON_VALUES.map(lambda v: json.dumps(v).encode())
    | st.sampled_from([b"\xef\xbb\xbf{}", b"\xff\xfe{\x00}\x00", b"[" * 50_000, b""])
)
def test_any_record_file_loads_or_is_a_record_error(
    tmp_path_factory: pytest.TempPathFactory, content: bytes
) -> None:
    """``load_record`` on a file with any bytes (invalid UTF-8, a BOM, deep nesting)
    returns a dict or raises ``RecordError``."""
    path = tmp_path_factory.mktemp("records") / "record.json"
    path.write_bytes(content)
    try:
        data = load_record(path)
    except RecordError as error:
        assert error.code == "bad_record"
        return
    assert isinstance(data, dict)


@pytest.mark.parametrize("name", ["missing.json", ".", "bad\x00name.json", "x" * 5000])
def test_unreadable_record_paths_are_a_record_error(tmp_path: Path, name: str) -> None:
    """A missing file, a directory, a path with a NUL byte or a name too long for the file
    system is a ``RecordError``, not an ``OSError``/``ValueError``."""
    with pytest.raises(RecordError):
        load_record(str(tmp_path / name) if name != "." else tmp_path)


# --- garbage through the real stacks --------------------------------------------------------

ALERT_MALFORMED = "I cannot read this button. Send /hand for a fresh keyboard."


async def test_telegram_garbage_buttons_get_an_alert_and_change_nothing(tmp_path: Path) -> None:
    """Garbage ``callback_data`` pressed on the table and the hand message through the fake
    Bot API and the real PTB stack (Unicode digits, a lone surrogate, control characters,
    over 64 bytes, cut and padded data) is answered with the "cannot read" alert, and the
    table version stays the same."""
    from tests.bot.telegram.support import ALICE, BOB, GROUP, running_bot

    async with running_bot(tmp_path / "rummy.sqlite3") as bot:
        await bot.start_private(ALICE)
        await bot.start_private(BOB)
        for user, line in ((ALICE, "/new"), (BOB, "/join"), (ALICE, "/start")):
            await bot.say(user, GROUP, line)
        from bot.telegram_bot.identity import chat_key

        key = chat_key(GROUP, None)
        table = await bot.repo.active_table(key)
        assert table is not None and table.status is Status.PLAYING
        group = await bot.table_message(table.id)
        hand = await bot.hand_message(ALICE, table.id)
        garbage = [
            "gj².1.1..",
            "hd٣.1.1..",
            f"hd0.{table.id:d}.1..\x00",
            "hd0.1.1..\ud800",
            "hd0.1.1.." + "a" * 60,
            "hd0.1",
            "....",
            "🂡",
            " ",
            "hZ0.1.1..",
        ]
        for message in (group, hand):
            for data in garbage:
                answer = await bot.forge_press(ALICE, message, data)
                assert (answer.show_alert, answer.text) == (True, ALERT_MALFORMED), data
        after = await bot.repo.active_table(key)
        assert after is not None and after.version == table.version
        assert after.state == table.state


async def test_discord_garbage_controls_are_answered_and_change_nothing(tmp_path: Path) -> None:
    """Controls of ours that cannot be carried out (another table, an unknown action,
    a garbage hand state, an outdated version, a move out of phase), clicked through the
    fake Discord and the real discord.py stack, each get a clear answer, and so does a
    custom id that is not ours; the table version stays the same."""
    from tests.bot.discord.players import control
    from tests.bot.discord.support import TIMEOUT, running_bot

    async with running_bot(tmp_path) as bot:
        w = bot.world
        await bot.slash(w.alice, w.text, "new")
        message = bot.table_message(w.text)
        await bot.click(w.bob, message, control(message, "join"))
        await bot.click(w.alice, message, control(message, "start"))
        table = await bot.service.repo.active_table(bot.key(w.text))
        assert table is not None and table.status is Status.PLAYING
        message = bot.table_message(w.text)
        shown = await bot.click(w.alice, message, control(message, "hand"))
        hand = shown.original
        assert hand is not None and hand.ephemeral
        tid, version = table.id, table.version
        assert table.state is not None
        drawn = table.state.version  # what the table's controls carry during a game

        async def forged(source: Any, custom_id: str) -> Any:
            """Click a button ``custom_id`` put on ``source`` as an old or foreign
            message could carry it (discord.py only dispatches components on the message)."""
            row = {
                "type": 1,
                "components": [{"type": 2, "style": 2, "label": "?", "custom_id": custom_id}],
            }
            source.components.append(row)
            try:
                return await bot.server.click(w.alice, source, custom_id)
            finally:
                if row in source.components:
                    source.components.remove(row)

        async def answer(source: Any, custom_id: str) -> str:
            interaction = await forged(source, custom_id)
            await interaction.wait_response(TIMEOUT)
            await bot.settled(interaction)
            produced = interaction.original
            assert produced is not None, custom_id
            return str(produced.content)

        other = f"the game here is table {tid}"
        unused = "That button is no longer in use."
        cases = [
            (message, f"rm:{tid + 1}:{version}:join:", other),
            (message, "rm:999999999999999:999999999:draw:", other),
            (message, f"rm:{tid}:{version}:zzz:", unused),
            (message, f"rm:{tid}:{version}:v.nothing_here.9:", "Unknown command 'nothing_here.9'"),
            # a version the game never had (a game state starts at version 0)
            (message, f"rm:{tid}:999999:v.call:", "The table has changed since"),
            (message, f"rm:{tid}:{drawn}:next:", "You cannot deal the next hand now"),
            # an unreadable hand state is refused with the hand redrawn, never guessed
            (hand, f"rm:{tid}:{version}:zzz:zzzz.zz", "That button is not in use (any more)"),
            (hand, f"rm:{tid}:{version}:o99:00000" + "f" * 15, "The table has changed since"),
            (hand, f"rm:{tid + 7}:{version}:disc:0000s1", other),
        ]
        for source, custom_id, expected in cases:
            assert ControlId.parse(custom_id) is not None, custom_id
            text = await answer(source, custom_id)
            assert expected in text, (custom_id, text)
            current = await bot.service.repo.active_table(bot.key(w.text))
            assert current is not None and current.version == version, custom_id

        # Not ours: discord.py hands it to no item; the client answers it privately
        # instead of leaving Discord to say "This interaction failed".
        for stray in ("rm:1:1:JOIN:", "rm:" + "1" * 16 + ":1:join:", "x" * 100, "rm:١:1:join:"):
            assert ControlId.parse(stray) is None
            assert "That button is not in use" in await answer(message, stray), stray
        assert "no longer in use" in await answer(message, f"rm:{tid}:{version}:zzz:")
        await bot.idle()
        current = await bot.service.repo.active_table(bot.key(w.text))
        assert current is not None and current.version == version
        assert current.state == table.state
