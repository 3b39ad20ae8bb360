"""Text rendering of engine views and events, shared by the terminal and the chat adapters:
the table and the hand (:mod:`bot.render.text`), the hand screen's words
(:mod:`bot.render.hand`), cards (:mod:`bot.render.cards`), events, notices, the lobby, the
rules and the help."""
