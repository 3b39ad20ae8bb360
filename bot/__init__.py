"""Async bot layer of rummy-bot: Discord/Telegram adapters, persistence, i18n, settings.

The pure rules engine lives in the separate ``engine`` package; nothing in ``bot``
changes the rules, it only drives the engine and renders its state.
"""
