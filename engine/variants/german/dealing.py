"""Dealing German Rommé.

german-romme.de.txt: "Bei 2 - 4 Spielern bekommt jeder 13 Spielkarten verteilt, bei 5 und 6
Spielern je 11 Karten. Der Kartengeber ... verteilt die Karten verdeckt und einzeln, zuletzt
dreht er eine Karte offen auf den Tisch (Abwurfstapel) und legt die übriggebliebenen
verdeckt daneben (Talon)." Options: the dealer takes an extra card instead of turning the
upcard (``dealer_extra``); 14 or 15 cards with two players (``two_player_cards``); the
cutter keeps a joker found at the bottom of the cut and is dealt one card fewer
(``joker_steal``: "Der abhebende Spieler darf die unterste Karte des abgehobenen
Kartenpackets ansehen, und wenn es ein Joker ist, darf er sie behalten (Joker rauben) und
bekommt eine Karte weniger verteilt").

Only the players still in the match are dealt cards (elimination); the cutter is the
player to the dealer's right (the usual custom; the text does not say), who always keeps a
joker (it can only help).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card, shuffled, standard_deck
from engine.dealing import DealKey, DealSpec, deal_rng
from engine.errors import RuleOptionError
from engine.options import RuleSet


def deck(rules: RuleSet) -> list[Card]:
    """2 x 52 cards and 6 jokers ("also 110 Karten"), or 4 jokers with ``four_jokers``."""
    return standard_deck(2, 4 if rules.flag("four_jokers") else 6)


def hand_size(rules: RuleSet, players: int) -> int:
    """13 cards for 2-4 players, 11 for 5-6; ``two_player_cards`` with two."""
    if players == 2:
        return rules.number("two_player_cards") or 13
    return 13 if players <= 4 else 11


def cutter(seats: int, dealer: int, active: Sequence[bool]) -> int:
    """The seat that cuts the pack: the player still in the match (``active``) to the
    dealer's right (the usual custom; the text names only "Der abhebende Spieler"), or the
    dealer when nobody else is in."""
    for step in range(1, seats):
        seat = (dealer - step) % seats
        if active[seat]:
            return seat
    return dealer


def deal_cards(
    rules: RuleSet,
    seats: int,
    dealer: int,
    seed: DealKey,
    number: int,
    active: Sequence[bool] | None = None,
) -> DealSpec:
    """Shuffle (``deal_rng(seed, number)``) and deal deal ``number`` (see
    :func:`deal_pack`); with ``joker_steal`` the pack is first cut at a point drawn from
    ``deal_rng(seed, number, "cut")``."""
    cards = shuffled(deck(rules), deal_rng(seed, number))
    cut = (
        deal_rng(seed, number, "cut").randint(1, len(cards) - 1)
        if rules.flag("joker_steal")
        else None
    )
    return deal_pack(rules, seats, dealer, cards, active, cut)


def deal_pack(
    rules: RuleSet,
    seats: int,
    dealer: int,
    cards: Sequence[Card],
    active: Sequence[bool] | None = None,
    cut: int | None = None,
) -> DealSpec:
    """Deal ``cards`` (front first): one card at a time from the left of the dealer to the
    players still in (``active``, default all), then the upcard (or the dealer's extra
    card); the rest is the stock. ``cut``: where the cutter lifts the pack (``None``: no
    cut); a joker at the bottom of the lifted packet stays with the cutter.
    ``DealSpec.extra`` is the seat that kept a joker when cutting, or ``None``. Raises
    ``RuleOptionError`` when the pack is too small."""
    flags = list(active) if active is not None else [True] * seats
    order = [(dealer + k) % seats for k in range(1, seats + 1) if flags[(dealer + k) % seats]]
    size = hand_size(rules, len(order))
    pack = list(cards)
    if len(pack) < size * len(order) + 1:
        raise RuleOptionError(
            detail=f"the deck has {len(pack)} cards, {size * len(order) + 1} are needed",
            option="deck",
            value=str(len(pack)),
            accepts=str(size * len(order) + 1),
        )
    hands: dict[int, list[Card]] = {s: [] for s in order}
    stolen: int | None = None
    if cut is not None:
        lifted, rest = pack[:cut], pack[cut:]
        if lifted and lifted[-1].is_joker:
            stolen = cutter(seats, dealer, flags)
            hands[stolen].append(lifted.pop())
        pack = rest + lifted
    pos = 0
    for _ in range(size):
        for seat in order:
            if len(hands[seat]) < size:
                hands[seat].append(pack[pos])
                pos += 1
    upcard: Card | None = None
    if rules.flag("dealer_extra"):
        hands[dealer].append(pack[pos])
    else:
        upcard = pack[pos]
    pos += 1
    return DealSpec(
        tuple(tuple(hands.get(s, ())) for s in range(seats)), upcard, tuple(pack[pos:]), stolen
    )
