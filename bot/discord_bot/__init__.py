"""The Discord adapter (discord.py 2): slash commands, buttons and private hand messages.

Named ``discord_bot`` so it cannot shadow the ``discord`` library. ``rummy-bot run``
calls :func:`create_adapter` when ``DISCORD_TOKEN`` is set.
"""

from bot.discord_bot.adapter import DiscordAdapter, create_adapter

__all__ = ["DiscordAdapter", "create_adapter"]
