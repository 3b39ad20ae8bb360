"""Platform-neutral text screens built from engine views only.

Everything here reads :class:`engine.views.PublicView` / :class:`engine.views.PlayerView`
(never a :class:`engine.state.GameState`), so a renderer can show no hidden
card. Text is localised through :mod:`bot.i18n` (the caller sets the locale
with ``use_locale``). Every screen stays below :data:`MAX_CHARS` characters for
a six-player table, the smallest message limit of the chat platforms (Discord
allows 2000 per message, so adapters split on blank lines; Telegram 4096).

Screens: :func:`render_table` (the public table), :func:`render_hand` (a seat's
cards, sorted or grouped into melds), :func:`render_hand_end` (the score sheet
of a finished deal), :func:`render_scores` (the running score), and,
re-exported, :func:`bot.render.events.render_event`,
:func:`bot.render.rules.render_rules` and :func:`bot.render.rules.render_help`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.i18n import _, ngettext
from bot.render.cards import (
    card_text,
    hand_by_rank,
    hand_by_suit,
    meld_text,
    points_text,
    signed_points_text,
    spec_text,
)
from bot.render.events import deal_blocked_text, render_event
from bot.render.rules import render_help, render_rules
from bot.render.variants import variant_match_goal, variant_turn_line
from engine.rules import RuleSet
from engine.state import DealResult, Phase
from engine.views import PlayerView, PublicView

if TYPE_CHECKING:
    from engine.search import Partition

__all__ = [
    "MAX_CHARS",
    "render_event",
    "render_hand",
    "render_hand_end",
    "render_help",
    "render_match_goal",
    "render_rules",
    "render_scores",
    "render_table",
    "turn_line",
]

MAX_CHARS = 4000
"""Upper bound of every rendered screen, in characters."""


def _cards_count(n: int, tiles: bool = False) -> str:
    if tiles:
        return ngettext("{n} tile", "{n} tiles", n).format(n=n)
    return ngettext("{n} card", "{n} cards", n).format(n=n)


def _tiles(view: PublicView) -> bool:
    """True for a tile game (Romanian Rummy): its screens say tile, rack and wall."""
    return view.rules.var.uses_tiles


def _points_count(value: int) -> str:
    return ngettext("{n} point", "{n} points", value).format(n=value)


def _turn_line(view: PublicView) -> str:
    if view.phase is Phase.GAME_OVER:
        return _("The game is over.")
    if view.phase is Phase.HAND_OVER or view.current is None:
        return _("The deal is over; the next deal can start.")
    special = variant_turn_line(view)
    if special is not None:
        return special
    name = view.players[view.current]
    if view.phase is Phase.DRAW:
        return _("{name} to play: draw from the stock or take the upcard.").format(name=name)
    return _("{name} to play: meld, lay off or discard.").format(name=name)


def turn_line(view: PublicView) -> str:
    """Whose turn it is and what they may do ("ben to play: meld, lay off or discard."),
    or that the deal or the game is over: the table screen's second line."""
    return _turn_line(view)


def render_match_goal(rules: RuleSet) -> str:
    """How the match ends, from the ``target`` / ``deals`` options when the variant has them
    (a variant whose options mean something else says so itself: German elimination)."""
    special = variant_match_goal(rules)
    if special is not None:
        return special
    names = {name for name, _value in rules.values}
    target = rules.get("target") if "target" in names else None
    deals = rules.get("deals") if "deals" in names else None
    if isinstance(target, int) and isinstance(deals, int):
        return ngettext(
            "Playing to {target} points or {n} deal.",
            "Playing to {target} points or {n} deals.",
            deals,
        ).format(target=target, n=deals)
    if isinstance(target, int):
        return _("Playing to {target} points.").format(target=target)
    if isinstance(deals, int):
        return ngettext("Playing {n} deal.", "Playing {n} deals.", deals).format(n=deals)
    return ""


COMMITMENT_SHOWN = 16
"""Hex digits of a deal's commitment shown at the table (the record holds all 64)."""


def fair_line(view: PublicView) -> str | None:
    """The deal's commitment as the table shows it from the deal's start (its first
    :data:`COMMITMENT_SHOWN` hex digits), ``None`` for a deal not shuffled from a secret.
    docs/fairness.md: "Before the first move of the deal, the table shows the deal's
    commitment"."""
    if view.commitment is None:
        return None
    return _("Fair deal · commitment {commitment}").format(
        commitment=view.commitment[:COMMITMENT_SHOWN]
    )


def secret_line(result: DealResult) -> str | None:
    """The finished deal's revealed secret (all 64 hex digits) and the commitment it
    answers, for the score sheet; ``None`` for a deal not shuffled from a secret.
    docs/fairness.md: "When the deal ends, the secret is revealed (score sheet, game
    record)"."""
    if result.secret is None or result.commitment is None:
        return None
    return _(
        "Deal {number}'s secret: {secret} (commitment {commitment}; check it with "
        "rummy-bot verify or by hand: docs/fairness.md)"
    ).format(
        number=result.deal_number,
        secret=result.secret,
        commitment=result.commitment[:COMMITMENT_SHOWN],
    )


def render_table(view: PublicView) -> str:
    """The public table as text.

    Shape (English)::

        Deal 2 · dealer: ana
        Fair deal · commitment 7743cbb8991f989d
        ben to play: meld, lay off or discard.
        Melds:
          1. ana: 7♥ 8♥ 🃏(9♥)
        Discard pile: K♠ (5 cards) · stock: 21 cards
        ben took 7♣ from the discard pile this turn.
        Players:
          ana   7 cards · melded · 12
        ▶ ben   8 cards · 0

    Melds are numbered from 1, as players name them in commands; ``▶`` marks
    the seat to play. Totals are the running match scores.
    """
    lines = [
        _("Deal {number} · dealer: {dealer}").format(
            number=view.deal_number, dealer=view.players[view.dealer]
        ),
        _turn_line(view),
    ]
    fair = fair_line(view)
    if fair is not None:
        lines.insert(1, fair)
    lines += _meld_lines(view)
    tiles = _tiles(view)
    lines.append(_stock_line(view, tiles))
    if view.taken is not None and view.current is not None:
        lines.append(
            _("{name} took {card} from the discard pile this turn.").format(
                name=view.players[view.current], card=card_text(view.taken)
            )
        )
    from bot.render.variants import variant_table_lines

    lines.extend(variant_table_lines(view))
    lines.append(_("Players:"))
    lines += _player_lines(view, tiles)
    return "\n".join(lines)


def _meld_lines(view: PublicView) -> list[str]:
    """The melds on the table, numbered from 1 with their owners (or that there are
    none yet)."""
    if not view.melds:
        return [_("No melds on the table yet.")]
    lines = [_("Melds:")]
    for number, meld in enumerate(view.melds, start=1):
        lines.append(
            _("  {number}. {owner}: {cards}").format(
                number=number, owner=view.players[meld.owner], cards=meld_text(meld)
            )
        )
    return lines


def _stock_line(view: PublicView, tiles: bool) -> str:
    """The discard pile's top card and size and the stock's size; with ``tiles`` the
    wall's size only (the variant's own lines show the face-up tile and the discard
    row)."""
    if tiles:
        return _("Wall: {count}").format(count=_cards_count(view.stock_size, tiles))
    if view.upcard is not None:
        pile = _("Discard pile: {card} ({count})").format(
            card=card_text(view.upcard), count=_cards_count(view.discard_size)
        )
    else:
        pile = _("Discard pile: empty")
    return _("{pile} · stock: {count}").format(pile=pile, count=_cards_count(view.stock_size))


def _player_lines(view: PublicView, tiles: bool) -> list[str]:
    """One line per seat: ``▶`` for the seat to play, its cards (or tiles) left, whether
    it melded, its running total."""
    lines = []
    width = max(len(name) for name in view.players)
    for seat, name in enumerate(view.players):
        marker = "▶" if seat == view.current else " "
        parts = [_cards_count(view.hand_sizes[seat], tiles)]
        if view.has_melded[seat]:
            parts.append(_("melded"))
        parts.append(points_text(view.totals[seat]))
        lines.append(f"{marker} {name.ljust(width)}  " + " · ".join(parts))
    return lines


def render_hand(view: PlayerView, melds: Partition | None = None, by_rank: bool = False) -> str:
    """The seat's own cards.

    Without ``melds``: by suit and rank, two spaces between suits, jokers last (with
    ``by_rank``: by rank, two spaces between ranks).
    With ``melds`` (the hand's best melds, found by the service off the event loop:
    :meth:`bot.service.service.GameService.hand_facts`): the melds, then the deadwood
    with its points, e.g.::

        Your hand (8 cards), grouped:
          meld: 7♥ 8♥ 9♥
          deadwood: 2♣ K♠ (12 points)
    """
    tiles = _tiles(view.table)
    count = _cards_count(len(view.hand), tiles)
    if melds is None:
        shown = hand_by_rank(view.hand) if by_rank else hand_by_suit(view.hand)
        if tiles:
            return _("Your rack ({count}): {tiles}").format(count=count, tiles=shown)
        return _("Your hand ({count}): {cards}").format(count=count, cards=shown)
    partition = melds
    lines = [
        _("Your rack ({count}), grouped:").format(count=count)
        if tiles
        else _("Your hand ({count}), grouped:").format(count=count)
    ]
    for group in partition.melds:
        lines.append(_("  meld: {cards}").format(cards=" ".join(spec_text(s) for s in group)))
    if partition.deadwood:
        left = hand_by_suit(partition.deadwood)
        points = _points_count(partition.deadwood_points)
        lines.append(
            _("  left over: {tiles} ({points})").format(tiles=left, points=points)
            if tiles
            else _("  deadwood: {cards} ({points})").format(cards=left, points=points)
        )
    else:
        lines.append(_("  no deadwood: you can go out."))
    return "\n".join(lines)


def _deal_outcome(view: PublicView, result: DealResult) -> str:
    if result.winner is None:
        return deal_blocked_text(result.deal_number, _tiles(view))
    name = view.players[result.winner]
    if result.rummy:
        return _("Deal {number} is over: {name} went out — going rummy!").format(
            number=result.deal_number, name=name
        )
    return _("Deal {number} is over: {name} went out.").format(number=result.deal_number, name=name)


def _winners_line(view: PublicView) -> str:
    names = ", ".join(view.players[s] for s in view.winners)
    total = points_text(view.totals[view.winners[0]])
    return ngettext(
        "Game over. The winner is {names} with {total} points.",
        "Game over. The winners are {names} with {total} points each.",
        len(view.winners),
    ).format(names=names, total=total)


def render_hand_end(view: PlayerView | PublicView) -> str:
    """The score sheet of the last finished deal (and the match winners at the end).

    One line per seat: the deal score, the running total and the hand that was
    left (shown, with its points). Shape (English)::

        Deal 1 is over: ana went out.
          ana  deal +35 · total 35 · hand: —
          ben  deal 0 · total 0 · hand: 7♣ 9♦ K♠ (26 points)
        Deal 1's secret: 9f0c… (commitment 7743cbb8991f989d; check it with ...)
        Game over. The winner is ana with 135 points.
    """
    table = view.table if isinstance(view, PlayerView) else view
    if not table.results:
        return _("No deal has been scored yet.")
    result = table.results[-1]
    lines = [_deal_outcome(table, result)]
    width = max(len(name) for name in table.players)
    for seat, name in enumerate(table.players):
        lines.append(_seat_result(table, result, seat, name.ljust(width)))
    secret = secret_line(result)
    if secret is not None:
        lines.append(secret)
    if table.phase is Phase.GAME_OVER and table.winners:
        lines.append(_winners_line(table))
    return "\n".join(lines)


def _seat_result(table: PublicView, result: DealResult, seat: int, name: str) -> str:
    """One seat's line of the score sheet: the deal score, the running total and the hand
    (or rack) that was left, with its points ("—" when empty); ``name`` padded."""
    hand = table.shown_hands[seat] if table.shown_hands is not None else ()
    if hand:
        hand_text = _("{cards} ({points})").format(
            cards=hand_by_suit(hand), points=_points_count(result.points[seat])
        )
    else:
        hand_text = "—"
    line = (
        _("  {name}  deal {score} · total {total} · rack: {hand}")
        if _tiles(table)
        else _("  {name}  deal {score} · total {total} · hand: {hand}")
    )
    return line.format(
        name=name,
        score=signed_points_text(result.scores[seat]),
        total=points_text(table.totals[seat]),
        hand=hand_text,
    )


def render_scores(view: PlayerView | PublicView, winners: bool = True) -> str:
    """The running score: how the match ends, every finished deal's scores and the totals;
    at the end of the match also the winners (unless ``winners`` is False)."""
    table = view.table if isinstance(view, PlayerView) else view
    lines = [_("Scores")]
    goal = render_match_goal(table.rules)
    if goal:
        lines.append(goal)
    # Long matches keep only the last deals so the screen stays short.
    shown = table.results[-12:]
    if len(table.results) > len(shown):
        lines.append(
            _("(the first {n} deals are not shown)").format(n=len(table.results) - len(shown))
        )
    for result in shown:
        scores = ", ".join(
            f"{table.players[s]} {signed_points_text(v)}" for s, v in enumerate(result.scores)
        )
        lines.append(
            _("  deal {number}: {scores}").format(number=result.deal_number, scores=scores)
        )
    totals = ", ".join(
        f"{name} {points_text(table.totals[s])}" for s, name in enumerate(table.players)
    )
    lines.append(_("Totals: {totals}").format(totals=totals))
    if winners and table.phase is Phase.GAME_OVER and table.winners:
        lines.append(_winners_line(table))
    return "\n".join(lines)
