"""The benchmarks' way into the service: people's moves as intents through the entry point
(:meth:`bot.service.entry.EntryPoint.handle`), the path every front end takes; tables are
set up with the lobby steps directly (not measured)."""

from __future__ import annotations

from bot.interaction.commands import parse
from bot.ports.intents import Hint, InChat, Intent, Outcome, Selection
from bot.ports.model import ChatKey, TableInfo, UserRef
from bot.service.flow import FlowControl
from bot.service.service import GameService

__all__ = ["act", "hint", "say", "unlimited"]


def unlimited(service: GameService) -> GameService:
    """``service`` without flow control: a benchmark sends as fast as it measures (flow
    control is a per-person limit a real person never reaches in one table's play)."""
    service.flow = FlowControl(limited=False)
    return service


async def act(
    service: GameService, key: ChatKey, user: UserRef, line: str, update_key: str | None = None
) -> TableInfo:
    """``user`` types ``line`` at ``key``'s table; the table after it. Raises the
    refusal."""
    outcome = await service.entry.handle(
        Intent(parse(line), user, InChat(key), update_key=update_key)
    )
    return _info(outcome)


async def hint(service: GameService, key: ChatKey, user: UserRef) -> Outcome:
    """``user`` presses Hint on their hand screen at ``key``'s table. Raises the
    refusal."""
    outcome = await service.entry.handle(Intent(Hint(), user, InChat(key), selection=Selection()))
    _info(outcome)
    return outcome


def _info(outcome: Outcome) -> TableInfo:
    if outcome.error is not None:
        raise outcome.error
    assert outcome.info is not None
    return outcome.info


async def say(service: GameService, key: ChatKey, user: UserRef, line: str) -> Outcome:
    """``user`` types ``line`` at ``key``'s table; the outcome, refused or not."""
    return await service.entry.handle(Intent(parse(line), user, InChat(key)))
