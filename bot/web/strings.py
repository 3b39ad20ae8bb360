"""The page's own words (:data:`PAGE_STRINGS`), from the same gettext catalogues as the
chats: the page asks ``GET <pages>/api/strings?lang=de`` once and looks every text up by
its English msgid. Card and tile names are built on the page from the parts below
("{rank} of {suit}" -> "queen of hearts"; German "{suit} {rank}" -> "Herz Dame"), so the
cards themselves travel as codes (:mod:`bot.web.protocol`).
"""

from __future__ import annotations

from bot.i18n import N_, SUPPORTED_LOCALES, _, ngettext, normalize_locale, use_locale
from bot.render.hand import BY_COLOUR, SORT_NAMES

__all__ = ["PAGE_PLURALS", "PAGE_STRINGS", "page_strings"]

CARD_WORDS: tuple[str, ...] = (
    # ranks
    N_("ace"),
    N_("two"),
    N_("three"),
    N_("four"),
    N_("five"),
    N_("six"),
    N_("seven"),
    N_("eight"),
    N_("nine"),
    N_("ten"),
    N_("jack"),
    N_("queen"),
    N_("king"),
    N_("joker"),
    # suits
    N_("clubs"),
    N_("diamonds"),
    N_("hearts"),
    N_("spades"),
    # tile colours
    N_("red"),
    N_("yellow"),
    N_("blue"),
    N_("black"),
    N_("Joly"),
    # how a name is put together
    N_("{rank} of {suit}"),
    N_("{colour} {number}"),
    N_("{joker} as {face}"),
    N_("face-down card"),
    N_("face-down tile"),
)
"""The parts of card and tile names (the page puts them together)."""

PAGE_WORDS: tuple[str, ...] = (
    N_("Rummy table"),
    N_("Connecting…"),
    N_("Connection lost; connecting again…"),
    N_("This page was closed; open the table again from the chat."),
    N_(
        "Open this table from the chat: the button under the table message, or the "
        "web table button of your hand."
    ),
    N_("Signing in failed: {reason}"),
    N_("You watch this table."),
    N_("Your hand"),
    N_("Your rack"),
    N_("Stock"),
    N_("Wall"),
    N_("Discard pile"),
    N_("Discard row"),
    N_("Face-up tile"),
    N_("Melds"),
    N_("No melds on the table yet."),
    N_("Players"),
    N_("Last moves"),
    N_("Score sheet"),
    N_("Rules of this table"),
    N_("How to play"),
    N_("Sort"),
    N_("Hint"),
    N_("Close"),
    N_("Coach"),
    N_("Moves"),
    N_("Nothing to do now."),
    N_("Select cards to see what you can do with them."),
    N_("Select tiles to see what you can do with them."),
    N_("melded"),
    N_("AI"),
    N_("the AI plays for now"),
    N_("dealer"),
    N_("to play"),
    N_("{n} left"),
    N_("Deal {number}"),
    N_("Turn time: {time}"),
    N_("Table {number}"),
    N_("The table is closed."),
    N_("The game has not started yet."),
    N_("selected"),
    N_("Clear selection"),
    N_("Drag to reorder"),
    # a drag onto the pile, the table or a meld that the server's offers do not allow
    N_("It is not your turn."),
    N_("You cannot discard that now."),
    N_("That does not fit this meld now."),
    N_("That is not a meld you can lay down now."),
    # a setting of the page: diamonds blue and clubs green, for colour-blind players
    N_("Four-colour deck"),
    # a setting of the page: short sounds for a draw, a discard and the turn's start
    N_("Sounds"),
    # a Discord Activity: the people connected to it
    N_("In this Activity"),
    N_("You"),
    N_("Example"),
    N_("Out of turn"),
    N_("Every deal"),
    N_("Join"),
    N_("Leave"),
    N_("Start"),
    # the AI levels (bot.render.lobby.LEVEL_NAMES)
    N_("easy"),
    N_("normal"),
    N_("hard"),
    N_("expert"),
    # the replay of finished deals
    N_("Replay"),
    N_("Hands"),
    N_("Back"),
    N_("Play"),
    N_("Pause"),
    N_("Next"),
    N_("Jump to a deal"),
    N_("Back to the table"),
    N_("Deal {deal} as dealt"),
    N_("Deal {deal}, move {number}"),
)
"""The page's labels, headings and messages."""

PAGE_PLURALS: tuple[tuple[str, str], ...] = (
    ("{n} card", "{n} cards"),
    ("{n} tile", "{n} tiles"),
)
"""Counts the page says (bot/web/static/format.js): each form is sent under its own msgid,
the singular's text for exactly one, the plural's for any other number (the rule of both
of the page's languages), from the chats' plural entries."""

PAGE_STRINGS: tuple[str, ...] = CARD_WORDS + PAGE_WORDS + SORT_NAMES + (BY_COLOUR,)
"""Every msgid the page looks up (besides :data:`PAGE_PLURALS`)."""


def page_strings(lang: str | None) -> dict[str, object]:
    """``{"locale": "de", "strings": {msgid: text}}`` for ``lang`` (any tag; an
    unsupported one gives the default language)."""
    locale = normalize_locale(lang)
    if locale not in SUPPORTED_LOCALES:
        locale = normalize_locale(None)
    with use_locale(locale):
        strings = {msgid: _(msgid) for msgid in PAGE_STRINGS}
        for one, other in PAGE_PLURALS:
            strings[one] = ngettext(one, other, 1)
            strings[other] = ngettext(one, other, 2)
        return {"locale": locale, "strings": strings}
