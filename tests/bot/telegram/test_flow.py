"""Flow control on Telegram: a person who does not play and floods a group is never
answered in the group, gets one private refusal however often they send, and the flood
reaches the service only up to the person's token bucket; button presses over the limit
are answered privately (answerCallbackQuery) and change nothing."""

from __future__ import annotations

import time

from bot.service.flow import USER_RATE, FlowControl
from bot.telegram_bot.identity import chat_key
from tests.bot.telegram.support import ALICE, BOB, GROUP, Bot, group_button


class CountingFlow(FlowControl):
    """The real limits, counting what passed."""

    def __init__(self) -> None:
        super().__init__()
        self.admitted = 0

    async def admit(self, user_key: str, chat_key: str) -> bool:
        passed = await super().admit(user_key, chat_key)
        self.admitted += passed
        return passed


async def test_a_non_player_flooding_a_group_gets_one_private_answer(bot: Bot) -> None:
    await bot.start_private(ALICE)
    await bot.start_private(BOB)
    await bot.say(ALICE, GROUP, "/new deals=1")
    await bot.say(ALICE, GROUP, "/addbot")
    await bot.say(ALICE, GROUP, "/start")
    flow = bot.service.flow = CountingFlow()
    in_group = len(bot.tg.messages(GROUP, include_deleted=True))
    privately = len(bot.tg.private_messages(BOB))
    last = None
    began = time.monotonic()
    for _ in range(40):
        last = bot.tg.send_text(BOB, GROUP, "/draw")
    assert last is not None
    await bot.handled(last)
    assert len(bot.tg.messages(GROUP, include_deleted=True)) == in_group
    new_private = bot.tg.private_messages(BOB)[privately:]
    assert len(new_private) == 1, [m.text for m in new_private]
    assert new_private[0].text == "Du spielst an diesem Tisch nicht mit."  # Bob reads German
    # the rest never reached the service (but for the tokens the bucket earned meanwhile,
    # 2 a second: a loaded machine takes a while for 40 updates)
    earned = (time.monotonic() - began) * USER_RATE[0] / USER_RATE[1]
    assert USER_RATE[0] <= flow.admitted <= USER_RATE[0] + int(earned) + 1


async def test_button_presses_over_the_limit_are_answered_privately(bot: Bot) -> None:
    await bot.start_private(ALICE)
    await bot.say(ALICE, GROUP, "/new deals=1")
    bot.service.flow = FlowControl(user_rate=(2, 60.0))
    info = await bot.service.entry.table_info(chat_key(GROUP, None))
    assert info is not None
    message = await bot.table_message(info.id)
    in_group = len(bot.tg.messages(GROUP, include_deleted=True))
    answers = [await bot.press(ALICE, message, group_button(message, "a")) for _ in range(4)]
    assert all("Slow down" in (a.text or "") for a in answers[2:])
    assert not any("Slow down" in (a.text or "") for a in answers[:2])
    info = await bot.service.entry.table_info(chat_key(GROUP, None))
    assert info is not None and len(info.seats) == 3  # two AI seats added, not four
    assert len(bot.tg.messages(GROUP, include_deleted=True)) == in_group  # no group text
