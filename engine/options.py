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


@dataclass(frozen=True, slots=True)
class Option:
    """One rule option.

    ``kind`` is ``bool``, ``int`` or ``str``; ``choices`` lists the allowed
    strings of a ``str`` option; ``minimum``/``maximum`` bound an ``int``;
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
        try:
            value = int(str(raw).strip())
        except ValueError:
            raise self._bad(raw) from None
        if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum):
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
        return RuleOptionError(
            detail=f"option {self.name}: '{raw}' is not allowed, expected {self.accepts()}",
            option=self.name, value=str(raw), accepts=self.accepts())

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
