"""Gateway events read defensively: a payload discord.py cannot parse is dropped, never the
end of the client (:func:`guard_parsers`).

discord.py parses each gateway event (``INTERACTION_CREATE``, ``GUILD_CREATE``, ...) inside
its websocket's read loop; an exception there (an interaction without ``type``, a component
click without ``data``, an ``id`` that is no number) leaves the loop, ends the client's
task and, with it, every answer on the platform. Each parser is wrapped so that its
failure drops that one event, logged once per kind
(:class:`bot.dropped_inputs.DroppedInputs`), and the loop reads the next one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, MutableMapping
from typing import Any

from bot.dropped_inputs import DroppedInputs, error_kind

__all__ = ["guard_parsers"]

Parser = Callable[[Any], None]


def _guarded(event: str, parser: Parser, dropped: DroppedInputs) -> Parser:
    @functools.wraps(parser)
    def parse(data: Any) -> None:
        try:
            parser(data)
        except Exception as error:
            detail = data.get("id") if isinstance(data, dict) else None
            dropped.drop(
                error_kind(event, error), "" if detail is None else f"id {str(detail)[:40]}"
            )

    parse.__rummy_guarded__ = True  # type: ignore[attr-defined]
    return parse


def guard_parsers(parsers: MutableMapping[str, Parser], dropped: DroppedInputs) -> None:
    """Wrap every parser of discord.py's connection state (``client._connection.parsers``,
    event name -> parser, read by the websocket for every event) in place, so that one
    that raises drops its event through ``dropped``. Wrapping twice changes nothing."""
    for event, parser in list(parsers.items()):
        if not getattr(parser, "__rummy_guarded__", False):
            parsers[event] = _guarded(event, parser, dropped)
