"""Gateway intent bits (https://discord.com/developers/docs/events/gateway#gateway-intents)."""

GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_PRESENCES = 1 << 8
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT
"""Intents an application must have enabled in the developer portal (else close 4014)."""
ALL_INTENTS = (1 << 26) - 1
