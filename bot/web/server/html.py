"""The page's HTML, one per platform: ``tg`` (Telegram Mini App: Telegram's own
``telegram-web-app.js`` first) and ``dc`` (Discord Activity: only our own files, which
Discord's proxy serves). Every other URL of the page is relative to it, so the same files
work under Discord's URL mapping."""

from __future__ import annotations

__all__ = ["page_html"]

TELEGRAM_SCRIPT = '<script src="https://telegram.org/js/telegram-web-app.js"></script>'
"""Telegram's Mini App script (``window.Telegram.WebApp``), as Telegram asks Mini Apps to
load it."""

_PAGE = """<!doctype html>
<html lang="en" data-platform="{platform}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<title>Rummy</title>
<link rel="stylesheet" href="./static/style.css">
{script}
<script type="module" src="./static/app.js"></script>
</head>
<body>
<main id="app"><p class="status" id="status" role="status">…</p></main>
<div id="announce" class="visually-hidden" aria-live="polite"></div>
</body>
</html>
"""


def page_html(platform: str) -> str:
    """The page for ``tg`` or ``dc``."""
    script = TELEGRAM_SCRIPT if platform == "tg" else ""
    return _PAGE.format(platform=platform, script=script)
