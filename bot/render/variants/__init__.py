"""Text for variant-only events: one module per variant (``rummy500.py`` ...), each with
``render(event, players) -> str | None``. :func:`bot.render.events.render_event` asks every
module here for events it does not know itself. A module may also define
``table_lines(view) -> list[str]``: further lines of the table screen
(:func:`bot.render.text.render_table`), empty for other variants' tables, and
``action_label(action) -> ActionLabel | None``: a button's words for a variant-only
action (e.g. Romanian pre-play moves), ``phase_line(view) -> str | None``: the hand
screen's phase line where the variant has its own step (Romanian pre-play), and
``hand_cards(action) -> tuple[Card, ...] | None``: the hand cards a variant-only action
puts down (it is then offered for that selection; other variant actions are controls
of their own), and ``match_goal(rules) -> str | None``: how a match of the variant ends,
where its options mean something else than "play to a score" (German elimination), and
``call_choices(view, legal) -> list[str] | None``: the out-of-turn calls the seat may make
now, with what each would meld (Rummy 500's "Rommé!" prompt)."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Sequence
from functools import cache

from bot.ports.hand import Tone
from engine.cards import Card
from engine.events import Event
from engine.rules import RuleSet
from engine.views import PlayerView, PublicView

Renderer = Callable[[Event, Sequence[str]], "str | None"]

ActionLabel = tuple[str, Tone]


@cache
def renderers() -> tuple[Renderer, ...]:
    """The ``render`` function of every module in this package, by module name."""
    found: list[Renderer] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        found.append(module.render)
    return tuple(found)


@cache
def table_renderers() -> tuple[Callable[[PublicView], list[str]], ...]:
    """The ``table_lines`` function of every module here that has one, by module name."""
    found: list[Callable[[PublicView], list[str]]] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(module, "table_lines"):
            found.append(module.table_lines)
    return tuple(found)


def variant_table_lines(view: PublicView) -> list[str]:
    """The variant modules' further lines for the table ``view`` (usually none)."""
    return [line for lines in table_renderers() for line in lines(view)]


@cache
def _match_goals() -> tuple[Callable[..., object], ...]:
    return _hooks("match_goal")


def variant_match_goal(rules: RuleSet) -> str | None:
    """A variant module's sentence for how a match under ``rules`` ends, or ``None``
    (then the shared "Playing to N points" applies)."""
    for goal in _match_goals():
        text = goal(rules)
        if isinstance(text, str):
            return text
    return None


@cache
def _turn_lines() -> tuple[Callable[..., object], ...]:
    return _hooks("turn_line")


def variant_turn_line(view: PublicView) -> str | None:
    """A variant module's "whose turn, what to do" line for the table ``view``, or
    ``None`` (then the shared line applies)."""
    for turn_line in _turn_lines():
        text = turn_line(view)
        if isinstance(text, str):
            return text
    return None


def render_variant_event(event: Event, players: Sequence[str]) -> str | None:
    """The first variant module's text for ``event``, or ``None``."""
    for render in renderers():
        text = render(event, players)
        if text is not None:
            return text
    return None


@cache
def _labellers() -> tuple[Callable[[object], ActionLabel | None], ...]:
    found: list[Callable[[object], ActionLabel | None]] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(module, "action_label"):
            found.append(module.action_label)
    return tuple(found)


def variant_action_label(action: object) -> ActionLabel | None:
    """A variant module's button words and tone for ``action``, or ``None`` (then the
    adapter shows the verb's label and the cards)."""
    for label in _labellers():
        found = label(action)
        if found is not None:
            return found
    return None


def _hooks(name: str) -> tuple[Callable[..., object], ...]:
    found = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(module, name):
            found.append(getattr(module, name))
    return tuple(found)


@cache
def _phase_lines() -> tuple[Callable[..., object], ...]:
    return _hooks("phase_line")


@cache
def _hand_cards() -> tuple[Callable[..., object], ...]:
    return _hooks("hand_cards")


def variant_phase_line(view: PlayerView) -> str | None:
    """A variant module's phase line for the hand screen of ``view``, or ``None``."""
    for hook in _phase_lines():
        found = hook(view)
        if isinstance(found, str):
            return found
    return None


def variant_hand_cards(action: object) -> tuple[Card, ...] | None:
    """The hand cards a variant-only ``action`` puts down (``None``: a control that needs
    no selection, or not a variant action)."""
    for hook in _hand_cards():
        found = hook(action)
        if isinstance(found, tuple):
            return found
    return None


@cache
def _call_choices() -> tuple[Callable[..., object], ...]:
    return _hooks("call_choices")


def variant_call_choices(view: PlayerView, legal: Sequence[object]) -> list[str] | None:
    """A variant module's list of the out-of-turn calls the seat may make now (Rummy 500's
    "Rommé!"), each with its command and what it would meld; ``None`` when there is none."""
    for hook in _call_choices():
        found = hook(view, legal)
        if isinstance(found, list):
            return found
    return None
