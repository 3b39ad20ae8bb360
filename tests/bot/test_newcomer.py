"""A German newcomer plays one deal of every variant in the real terminal (a pseudo-terminal
driven by pexpect) knowing nothing but what the game prints: they never ask for a hint;
each command they type is one the first game's guide line names ("Das kannst du jetzt:
... `ziehen` ..."), and every word of the transcript is German (issue 37, acceptance:
"the transcript contains no word outside the German vocabulary and the allow-list").

The German vocabulary is the German catalogue's words, the German verbs
(:data:`bot.i18n.notation.GERMAN_VERBS`) and the German card and tile codes
(:data:`engine.cards.NOTATIONS`); English verbs are not German words even where a German
text quotes one. The allow-list holds only proper names and symbols.
"""

from __future__ import annotations

import os
import re
import sys
from functools import cache
from pathlib import Path

import pexpect
import pytest
from babel.messages.pofile import read_po

from bot.i18n import LOCALE_DIR, use_locale
from bot.i18n.notation import GERMAN_VERBS
from bot.render.howto import render_how_to_play
from bot.render.rules import render_help
from engine.cards import CARD_SUITS, TILE_COLOURS, Card, card_code
from engine.commands import COMMANDS
from engine.rules import make_rules

pytestmark = pytest.mark.once  # processes or a pseudo-terminal: the first CI pass only

REPO = Path(__file__).resolve().parents[2]

PROMPT_MOVE = "Dein Zug> "
PROMPT_NEXT = "Drücke Enter oder gib weiter ein für die nächste Runde> "
PROMPT_CALL = "Gib eines davon ein oder drücke Enter zum Weiterspielen> "
PROMPTS = [re.escape(PROMPT_MOVE), re.escape(PROMPT_NEXT), re.escape(PROMPT_CALL), pexpect.EOF]
GUIDE = re.compile(r"^Das kannst du jetzt: .*$", re.M)
COMMAND = re.compile(r"`([^`]+)`")
TOKEN = re.compile(r"[0-9A-Za-zÄÖÜäöüßé]+")

ALLOWED = frozenset({"zoe", "ada", "bo", "ana", "ben", "cem"})
DIGEST = re.compile(r"[0-9a-f]{16}|[0-9a-f]{64}")
"""A fair deal's commitment (16 hex digits shown) or revealed secret (64): symbols, like
numbers."""
"""Proper names on the screens: the players, the AI players and the names of the
how-to-play examples."""

ENGLISH_VERBS = frozenset(
    word for command in COMMANDS for word in (command.verb,) if word not in ("hand",)
) | frozenset(
    {
        "call",
        "exchange",
        "takeback",
        "done",
        "buyback",
        "decline",
        "offer",
        "accept",
        "reject",
        "announce",
        "ready",
        "faceup",
        "new",
        "join",
        "leave",
        "addbot",
        "removebot",
        "set",
        "cancel",
        "lang",
        "stats",
        "top",
        "export",
    }
)
"""The English verbs: read as aliases, never shown on a German screen."""

VARIANTS = [
    ("basic", ["--option", "deals=1"]),
    ("basic", ["--preset", "block", "--option", "deals=1"]),
    ("500", ["--option", "target=60"]),
    ("german", []),
    ("romanian", ["--option", "deals=1"]),
]


@cache
def german_vocabulary() -> frozenset[str]:
    """Every word a German screen may show (lower case)."""
    with (LOCALE_DIR / "de" / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        catalog = read_po(handle)
    words: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            words |= {t.lower() for t in TOKEN.findall(re.sub(r"\{[^}]*\}", " ", text))}
    words -= ENGLISH_VERBS
    for german in GERMAN_VERBS.values():
        words |= set(german)
    for suit in CARD_SUITS:
        words |= {card_code(Card(rank, suit), "de") for rank in range(1, 14)}
    for colour in TILE_COLOURS:
        words |= {card_code(Card(number, colour), "de", tiles=True) for number in range(1, 14)}
    words |= {"jk", "jo", "a", "b", "d", "k"}  # the joker, the Joly, the German ranks
    return frozenset(words)


def foreign_words(text: str) -> list[str]:
    """The words of ``text`` outside the German vocabulary and the allow-list."""
    vocabulary = german_vocabulary()
    return sorted(
        {
            token
            for token in TOKEN.findall(text)
            if not token.isdigit()
            and not DIGEST.fullmatch(token)
            and token.lower() not in vocabulary
            and token.lower() not in ALLOWED
        }
    )


def play_one_deal(variant: str, extra: list[str], data: Path) -> tuple[str, list[str]]:
    """Play the first deal of ``variant`` by the guide alone; returns the transcript and
    the commands typed."""
    env = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL", "LANGUAGE")}
    env.update(XDG_DATA_HOME=str(data), COLUMNS="120", PYTHONIOENCODING="utf-8", NO_COLOR="1")
    child = pexpect.spawn(
        sys.executable,
        [
            "-m",
            "bot",
            "play",
            "--lang",
            "de",
            "--variant",
            variant,
            "--players",
            "2",
            "--seed",
            "7",
            "--delay",
            "0",
            "--name",
            "Zoe",
            *extra,
        ],
        cwd=str(REPO),
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 120),
    )
    transcript: list[str] = []
    typed: list[str] = []
    try:
        for _step in range(2000):
            index = child.expect(PROMPTS)
            screen = child.before + (child.after if isinstance(child.after, str) else "")
            transcript.append(screen)
            if index == 3:
                break
            if index == 1:  # the deal is scored: the newcomer stops for today
                child.sendeof()
                continue
            if index == 2:  # a call out of turn: the newcomer lets it pass
                child.sendline("")
                continue
            guides = GUIDE.findall(child.before)
            assert guides, f"no guide line before the prompt:\n{child.before[-1500:]}"
            command = COMMAND.findall(guides[-1])[0]
            typed.append(command)
            child.sendline(command)
        else:
            pytest.fail("the deal did not end in 2000 prompts")
    finally:
        child.close(force=True)
    return "".join(transcript), typed


@pytest.mark.parametrize(
    ("variant", "extra"), VARIANTS, ids=["basic", "block", "500", "german", "romanian"]
)
def test_a_german_newcomer_plays_a_deal_by_the_guide_in_german_words(
    variant: str, extra: list[str], tmp_path: Path
) -> None:
    """issue 37: "A scripted German newcomer ... plays one deal of every variant by
    following only what the screens say: it never types `tipp`; each command it types is
    taken from the first-game guide's phase line; the transcript contains no word outside
    the German vocabulary and the allow-list.\""""
    transcript, typed = play_one_deal(variant, extra, tmp_path)
    assert "Runde 1 ist vorbei" in transcript or "Spiel vorbei" in transcript, transcript[-2000:]
    assert typed and "tipp" not in typed
    for command in typed:  # each typed line is a command the guide named, as typed
        assert f"`{command}`" in transcript
    assert foreign_words(transcript) == []
    for word in ("Traceback", "Error", "error:"):
        assert word not in transcript


@pytest.mark.parametrize("variant", ["basic", "500", "german", "romanian"])
def test_help_and_how_to_play_are_german_words(variant: str) -> None:
    """The command list and the how-to-play text of every variant on a German screen."""
    rules = make_rules(variant)
    with use_locale("de"):
        text = render_help(None, variant, rules) + "\n" + render_how_to_play(rules)
    assert foreign_words(text) == []


def test_the_word_check_finds_english_words() -> None:
    """The check itself: English verbs, card names and prose are caught."""
    assert foreign_words("Gib help ein; Vorschlag: discard qd") == ["discard", "help", "qd"]
    assert foreign_words("Zoe wirft D♥ ab: abwerfen dhe") == []
