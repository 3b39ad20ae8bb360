"""The coach's notes as text (:mod:`engine.ai.coach`), in the current language.

One short block per note: where (deal and turn), the position as the seat saw it (hand,
upcard or visible discard pile, melds on the table), what they did, what the expert would
have done with its estimated gain, and why in one sentence built from the note's
structured reason. A deal without notes gets one line that says so. Cards are named
through :mod:`bot.render.cards` (German card names in German), moves through the hand
screen's move labels (:func:`bot.render.hand.offer_label`). Call inside ``use_locale``.

The notes are engine records; this module only reads their fields (the screens import
no AI: the coach runs in the engine worker pool, pyproject's import contracts).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.i18n import _, ngettext
from bot.render.cards import card_text, cards_text, hand_by_suit, meld_text
from bot.render.hand import offer_label
from engine.cards import Card, sort_cards
from engine.views import PlayerView

if TYPE_CHECKING:
    from engine.ai.coach import CoachNote, DealReview, Reason

__all__ = [
    "VISIBLE_DISCARDS",
    "coach_text",
    "deal_review_text",
    "estimate_text",
    "note_text",
    "position_lines",
    "reason_text",
    "sorted_meld",
]

VISIBLE_DISCARDS = 8
"""The most cards of a public discard pile shown in a note's position (the top ones)."""


def deal_review_text(review: DealReview, players: Sequence[str] | None = None) -> str:
    """The coach's word on one deal: a heading naming the deal (and the player, when
    ``players`` names the seats), then one block per note, blank lines between; or one
    line saying no move was clearly worse."""
    if not review.notes:
        if players is not None:
            return _("Deal {deal}, {name}: no move was clearly worse than the expert's.").format(
                deal=review.deal, name=players[review.seat]
            )
        return _("Deal {deal}: no move was clearly worse than the expert's.").format(
            deal=review.deal
        )
    if players is not None:
        head = ngettext(
            "Deal {deal}, {name}: {count} move the expert would have played otherwise.",
            "Deal {deal}, {name}: {count} moves the expert would have played otherwise.",
            len(review.notes),
        ).format(deal=review.deal, name=players[review.seat], count=len(review.notes))
    else:
        head = ngettext(
            "Deal {deal}: {count} move the expert would have played otherwise.",
            "Deal {deal}: {count} moves the expert would have played otherwise.",
            len(review.notes),
        ).format(deal=review.deal, count=len(review.notes))
    return "\n\n".join([head, *(note_text(n) for n in review.notes)])


def coach_text(notes: Sequence[CoachNote], deal: int) -> str:
    """The notes on ``deal`` (as :func:`engine.ai.coach.review_deal` returns them) as one
    text: a block per note, or one line when there are none."""
    if not notes:
        return _("Deal {deal}: no move was clearly worse than the expert's.").format(deal=deal)
    return "\n\n".join(note_text(n) for n in notes)


def note_text(note: CoachNote) -> str:
    """One note: where, the position, the move taken, the expert's move with its estimate,
    and why::

        Deal 1, your turn 4:
          Your hand: 7♥ 8♥ 9♥  K♠ …
          Upcard: 3♣
          Table: no melds
          You: Discard 8♥
          The expert: Meld 7♥ 8♥ 9♥ 10♥ (about +56 % of hands won, +31 points)
          Why: melding 7♥ 8♥ 9♥ 10♥ would have taken 34 points out of your hand.
    """
    view = note.view
    lines = [_("Deal {deal}, your turn {turn}:").format(deal=note.deal, turn=note.turn)]
    lines += ["  " + line for line in position_lines(view)]
    lines.append("  " + _("You: {move}").format(move=offer_label(note.chosen, view)[0]))
    lines.append(
        "  "
        + _("The expert: {move} ({estimate})").format(
            move=offer_label(note.better, view)[0], estimate=estimate_text(note)
        )
    )
    lines.append("  " + _("Why: {reason}").format(reason=reason_text(note.reason, view)))
    return "\n".join(lines)


def position_lines(view: PlayerView) -> list[str]:
    """The position as the seat saw it: its hand, the upcard (or the visible part of a
    public discard pile, top last), the melds on the table."""
    table = view.table
    tiles = table.rules.var.uses_tiles
    hand = hand_by_suit(view.hand)
    if tiles:
        lines = [_("Your rack: {cards}").format(cards=hand)]
    else:
        lines = [_("Your hand: {cards}").format(cards=hand)]
    if len(table.discard) > 1:
        shown = table.discard[-VISIBLE_DISCARDS:]
        more = "… " if len(table.discard) > len(shown) else ""
        lines.append(_("Discard pile: {cards}").format(cards=more + cards_text(shown)))
    elif table.upcard is not None:
        lines.append(_("Upcard: {card}").format(card=card_text(table.upcard)))
    else:
        lines.append(_("The discard pile is empty."))
    if table.melds:
        melds = "  ".join(
            f"{number}) {meld_text(meld)}" for number, meld in enumerate(table.melds, start=1)
        )
        lines.append(_("Table: {melds}").format(melds=melds))
    else:
        lines.append(_("Table: no melds"))
    return lines


def estimate_text(note: CoachNote) -> str:
    """The expert's estimated gain: "about +56 % of hands won, +31 points"."""
    return _("about {chance} of hands won, {points} points").format(
        chance=f"{note.win_chance * 100:+.0f} %", points=f"{note.points:+.0f}"
    )


def reason_text(reason: Reason, view: PlayerView) -> str:
    """The reason as one sentence (see :class:`engine.ai.coach.ReasonKind` for the cards
    each kind names)."""
    kind = str(reason.kind)
    cards = reason.cards
    players = view.table.players
    name = players[reason.seat] if reason.seat is not None else ""
    if kind == "lay_off":
        return _("laying off {cards} would have saved {points} points.").format(
            cards=cards_text(cards), points=reason.points
        )
    if kind == "meld":
        return _("melding {cards} would have taken {points} points out of your hand.").format(
            cards=cards_text(cards), points=reason.points
        )
    if kind == "breaks_meld":
        return _("{card} belonged to your meld {cards}.").format(
            card=card_text(cards[0]), cards=cards_text(sorted_meld(cards))
        )
    if kind == "keeps_outs":
        return ngettext(
            "keeping {card} keeps {ways} way to complete {cards}.",
            "keeping {card} keeps {ways} ways to complete {cards}.",
            reason.count,
        ).format(card=card_text(cards[0]), ways=reason.count, cards=cards_text(sorted_meld(cards)))
    if kind == "feeds_table":
        return _("{card} fits a meld on the table: {name} could lay it off.").format(
            card=card_text(cards[0]), name=name
        )
    if kind == "feeds":
        return _("{card} is likely to help {name}, who plays next.").format(
            card=card_text(cards[0]), name=name
        )
    if kind == "take_fits":
        return _("{card} from the discard pile makes a meld with {cards} in your hand.").format(
            card=card_text(cards[0]), cards=cards_text(cards[1:])
        )
    if kind == "take_unused":
        return _("{card} from the discard pile fits nothing in your hand.").format(
            card=card_text(cards[0])
        )
    if kind == "deadwood":
        return _("discarding {card} leaves {points} more points in your hand than {other}.").format(
            card=card_text(cards[0]), other=card_text(cards[1]), points=reason.points
        )
    return _("the expert's playouts from this position favour its move.")


def sorted_meld(cards: Sequence[Card]) -> tuple[Card, ...]:
    """Cards of a meld in hand in card order (as the hand shows them)."""
    return sort_cards(cards)
