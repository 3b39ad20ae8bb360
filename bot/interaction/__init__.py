"""What every front end shares between a person and the game service: the hand model (the
cards, the phase line, the offered moves, the hint and the variant's controls of one seat,
:mod:`bot.interaction.hand`) and the one command route (:mod:`bot.interaction.commands`:
a :class:`~bot.interaction.commands.Command` from typed text, a slash command, a button or
a terminal line, one registry of verbs, one dispatcher). The adapters (Telegram, Discord,
terminal) only lay these out; they hold no rule knowledge."""
