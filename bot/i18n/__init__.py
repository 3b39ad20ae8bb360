"""Translations for the bot layer (gettext catalogues, one locale per asyncio task).

Usage::

    from bot.i18n import _, ngettext, use_locale

    with use_locale(player_locale):          # e.g. "de-DE" from Discord/Telegram
        text = _("It is {name}'s turn.").format(name=name)
        cards = ngettext("{n} card", "{n} cards", n).format(n=n)

Messages use ``str.format`` placeholders (``{name}``), never ``%``; translators
must keep the placeholder names (``tests/bot/test_i18n.py`` checks this). Mark
strings that are translated later (module-level constants) with ``N_`` and pass
them through ``_`` at the point of use.

The active locale is the ContextVar ``current_locale``: every asyncio task gets
its own copy, so concurrent handlers for players with different languages never
see each other's locale.

Catalogues
----------
The ``.po`` files in ``bot/i18n/locale/<lang>/LC_MESSAGES/messages.po`` are the
source of truth. No compiled ``.mo`` files are kept in git: at first use a
catalogue is read with Babel, compiled to ``.mo`` bytes in memory and wrapped in
:class:`gettext.GNUTranslations`. Untranslated (empty) and fuzzy entries fall
back to the English msgid. The English catalogue may stay empty.

Updating the catalogues after adding or changing strings (from the repo root)::

    pybabel extract -F babel.cfg -k N_ -k _ -o bot/i18n/messages.pot bot engine
    pybabel update -i bot/i18n/messages.pot -d bot/i18n/locale -D messages

(``gettext`` and ``ngettext`` are among pybabel's default keywords.) The texts that
come from the engine (variant names, option, preset and verb help) are not in the bot's
source; ``python -m bot.i18n.engine_texts`` adds the missing ones. Then fill
in every new German ``msgstr`` in ``bot/i18n/locale/de/LC_MESSAGES/messages.po``
and remove any ``#, fuzzy`` flags after checking those entries; the test
``tests/bot/test_i18n.py`` fails while a German translation is missing or fuzzy.
"""

from __future__ import annotations

import gettext as _stdlib_gettext
import io
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

__all__ = [
    "DEFAULT_LOCALE",
    "DOMAIN",
    "LOCALE_DIR",
    "N_",
    "SUPPORTED_LOCALES",
    "_",
    "clear_cache",
    "current_locale",
    "gettext",
    "is_supported_locale",
    "load_translations",
    "ngettext",
    "normalize_locale",
    "translate",
    "use_locale",
]

SUPPORTED_LOCALES: tuple[str, ...] = ("en", "de")
"""Locales with a catalogue, as lower-case ISO 639-1 language codes."""

DEFAULT_LOCALE = "en"
"""Locale used for unknown or missing language tags; also the msgid language."""

DOMAIN = "messages"
"""gettext domain: the catalogue file name without extension."""

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
"""Directory holding ``<lang>/LC_MESSAGES/messages.po``."""

current_locale: ContextVar[str] = ContextVar("current_locale", default=DEFAULT_LOCALE)
"""Locale of the current asyncio task / context; set it with :func:`use_locale`."""

_cache: dict[str, _stdlib_gettext.NullTranslations] = {}
_cache_lock = threading.Lock()


def _language_part(tag: str) -> str:
    """Return the lower-cased language subtag of ``tag`` ("de_AT.UTF-8" -> "de")."""
    for separator in ("-", "_", ".", "@"):
        tag = tag.split(separator, 1)[0]
    return tag.strip().lower()


def is_supported_locale(tag: str | None) -> bool:
    """Return True if the language of ``tag`` (e.g. "de-DE", "EN") has a catalogue."""
    return bool(tag) and _language_part(tag or "") in SUPPORTED_LOCALES


def normalize_locale(tag: str | None) -> str:
    """Map a language tag from a platform or user to a supported locale.

    Region, script, encoding and case are ignored: ``"de-DE"``, ``"de_AT"``,
    ``"DE"`` and ``"de_CH.UTF-8"`` all give ``"de"``. ``None``, empty and
    unsupported tags give :data:`DEFAULT_LOCALE` (``"en"``). Never raises.
    """
    if not tag:
        return DEFAULT_LOCALE
    language = _language_part(tag)
    return language if language in SUPPORTED_LOCALES else DEFAULT_LOCALE


@contextmanager
def use_locale(locale: str | None) -> Iterator[str]:
    """Set :data:`current_locale` for the duration of a ``with`` block.

    ``locale`` is normalised with :func:`normalize_locale` first; the block
    receives the normalised locale. The previous value is restored on exit,
    also on exceptions. Only the current context (asyncio task) is affected.
    """
    token = current_locale.set(normalize_locale(locale))
    try:
        yield current_locale.get()
    finally:
        current_locale.reset(token)


def load_translations(
    locale: str, locale_dir: Path = LOCALE_DIR, domain: str = DOMAIN
) -> _stdlib_gettext.NullTranslations:
    """Read ``<locale_dir>/<locale>/LC_MESSAGES/<domain>.po`` and compile it in memory.

    Returns a :class:`gettext.GNUTranslations`, or a
    :class:`gettext.NullTranslations` (identity) if the file does not exist.
    Fuzzy and untranslated entries are left out, so they fall back to the
    msgid. Not cached; use :func:`translate` for cached lookups. Raises
    ``babel.messages.pofile.PoFileError``/``OSError`` for unreadable files.
    """
    po_path = locale_dir / locale / "LC_MESSAGES" / f"{domain}.po"
    if not po_path.is_file():
        return _stdlib_gettext.NullTranslations()
    with po_path.open("rb") as po_file:
        catalog = read_po(po_file, locale=locale, domain=domain)
    # Drop untranslated entries ourselves: Babel's write_mo keeps plural
    # entries whose forms are all empty strings, which would translate to "".
    for message in list(catalog):
        if not message.id:
            continue  # the header
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(forms):
            del catalog[message.id]
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return _stdlib_gettext.GNUTranslations(buffer)


def _translations(locale: str) -> _stdlib_gettext.NullTranslations:
    """Return the cached translations for a normalised ``locale``, loading on first use."""
    translations = _cache.get(locale)
    if translations is None:
        with _cache_lock:
            translations = _cache.get(locale)
            if translations is None:
                translations = load_translations(locale)
                _cache[locale] = translations
    return translations


def clear_cache() -> None:
    """Forget all loaded catalogues; the next lookup re-reads the ``.po`` files."""
    with _cache_lock:
        _cache.clear()


def translate(message: str, locale: str | None) -> str:
    """Translate ``message`` into ``locale`` (any tag, normalised); fall back to ``message``."""
    return _translations(normalize_locale(locale)).gettext(message)


def gettext(message: str) -> str:
    """Translate ``message`` into the :data:`current_locale`; fall back to ``message``."""
    return translate(message, current_locale.get())


_ = gettext


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate a message with a plural form for count ``n`` into the current locale.

    Picks the plural form by the locale's plural rule; without a translation
    returns ``singular`` if ``n == 1`` else ``plural``. Format the count in
    yourself, e.g. ``ngettext("{n} card", "{n} cards", n).format(n=n)``.
    """
    return _translations(normalize_locale(current_locale.get())).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it; returns it unchanged."""
    return message
