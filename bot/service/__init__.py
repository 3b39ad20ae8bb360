"""The platform-neutral game service: lobbies, tables, turns, timers, AI seats, flow
control and the engine worker pool, behind one entry point (:mod:`bot.service.entry`).
It needs storage through its repository port (:mod:`bot.service.repository`) and shows
changes through the front ends' notifier port (:mod:`bot.ports.notifier`); it imports no
storage and no front end."""
