"""Text for variant-only events: one module per variant (``rummy500.py`` ...), each with
``render(event, players) -> str | None``. :func:`bot.render.events.render_event` asks every
module here for events it does not know itself."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Sequence
from functools import cache

from engine.events import Event

Renderer = Callable[[Event, Sequence[str]], "str | None"]


@cache
def renderers() -> tuple[Renderer, ...]:
    """The ``render`` function of every module in this package, by module name."""
    found: list[Renderer] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        found.append(module.render)
    return tuple(found)


def render_variant_event(event: Event, players: Sequence[str]) -> str | None:
    """The first variant module's text for ``event``, or ``None``."""
    for render in renderers():
        text = render(event, players)
        if text is not None:
            return text
    return None
