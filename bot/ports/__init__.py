"""What the front ends and the game service share, and nothing else: plain records (chat
keys, users, table info, intents, outcomes, screens), the service's entry point as a
Protocol (:class:`bot.ports.entry.Entry`), the notifier port every front end implements
(:class:`bot.ports.notifier.Notifier`) and the message stores of the chat adapters.

Front ends import this package, never :mod:`bot.service` (import-linter contracts in
pyproject.toml); the service implements :class:`~bot.ports.entry.Entry` and calls the
notifiers. docs/architecture.md shows the flow."""
