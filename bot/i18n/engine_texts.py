"""The player-facing English texts that come from the engine, as msgids of the catalogue.

The engine does no I/O and knows no gettext: variant names, option and preset help texts
and the help of every verb are English data in ``engine/variants/*`` and
``engine/verbs.py``. The bot translates them with ``_(text)`` where it shows them
(:mod:`bot.render.rules`, :mod:`bot.render.lobby`, table titles), so each of those texts
must be a msgid with a German translation. :func:`engine_texts` lists them all with
where they come from; ``tests/bot/test_i18n_engine_texts.py`` fails while one has no
German translation, and ::

    python -m bot.i18n.engine_texts

adds the missing ones (empty ``msgstr``) to ``messages.pot`` and both ``.po`` files, for
a translator to fill in (after ``pybabel extract``/``update``, which do not see them).
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.pofile import read_po

from bot.i18n import LOCALE_DIR
from engine.commands import command_table
from engine.variants import VARIANTS

__all__ = ["engine_texts", "missing_texts"]

POT = Path(__file__).with_name("messages.pot")


def engine_texts() -> dict[str, str]:
    """Every engine text a player can see -> where it comes from (e.g.
    ``"german option opening"``), in registry order: for each variant its name, its
    options' help (and their sources where these are our own remarks rather than quotes of
    a rule text), its presets' help and the help of every verb of its command table."""
    found: dict[str, str] = {}
    for variant in VARIANTS.values():
        found.setdefault(variant.name, f"{variant.id} name")
        for option in variant.options:
            found.setdefault(option.help, f"{variant.id} option {option.name}")
            if not option.quotes_rule_text:  # our own remark, not a quote
                found.setdefault(option.source, f"{variant.id} option {option.name} source")
        for name, preset in variant.presets.items():
            found.setdefault(preset.help, f"{variant.id} preset {name}")
        for command in command_table(variant.id):
            found.setdefault(command.help, f"{variant.id} verb {command.verb}")
    return found


def missing_texts(po_file: Path) -> dict[str, str]:
    """The engine texts that ``po_file`` (a ``.po`` or ``.pot`` file) has no entry for."""
    with po_file.open("rb") as handle:
        catalog = read_po(handle)
    return {text: origin for text, origin in engine_texts().items() if catalog.get(text) is None}


def _po_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main() -> int:
    """Append the missing engine texts to the template and both catalogues; prints how many
    were added to each file."""
    files = [POT, *(LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po" for lang in ("de", "en"))]
    for path in files:
        missing = missing_texts(path)
        if missing:
            with path.open("a", encoding="utf-8") as out:
                for text, origin in missing.items():
                    out.write(f'\n#. engine: {origin}\nmsgid {_po_string(text)}\nmsgstr ""\n')
        print(f"{path}: {len(missing)} added")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
