"""Answering interactions in time: Discord forgets an interaction not answered within
3 seconds, and accepts exactly one answer (callback) per interaction.

:func:`in_time` awaits the service's entry point and defers the interaction only when
it has not answered after ``defer_after`` seconds, so a quick answer costs one REST call
and a slow one still arrives in time.
The ``send_*`` helpers then answer through the callback when it is still free, else
through the interaction's webhook.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

T = TypeVar("T")

#: Seconds of work after which the interaction is deferred (Discord allows 3).
DEFER_AFTER = 1.0

NO_MENTIONS = discord.AllowedMentions.none()


async def in_time(
    interaction: discord.Interaction[Any],
    work: Awaitable[T],
    *,
    defer_after: float = DEFER_AFTER,
    update: bool = False,
    ephemeral: bool = True,
) -> T:
    """Await ``work`` (``entry.handle(intent)``) for the interaction's answer: when it has
    not finished after ``defer_after`` s, defer meanwhile, so the interaction is answered
    in time: a component's message stays as it is (``update``, callback type 6), else a
    "thinking" placeholder appears (type 5, private when ``ephemeral``); the answer then
    edits the message or fills the placeholder."""
    task = asyncio.ensure_future(work)
    try:
        done, _ = await asyncio.wait({task}, timeout=defer_after)
        if not done and not interaction.response.is_done():
            if update:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    finally:
        result = await task
    return result


async def send_message(
    interaction: discord.Interaction[Any],
    content: str,
    view: discord.ui.View | None = None,
    *,
    ephemeral: bool = True,
) -> str | None:
    """A new message answering the interaction (fills a deferred placeholder); returns
    its id as Discord said it (``None`` when the answer did not say)."""
    if interaction.response.is_done():
        if view is None:
            sent = await interaction.followup.send(
                content, ephemeral=ephemeral, allowed_mentions=NO_MENTIONS, wait=True
            )
        else:
            sent = await interaction.followup.send(
                content, view=view, ephemeral=ephemeral, allowed_mentions=NO_MENTIONS, wait=True
            )
        return str(sent.id)
    if view is None:
        callback = await interaction.response.send_message(
            content, ephemeral=ephemeral, allowed_mentions=NO_MENTIONS
        )
    else:
        callback = await interaction.response.send_message(
            content, view=view, ephemeral=ephemeral, allowed_mentions=NO_MENTIONS
        )
    return None if callback.message_id is None else str(callback.message_id)


async def update_message(
    interaction: discord.Interaction[Any], content: str, view: discord.ui.View | None
) -> None:
    """Replace the message the component is on (callback type 7, or a webhook edit)."""
    if interaction.response.is_done():
        await interaction.edit_original_response(
            content=content, view=view, allowed_mentions=NO_MENTIONS
        )
    else:
        await interaction.response.edit_message(
            content=content, view=view, allowed_mentions=NO_MENTIONS
        )


async def acknowledge(interaction: discord.Interaction[Any]) -> None:
    """Answer a component click without changing anything (type 6), if not yet answered."""
    if not interaction.response.is_done():
        await interaction.response.defer()
