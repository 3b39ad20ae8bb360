"""Every command example in README.md and docs/*.md works as written.

Command lines (``rummy-bot ...`` in code blocks and inline code) are read by the real
argument parser; those that finish by themselves on a fresh machine are run as a
subprocess (``play`` with the line ``quit`` typed). ``run`` needs a token and a platform,
``bench`` the peers of the bench extra and minutes, the database commands a PostgreSQL
server and each other's files: their examples are parsed only (tests/bot/test_runner.py,
the ``bench`` smoke tests and tests/bot/test_database_commands.py run them). Synopses (with
``[...]``, ``|`` or placeholders in capitals) are not examples and are left out.
In-game commands of "The command language" table (docs/commands.md) are parsed by the one
command route and must give the verb of their row.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import build_parser
from bot.interaction.commands import parse
from bot.ports.intents import Move
from engine.actions import Discard, Draw, LayOff, MeldCards, NextDeal, SwapJoker, TakeDiscard
from engine.commands import canonical_verb, parse_command

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text(encoding="utf-8")
DOCS = "\n".join(
    [README, *(path.read_text(encoding="utf-8") for path in sorted((REPO / "docs").glob("*.md")))]
)
"""The front door and the documents it points to."""
COMMANDS_DOC = (REPO / "docs" / "commands.md").read_text(encoding="utf-8")

NOT_RUN = {"run", "bench", "migrate", "export-db", "import-db"}
"""Subcommands whose examples are only parsed (see the module docstring)."""


def cli_examples() -> list[str]:
    """The ``rummy-bot`` command lines of README and docs/ (arguments after
    ``rummy-bot``)."""
    found: list[str] = []
    blocks = re.findall(r"```[a-z]*\n(.*?)```", DOCS, flags=re.S)
    lines = [line for block in blocks for line in block.splitlines()]
    lines += re.findall(r"`([^`\n]*rummy-bot [^`\n]*)`", DOCS)
    for line in lines:
        match = re.search(r"(?:^|\s|/)rummy-bot ([a-z][^#]*)", line)
        if match is None:
            continue
        args = match.group(1).strip()
        if re.search(r"[\[\]|]|\.\.\.|\b[A-Z]{2,}\b", args):
            continue  # a synopsis, not an example
        if args not in found:
            found.append(args)
    return found


EXAMPLES = cli_examples()


def test_the_readme_has_examples_of_every_subcommand_it_teaches() -> None:
    verbs = {args.split()[0] for args in EXAMPLES}
    assert {"play", "run", "bench", "replay", "faults"} <= verbs, verbs


@pytest.mark.parametrize("args", EXAMPLES)
def test_a_readme_command_line_is_accepted(args: str) -> None:
    parsed = build_parser().parse_args(args.split())
    assert parsed.command == args.split()[0]


@pytest.mark.parametrize("args", [a for a in EXAMPLES if a.split()[0] not in NOT_RUN])
def test_a_readme_command_line_runs(args: str, tmp_path: Path) -> None:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("LANG", "LC_ALL", "LANGUAGE", "DATABASE_PATH")
    }
    env.update(XDG_DATA_HOME=str(tmp_path), DATABASE_PATH=str(tmp_path / "bot.sqlite3"))
    done = subprocess.run(
        [sys.executable, "-m", "bot", *args.split()],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=180,
        cwd=REPO,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    assert done.stdout.strip()


def language_examples() -> list[tuple[tuple[str, ...], str]]:
    """(verbs of the row, example) from the command-language table of docs/commands.md."""
    section = COMMANDS_DOC.split("## The command language", 1)[1].split("\n## ", 1)[0]
    rows: list[tuple[tuple[str, ...], str]] = []
    verbs: tuple[str, ...] = ()
    for line in section.splitlines():
        cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", line)[1:-1]]
        if len(cells) != 4 or cells[0].startswith("---") or cells[0] == "command":
            continue
        if cells[0]:
            verbs = tuple(re.findall(r"`([^`]+)`", cells[0]))
        for example in re.findall(r"`([^`]+)`", cells[2]):
            rows.append((verbs, example.replace("\\|", "|")))
    return rows


GAME_VERBS = {
    "draw": Draw,
    "take": TakeDiscard,
    "meld": MeldCards,
    "layoff": LayOff,
    "swap": SwapJoker,
    "discard": Discard,
    "next": NextDeal,
}


def test_the_command_language_table_has_examples() -> None:
    verbs = {verb for verbs, _example in language_examples() for verb in verbs}
    assert set(GAME_VERBS) <= verbs


@pytest.mark.parametrize(("verbs", "example"), language_examples())
def test_a_readme_game_command_parses_to_its_verb(verbs: tuple[str, ...], example: str) -> None:
    """A move is read into the engine's action of its verb; an interface command is a
    verb the command route knows."""
    verb = canonical_verb(example.split()[0])
    assert verb in verbs
    if verb in GAME_VERBS:
        assert type(parse_command(example, seat=0)) is GAME_VERBS[verb]
    else:
        request = parse(example)
        assert isinstance(request, Move) and request.words[0] == verb


def test_the_readme_is_a_short_front_door() -> None:
    """issue 37: "README as a front door of at most ~250 lines with a table of contents";
    every document it points to exists."""
    assert len(README.splitlines()) <= 250
    assert "## Contents" in README
    for target in re.findall(r"\]\((docs/[^)#]+)", README):
        assert (REPO / target).is_file(), target
