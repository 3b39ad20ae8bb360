"""The web table's configuration (:class:`WebConfig`), taken from the bot's settings."""

from __future__ import annotations

from dataclasses import dataclass

from bot.ports.web_links import WebLinks
from bot.settings import Settings
from bot.web.auth.discord import API_BASE
from bot.web.auth.session import derive_secret

__all__ = ["PREFIX", "WebConfig"]

PREFIX = "/web"
"""Where the web table is mounted on the process's HTTP server (:mod:`bot.http`)."""


@dataclass(frozen=True)
class WebConfig:
    """``base_url``: the public https URL of the bot's HTTP server (``WEB_BASE_URL``);
    the pages live under ``base_url + PREFIX``. The tokens and Discord's client id and
    secret say which platforms can sign in; ``auth_max_age``: seconds a Telegram
    ``initData`` stays valid. ``discord_api`` / ``telegram_api``: the platforms' API
    servers (fakes in tests). ``sockets_per_session``: pages one session (a person at a
    table) may have open at once (``WEB_SOCKETS_PER_SESSION``); ``signin_per_address`` /
    ``signin_per_minute``: Discord sign-in calls a minute from one address and in all
    (``WEB_SIGNIN_PER_ADDRESS``, ``WEB_SIGNIN_PER_MINUTE``), refused locally beyond."""

    base_url: str
    telegram_token: str | None = None
    discord_token: str | None = None
    discord_client_id: str | None = None
    discord_client_secret: str | None = None
    auth_max_age: float = 86400.0
    discord_api: str = API_BASE
    telegram_api: str = "https://api.telegram.org"
    sockets_per_session: int = 4
    signin_per_address: int = 10
    signin_per_minute: int = 120

    @classmethod
    def from_settings(cls, settings: Settings) -> WebConfig | None:
        """The configuration of ``settings``; ``None`` without ``WEB_BASE_URL`` (no web
        table, no web buttons) or without any platform that can sign in."""
        config = cls(
            settings.web_base_url or "",
            settings.telegram_token,
            settings.discord_token,
            settings.discord_client_id,
            settings.discord_client_secret,
            float(settings.web_auth_max_age),
            sockets_per_session=settings.web_sockets_per_session,
            signin_per_address=settings.web_signin_per_address,
            signin_per_minute=settings.web_signin_per_minute,
        )
        if not settings.web_base_url or not (config.telegram or config.discord):
            return None
        return config

    @property
    def telegram(self) -> bool:
        """Telegram Mini App sign-in works (a bot token to check ``initData`` with)."""
        return bool(self.telegram_token)

    @property
    def discord(self) -> bool:
        """Discord Activity sign-in works (client id, secret and the bot's token)."""
        return bool(self.discord_client_id and self.discord_client_secret and self.discord_token)

    @property
    def pages_url(self) -> str:
        """The public URL of the pages' folder, e.g. ``https://rummy.example.org/web``."""
        return self.base_url.rstrip("/") + PREFIX

    def links(self) -> WebLinks:
        """What the chat adapters need to send people here."""
        return WebLinks(self.pages_url, self.telegram, self.discord)

    def session_secret(self) -> bytes:
        """The key of page sessions: derived from the secrets every worker shares."""
        return derive_secret(self.telegram_token, self.discord_client_secret, self.discord_token)
