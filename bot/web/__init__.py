"""The web table: a front end whose pages open inside Telegram (a Mini App) and Discord
(an Activity), served by the bot's own process on its one HTTP server.

- :mod:`.frontend`: :class:`~bot.web.frontend.WebFrontEnd` (start/stop, the notifier);
- :mod:`.config`: settings (the chat adapters' buttons: :mod:`bot.ports.web_links`);
- :mod:`.auth`: Telegram ``initData``, Discord OAuth2, the signed page sessions;
- :mod:`.server`: the routes and the page's HTML; :mod:`.pages`: open pages and their
  screens; :mod:`.protocol`: every JSON message; :mod:`.notifier`: published changes;
- ``static/``: the page itself (plain ES modules, own SVG card and tile art; licences in
  ``static/LICENSES.md``).

docs/web.md tells how to set it up (BotFather, Discord's Developer Portal, a TLS proxy).
"""

from __future__ import annotations

from bot.web.config import WebConfig
from bot.web.frontend import WebFrontEnd

__all__ = ["WebConfig", "WebFrontEnd"]
