"""The platform-neutral game service: lobbies, tables, turns, timers, AI seats, flow
control and the engine worker pool; the ports it needs from storage
(:mod:`bot.service.repository`, :mod:`bot.ports.message_store`) and from the front ends
(:mod:`bot.service.notifier`). It imports no storage, screen or front end."""
