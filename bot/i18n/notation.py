"""Cards, tiles and commands in the reader's language: what a screen shows and what it
tells a person to type.

The records, action logs and exports keep the language-neutral English codes and verbs
(:func:`engine.commands.format_action`, ``str(card)``); this module is display only, and
everything it writes is read back by the command language (:func:`engine.commands.
parse_command` reads both notations and every alias):

- :func:`card_text`: the display form, ``D♥`` / ``Q♥`` (German ranks Bube, Dame, König,
  Ass), tiles ``🔴7``, the joker ``🃏``;
- :func:`card_code`: the code to type, ``dhe`` / ``qh``, ``g11`` / ``y11``, ``jo``
  (engine.cards ``NOTATIONS``);
- :func:`verb_word`: the verb to type, ``ziehen`` / ``draw`` (:data:`GERMAN_VERBS`);
- :func:`command_text` / :func:`action_text`: a whole command, ``abwerfen dhe``.

The language is :data:`bot.i18n.current_locale` (call inside ``use_locale``).
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import current_locale
from engine.cards import Card
from engine.cards import card_code as _engine_code
from engine.commands import canonical_verb, format_action
from engine.errors import CardParseError
from engine.melds import CardSpec

__all__ = [
    "GERMAN_VERBS",
    "action_text",
    "card_code",
    "card_text",
    "command_text",
    "notation_examples",
    "verb_aliases",
    "verb_word",
]

GERMAN_VERBS: Mapping[str, tuple[str, ...]] = {
    # game moves (engine.verbs.COMMANDS)
    "draw": ("ziehen",),
    "take": ("nehmen", "aufnehmen"),
    "meld": ("melden",),
    "layoff": ("anlegen",),
    "swap": ("tauschen",),
    "discard": ("abwerfen",),
    "next": ("weiter",),
    # the screens' own verbs
    "sort": ("sortieren",),
    "hint": ("tipp",),
    "help": ("hilfe",),
    "rules": ("regeln",),
    "hand": ("hand",),
    "table": ("tisch",),
    "score": ("punkte",),
    "quit": ("ende",),
    "back": ("zurück", "zurueck"),
    # variants' verbs
    "call": ("rufen", "rommé"),
    "exchange": ("austauschen", "jokertausch"),
    "takeback": ("zurücknehmen", "zuruecknehmen"),
    "done": ("fertig",),
    "buyback": ("rückkauf", "rueckkauf"),
    "decline": ("verzichten",),
    "doubla": ("doubla",),
    "offer": ("anbieten",),
    "accept": ("annehmen",),
    "reject": ("ablehnen",),
    "announce": ("ansagen",),
    "ready": ("bereit",),
    "faceup": ("aufgedeckt",),
    "joly": ("joly",),
    # the table verbs (bot.interaction.commands.VERBS)
    "new": ("neu",),
    "join": ("mitspielen", "beitreten"),
    "leave": ("verlassen",),
    "addbot": ("ki",),
    "removebot": ("entfernen",),
    "set": ("einstellungen",),
    "start": ("los",),
    "cancel": ("abbrechen",),
    "lang": ("sprache",),
    "stats": ("statistik",),
    "top": ("rangliste",),
    "season": ("saison",),
    "export": ("exportieren",),
}
"""Canonical verb -> its German words, the first shown on German screens. Every word is an
alias the command language reads (``tests/bot/test_notation_display.py`` checks it)."""

_WORDS: Mapping[str, str] = {
    "high": "hoch",
    "low": "niedrig",
    "command": "befehl",
    "variant": "variante",
    "preset": "voreinstellung",
    "option": "option",
    "value": "wert",
    "name": "name",
    "seat": "platz",
    "melds": "meldungen",
    "easy": "leicht",
    "normal": "normal",
    "hard": "schwer",
    "expert": "experte",
    "en": "en",
    "de": "de",
    "auto": "auto",
    "...": "...",
    "topic": "thema",
    "new": "neu",
}
"""Further words of commands and their syntax, in German (``doubla hoch``, ``hilfe
[befehl]``)."""


def _german() -> bool:
    return current_locale.get() == "de"


def verb_word(verb: str) -> str:
    """The word to type for the canonical ``verb`` in the current language: ``ziehen`` for
    ``draw`` in German; the verb itself in English or when it has no German word."""
    if _german():
        words = GERMAN_VERBS.get(verb)
        if words:
            return words[0]
    return verb


def verb_aliases(verb: str, aliases: tuple[str, ...]) -> tuple[str, ...]:
    """The other words of ``verb`` worth showing in the current language: in English its
    ``aliases`` (short and German ones); in German only its further German words (the
    English verb is read too, but a German screen shows German words)."""
    if _german():
        return GERMAN_VERBS.get(verb, ())[1:]
    return aliases


def card_text(card: Card) -> str:
    """The display form of ``card``: ``7♥``, ``10♦``, ``D♠`` (German) / ``Q♠``, ``🃏``,
    tiles ``🔴7``."""
    text = card.pretty()
    if _german() and card.rank in (11, 12) and card.suit is not None and not card.suit.is_colour:
        return ("B" if card.rank == 11 else "D") + text[1:]
    return text


def face_text(card: Card) -> str:
    """A joker's declared face: a card (``9♥``) or a rank alone (``D``, ``9``)."""
    if card.suit is None:
        return card_code(card).upper()
    return card_text(card)


def card_code(card: Card, tiles: bool = False) -> str:
    """The code to type for ``card`` in the current language: ``dhe`` / ``qh``, tiles
    ``g11`` / ``y11``, the Joly ``jo`` (with ``tiles``), the joker ``jk``."""
    return _engine_code(card, current_locale.get(), tiles or _is_tile(card))


def _is_tile(card: Card) -> bool:
    return card.suit is not None and card.suit.is_colour


def _word(word: str, tiles: bool) -> str:
    """One argument of a command in the current language: a card (or ``jk=8h``) as its
    code, ``high``/``low`` in German; anything else (``|``, meld numbers, names) as is."""
    if word in ("|", "/") or word.isdigit():
        return word
    german = _german_word(word)
    if german is not None:
        return german
    return _card_word(word, tiles)


def _german_word(word: str) -> str | None:
    """On a German screen, the German form of a word of :data:`_WORDS` (``high``,
    ``low``, ...) or of such words joined by ``|`` or ``=``; ``None`` otherwise."""
    if not _german():
        return None
    if word.lower() in _WORDS:
        return _WORDS[word.lower()]
    for joint in ("|", "="):
        if joint in word and all(part.lower() in _WORDS for part in word.split(joint)):
            return joint.join(_WORDS[part.lower()] for part in word.split(joint))
    return None


def _card_word(word: str, tiles: bool) -> str:
    """A card (or a joker with its face, ``jk=8h``) as its code in the current language;
    a word that is no card as is."""
    try:
        spec = CardSpec.parse(word)
    except CardParseError:
        return word
    text = card_code(spec.card, tiles)
    if spec.face is not None:
        face = spec.face
        text += "=" + (
            card_code(face, tiles) if face.suit is not None or not tiles else str(face.rank)
        )
    return text


def command_text(command: str, tiles: bool = False) -> str:
    """A command written in English notation (``discard qh``, ``meld r5 r6 r7 | b9 k9 y9``,
    ``help [command]``) in the current language (``abwerfen dhe``): the verb's word and
    every card code; other words stay. ``tiles``: the table plays with tiles (``jk`` is
    then written ``jo``)."""
    words = command.split()
    if not words:
        return command
    first = words[0].strip("[]").lower()
    verb = canonical_verb(first) or (first if first in GERMAN_VERBS else None)
    head = verb_word(verb) if verb is not None else words[0]
    rest = []
    for word in words[1:]:
        inner = word.strip("[]")
        shown = _word(inner, tiles)
        rest.append(word.replace(inner, shown, 1) if inner else word)
    return " ".join([head, *rest])


def action_text(action: object, tiles: bool = False) -> str:
    """An engine action as the command that makes it, in the current language
    (``abwerfen dhe``, ``melden 7he 8he 9he``); ``parse_command`` reads it back as the
    same action."""
    return command_text(format_action(action), tiles)  # type: ignore[arg-type]


def notation_examples(tiles: bool) -> str:
    """Example codes for the help screen: ``7he 10ka dpi akr jk`` (German) or ``7h 10d qs
    ac jk``; tiles ``r7 g10 b13 s1 jo`` / ``r7 y10 b13 k1 jo``."""
    from engine.cards import parse_card

    samples = ("r7", "y10", "b13", "k1", "jo") if tiles else ("7h", "10d", "qs", "ac", "jk")
    return " ".join(card_code(parse_card(s), tiles) for s in samples)
