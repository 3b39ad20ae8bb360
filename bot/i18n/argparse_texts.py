"""argparse's own words (``usage:``, ``options``, its error messages) in the reader's
language: :func:`install` makes :mod:`argparse` look its texts up in our catalogues, so
``rummy-bot --lang de play --help`` shows "Aufruf:" and "Optionen:" around the German help
texts of :mod:`bot.cli`.

argparse translates through the module-level ``_`` and ``ngettext`` it imported from
:mod:`gettext` (the stdlib's "argparse" domain, which ships no German catalogue); the
msgids below are argparse's own (Python 3.11), marked here so they are extracted into
``bot/i18n/locale``. They keep argparse's ``%``-placeholders.
"""

from __future__ import annotations

import argparse

from bot.i18n import N_, gettext, ngettext

__all__ = ["ARGPARSE_TEXTS", "install"]

ARGPARSE_TEXTS: tuple[str, ...] = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("ignored explicit argument %r"),
)
"""argparse's player-facing texts (the msgids it passes to ``_``)."""


def install() -> None:
    """Let :mod:`argparse` translate its texts with our catalogues in the current locale
    (:data:`bot.i18n.current_locale`); English stays as argparse writes it."""
    argparse._ = gettext  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]
