"""One line of text per engine event (what just happened at the table).

Events are public (:mod:`engine.events`), so these lines may be shown to
everyone. Meld numbers are 1-based, as players type them.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import _, ngettext
from bot.render.cards import card_text, cards_text, meld_text, points_text
from engine.events import (
    DealStarted,
    Discarded,
    Drew,
    Event,
    GameEnded,
    HandEnded,
    JokerSwapped,
    LaidOff,
    Melded,
    StockRenewed,
    TookDiscard,
    WentOut,
)
from engine.views import PublicView

__all__ = ["deal_blocked_text", "event_line", "render_event"]


def render_event(event: Event, players: Sequence[str], *, tiles: bool = False) -> str:
    """One line describing ``event``; ``players`` are the names by seat; ``tiles``: the
    table plays with tiles (Romanian Rummy), whose stock is the wall.

    Examples (English): "ben draws from the stock", "ana takes 7♥",
    "ana melds 7♥ 8♥ 9♥ (meld 3)", "ana goes out — going rummy!".
    """
    text = _deal_line(event, players, tiles)
    if text is None:
        text = _move_line(event, players, tiles)
    if text is not None:
        return text
    from bot.render.variants import render_variant_event

    text = render_variant_event(event, players)
    return text if text is not None else str(event)


def _deal_line(event: Event, players: Sequence[str], tiles: bool) -> str | None:
    """The line of an event of the deal as a whole (its start, a renewed stock, its end,
    the game's end), or ``None`` for any other event."""
    match event:
        case DealStarted(deal_number=number, dealer=dealer, upcard=upcard):
            if upcard is None:
                return _("Deal {number}: {dealer} deals.").format(
                    number=number, dealer=players[dealer]
                )
            return _("Deal {number}: {dealer} deals, the upcard is {card}.").format(
                number=number, dealer=players[dealer], card=card_text(upcard)
            )
        case StockRenewed(cards=cards, shuffled=shuffled):
            if shuffled:
                return ngettext(
                    "The stock is used up: the discard pile is shuffled into a new stock "
                    "({n} card).",
                    "The stock is used up: the discard pile is shuffled into a new stock "
                    "({n} cards).",
                    cards,
                ).format(n=cards)
            return ngettext(
                "The stock is used up: the discard pile is turned over as the new stock "
                "({n} card).",
                "The stock is used up: the discard pile is turned over as the new stock "
                "({n} cards).",
                cards,
            ).format(n=cards)
        case HandEnded(deal_number=number, winner=winner):
            if winner is None:
                return deal_blocked_text(number, tiles)
            return _("Deal {number} is over: {name} went out.").format(
                number=number, name=players[winner]
            )
        case GameEnded(winners=winners, totals=totals):
            names = ", ".join(players[s] for s in winners)
            total = points_text(totals[winners[0]]) if winners else "0"
            return ngettext(
                "Game over. The winner is {names} with {total} points.",
                "Game over. The winners are {names} with {total} points each.",
                max(len(winners), 1),
            ).format(names=names, total=total)
    return None


def _move_line(event: Event, players: Sequence[str], tiles: bool) -> str | None:
    """The line of one player's move (a draw, a take, a meld, a lay-off, a joker swap, a
    discard, going out), or ``None`` for any other event."""
    match event:
        case Drew(seat=seat) if tiles:
            return _("{name} draws from the wall.").format(name=players[seat])
        case Drew(seat=seat):
            return _("{name} draws from the stock.").format(name=players[seat])
        case TookDiscard(seat=seat, card=card):
            return _("{name} takes {card} from the discard pile.").format(
                name=players[seat], card=card_text(card)
            )
        case Melded(seat=seat, index=index, meld=meld):
            return _("{name} melds {cards} (meld {number}).").format(
                name=players[seat], cards=meld_text(meld), number=index + 1
            )
        case LaidOff(seat=seat, index=index, cards=cards, meld=meld):
            return _("{name} lays off {cards} on meld {number}: {meld}.").format(
                name=players[seat],
                cards=cards_text(cards),
                number=index + 1,
                meld=meld_text(meld),
            )
        case JokerSwapped(seat=seat, index=index, card=card):
            return _("{name} swaps {card} for the joker in meld {number}.").format(
                name=players[seat], card=card_text(card), number=index + 1
            )
        case Discarded(seat=seat, card=card):
            return _("{name} discards {card}.").format(name=players[seat], card=card_text(card))
        case WentOut(seat=seat, rummy=rummy):
            if rummy:
                return _("{name} goes out — going rummy!").format(name=players[seat])
            return _("{name} goes out.").format(name=players[seat])
    return None


def event_line(event: Event, view: PublicView) -> str:
    """:func:`render_event` for the table ``view`` (its names, cards or tiles)."""
    return render_event(event, view.players, tiles=view.rules.var.uses_tiles)


def deal_blocked_text(number: int, tiles: bool) -> str:
    """The line of a deal that ended because nothing was left to draw."""
    if tiles:
        return _("Deal {number} is over: nobody went out, the wall is empty.").format(number=number)
    return _("Deal {number} is over: nobody went out, the stock ran out.").format(number=number)
