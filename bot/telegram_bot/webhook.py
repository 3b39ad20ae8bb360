"""Webhook mode: a route of the process's HTTP server (:class:`bot.http.HttpServer`, the
port it shares with the web table) that takes Telegram's POSTs and feeds them to the PTB
application's update queue (PTB's own webhook server needs tornado, which the project
does not install).

Telegram sends each update as JSON to the URL given to ``setWebhook`` with the header
``X-Telegram-Bot-Api-Secret-Token``; requests without the right secret get 403. An update
that cannot be read (:func:`bot.telegram_bot.updates.read_update`) is dropped, logged
once per kind, and answered 200 like any other: Telegram would otherwise deliver it again
and again, and hold the updates after it back.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from telegram import Update
from telegram.ext import Application

from bot.dropped_inputs import DroppedInputs
from bot.http import HttpServer
from bot.telegram_bot.updates import UnreadableUpdate, read_update

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


def secret_for(token: str) -> str:
    """A webhook secret derived from the bot token (stable across restarts, 1..256 of
    ``[A-Za-z0-9_-]`` as Telegram requires)."""
    return hashlib.sha256(("rummy-webhook:" + token).encode()).hexdigest()[:48]


def webhook_path(url: str) -> str:
    """The path part of the public webhook URL ("/" when it has none)."""
    return urlsplit(url).path or "/"


class Webhook:
    """Receives updates for ``app`` at ``path`` of the shared HTTP server ``http``; those
    that cannot be read are counted and logged by ``dropped``."""

    def __init__(
        self,
        app: Application[Any, Any, Any, Any, Any, Any],
        secret: str,
        path: str,
        http: HttpServer,
        dropped: DroppedInputs | None = None,
    ) -> None:
        self.app = app
        self.dropped = dropped or DroppedInputs(log, "telegram")
        self.secret = secret
        self.path = path
        self.http = http
        http.mount(path, self._receive)

    @property
    def port(self) -> int:
        """The port the updates come in on."""
        return self.http.port

    def stop(self) -> None:
        """Take no more updates."""
        self.http.unmount(self.path)

    async def _receive(self, request: web.Request) -> web.StreamResponse:
        if request.method != "POST" or request.path != self.path:
            return web.Response(status=404)
        if request.headers.get(SECRET_HEADER) != self.secret:
            return web.Response(status=403)
        try:
            data = await request.json()
        except Exception as error:  # not JSON, not UTF-8, nested too deeply
            self.dropped.drop(f"webhook: {type(error).__name__}, not JSON")
            return web.Response(status=200)
        try:
            update: Update = read_update(data, self.app.bot)
        except UnreadableUpdate as error:
            self.dropped.drop(error.kind, f"update {error.update_id}")
            return web.Response(status=200)
        await self.app.update_queue.put(update)
        return web.Response(status=200)
