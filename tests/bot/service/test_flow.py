"""Flow control: token buckets per person and per chat, coalesced refusals, bounded
memory."""

from __future__ import annotations

import asyncio

from bot.service.flow import FlowControl


async def test_a_burst_passes_then_the_person_is_refused_until_the_bucket_refills() -> None:
    flow = FlowControl(user_rate=(5, 0.5), chat_rate=(1000, 1.0))
    passed = [await flow.admit("u", "c") for _ in range(8)]
    assert passed == [True] * 5 + [False] * 3
    assert await flow.admit("someone else", "c")  # other people are not touched
    await asyncio.sleep(0.25)  # half the period refills about half the bucket
    assert await flow.admit("u", "c")


async def test_a_chat_has_its_own_bucket() -> None:
    flow = FlowControl(user_rate=(100, 1.0), chat_rate=(3, 60.0))
    assert [await flow.admit(f"u{n}", "group") for n in range(4)] == [True] * 3 + [False]
    assert await flow.admit("u9", "another group")


async def test_a_refused_update_takes_no_token_from_the_other_bucket() -> None:
    flow = FlowControl(user_rate=(1, 60.0), chat_rate=(2, 60.0))
    assert await flow.admit("flooder", "group")
    for _ in range(10):
        assert not await flow.admit("flooder", "group")
    assert await flow.admit("player", "group")  # the flood did not drain the chat


def test_the_same_refusal_is_said_once_per_window() -> None:
    now = [0.0]
    flow = FlowControl(coalesce=60.0, clock=lambda: now[0])
    assert flow.first_time("u", "c", "not your turn")
    assert not flow.first_time("u", "c", "not your turn")
    assert flow.first_time("u", "c", "another refusal")
    assert flow.first_time("v", "c", "not your turn")
    now[0] = 61.0
    assert flow.first_time("u", "c", "not your turn")


async def test_memory_stays_bounded() -> None:
    flow = FlowControl(max_keys=100)
    for n in range(10_000):
        await flow.admit(f"user{n}", f"chat{n}")
        flow.first_time(f"user{n}", f"chat{n}", "x")
    assert flow.sizes() == (100, 100, 100)
