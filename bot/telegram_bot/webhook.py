"""Webhook mode: a small aiohttp server that takes Telegram's POSTs and feeds them to the
PTB application's update queue (PTB's own webhook server needs tornado, which the project
does not install).

Telegram sends each update as JSON to the URL given to ``setWebhook`` with the header
``X-Telegram-Bot-Api-Secret-Token``; requests without the right secret get 403.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from telegram import Update
from telegram.ext import Application

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


def secret_for(token: str) -> str:
    """A webhook secret derived from the bot token (stable across restarts, 1..256 of
    ``[A-Za-z0-9_-]`` as Telegram requires)."""
    return hashlib.sha256(("rummy-webhook:" + token).encode()).hexdigest()[:48]


def webhook_path(url: str) -> str:
    """The path part of the public webhook URL ("/" when it has none)."""
    return urlsplit(url).path or "/"


class WebhookServer:
    """Receives updates for ``app`` on ``host``:``port`` at ``path``."""

    def __init__(self, app: Application[Any, Any, Any, Any, Any, Any], secret: str, path: str,
                 host: str, port: int) -> None:
        self.app = app
        self.secret = secret
        self.path = path
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        """Listen; ``port`` is updated when 0 asked for a free one."""
        server = web.Application()
        server.router.add_post(self.path, self._receive)
        self._runner = web.AppRunner(server, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        addresses = self._runner.addresses
        if addresses:
            self.port = int(addresses[0][1])

    async def stop(self) -> None:
        """Stop listening."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _receive(self, request: web.Request) -> web.Response:
        if request.headers.get(SECRET_HEADER) != self.secret:
            return web.Response(status=403)
        try:
            data = await request.json()
            update = Update.de_json(data, self.app.bot)
        except (json.JSONDecodeError, ValueError, KeyError, TypeError):
            log.warning("webhook: unreadable update")
            return web.Response(status=400)
        await self.app.update_queue.put(update)
        return web.Response(status=200)
