"""German names and descriptions of the slash commands, from the bot's gettext catalogues.

discord.py asks an :class:`app_commands.Translator` for every string of every command
and locale when it syncs the commands; Discord then shows each user the names and
descriptions of their client's language. Descriptions and choice names are looked up
as they are (English msgids); command and option names get the msgid ``name:<name>``
(a name is a different thing than the same English word in a sentence, and Discord
wants names lower case without spaces: ``name:new`` -> ``neu``).
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import N_, _, use_locale

#: Discord locales with a catalogue, and the catalogue's locale.
LOCALES: dict[discord.Locale, str] = {discord.Locale.german: "de"}

#: The command and option names, marked for the catalogues.
NAMES: tuple[str, ...] = (
    N_("name:rummy"),
    N_("name:new"),
    N_("name:join"),
    N_("name:leave"),
    N_("name:start"),
    N_("name:addbot"),
    N_("name:settings"),
    N_("name:cancel"),
    N_("name:hand"),
    N_("name:rules"),
    N_("name:stats"),
    N_("name:top"),
    N_("name:lang"),
    N_("name:variant"),
    N_("name:preset"),
    N_("name:options"),
    N_("name:kind"),
    N_("name:name"),
    N_("name:value"),
    N_("name:language"),
    N_("name:play"),
    N_("name:command"),
    N_("name:board"),
    N_("name:season"),
    N_("name:coach"),
    N_("name:mode"),
    N_("name:replay"),
)

#: The descriptions, marked for the catalogues (they are written in commands.py).
DESCRIPTIONS: tuple[str, ...] = (
    N_("Play Rummy in this channel"),
    N_("Open a table in this channel"),
    N_("The game to play"),
    N_("A rule set of the variant"),
    N_("Rule options as name=value, e.g. deals=1"),
    N_("Take a seat at the table"),
    N_("Leave the table (the AI plays your seat)"),
    N_("Start the game (host)"),
    N_("Add an AI player (host)"),
    N_("How the AI plays"),
    N_("Change a setting before the start (host)"),
    N_("timer, lang, variant, preset or a rule option"),
    N_("The new value"),
    N_("Cancel the game (host or moderator)"),
    N_("Show your hand and play from it"),
    N_("The rules of this table"),
    N_("Your games and wins"),
    N_("The best players in this channel"),
    N_("This channel's players, or everyone's"),
    N_("The game (default: this channel's)"),
    N_("A rating season (default: the running one)"),
    N_("Start a new rating season in this channel (host or moderator)"),
    N_("Step through the finished deals of this channel's game"),
    N_("This channel"),
    N_("Everywhere"),
    N_("The language the bot uses with you"),
    N_("English, German, or what your Discord app uses"),
    N_("Your costliest moves after each deal, privately: on or off"),
    N_("On: after each deal; off: never"),
    # the choices of /rummy coach
    N_("on"),
    N_("off"),
    N_("Make a move by typing it, e.g. ready or take 7h"),
    N_("A command as in the help; the suggestions are your moves now"),
)

_NAME_LOCATIONS = (
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
)


class RummyTranslator(app_commands.Translator):
    """Translates the command tree into the locales of :data:`LOCALES`."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The translation, or ``None`` (Discord then shows the English text)."""
        language = LOCALES.get(locale)
        if language is None:
            return None
        is_name = context.location in _NAME_LOCATIONS
        msgid = f"name:{string.message}" if is_name else string.message
        with use_locale(language):
            text = _(msgid)
        if text == msgid:
            return None
        return text.lower() if is_name else text
