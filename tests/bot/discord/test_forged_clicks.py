"""Clicks that Discord's own client would never send, as a forged gateway payload can:
a control on another player's private hand message, a control of another table on a hand
message. Each gets a private answer and leaves the clicked message as it was."""

from __future__ import annotations

from pathlib import Path

from bot.discord_bot.components import ControlId
from tests.bot.discord.players import component, control
from tests.bot.discord.support import TIMEOUT, Bot, running_bot
from tests.fakes.discord import FakeInteraction, FakeMessage, FakeUser


async def forged_click(
    bot: Bot, user: FakeUser, message: FakeMessage, custom_id: str
) -> FakeInteraction:
    """``user`` clicks ``custom_id`` on ``message`` whether or not they can see it (the
    fake server's checks are what Discord's client enforces, not what a payload must obey)."""
    found = component(message, custom_id)
    interaction = await bot.server._dispatch_component(user, message, found, None, None)
    await interaction.wait_response(TIMEOUT)
    await bot.settled(interaction)
    return interaction


async def alice_and_bob_playing(bot: Bot) -> FakeMessage:
    """A running two-player game in #rummy; returns alice's private hand message."""
    w = bot.world
    await bot.slash(w.alice, w.text, "new")
    table = bot.table_message(w.text)
    await bot.click(w.bob, table, control(table, "join"))
    await bot.click(w.alice, table, control(table, "start"))
    table = bot.table_message(w.text)
    shown = await bot.click(w.alice, table, control(table, "hand"))
    hand = shown.original
    assert hand is not None and hand.ephemeral and hand.viewer is w.alice
    return hand


async def test_a_forged_click_on_another_players_hand_never_shows_the_clickers_hand(
    tmp_path: Path,
) -> None:
    """bob's forged click on alice's hand message (the Sort button) is refused privately;
    alice's message keeps her cards and buttons, and bob's cards appear nowhere in it."""
    async with running_bot(tmp_path) as bot:
        w = bot.world
        hand = await alice_and_bob_playing(bot)
        before = (hand.content, hand.custom_ids())
        stored = await bot.service.repo.active_table(bot.key(w.text))
        assert stored is not None and stored.state is not None
        sort = control(hand, "sort")
        refused = await forged_click(bot, w.bob, hand, sort)
        answer = refused.original
        assert answer is not None and answer.ephemeral and answer.viewer is w.bob
        # bob's Discord client is German: the refusal is in his language
        assert "Diese Hand gehört einem anderen Spieler" in answer.content
        assert (hand.content, hand.custom_ids()) == before
        # alice's own click on the same button still works.
        await bot.click(w.alice, hand, sort)
        assert hand.content != before[0]
        after = await bot.service.repo.active_table(bot.key(w.text))
        assert after is not None and after.version == stored.version


async def test_a_control_of_another_table_answers_privately_and_leaves_the_hand_alone(
    tmp_path: Path,
) -> None:
    """A hand control carrying another table's id says which table it belongs to and does
    not wipe the hand message's controls (it used to answer "This game is over")."""
    async with running_bot(tmp_path) as bot:
        w = bot.world
        hand = await alice_and_bob_playing(bot)
        sort = ControlId.parse(control(hand, "sort"))
        assert sort is not None
        foreign = ControlId(sort.table + 5, sort.version, sort.action, sort.state).encode()
        hand.components.append(
            {"type": 1, "components": [{"type": 2, "style": 2, "label": "?", "custom_id": foreign}]}
        )
        before = hand.custom_ids()
        clicked = await bot.click(w.alice, hand, foreign)
        answer = clicked.original
        assert answer is not None and answer is not hand and answer.ephemeral
        assert f"belongs to table {sort.table + 5}" in answer.content
        assert f"the game here is table {sort.table}" in answer.content
        assert hand.custom_ids() == before


async def test_a_forged_offer_is_refused_with_a_redraw_and_draws_no_card(tmp_path: Path) -> None:
    """Issue 39 item 2: ``rm:<table>:<version>:mv:ffffzz`` with the value "0" — a hand state
    that cannot be read, on the player's own hand message at the start of their turn,
    where offer 0 of an empty selection would be Draw — is refused, never guessed: no card
    is drawn, the table keeps its version, and the message is redrawn with the player's
    hand and the reason. So is the same value on a moves select the message never showed
    (a readable state: the number is no move the screen listed)."""
    async with running_bot(tmp_path) as bot:
        w = bot.world
        await alice_and_bob_playing(bot)
        stored = await bot.service.repo.active_table(bot.key(w.text))
        assert stored is not None and stored.state is not None
        player = (w.alice, w.bob)[stored.state.current]
        table = bot.table_message(w.text)
        hand = (await bot.click(player, table, control(table, "hand"))).original
        assert hand is not None and hand.viewer is player
        real = ControlId.parse(control(hand, "c0"))
        assert real is not None and "o0" in [c.split(":")[3] for c in hand.custom_ids()]
        for state in ("ffffzz", real.state):
            forged = ControlId(real.table, real.version, "mv", state).encode()
            select = {
                "type": 3,
                "custom_id": forged,
                "min_values": 1,
                "max_values": 1,
                "options": [{"label": "?", "value": "0"}],
            }
            interaction = await bot.server._dispatch_component(player, hand, select, ["0"], None)
            await interaction.wait_response(TIMEOUT)
            await bot.settled(interaction)
            after = await bot.service.repo.active_table(bot.key(w.text))
            assert after is not None and after.state is not None
            assert after.version == stored.version, state
            assert after.state.hands == stored.state.hands, state
            assert after.state.stock == stored.state.stock, state
            assert interaction.original is hand and interaction.response_type == 7, state
            assert forged not in hand.custom_ids()
            assert "not in use" in hand.content or "nicht (mehr)" in hand.content, hand.content
            assert "c0" in [c.split(":")[3] for c in hand.custom_ids()], "the hand is redrawn"


async def test_a_hand_control_after_the_game_was_cancelled_says_the_game_is_over(
    tmp_path: Path,
) -> None:
    """The channel has no table any more (the host cancelled it): a click on the old hand
    message says there, in one answer, that the game is over, and takes its controls away;
    nothing is stored."""
    async with running_bot(tmp_path) as bot:
        w = bot.world
        hand = await alice_and_bob_playing(bot)
        sort = control(hand, "sort")
        await bot.slash(w.alice, w.text, "cancel")
        await bot.slash(w.alice, w.text, "cancel")  # the second cancel confirms
        assert await bot.service.repo.active_table(bot.key(w.text)) is None
        await bot.click(w.alice, hand, sort)
        assert hand.content.startswith("This game is over; /rummy new opens a new one.")
        assert hand.custom_ids() == []
        assert await bot.service.repo.active_table(bot.key(w.text)) is None
