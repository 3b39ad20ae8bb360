"""Text screens about the rules and the commands: options, presets, variants, help.

Variant names, option, preset and verb help texts come from the engine
(``engine/variants/*``, ``engine/verbs.py``) in English; that English text is the msgid
of their translation (:mod:`bot.i18n.engine_texts` lists them all and keeps the
catalogues complete). The shared verbs' help is also marked here
(:data:`COMMAND_HELP`) so that Babel's extraction finds it.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import N_, _
from bot.i18n.notation import command_text, notation_examples, verb_aliases
from engine.commands import COMMANDS, CommandHelp, canonical_verb, command_table
from engine.rules import Option, OptionValue, RuleSet
from engine.variants import VARIANTS, get_variant

__all__ = [
    "COMMAND_HELP",
    "render_help",
    "render_presets",
    "render_rules",
    "render_variants",
]

_LIMIT = 4000

COMMAND_HELP: Mapping[str, str] = {
    "draw": N_("Draw the top card of the stock."),
    "take": N_("Take the upcard (the top card of the discard pile)."),
    "meld": N_(
        "Put a set or run on the table; separate several melds with | or /. "
        "Say what a joker stands for with jk=8h (or jk=8 in a set)."
    ),
    "layoff": N_("Add cards from your hand to meld number 3 on the table (the number comes last)."),
    "swap": N_("Exchange the card a joker in meld 3 stands for against that joker."),
    "discard": N_("Discard a card onto the discard pile; this ends your turn."),
    "next": N_("Deal the next hand once a hand is scored."),
    "sort": N_("Sort your hand."),
    "hint": N_("Suggest a move."),
    "help": N_("Show this list or help on a command."),
    "rules": N_("Show the rules this table plays."),
    "hand": N_("Show your hand."),
    "table": N_("Show the melds, the upcard and the stock size."),
    "score": N_("Show the scores."),
    "quit": N_("Leave the game."),
    "back": N_("Play your seat again after the autopilot played it (else: show the table again)."),
}
"""Command verb -> help text: the English msgid equals the engine's ``CommandHelp.help``
(``tests/bot/test_render.py`` checks it, so a changed engine text shows up here)."""


def _value_text(option: Option, value: OptionValue) -> str:
    return option.show(value)


def _source_text(option: Option, quote_chars: int | None) -> str:
    """``source`` ("file: quote"), the quote shortened to ``quote_chars`` (``None``: whole;
    0: the file name only). A source that quotes no rule text (a house rule of ours, "not
    in the text: ...") is our own sentence and is shown whole, translated."""
    source = option.source
    if not option.quotes_rule_text:
        return _(source)
    if quote_chars is None:
        return source
    file, _sep, quote = source.partition(": ")
    if quote_chars == 0 or not quote:
        return file
    if len(quote) > quote_chars:
        quote = quote[: quote_chars - 1].rstrip() + "…"
    return f"{file}: {quote}"


def _rules_text(rules: RuleSet, quote_chars: int | None) -> str:
    variant = get_variant(rules.variant)
    preset = variant.presets.get(rules.preset)
    lines = [
        _("Rules: {variant} ({id}), preset {preset}").format(
            variant=_(variant.name), id=variant.id, preset=rules.preset
        ),
        _("* marks an option that differs from the default."),
    ]
    preset_values = dict(preset.values) if preset is not None else {}
    for option in variant.options:
        value = rules.get(option.name)
        changed = value != option.default
        line = f"{'*' if changed else ' '} {option.name} = {_value_text(option, value)}"
        if changed:
            origin = (
                _("preset {preset}").format(preset=rules.preset)
                if preset_values.get(option.name, option.default) == value
                and option.name in preset_values
                else _("changed")
            )
            line += " " + _("(default {default}; {origin})").format(
                default=_value_text(option, option.default), origin=origin
            )
        lines.append(line)
        lines.append(f"    {_(option.help)}")
        lines.append(
            "    " + _("Source: {source}").format(source=_source_text(option, quote_chars))
        )
    return "\n".join(lines)


def render_rules(rules: RuleSet) -> str:
    """Every option of ``rules`` with its value, help text and rule source.

    Options that differ from the variant's default are marked ``*`` and say
    whether the preset or the table changed them. The source quotes are
    shortened (down to the file name) when the whole screen would exceed 4000
    characters.
    """
    for quote_chars in (None, 90, 50, 0):
        text = _rules_text(rules, quote_chars)
        if len(text) <= _LIMIT:
            return text
    return text[: _LIMIT - 1] + "…"


def render_presets(variant_id: str) -> str:
    """The presets of a variant, one line each, with their help text."""
    variant = get_variant(variant_id)
    lines = [_("Presets of {variant}:").format(variant=_(variant.name))]
    for name, preset in variant.presets.items():
        marker = " " + _("(default)") if name == variant.default_preset else ""
        lines.append(f"  {name}{marker}: {_(preset.help)}")
    return "\n".join(lines)


def render_variants() -> str:
    """Every variant the engine offers: id, name and player count."""
    lines = [_("Variants:")]
    for variant in VARIANTS.values():
        lines.append(
            _("  {id}: {name}, {low}-{high} players").format(
                id=variant.id,
                name=_(variant.name),
                low=variant.min_players,
                high=variant.max_players,
            )
        )
    return "\n".join(lines)


def render_help(
    verb: str | None = None, variant: str | None = None, rules: RuleSet | None = None
) -> str:
    """The command list: the shared verbs and, with ``variant``, that variant's own
    (:func:`engine.commands.command_table`): syntax, help and aliases.

    ``verb`` (a verb or alias, e.g. from ``help meld``) limits the list to that
    command; an unknown word gives the whole list. With the table's ``rules``, verbs
    those rules never allow are left out (``swap`` without a joker exchange). Verbs and
    card codes are written in the current language (:mod:`bot.i18n.notation`); a German
    screen names the German words only (the English ones are read too).
    """
    var = VARIANTS.get(variant) if variant is not None else None
    tiles = var is not None and var.uses_tiles
    lines = [_notation_line(tiles)]
    lines += [_command_line(c, tiles) for c in _listed_commands(verb, variant, rules)]
    return "\n".join(lines)


def _listed_commands(
    verb: str | None, variant: str | None, rules: RuleSet | None
) -> list[CommandHelp]:
    """The commands :func:`render_help` lists: of ``variant`` (else the shared ones), only
    ``verb``'s when given, without ``swap`` when ``rules`` never allow a joker exchange."""
    wanted = canonical_verb(verb) if verb else None
    table = COMMANDS if variant is None else command_table(variant)
    commands = [c for c in table if wanted is None or c.verb == wanted]
    if rules is not None and not rules.var.joker_swap(rules):
        commands = [c for c in commands if c.verb != "swap"]
    return commands


def _notation_line(tiles: bool) -> str:
    """The heading of the command list, with examples of how cards (or ``tiles``) are
    written."""
    if tiles:
        return _("Commands (tiles are written like {examples}):").format(
            examples=notation_examples(tiles)
        )
    return _("Commands (cards are written like {examples}):").format(
        examples=notation_examples(tiles)
    )


def _command_line(command: CommandHelp, tiles: bool) -> str:
    """One command of the list: its syntax, its help and its aliases."""
    help_text = _(command.help)
    line = f"  {command_text(command.syntax, tiles)} — {help_text}"
    aliases = verb_aliases(command.verb, command.aliases)
    if aliases:
        line += " " + _("(also: {aliases})").format(aliases=", ".join(aliases))
    return line
