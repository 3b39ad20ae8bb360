"""Text for German Rommé's own events (:mod:`engine.variants.german.events`): the running
total of a first meld, joker exchanges, the cutter's joker, lay-offs after going out,
eliminations, buy-backs and the chip sheet (play money, never real money); and the
further lines of its table screen (:func:`table_lines`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from bot.i18n import _, ngettext
from bot.render.cards import cards_text, meld_text, points_text, signed_points_text, spec_text
from engine.cards import Card
from engine.rules import RuleSet
from engine.state import Phase
from engine.variants.german.actions import (
    BuyBack,
    DeclineBuyBack,
    EndLayOffs,
    ExchangeJoker,
    TakeBack,
)
from engine.variants.german.events import (
    POT,
    BoughtBack,
    BuyBackDeclined,
    BuyBackOffered,
    ChipsMoved,
    ClosingLayOffs,
    DealBlocked,
    Eliminated,
    JokerExchanged,
    JokerStolen,
    LayOffsDone,
    OpeningProgress,
    OpeningWithdrawn,
)
from engine.variants.german.views import GermanTable
from engine.views import PublicView


def _names(players: Sequence[str], seats: Sequence[int]) -> str:
    return ", ".join(players[s] for s in seats)


def _balances(event: ChipsMoved, players: Sequence[str]) -> str:
    parts = [f"{players[s]} {signed_points_text(v)}" for s, v in enumerate(event.balances)]
    return _("Chips: {balances} · pot {pot}").format(
        balances=" · ".join(parts), pot=points_text(event.pot)
    )


def _party(players: Sequence[str], seat: int) -> str:
    return _("the pot") if seat == POT else players[seat]


def _chips(event: ChipsMoved, players: Sequence[str]) -> str:
    first = event.payments[0]
    amount = points_text(first.amount)
    if event.reason == "stakes":
        line = _("Stakes: {amount} chips each into the pot.").format(amount=amount)
    elif event.reason == "rummy_stakes":
        line = _("Hand rummy: {name} gets {amount} chips from each player.").format(
            name=players[first.payee], amount=amount
        )
    elif event.reason == "round_bonus":
        line = _("Round bonus: {name} gets {amount} chips from each loser.").format(
            name=players[first.payee], amount=amount
        )
    elif event.reason == "buyback":
        line = _("{name} pays {amount} chips into the pot.").format(
            name=players[first.payer], amount=amount
        )
    else:
        moves = "; ".join(
            _("{payer} pays {payee} {amount}").format(
                payer=_party(players, p.payer),
                payee=_party(players, p.payee),
                amount=points_text(p.amount),
            )
            for p in event.payments
        )
        if event.reason == "pot":
            line = _("The pot is paid out: {moves}.").format(moves=moves)
        else:
            line = _("Settlement in chips: {moves}.").format(moves=moves)
    return f"{line} {_balances(event, players)}"


def render(event: object, players: Sequence[str]) -> str | None:
    """One line for a German Rommé event, or ``None`` for any other event.

    Examples (English): "ana's first meld so far: 24 of 40 points. Meld more before
    discarding, or take it back (takeback).", "ben exchanges 8♥ for the joker in meld 3:
    6♥ 7♥ 8♥; the joker goes into a new meld.", "cem has more than 150 points and is out."
    """
    text = _deal_event(event, players)
    return text if text is not None else _match_event(event, players)


def _deal_event(event: object, players: Sequence[str]) -> str | None:
    """The line of an event within a deal (the first meld's progress or withdrawal, a
    joker exchange, a blocked deal, a cut joker), or ``None`` for any other event."""
    match event:
        case OpeningProgress(seat=seat, total=total, needed=needed, reached=True):
            return _("{name}'s first meld stands: {total} points ({needed} needed).").format(
                name=players[seat], total=total, needed=needed
            )
        case OpeningProgress(seat=seat, total=total, needed=needed, cards_left=1):
            return _(
                "{name}'s melds so far: {total} of {needed} points. Discarding the last "
                "card goes out with hand rummy (no minimum); or take them back "
                "(takeback)."
            ).format(name=players[seat], total=total, needed=needed)
        case OpeningProgress(seat=seat, total=total, needed=needed):
            return _(
                "{name}'s first meld so far: {total} of {needed} points. Meld more "
                "before discarding, or take it back (takeback)."
            ).format(name=players[seat], total=total, needed=needed)
        case OpeningWithdrawn(seat=seat, cards=cards):
            return _("{name} takes the unfinished first meld back: {cards}.").format(
                name=players[seat], cards=cards_text(cards)
            )
        case JokerExchanged(seat=seat, index=index, cards=cards, meld=meld, jokers=jokers):
            return ngettext(
                "{name} exchanges {cards} for the joker in meld {number}: {meld}; the joker "
                "goes into a new meld.",
                "{name} exchanges {cards} for the jokers in meld {number}: {meld}; the "
                "jokers go into a new meld.",
                jokers,
            ).format(
                name=players[seat], cards=cards_text(cards), number=index + 1, meld=meld_text(meld)
            )
        case DealBlocked():
            return _(
                "Nobody can go out any more: every player holds at most two cards and "
                "no card fits a meld. The deal ends; everyone counts the hand."
            )
        case JokerStolen(seat=seat):
            return _("{name} cut a joker and keeps it (one card fewer is dealt).").format(
                name=players[seat]
            )
    return None


def _match_event(event: object, players: Sequence[str]) -> str | None:
    """The line of an event between deals (lay-offs after going out, eliminations,
    buy-backs, chips), or ``None`` for any other event."""
    match event:
        case ClosingLayOffs(winner=winner, seats=seats):
            return _(
                "{name} went out. Before the scoring {names} may lay off cards, in "
                "this order (done when finished)."
            ).format(name=players[winner], names=_names(players, seats))
        case LayOffsDone(seat=seat):
            return _("{name} is done laying off.").format(name=players[seat])
        case Eliminated(seats=seats, target=target):
            return ngettext(
                "{names} has more than {target} points and is out.",
                "{names} have more than {target} points and are out.",
                len(seats),
            ).format(names=_names(players, seats), target=target)
        case BuyBackOffered(seat=seat, price=price, points=points):
            return _(
                "{name} may buy back into the game for {price} chips and play on with "
                "{points} points: buyback or decline."
            ).format(name=players[seat], price=points_text(price), points=points_text(points))
        case BoughtBack(seat=seat, price=price, points=points):
            return _(
                "{name} buys back into the game for {price} chips and plays on with "
                "{points} points."
            ).format(name=players[seat], price=points_text(price), points=points_text(points))
        case BuyBackDeclined(seat=seat):
            return _("{name} stays out of the game.").format(name=players[seat])
        case ChipsMoved():
            return _chips(event, players)
    return None


def match_goal(rules: RuleSet) -> str | None:
    """German Rommé's ``target`` is an elimination limit (german-romme.de.txt: "ein Spieler
    welcher mehr Verlustpunkte geschrieben hat scheidet aus"), not a score to reach."""
    if rules.variant != "german":
        return None
    target, deals = rules.get("target"), rules.get("deals")
    if isinstance(target, int) and isinstance(deals, int):
        return ngettext(
            "Out above {target} penalty points; the match ends after {n} deal.",
            "Out above {target} penalty points; the match ends after {n} deals.",
            deals,
        ).format(target=target, n=deals)
    if isinstance(target, int):
        return _("Out above {target} penalty points; the last player left wins.").format(
            target=target
        )
    if isinstance(deals, int):
        return ngettext(
            "{n} deal; the fewest penalty points win.",
            "{n} deals; the fewest penalty points win.",
            deals,
        ).format(n=deals)
    return None


def table_lines(view: PublicView) -> list[str]:
    """Further lines of the table screen for a German Rommé table (none for others): the
    first meld of the seat to move and its running total, who is out of the match, the
    cutter's joker, the lay-offs after going out, a buy-back decision and the chips."""
    extra = view.extra
    if not isinstance(extra, GermanTable):
        return []
    return [
        *_first_meld_lines(view, extra),
        *_seat_lines(view, extra),
        *_settlement_lines(view, extra),
    ]


def _first_meld_lines(view: PublicView, extra: GermanTable) -> list[str]:
    """The running total of the first meld of the seat to move, while it has not melded
    (not during lay-offs after going out or a buy-back decision)."""
    current = view.current
    if (
        current is None
        or view.phase not in (Phase.DRAW, Phase.PLAY)
        or extra.closing
        or extra.buyback is not None
        or view.has_melded[current]
    ):
        return []
    return [
        _("{name}'s first meld: {total} of {needed} points this turn.").format(
            name=view.players[current], total=extra.opening_total, needed=extra.opening_needed
        )
    ]


def _seat_lines(view: PublicView, extra: GermanTable) -> list[str]:
    """Who is out of the match, the cutter's joker (during play) and who may still lay off
    after someone went out."""
    players = view.players
    lines: list[str] = []
    out = [s for s, gone in enumerate(extra.eliminated) if gone]
    if out:
        lines.append(_("Out of the game: {names}.").format(names=_names(players, out)))
    if extra.stolen is not None and view.phase in (Phase.DRAW, Phase.PLAY):
        lines.append(_("{name} kept a joker when cutting.").format(name=players[extra.stolen]))
    if extra.closing:
        lines.append(
            _("Lay-offs before the scoring: {names} (done when finished).").format(
                names=_names(players, extra.closing)
            )
        )
    return lines


def _settlement_lines(view: PublicView, extra: GermanTable) -> list[str]:
    """A pending buy-back decision and the chips' balances with the pot."""
    players = view.players
    lines: list[str] = []
    if extra.buyback is not None:
        lines.append(
            _(
                "{name} may buy back for {price} chips and {points} points: buyback or decline."
            ).format(
                name=players[extra.buyback],
                price=points_text(extra.buyback_price),
                points=points_text(extra.buyback_points),
            )
        )
    if extra.chips is not None:
        parts = [f"{players[s]} {signed_points_text(v)}" for s, v in enumerate(extra.chips)]
        lines.append(
            _("Chips: {balances} · pot {pot}").format(
                balances=" · ".join(parts), pot=points_text(extra.pot)
            )
        )
    return lines


def action_label(action: object) -> tuple[str, Literal["go", "stop", "plain"]] | None:
    """Button words of a German move: the joker exchange ("Exchange 8♥ for the joker of 3,
    meld 🃏 9♥ 10♥"), taking back a first meld below its minimum, ending one's lay-offs
    after someone went out, buying back in or staying out (chips=pot); else ``None``."""
    match action:
        case ExchangeJoker(cards=cards, meld=meld, group=group):
            return _("Exchange {cards} for the joker of {number}, meld {group}").format(
                cards=cards_text(cards),
                number=meld + 1,
                group=" ".join(spec_text(s) for s in group),
            ), "plain"
        case TakeBack():
            return _("Take back my melds"), "stop"
        case EndLayOffs():
            return _("Done laying off"), "go"
        case BuyBack():
            return _("Buy back in"), "go"
        case DeclineBuyBack():
            return _("Stay out"), "stop"
    return None


def hand_cards(action: object) -> tuple[Card, ...] | None:
    """The hand cards a joker exchange puts down: the natural cards given for the joker and
    the cards of the new meld other than the freed joker(s) (selected together)."""
    if isinstance(action, ExchangeJoker):
        return (*action.cards, *(s.card for s in action.group if not s.card.is_joker))
    return None
