"""Open pages and what they are shown: :class:`~bot.web.pages.page.Page` (one WebSocket,
one person at one table) and :class:`~bot.web.pages.hub.PageHub` (every open page of this
worker: screens on connect, after every change, the page's own selection and presses)."""
