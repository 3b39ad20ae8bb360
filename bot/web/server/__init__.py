"""The web table's HTTP side: its routes (:mod:`.routes`: the pages, their assets, the
strings, sign-in, rules and the WebSocket) and the page's HTML (:mod:`.html`)."""
