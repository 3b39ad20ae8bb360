"""The Discord client as an operator meets it at start."""

from __future__ import annotations

import logging

import discord
import pytest

from bot.discord_bot.adapter import RummyClient


class _NoControls:
    async def on_control(self, *args: object) -> None:
        raise AssertionError("no click expected")

    async def on_unknown(self, *args: object) -> None:
        raise AssertionError("no click expected")


def test_the_client_does_not_warn_about_voice_it_never_uses(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """discord.py warns once per process that PyNaCl / davey are missing for voice; the bot
    uses no voice, so starting its client logs no such warning."""
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    with caplog.at_level(logging.WARNING):
        RummyClient(_NoControls())
    assert not [r for r in caplog.records if "voice" in r.getMessage()]
