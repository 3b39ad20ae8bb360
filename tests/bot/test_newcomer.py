"""A German newcomer plays one deal of every variant in the real terminal (a pseudo-terminal
driven by pexpect) knowing nothing but what the game prints: at every prompt they ask
for a hint (``tipp``) and type the suggested command. The whole transcript must be German:
no English sentence of the catalogue, no English help or error text.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect
import pytest
from babel.messages.pofile import read_po

REPO = Path(__file__).resolve().parents[2]
POT = REPO / "bot" / "i18n" / "messages.pot"

PROMPT_MOVE = "Dein Zug> "
PROMPT_NEXT = "Drücke Enter oder gib next ein für die nächste Runde> "
PROMPT_CALL = "Du kannst jetzt Rommé! rufen: tippe call oder drücke Enter zum Weiterspielen> "
PROMPTS = [re.escape(PROMPT_MOVE), re.escape(PROMPT_NEXT), re.escape(PROMPT_CALL),
           pexpect.EOF]
HINT = re.compile(r"Vorschlag: (.+)")

VARIANTS = [
    ("basic", ["--option", "deals=1"]),
    ("basic", ["--preset", "block", "--option", "deals=1"]),
    ("500", ["--option", "target=60"]),
    ("german", []),
    ("romanian", ["--option", "deals=1"]),
]


def english_fragments() -> set[str]:
    """Every stretch of more than three words between the placeholders of the English
    msgids (singular and plural): none may appear on a German screen."""
    with POT.open("rb") as handle:
        catalog = read_po(handle)
    fragments: set[str] = set()
    for message in catalog:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for msgid in ids:
            for part in re.split(r"\{[^}]*\}", msgid):
                words = " ".join(part.split()).strip(" .,:;()!?—-")
                if len(words.split()) > 3:
                    fragments.add(words)
    return fragments


def play_one_deal(variant: str, extra: list[str], data: Path) -> str:
    """Play the first deal of ``variant`` by hints only; returns the transcript."""
    env = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL", "LANGUAGE")}
    env.update(XDG_DATA_HOME=str(data), COLUMNS="120", PYTHONIOENCODING="utf-8")
    child = pexpect.spawn(
        sys.executable, ["-m", "bot", "play", "--lang", "de", "--variant", variant,
                         "--players", "2", "--seed", "7", "--delay", "0", "--name", "Zoe",
                         *extra],
        cwd=str(REPO), env=env, encoding="utf-8", timeout=60, dimensions=(50, 120))
    transcript: list[str] = []
    try:
        for _step in range(2000):
            index = child.expect(PROMPTS)
            transcript.append(child.before + (child.after if isinstance(child.after, str)
                                              else ""))
            if index == 3:
                break
            if index == 1:  # the first deal is scored: the newcomer stops for today
                child.sendline("quit")
                continue
            if index == 2:
                child.sendline("")
                continue
            child.sendline("tipp")
            child.expect(PROMPTS[:3])
            answer = child.before
            transcript.append(answer + child.after)
            found = HINT.search(answer)
            assert found is not None, f"no suggestion in:\n{answer}"
            child.sendline(found.group(1).strip())
        else:
            pytest.fail("the deal did not end in 2000 prompts")
    finally:
        child.close(force=True)
    return "".join(transcript)


@pytest.mark.parametrize(("variant", "extra"), VARIANTS,
                         ids=["basic", "block", "500", "german", "romanian"])
def test_a_german_newcomer_plays_a_deal_and_reads_no_english(
        variant: str, extra: list[str], tmp_path: Path) -> None:
    """issue 16: "A newcomer script ... plays a hand of each variant in `de` reading only
    what the game prints, and its transcript has no English sentence.\""""
    transcript = play_one_deal(variant, extra, tmp_path)
    assert "Runde 1 ist vorbei" in transcript or "Spiel vorbei" in transcript, transcript[-2000:]
    english = sorted(f for f in english_fragments() if f in transcript)
    assert english == [], english
    for word in ("Traceback", "Error", "error:"):
        assert word not in transcript
