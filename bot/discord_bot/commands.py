"""The ``/rummy`` slash command group, registered in one place (:func:`rummy_group`).

Each subcommand is one line of the chat command language
(:mod:`bot.interaction.commands`): ``/rummy addbot kind:easy`` runs ``addbot easy``,
``/rummy settings name:timer value:2m`` runs ``set timer=2m``, and ``/rummy play
command:take 7h`` runs any line typed (its completions are the user's legal moves now,
:func:`command_completions`). Only ``new`` (its answer points at the table message),
``hand`` (the interactive hand message) and ``play`` (a move answers with the hand
message) have their own handlers in :class:`bot.discord_bot.flows.Flows`.

Names and descriptions are English here and German through
:class:`bot.discord_bot.translator.RummyTranslator`; option values offer choices
(variant, AI kind, language) or autocomplete (preset, rule options, settings).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.discord_bot.flows import Flows, chat_key, user_ref
from bot.i18n import N_
from bot.interaction import catalogue
from bot.ports.model import TIMERS
from engine.rules import Option

#: Autocomplete and choice lists are cut to Discord's 25 entries of 100 characters.
CHOICES_MAX = 25
CHOICE_TEXT_MAX = 100

AI_NAMES = {
    "normal": N_("Normal AI (plays well)"),
    "easy": N_("Easy AI (for beginners)"),
    "hard": N_("Hard AI (thinks ahead)"),
    "expert": N_("Expert AI (tries its moves out)"),
}
"""The AI levels offered by ``/rummy addbot`` (:mod:`bot.service.ai_levels`), default first."""
LANGUAGES = (("English", "en"), ("Deutsch", "de"), (N_("From my Discord app"), "auto"))
COACH = ("on", "off")
"""The choices of ``/rummy coach`` (the words of ``coach on|off``)."""


def _choice(text: str) -> app_commands.Choice[str]:
    text = text[:CHOICE_TEXT_MAX]
    return app_commands.Choice(name=text, value=text)


def _values(option: Option) -> list[str]:
    """The values worth suggesting for a rule option."""
    if option.kind is bool:
        return ["on", "off"]
    if option.choices:
        return list(option.choices)
    if option.kind is int:
        return _number_values(option)
    return [str(option.default)] if option.default is not None else []


def _number_values(option: Option) -> list[str]:
    """The values worth suggesting for a number option: its default, then up to 21
    numbers from its minimum (0 when it has none) within its maximum, then its word for
    no number (``none_word``), if any."""
    values = [str(option.default)] if option.default is not None else []
    low = option.minimum if option.minimum is not None else 0
    high = option.maximum if option.maximum is not None else low + 10
    values += [str(v) for v in range(low, min(high, low + 20) + 1) if str(v) not in values]
    if option.none_word:
        values.append(option.none_word)
    return values


def option_completions(variant: str, typed: str) -> list[app_commands.Choice[str]]:
    """Completions of ``name=value ...`` text for the rule options of ``variant``: the
    last word is completed, the words before it are kept."""
    try:
        options = catalogue.option_specs(variant)
    except Exception:  # an unknown variant: nothing to suggest
        return []
    head, _sep, last = typed.rpartition(" ")
    prefix = f"{head} " if head else ""
    used = {word.partition("=")[0] for word in head.split()}
    name, has_value, value = last.partition("=")
    found = []
    for option in options:
        if option.name in used or not _may_complete(option.name, name, bool(has_value)):
            continue
        for candidate in _values(option):
            if candidate.startswith(value.lower()):
                found.append(_choice(f"{prefix}{option.name}={candidate}"))
    return found[:CHOICES_MAX]


def _may_complete(option: str, name: str, has_value: bool) -> bool:
    """Whether the last typed word's ``name`` may be completed to ``option``: the same
    name once a value is typed (``has_value``), else a prefix of it (any case)."""
    if has_value:
        return option == name
    return option.startswith(name.lower())


def command_completions(commands: Sequence[str], typed: str) -> list[app_commands.Choice[str]]:
    """Completions of a typed command line from ``commands`` (the user's legal commands):
    those starting with what is typed first, then those where every typed word starts a
    word of the command (``lay 3`` finds ``layoff 10h 3``), at most 25. A command longer
    than a choice may be is left out rather than cut (its value must stay the whole
    command)."""
    wanted = " ".join(typed.lower().split())
    typed_words = wanted.split()
    fitting = [c for c in dict.fromkeys(commands) if len(c) <= CHOICE_TEXT_MAX]
    first = [c for c in fitting if c.lower().startswith(wanted)]

    def has_words(command: str) -> bool:
        words = command.lower().split()
        return all(any(w.startswith(t) for w in words) for t in typed_words)

    then = [c for c in fitting if c not in first and has_words(c)]
    return [app_commands.Choice(name=c, value=c) for c in (first + then)[:CHOICES_MAX]]


def _variant_choices() -> list[app_commands.Choice[str]]:
    """Every variant as a slash command choice (its English name; the translator gives
    the German one)."""
    return [
        app_commands.Choice(name=catalogue.variant_name(v), value=v)
        for v in catalogue.variant_ids()
    ]


PLAIN_COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("join", "Take a seat at the table", "join"),
    ("leave", "Leave the table (the AI plays your seat)", "leave"),
    ("start", "Start the game (host)", "start"),
    ("cancel", "Cancel the game (host or moderator)", "cancel"),
    ("rules", "The rules of this table", "rules"),
    ("stats", "Your games and wins", "stats"),
    ("season", "Start a new rating season in this channel (host or moderator)", "season new"),
    ("replay", "Step through the finished deals of this channel's game", "replay"),
)
"""The subcommands without options: (name, description, the text command they send)."""


def _plain_command(
    flows: Flows, name: str, description: str, text: str
) -> app_commands.Command[Any, ..., None]:
    """The subcommand ``name`` that sends the text command ``text`` for the person."""

    async def send(interaction: discord.Interaction[Any]) -> None:
        await flows.slash_text(interaction, text)

    return app_commands.Command(name=name, description=description, callback=send)


def rummy_group(flows: Flows) -> app_commands.Group:
    """The ``/rummy`` group with its subcommands, calling ``flows``."""
    group = app_commands.Group(name="rummy", description="Play Rummy in this channel")
    for name, description, text in PLAIN_COMMANDS:
        group.add_command(_plain_command(flows, name, description, text))

    @group.command(name="new", description="Open a table in this channel")
    @app_commands.describe(
        variant="The game to play",
        preset="A rule set of the variant",
        options="Rule options as name=value, e.g. deals=1",
    )
    @app_commands.choices(variant=_variant_choices())
    async def new(
        interaction: discord.Interaction[Any],
        variant: str = "basic",
        preset: str | None = None,
        options: str | None = None,
    ) -> None:
        words = ["new", variant]
        if preset:
            words.append(preset)
        if options:
            words.extend(options.split())
        await flows.slash_new(interaction, " ".join(words))

    @new.autocomplete("preset")
    async def preset_names(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        variant = getattr(interaction.namespace, "variant", None) or "basic"
        try:
            presets = catalogue.preset_names(str(variant))
        except Exception:  # an unknown variant: nothing to suggest
            return []
        return [_choice(p) for p in presets if p.startswith(current.lower())][:CHOICES_MAX]

    @new.autocomplete("options")
    async def option_words(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        variant = getattr(interaction.namespace, "variant", None) or "basic"
        return option_completions(str(variant), current)

    @group.command(name="addbot", description="Add an AI player (host)")
    @app_commands.describe(kind="How the AI plays")
    @app_commands.choices(
        kind=[app_commands.Choice(name=name, value=level) for level, name in AI_NAMES.items()]
    )
    async def addbot(interaction: discord.Interaction[Any], kind: str = "normal") -> None:
        await flows.slash_text(interaction, f"addbot {kind}")

    @group.command(name="settings", description="Change a setting before the start (host)")
    @app_commands.describe(
        name="timer, lang, variant, preset or a rule option", value="The new value"
    )
    async def settings(interaction: discord.Interaction[Any], name: str, value: str) -> None:
        await flows.slash_text(interaction, f"set {name.strip()}={value.strip()}")

    @settings.autocomplete("name")
    async def setting_names(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        names = ["timer", "lang", "variant", "preset"]
        variant = await _table_variant(flows, interaction)
        names += [o.name for o in catalogue.option_specs(variant)]
        return [_choice(n) for n in names if n.startswith(current.lower())][:CHOICES_MAX]

    @settings.autocomplete("value")
    async def setting_values(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        name = str(getattr(interaction.namespace, "name", "") or "").lower()
        variant = await _table_variant(flows, interaction)
        values: list[str]
        if name == "timer":
            values = list(TIMERS)
        elif name == "lang":
            values = ["en", "de"]
        elif name == "variant":
            values = catalogue.variant_ids()
        elif name == "preset":
            values = catalogue.preset_names(variant)
        else:
            found = [o for o in catalogue.option_specs(variant) if o.name == name]
            values = _values(found[0]) if found else []
        return [_choice(v) for v in values if v.startswith(current.lower())][:CHOICES_MAX]

    @group.command(name="hand", description="Show your hand and play from it")
    async def hand(interaction: discord.Interaction[Any]) -> None:
        await flows.slash_hand(interaction)

    @group.command(name="play", description="Make a move by typing it, e.g. ready or take 7h")
    @app_commands.describe(command="A command as in the help; the suggestions are your moves now")
    async def play(interaction: discord.Interaction[Any], command: str) -> None:
        await flows.slash_play(interaction, command)

    @play.autocomplete("command")
    async def my_moves(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        commands = await flows.entry.legal_commands(chat_key(interaction), user_ref(interaction))
        return command_completions(commands, current)

    @group.command(name="top", description="The best players in this channel")
    @app_commands.describe(
        board="This channel's players, or everyone's",
        variant="The game (default: this channel's)",
        season="A rating season (default: the running one)",
    )
    @app_commands.choices(
        board=[
            app_commands.Choice(name="This channel", value="here"),
            app_commands.Choice(name="Everywhere", value="global"),
        ],
        variant=_variant_choices(),
    )
    async def top(
        interaction: discord.Interaction[Any],
        board: str = "here",
        variant: str | None = None,
        season: app_commands.Range[int, 1, 10_000] | None = None,
    ) -> None:
        words = ["top", *(["global"] if board == "global" else [])]
        words += [variant] if variant else []
        words += ["season", str(season)] if season is not None else []
        await flows.slash_text(interaction, " ".join(words))

    @group.command(name="lang", description="The language the bot uses with you")
    @app_commands.describe(language="English, German, or what your Discord app uses")
    @app_commands.choices(
        language=[app_commands.Choice(name=name, value=value) for name, value in LANGUAGES]
    )
    async def lang(interaction: discord.Interaction[Any], language: str) -> None:
        await flows.slash_text(interaction, f"lang {language}")

    @group.command(
        name="coach", description="Your costliest moves after each deal, privately: on or off"
    )
    @app_commands.describe(mode="On: after each deal; off: never")
    @app_commands.choices(mode=[app_commands.Choice(name=word, value=word) for word in COACH])
    async def coach(interaction: discord.Interaction[Any], mode: str) -> None:
        await flows.slash_text(interaction, f"coach {mode}", private=True)

    return group


async def _table_variant(flows: Flows, interaction: discord.Interaction[Any]) -> str:
    info = await flows.entry.table_info(chat_key(interaction))
    return info.variant if info is not None else "basic"
