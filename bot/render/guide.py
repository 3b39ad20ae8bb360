"""The first game's guide: while a person has finished no game of a variant, the screen
says in plain words what they can do now and what to type for it, and the first refusal of
a kind explains the rule behind it with an example.

- :func:`guide_line` ``(view, legal, suggestion) -> str | None``: e.g. "So geht's: Ziehe
  eine Karte vom Nachziehstapel: `ziehen`; oder nimm die 7♥ vom Ablagestapel: `nehmen`."
  Every command in backticks is one of the seat's legal moves written in the reader's
  language (:func:`bot.i18n.notation.action_text`), the suggested move first; the
  scripted newcomer (``tests/bot/test_newcomer.py``) plays by typing them.
- :func:`refusal_lesson` ``(code, rules) -> str | None``: the rule behind a refusal
  (its how-to-play topic, :mod:`bot.render.howto`), or ``None``.

Whether a person is new to a variant comes from the stored results
(:meth:`bot.service.service.GameService.first_game`); which lessons were given is the
front end's memory only: it never changes the table. Call inside ``use_locale``.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import N_, _
from bot.i18n.notation import action_text
from bot.render.cards import card_text
from bot.render.hand import offer_label
from bot.render.howto import how_to_play
from engine.actions import Discard, Draw, LayOff, MeldCards, NextDeal, SwapJoker, TakeDiscard
from engine.rules import RuleSet
from engine.views import PlayerView

__all__ = ["guide_line", "refusal_lesson"]

_MAX_EXAMPLES = 2
"""Commands shown per kind of move (the suggested one first)."""


def _kind(action: object) -> str:
    """The kind of move a guide groups by (its action class)."""
    return type(action).__name__


def _phrase(action: object, view: PlayerView, command: str) -> str:
    """One kind of move in plain words with its command."""
    text = _draw_phrase(action, view, command)
    if text is None:
        text = _play_phrase(action, view, command)
    if text is not None:
        return text
    label = offer_label(action, view)[0]
    return _("{what}: {command}").format(what=label, command=command)


def _draw_phrase(action: object, view: PlayerView, command: str) -> str | None:
    """Drawing or taking from the discard pile (or row) in plain words with its
    ``command``; ``None`` for any other move."""
    tiles = view.table.rules.var.uses_tiles
    table = view.table
    match action:
        case Draw():
            return (
                _("draw a tile from the wall: {command}")
                if tiles
                else _("draw a card from the stock: {command}")
            ).format(command=command)
        case TakeDiscard(card=None):
            upcard = table.upcard
            return (
                _("take {card} from the discard row: {command}")
                if tiles
                else _("take {card} from the discard pile: {command}")
            ).format(card=card_text(upcard) if upcard is not None else "", command=command)
        case TakeDiscard(card=card) if card is not None:
            return _("take the discard pile down to {card}: {command}").format(
                card=card_text(card), command=command
            )
    return None


def _play_phrase(action: object, view: PlayerView, command: str) -> str | None:
    """Melding, laying off, swapping a joker, discarding or starting the next deal in
    plain words with its ``command``; ``None`` for any other move."""
    tiles = view.table.rules.var.uses_tiles
    match action:
        case MeldCards():
            return _("put a meld on the table: {command}").format(command=command)
        case LayOff():
            return _("lay off on a meld: {command}").format(command=command)
        case SwapJoker():
            return _("swap a joker: {command}").format(command=command)
        case Discard():
            return (
                _("discard a tile, which ends your turn: {command}")
                if tiles
                else _("discard a card, which ends your turn: {command}")
            ).format(command=command)
        case NextDeal():
            return _("start the next deal: {command}").format(command=command)
    return None


def guide_line(view: PlayerView, legal: Sequence[object], suggestion: object | None) -> str | None:
    """What the seat can do now and how, for a first game (see the module docstring);
    ``None`` when it has nothing to do."""
    if not legal:
        return None
    tiles = view.table.rules.var.uses_tiles
    ordered = list(legal)
    if suggestion is not None and suggestion in ordered:
        ordered.remove(suggestion)
        ordered.insert(0, suggestion)
    kinds: dict[str, list[object]] = {}
    for action in ordered:
        kinds.setdefault(_kind(action), []).append(action)
    parts = []
    for actions in kinds.values():
        shown = actions[:_MAX_EXAMPLES]
        commands = _(" or ").join(f"`{action_text(a, tiles)}`" for a in shown)
        parts.append(_phrase(shown[0], view, commands))
    text = _("; or ").join(parts)
    return _("What you can do: {moves}.").format(moves=text[:1].upper() + text[1:])


_LESSONS: dict[str, str] = {
    "wrong_phase": "turn",
    "cannot_discard_taken": "turn",
    "no_discard_left": "turn",
    "invalid_meld": "melds",
    "ambiguous_joker": "jokers",
    "meld_limit": "turn",
    "invalid_layoff": "layoff",
    "must_meld_first": "layoff",
    "no_such_meld": "layoff",
    "final_discard_required": "going_out",
    "all_at_once_required": "turn",
    "deep_take_not_allowed": "turn",
    "invalid_joker_swap": "jokers",
    # German Rommé
    "opening_too_low": "first_meld",
    "not_opened_yet": "first_meld",
    "exchange_needs_meld": "jokers",
    "exchange_no_joker": "jokers",
    "freed_joker_not_melded": "jokers",
    # Romanian Rummy
    "romanian_first_discard": "turn",
    "romanian_not_opened": "first_meld",
    "romanian_opening_low": "first_meld",
    "romanian_opening_run": "first_meld",
    "romanian_opening_turn": "first_meld",
    "romanian_few_tiles": "going_out",
    "romanian_first_tile": "turn",
    "romanian_must_go_out": "going_out",
    # Rummy 500
    "not_in_pile": "turn",
    "pile_card_unplayable": "turn",
    "must_play_pile_card": "turn",
    "no_call_window": "turn",
    "discarder_cannot_call": "turn",
    "not_callable": "turn",
    "playable_last_card": "going_out",
}
"""Refusal code -> the how-to-play topic that explains the rule behind it."""

_LESSON = N_("The rule: {rule}")


def refusal_lesson(code: str | None, rules: RuleSet) -> str | None:
    """The rule behind a refusal with code ``code`` under ``rules``, as one line of the
    how-to-play text ("The rule: A set is three or four cards of one rank: 7♥ 7♠ 7♦. ..."),
    or ``None`` for a refusal no rule explains (a typo, a card not in the hand)."""
    topic = _LESSONS.get(code or "")
    if topic is None:
        return None
    for section in how_to_play(rules):
        if section.topic == topic:
            return _(_LESSON).format(rule=" ".join(section.paragraphs))
    return None
