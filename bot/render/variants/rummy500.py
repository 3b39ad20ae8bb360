"""Text for Rummy 500's own events (:mod:`engine.variants.rummy500.events`): deep takes
from the spread discard pile, "Rommé!" calls and floating players; and the further lines
of its table screen (:func:`table_lines`): the whole spread pile, the open call window,
the card the player to move owes, floaters and the points on the table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from bot.i18n import _
from bot.i18n.notation import action_text
from bot.render.cards import card_text, cards_text, meld_text, spec_text
from engine.cards import Card
from engine.melds import Meld
from engine.variants.rummy500.actions import CallRummy
from engine.variants.rummy500.events import Floated, PileTaken, RummyCalled
from engine.variants.rummy500.melds import MELD_RULES
from engine.variants.rummy500.pile import layoff_readings, melds_with
from engine.variants.rummy500.state import PublicExtra
from engine.views import PlayerView, PublicView


def render(event: object, players: Sequence[str]) -> str | None:
    """One line for a Rummy 500 event, or ``None`` for any other event.

    Examples (English): "ana takes 4♥ 7♣ K♠ from the discard pile and must meld or lay
    off 4♥.", "Rommé! ben calls on ana's discard, takes K♠ Q♠ J♠ and must meld or lay off
    K♠.", "Rommé! ben lays 10♥ off on meld 2: 7♥ 8♥ 9♥ 10♥.", "cem melds every card and
    floats."
    """
    match event:
        case PileTaken(seat=seat, card=card, cards=cards):
            return _(
                "{name} takes {cards} from the discard pile and must meld or lay off {card}."
            ).format(name=players[seat], cards=cards_text(cards), card=card_text(card))
        case RummyCalled(seat=seat, discarder=discarder, card=card, index=index, meld=meld) if (
            index is not None and meld is not None
        ):
            return _("Rommé! {name} lays {card} off on meld {number}: {meld}.").format(
                name=players[seat], card=card_text(card), number=index + 1, meld=meld_text(meld)
            )
        case RummyCalled(seat=seat, discarder=discarder, card=card, cards=cards):
            return _(
                "Rommé! {name} calls on {discarder}'s discard, takes {cards} and must "
                "meld or lay off {card}."
            ).format(
                name=players[seat],
                discarder=players[discarder],
                cards=cards_text(cards),
                card=card_text(card),
            )
        case Floated(seat=seat):
            return _("{name} melds every card and floats.").format(name=players[seat])
    return None


def table_lines(view: PublicView) -> list[str]:
    """Further lines of a Rummy 500 table (none for other variants), e.g.::

    Discard pile, bottom to top: 6♠ 4♣ Q♦ 4♦ A♠ 7♥
    Rommé! may be called on ben's discard until cem draws (all but ben).
    ana took 4♣ from the discard pile and must meld or lay it off.
    Floating: cem.
    Points on the table: ana 24 · ben 35 · cem 0
    """
    extra = view.extra
    if not isinstance(extra, PublicExtra):
        return []
    names = view.players
    lines = []
    if len(view.discard) > 1:
        lines.append(
            _("Discard pile, bottom to top: {cards}").format(cards=cards_text(view.discard))
        )
    window = extra.call_window
    if window is not None and view.current is not None:
        lines.append(
            _(
                "Rommé! may be called after {name}'s turn until {next} draws (all but {name})."
            ).format(name=names[window.discarder], next=names[view.current])
        )
    if extra.must_play is not None and view.current is not None:
        lines.append(
            _("{name} took {card} from the discard pile and must meld or lay it off.").format(
                name=names[view.current], card=card_text(extra.must_play)
            )
        )
    if extra.floating:
        lines.append(
            _("Floating: {names}.").format(names=", ".join(names[s] for s in extra.floating))
        )
    points = " · ".join(f"{names[s]} {p}" for s, p in enumerate(extra.melded_points))
    lines.append(_("Points on the table: {points}").format(points=points))
    return lines


def action_label(action: object) -> tuple[str, Literal["go", "stop", "plain"]] | None:
    """Button words of a "Rommé!" call (rummy-500.de.txt: "jeder Spieler "Rommé!" rufen
    und alle Karten vom Ablagestapel bis zur entsprechenden Karte aufnehmen"): "Rommé!",
    with the deepest card taken or the meld laid off on when the call names one."""
    if not isinstance(action, CallRummy):
        return None
    if action.meld is not None:
        return _("Rommé! on meld {number}").format(number=action.meld + 1), "go"
    if action.card is not None:
        return _("Rommé! down to {card}").format(card=card_text(action.card)), "go"
    return _("Rommé!"), "go"


def call_choices(view: PlayerView, legal: Sequence[object]) -> list[str] | None:
    """What the seat may call now, one entry per legal call, each with the command and
    what the called card would make (rummy-500.de.txt: "alle Karten vom Ablagestapel bis
    zur entsprechenden Karte aufnehmen. Dieser Spieler beendet dann seinen Spielzug,
    indem er diese Karte ... auslegt"), e.g. "rufen khe: K♥ K♦ K♣ melden" or "rufen 10he 2:
    10♥ an Meldung 2 anlegen (7♥ 8♥ 9♥)". ``None`` for other variants or no call."""
    calls = [a for a in legal if isinstance(a, CallRummy)]
    if not calls or not isinstance(view.table.extra, PublicExtra):
        return None
    return [_call_choice(view, call) for call in calls]


def _call_choice(view: PlayerView, call: CallRummy) -> str:
    """One entry of :func:`call_choices`: the command of ``call`` and what its card (the
    named one, else the top of the pile) would make; the bare command without a card."""
    pile = view.table.discard
    command = action_text(call)
    card = call.card if call.card is not None else (pile[-1] if pile else None)
    if card is None:
        return command
    if call.meld is not None:
        melds = view.table.melds
        meld = melds[call.meld] if call.meld < len(melds) else None
        return _lay_off_choice(command, card, call.meld, meld)
    return _use_of_card(view, command, card)


def _use_of_card(view: PlayerView, command: str, card: Card) -> str:
    """What a call of ``card`` that names no meld would make: a meld with the hand and the
    cards taken with it, else a lay-off, else just the pile taken down to ``card``."""
    table = view.table
    pile = table.discard
    index = max(i for i, c in enumerate(pile) if c == card) if card in pile else len(pile)
    held = (*view.hand, *pile[index:])
    groups = melds_with(card, held, MELD_RULES)
    if groups:
        return _("{command}: meld {cards}").format(
            command=command, cards=" ".join(spec_text(s) for s in groups[0])
        )
    targets = layoff_readings(card, table.melds, view.seat, MELD_RULES)
    if targets:
        number = targets[0][0]
        return _lay_off_choice(command, card, number, table.melds[number])
    return _("{command}: take the pile down to {card}").format(
        command=command, card=card_text(card)
    )


def _lay_off_choice(command: str, card: Card, number: int, meld: Meld | None) -> str:
    """ "<command>: lay <card> off on meld <number + 1> (<meld>)"; the parentheses empty
    when the meld is unknown."""
    return _("{command}: lay {card} off on meld {number} ({meld})").format(
        command=command,
        card=card_text(card),
        number=number + 1,
        meld=meld_text(meld) if meld is not None else "",
    )
