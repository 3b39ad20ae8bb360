"""Colour in the terminal (bot/terminal/colour.py): red suits red where the output shows
colour; plain text in a pipe, a file, or with NO_COLOR (issue 37: "Colour in the terminal
where it supports it (red suits red; NO_COLOR respected)")."""

from __future__ import annotations

import io

import pytest

from bot.terminal.colour import Painter

LINE = "Deine Hand (4 Karten): 7♥ D♦ 8♠ 🔴7"


def test_a_colour_terminal_shows_red_suits_red(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("TERM", "xterm-256color")
    painted = Painter(io.StringIO()).paint(LINE)
    assert "\x1b[1;31m7♥\x1b[0m" in painted and "\x1b[1;31mD♦\x1b[0m" in painted
    assert "\x1b[1;31m🔴7\x1b[0m" in painted
    assert "\x1b[1;31m8♠" not in painted
    assert painted.replace("\x1b[1;31m", "").replace("\x1b[1m", "").replace("\x1b[0m", "") == LINE


def test_no_color_and_pipes_get_plain_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("NO_COLOR", "1")
    assert Painter(io.StringIO()).paint(LINE) == LINE
    monkeypatch.delenv("FORCE_COLOR")
    monkeypatch.delenv("NO_COLOR")
    assert Painter(io.StringIO()).paint(LINE) == LINE  # not a terminal
