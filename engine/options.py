"""Rules as configuration: option specs, presets and the frozen :class:`RuleSet`.

Every option names the rule sentence it comes from, so a table can list what it
plays. Rule sets are built by :func:`engine.variant.build_rules` (for a variant object)
and :func:`engine.rules.make_rules` (by variant id, through the registry).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.errors import RuleOptionError

if TYPE_CHECKING:
    # Only for the annotation of RuleSet.var: engine.variant is higher up (it imports this).
    from engine.variant import Variant

OptionValue = bool | int | str | None

# The maxima of the options the rule texts leave open: each far beyond what tables play
# (the texts name targets of 150 to 500 points and 4 to 10 deals, and end a deal the third
# time the stock runs out), yet still a match a table could finish, so that no number a
# command can type makes a game that never ends or a reply of a thousand digits.
MAX_TARGET = 10_000
"""Largest score target (and elimination threshold): 20 times Rummy 500's 500."""
MAX_DEALS = 100
"""Largest number of deals (or games) of a match, and of a deal number an option names."""
MAX_REUSES = 50
"""Largest number of times the discards may become the stock again in one deal."""
MAX_DIGITS = 12
"""Longest text (after stripping) read as a whole number; a longer one is refused before
``int()`` sees it (Python refuses more than 4,300 digits with its own ``ValueError``, and
no option takes a number of more than a few digits)."""


@dataclass(frozen=True, slots=True)
class Option:
    """One rule option.

    ``kind`` is ``bool``, ``int`` or ``str``; ``choices`` lists the allowed
    strings of a ``str`` option; ``minimum``/``maximum`` bound an ``int`` (every ``int``
    option of a variant has both: ``MAX_TARGET``, ``MAX_DEALS`` and ``MAX_REUSES`` where
    the rule texts give none);
    ``none_word`` is the word that means "no limit" (value ``None``) for an
    ``int`` option. ``source`` is "file: quote" of the rule sentence.
    """

    name: str
    kind: type
    default: OptionValue
    help: str
    source: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    none_word: str | None = None

    @property
    def quotes_rule_text(self) -> bool:
        """True when ``source`` quotes a rule text ("basic-rummy.de.txt: ..."); False for
        a remark of ours ("not in the text: ..."), which front ends translate."""
        file, sep, _quote = self.source.partition(": ")
        return bool(sep) and file.endswith(".de.txt") and " " not in file

    def parse(self, raw: OptionValue) -> OptionValue:
        """Convert a raw value (text from a command, or JSON) to this option's type.

        Raises :class:`RuleOptionError` (code ``bad_option``) naming the option
        and what it accepts.
        """
        if self.kind is bool:
            return self._parse_bool(raw)
        if self.kind is int:
            return self._parse_int(raw)
        text = str(raw).strip().lower()
        if self.choices and text not in self.choices:
            raise self._bad(raw)
        return text

    def _parse_bool(self, raw: OptionValue) -> bool:
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in ("1", "true", "yes", "on", "ja", "an"):
            return True
        if text in ("0", "false", "no", "off", "nein", "aus"):
            return False
        raise self._bad(raw)

    def _parse_int(self, raw: OptionValue) -> int | None:
        if raw is None or (self.none_word and str(raw).strip().lower() == self.none_word):
            if self.none_word is None:
                raise self._bad(raw)
            return None
        if isinstance(raw, bool):
            raise self._bad(raw)
        text = str(raw).strip()
        # ASCII digits only: int() also reads "١٠٠" (Arabic-Indic), "1_000" and "+100"
        if len(text) > MAX_DIGITS or not (text.isascii() and text.isdigit()):
            raise self._bad(raw)
        try:
            value = int(text)
        except ValueError:
            raise self._bad(raw) from None
        if (self.minimum is not None and value < self.minimum) or (
            self.maximum is not None and value > self.maximum
        ):
            raise self._bad(raw)
        return value

    def accepts(self) -> str:
        """English description of the accepted values, e.g. ``'one of low, high_or_low'``."""
        if self.kind is bool:
            return "on or off"
        if self.kind is int:
            lo = "" if self.minimum is None else str(self.minimum)
            hi = "" if self.maximum is None else str(self.maximum)
            extra = f" or {self.none_word}" if self.none_word else ""
            return f"a whole number {lo}..{hi}{extra}"
        return "one of " + ", ".join(self.choices)

    def _bad(self, raw: OptionValue) -> RuleOptionError:
        shown = " ".join(str(raw).split())
        if len(shown) > 2 * MAX_DIGITS:  # a refusal quotes a long value only in part
            shown = shown[: 2 * MAX_DIGITS - 3] + "..."
        return RuleOptionError(
            detail=f"option {self.name}: '{shown}' is not allowed, expected {self.accepts()}",
            option=self.name,
            value=shown,
            accepts=self.accepts(),
        )

    def show(self, value: OptionValue) -> str:
        """The value as a command would write it (``on``, ``off``, ``unlimited``, ``150``)."""
        if value is None:
            return self.none_word or "none"
        if isinstance(value, bool):
            return "on" if value else "off"
        return str(value)


@dataclass(frozen=True, slots=True)
class Preset:
    """A named bundle of option values, with what it is and where it comes from."""

    name: str
    help: str
    source: str
    values: Mapping[str, OptionValue] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The frozen rules of one game: variant id, preset name and every option's value.

    ``var`` is the :class:`engine.variant.Variant` that plays these rules: the game flow
    is handed it with the rules and never looks a variant up by its id (only the edge
    does: :func:`engine.rules.make_rules`, the command parser, records). It takes no
    part in equality, hashing or ``repr``; a pickled rule set carries its variant along.
    """

    variant: str
    preset: str
    values: tuple[tuple[str, OptionValue], ...]
    var: Variant = field(compare=False, hash=False, repr=False)
    # Read hundreds of thousands of times per second (options) and a cache key of the
    # searches (hash): both are computed once. A pickle rebuilds them (__reduce__), as
    # string hashes differ between processes.
    _index: dict[str, OptionValue] = field(init=False, compare=False, repr=False)
    _hash: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", dict(self.values))
        object.__setattr__(self, "_hash", hash((self.variant, self.preset, self.values)))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[RuleSet], tuple[object, ...]]:
        return (RuleSet, (self.variant, self.preset, self.values, self.var))

    def get(self, name: str) -> OptionValue:
        """The value of option ``name``; raises ``KeyError`` for an unknown option."""
        return self._index[name]

    def flag(self, name: str) -> bool:
        """A boolean option's value; ``KeyError`` for an unknown option."""
        return bool(self._index[name])

    def number(self, name: str) -> int | None:
        """An integer option's value (``None`` = no limit); ``KeyError`` for an unknown
        option, ``TypeError`` for one that is not a number."""
        value = self._index[name]
        if value is None or type(value) is int:  # not bool, whose type is bool
            return value
        raise TypeError(f"option {name} is not a number: {value!r}")

    def text(self, name: str) -> str:
        """A choice option's value; ``KeyError`` for an unknown option."""
        return str(self._index[name])

    def as_dict(self) -> dict[str, OptionValue]:
        """Option values as a plain dict (JSON-ready)."""
        return dict(self.values)

    def changed(self) -> dict[str, OptionValue]:
        """Only the options that differ from the variant's plain defaults."""
        defaults = {o.name: o.default for o in self.var.options}
        return {k: v for k, v in self.values if defaults.get(k) != v}


def target_option(default: int | None, help: str, source: str) -> Option:
    """The ``target`` option of a match that may end at a score: a whole number from 1 to
    :data:`MAX_TARGET`, or ``none`` (no target); ``default``, ``help`` and ``source`` as
    the variant words them."""
    return Option(
        "target",
        int,
        default,
        help,
        source,
        minimum=1,
        maximum=MAX_TARGET,
        none_word="none",
    )


def deals_option(default: int | None, help: str, source: str) -> Option:
    """The ``deals`` option of a match that may end after a number of deals: a whole
    number from 1 to :data:`MAX_DEALS`, or ``none`` (no limit)."""
    return Option(
        "deals",
        int,
        default,
        help,
        source,
        minimum=1,
        maximum=MAX_DEALS,
        none_word="none",
    )


def require_match_end(rules: RuleSet) -> None:
    """Refuse rules under which a match never ends: ``target`` and ``deals`` both
    ``none``. Raises :class:`RuleOptionError` (option ``target``)."""
    if rules.number("target") is None and rules.number("deals") is None:
        raise RuleOptionError(
            detail="set a target score or a number of deals",
            option="target",
            value="none",
            accepts="target or deals",
        )
