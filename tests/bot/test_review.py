"""``rummy-bot review FILE [--seat N]``: the coach's notes on a game record, in English
and German; one localized line and exit 2 for a file it cannot read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from engine.cards import standard_deck

HANDS = {"ana": "7h 8h 9h 10h 5c 5d 5s 2s 3s 4s", "ben": "ac 2c 3d 6s 6d 9c jd qs kh 4c"}


def _record(actions: list[str]) -> dict[str, object]:
    """romme-basic.de.txt's beginner rules: 'Ein Spieler "spielt Rommé", wenn er alle
    seine Karten ... in einem einzigen Spielzug spielt'. Ana holds 7♥ 8♥ 9♥ 10♥,
    5♣ 5♦ 5♠ and 2♠ 3♠ 4♠ and draws the Q♦: she can go out at once."""
    used = set(" ".join(HANDS.values()).split()) | {"3c", "qd"}
    rest = [str(c) for c in standard_deck() if str(c) not in used]
    return {
        "variant": "basic",
        "preset": "beginner",
        "players": ["ana", "ben"],
        "dealer": 1,
        "seed": 1,
        "deal": {
            "hands": {name: cards.split() for name, cards in HANDS.items()},
            "upcard": "3c",
            "stock": ["qd", *rest],
        },
        "actions": actions,
    }


@pytest.fixture
def bad_discard(tmp_path: Path) -> Path:
    """A record where ana, able to go out, discards the 8♥ instead."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_record(["ana: draw", "ana: discard 8h"])), encoding="utf-8")
    return path


def test_review_names_the_costly_move_and_the_experts(
    bad_discard: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", str(bad_discard), "--seat", "1", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Deal 1, ana: 1 move the expert would have played otherwise." in out
    assert "Your hand: 5♣ 10♥" not in out  # the hand is grouped by suit
    assert "Q♦" in out  # the card drawn, in the hand shown
    assert "Upcard: 3♣" in out
    assert "You: Discard 8♥" in out
    assert "The expert: Meld 7♥ 8♥ 9♥ 10♥" in out
    assert "Why: melding 7♥ 8♥ 9♥ 10♥ would have taken 34 points out of your hand." in out
    assert "of hands won" in out


def test_review_in_german_uses_german_words_and_card_names(
    bad_discard: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", str(bad_discard), "--seat", "ana", "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert "Runde 1, ana:" in out
    assert "D♦" in out and "Q♦" not in out  # Dame, not Queen
    assert "8♥ abwerfen" in out
    assert "7♥ 8♥ 9♥ 10♥ auslegen" in out
    assert "Warum:" in out
    for english in ("Why", "Your hand", "The expert", "Upcard", "hands won", "Deal"):
        assert english not in out


def test_a_deal_without_a_clearly_worse_move_gets_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ben's only moves here are the hard player's own: nothing to say."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_record(["ana: draw", "ana: discard 8h"])), encoding="utf-8")
    assert main(["review", str(path), "--seat", "2", "--lang", "en"]) == 0
    assert capsys.readouterr().out == "Deal 1, ben: no move was clearly worse than the expert's.\n"


def test_without_a_seat_every_player_is_reviewed(
    bad_discard: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", str(bad_discard), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Deal 1, ana: 1 move" in out and "Deal 1, ben: no move" in out


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "invalid JSON"), ("de", "Die Spielaufzeichnung ist ungültig")]
)
def test_a_damaged_file_is_one_localized_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str, words: str
) -> None:
    path = tmp_path / "damaged.json"
    path.write_text('{"variant": "basic", "players": ["ana"', encoding="utf-8")
    assert main(["review", str(path), "--lang", lang]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err
    assert str(path) in lines[0] and words in lines[0]


def test_a_missing_file_and_an_unknown_seat_exit_2(
    tmp_path: Path, bad_discard: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", str(tmp_path / "none.json"), "--lang", "en"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    assert main(["review", str(bad_discard), "--seat", "3", "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert err == "--seat takes a number from 1 to 2 or a name: ana, ben.\n"
    assert main(["review", str(bad_discard), "--seat", "3", "--lang", "de"]) == 2
    assert "--seat" in capsys.readouterr().err


def test_a_record_that_does_not_replay_exits_2_naming_the_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_record(["ana: draw", "ana: discard 8c"])), encoding="utf-8")
    assert main(["review", str(path), "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("The record does not replay:") and len(err.strip().splitlines()) == 1
