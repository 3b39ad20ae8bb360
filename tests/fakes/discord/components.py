"""Walking Discord message components (action rows, buttons, selects, v2 layout components).

Component types (https://discord.com/developers/docs/components/reference):
1 action row, 2 button, 3 string select, 4 text input, 5 user select, 6 role select,
7 mentionable select, 8 channel select, 9 section, 10 text display, 11 thumbnail,
12 media gallery, 13 file, 14 separator, 17 container, 18 label.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .entities import Json

ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
LINK_STYLE = 5
PREMIUM_STYLE = 6
IS_COMPONENTS_V2 = 1 << 15


def walk(components: Any) -> Iterator[tuple[tuple[str | int, ...], Json]]:
    """Yield ``(path, component)`` for every component, depth first, paths from the list."""
    if not isinstance(components, list):
        return
    for index, component in enumerate(components):
        if not isinstance(component, dict):
            continue
        yield (index,), component
        for path, child in walk(component.get("components")):
            yield (index, "components", *path), child
        for key in ("accessory", "component"):
            inner = component.get(key)
            if isinstance(inner, dict):
                yield (index, key), inner
                for path, child in walk(inner.get("components")):
                    yield (index, key, "components", *path), child


def interactive(components: Any) -> list[Json]:
    """Every component a user can interact with (buttons with a custom_id, selects)."""
    found = []
    for _, component in walk(components):
        kind = component.get("type")
        if (kind == BUTTON and "custom_id" in component) or kind in SELECT_TYPES:
            found.append(component)
    return found


def find(components: Any, custom_id: str) -> Json | None:
    """The interactive component with ``custom_id``, or None."""
    for component in interactive(components):
        if component.get("custom_id") == custom_id:
            return component
    return None
