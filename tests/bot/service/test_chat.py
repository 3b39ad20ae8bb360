"""The shared chat command language of the table (bot/interaction/commands.py)."""

from __future__ import annotations

import json

from bot.interaction.commands import split_new_args
from bot.ports.model import SeatKind, Status
from engine.records import replay
from tests.bot.people import say

from .support import ANA, BEN, CHAT, Harness


def test_new_arguments() -> None:
    assert split_new_args([]) == ("basic", None, {})
    assert split_new_args(["wrotham"]) == ("basic", "wrotham", {})
    assert split_new_args(["basic", "beginner", "ace=high_or_low"]) == (
        "basic",
        "beginner",
        {"ace": "high_or_low"},
    )
    assert split_new_args(["going_rummy=double"]) == ("basic", None, {"going_rummy": "double"})


async def test_a_lobby_through_text_commands(harness: Harness) -> None:
    s = harness.people
    reply = await say(s, CHAT, ANA, "/new@RummyBot basic beginner")
    assert reply.ok and reply.text is not None and "Basic Rummy" in reply.text
    assert (await say(s, CHAT, BEN, "/join")).ok
    assert (await say(s, CHAT, ANA, "addbot random")).ok
    assert (await say(s, CHAT, ANA, "set timer=10m target=50")).ok
    info = await s.table_info(CHAT)
    assert info is not None
    assert [x.kind for x in info.seats] == [SeatKind.HUMAN, SeatKind.HUMAN, SeatKind.AI]
    assert info.settings.timer == "10m" and dict(info.options)["target"] == "50"
    assert (await say(s, CHAT, ANA, "start")).ok
    info = await s.table_info(CHAT)
    assert info is not None and info.status is Status.PLAYING
    hand = await say(s, CHAT, BEN, "hand")
    assert hand.private and hand.text is not None and "hand" in hand.text.lower()
    refused = await say(s, CHAT, ANA, "export")
    assert not refused.ok and refused.text == "A game can be exported once it is over."
    assert (await say(s, CHAT, ANA, "cancel")).ok
    export = await say(s, CHAT, ANA, "export")
    assert export.private and export.text is not None
    assert replay(json.loads(export.text))["ok"]


async def test_refusals_are_private_and_localized(harness: Harness) -> None:
    s = harness.people
    english = await say(s, CHAT, ANA, "join")
    german = await say(s, CHAT, BEN, "join")  # ben's app is set to de-DE
    assert not english.ok and english.private
    assert english.text == "There is no game here. Start one with new."
    assert german.text == "Hier läuft kein Spiel. Starte eins mit neu."
    await say(s, CHAT, ANA, "new")
    bad = await say(s, CHAT, ANA, "set timer=5s")
    assert not bad.ok and bad.text is not None and "5s" in bad.text
    await say(s, CHAT, ANA, "lang de")
    again = await say(s, CHAT, ANA, "set timer=5s")
    assert again.text is not None and "nicht erlaubt" in again.text
    unknown = await say(s, CHAT, ANA, "fly away")
    assert not unknown.ok and unknown.text is not None and "fly" in unknown.text


async def test_rules_teach_the_game_then_list_the_options(harness: Harness) -> None:
    """issue 37: "`regeln`/`rules` (terminal and chats) shows it [how to play], then the
    table's options; a short `regeln <thema>` per topic"."""
    s = harness.people
    await say(s, CHAT, ANA, "new romanian")
    rules = await say(s, CHAT, BEN, "regeln")
    assert rules.ok and rules.private and rules.text is not None
    text = rules.text
    assert text.startswith("So wird gespielt:\nZiel:\n")
    assert text.index("Die Erstmeldung:") < text.index("Wertung:") < text.index("Regeln: ")
    assert "opening = 50" in text
    one = await say(s, CHAT, BEN, "regeln erstmeldung")
    assert one.text is not None and one.text.startswith("Die Erstmeldung:\n  Deine Erstmeldung")
    assert "Wertung" not in one.text
    options = await say(s, CHAT, ANA, "rules options")
    assert options.text is not None and options.text.startswith("Rules: Romanian Rummy")


async def test_the_first_refusal_of_a_kind_explains_its_rule(harness: Harness) -> None:
    """issue 37: in a first game "the first refusal of a kind explains the rule behind it
    with an example"; a second refusal of that kind does not repeat it."""
    s = harness.people
    await say(s, CHAT, ANA, "new")
    await say(s, CHAT, BEN, "join")
    await say(s, CHAT, ANA, "start")
    info = await s.table_info(CHAT)
    assert info is not None
    _info, view = await s.table_view(CHAT)
    assert view is not None and view.current is not None
    user = ANA if view.current == 0 else BEN
    first = await say(s, CHAT, user, "discard jk")
    assert not first.ok and first.text is not None and "\n" in first.text  # the rule
    again = await say(s, CHAT, user, "discard jk")
    assert again.text is not None and "\n" not in again.text
    meld = await say(s, CHAT, user, "meld 2c 9h ks")
    assert meld.text is not None and "\n" not in meld.text  # not in the hand: no rule
    after = await s.table_info(CHAT)
    assert after is not None and after.version == info.version  # nothing changed
