"""The coach through the service (issue 46, items 4 and 6): ``coach on|off`` per person
(German ``trainer an|aus``), refused with the words it takes for anything else; after a
deal, the people who want it (who said ``coach on``, or said nothing and are in their
first three games of the variant) get the deal's review privately through their
notifier, once; ``coach off`` gets nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.ports.intents import Coach
from bot.service.errors import BadSetting

from .support import ANA, BEN, CHAT, make_harness
from .test_games import play_out


async def test_coach_on_off_and_asked(tmp_path: Path) -> None:
    h = await make_harness(tmp_path / "db.sqlite3")
    s = h.people
    repo = h.service.repo
    said = await s.do(ANA, Coach(None), CHAT)
    assert said.reply.text == (
        "The coach is on for your first three games of a variant; "
        "coach on or coach off decides for good."
    )
    said = await s.do(ANA, Coach("off"), CHAT)
    assert said.reply.text == "Coach off: no notes after the deals." and said.reply.private
    assert await repo.coach_choices([ANA.key]) == {ANA.key: False}
    said = await s.do(BEN, Coach("an"), CHAT)  # Ben reads German
    assert said.reply.text == (
        "Trainer an: Nach jeder Runde bekommst du deine teuersten Züge, nur für dich."
    )
    said = await s.do(BEN, Coach(None), CHAT)
    assert said.reply.text == "Der Trainer ist an; trainer aus stellt ihn ab."
    with pytest.raises(BadSetting) as refused:
        await s.do(ANA, Coach("sometimes"), CHAT)
    assert refused.value.params == {"name": "coach", "value": "sometimes", "accepts": "on, off"}
    assert await repo.coach_choices([ANA.key, BEN.key]) == {ANA.key: False, BEN.key: True}
    await h.db.close()


async def test_after_a_deal_the_people_who_want_it_get_their_review_once(
    tmp_path: Path,
) -> None:
    h = await make_harness(tmp_path / "db.sqlite3")
    h.service.coaching.enabled = True
    s = h.people
    await s.do(BEN, Coach("off"), CHAT)  # Ana says nothing: her first game, coached
    await s.new_table(CHAT, ANA, "basic", "standard", {"deals": 1, "target": "none"})
    await s.join(CHAT, BEN)
    await s.add_ai(CHAT, ANA)
    info = await s.start(CHAT, ANA)
    await play_out(h, {ANA.key: ANA, BEN.key: BEN})
    await h.service.coaching.settled()
    coached = h.notifier.coached
    assert [(a.user_key, a.deal, a.seat, a.locale) for a in coached] == [(ANA.key, 1, 0, "en")]
    advice = coached[0]
    assert advice.info.id == info.id
    assert advice.text.startswith("Deal 1")
    await h.db.close()
