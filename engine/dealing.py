"""Dealing: a new match, each new deal, and deals given explicitly (records, tests)."""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction

from engine.cards import Card, shuffled
from engine.errors import RuleOptionError
from engine.events import DealStarted, Event
from engine.fairness import DealKey, commitment, deal_rng, deal_secret
from engine.frozen import replace
from engine.options import RuleSet
from engine.state import DealSpec, GameState, Phase, TurnState

__all__ = [
    "DealKey",
    "DealSpec",
    "deal_from_deck",
    "deal_key",
    "deal_rng",
    "new_game",
    "reuse_key",
    "shuffled_deal",
    "start_deal",
    "starter",
]


def deal_key(state: GameState, deal_number: int) -> DealKey:
    """What deal ``deal_number`` of the game of ``state`` is shuffled from: its secret
    (:func:`engine.fairness.deal_secret`) in a fair game, else the game seed."""
    if state.fair_key is not None:
        return deal_secret(state.fair_key, deal_number)
    return state.seed


def reuse_key(state: GameState) -> DealKey:
    """What the running deal's reshuffles of the discard pile are drawn from
    (``deal_rng(reuse_key(state), state.deal_number, "reuse<n>")``): the deal's secret, or
    the game seed for a deal not shuffled from a secret."""
    return state.deal_secret if state.deal_secret is not None else state.seed


def starter(dealer: int, seats: int) -> int:
    """The first player: left of the dealer (basic-rummy.de.txt: "beginnend mit dem
    Nicht-Dealer ... beginnend mit dem Spieler links vom Dealer")."""
    return (dealer + 1) % seats


def deal_from_deck(rules: RuleSet, seats: int, dealer: int, deck: Sequence[Card]) -> DealSpec:
    """Deal ``deck`` (front first) as the rules deal: one card at a time, starting left of
    the dealer, then the upcard, the rest is the stock.

    basic-rummy.de.txt: "Die Karten werden einzeln ausgeteilt, und nach dem Austeilen wird
    die nächste Karte offen auf den Tisch gelegt, um den Ablagestapel zu starten". With
    the Wrotham starter's extra card there is no upcard. Raises ``RuleOptionError`` when
    the deck is too small.
    """
    var = rules.var
    size = var.hand_size(rules, seats)
    extra = var.starter_extra_card(rules)
    first = starter(dealer, seats)
    order = [(first + i) % seats for i in range(seats)]
    needed = size * seats + 1
    if len(deck) < needed:
        raise RuleOptionError(
            detail=f"the deck has {len(deck)} cards, {needed} are needed",
            option="deck",
            value=str(len(deck)),
            accepts=str(needed),
        )
    hands: list[list[Card]] = [[] for _ in range(seats)]
    pos = 0
    for _ in range(size):
        for seat in order:
            hands[seat].append(deck[pos])
            pos += 1
    upcard: Card | None = None
    if extra:
        hands[first].append(deck[pos])
    else:
        upcard = deck[pos]
    pos += 1
    return DealSpec(tuple(tuple(h) for h in hands), upcard, tuple(deck[pos:]))


def shuffled_deal(
    rules: RuleSet, seats: int, dealer: int, seed: DealKey, deal_number: int
) -> DealSpec:
    """Shuffle the variant's deck with the deal's own random source and deal it."""
    deck = shuffled(rules.var.deck(rules, seats), deal_rng(seed, deal_number))
    return deal_from_deck(rules, seats, dealer, deck)


def new_game(
    rules: RuleSet,
    players: Sequence[str],
    seed: int | None = None,
    dealer: int | None = None,
    deal: DealSpec | None = None,
    fair_key: bytes | None = None,
    secret: bytes | None = None,
) -> GameState:
    """Start a match and its first deal.

    ``seed``: the game's random seed (default: from :mod:`secrets`). ``dealer``:
    the first dealer (default: drawn at random from the seed, "Der erste Dealer
    wird zufällig ausgewählt"). ``deal``: an explicit first deal instead of a
    shuffle. ``fair_key``: deal every hand from its own secret with a commitment
    (:mod:`engine.fairness`; ``None``: shuffle from the seed as before). ``secret``: the
    first deal's secret given (a record's replay; ``deal`` then is what it deals).
    Raises ``RuleOptionError`` for a player count the variant does not allow or
    duplicate names.
    """
    var = rules.var
    names = tuple(players)
    if not var.min_players <= len(names) <= var.max_players:
        raise RuleOptionError(
            detail=f"{var.name} is for {var.min_players}-{var.max_players} players, "
            f"not {len(names)}",
            option="players",
            value=str(len(names)),
            accepts=f"{var.min_players}-{var.max_players}",
        )
    if len(set(names)) != len(names) or any(":" in n or not n.strip() for n in names):
        raise RuleOptionError(
            detail="player names must be distinct, non-empty, without ':'",
            option="players",
            value=",".join(names),
            accepts="names",
        )
    if seed is None:
        seed = secrets.randbits(63)
    if dealer is None:
        dealer = deal_rng(seed, 0, "dealer").randrange(len(names))
    base = GameState(
        rules=rules,
        players=names,
        seed=seed,
        deal_number=0,
        dealer=dealer,
        phase=Phase.HAND_OVER,
        current=0,
        hands=tuple(() for _ in names),
        stock=(),
        discard=(),
        totals=tuple(Fraction(0) for _ in names),
        fair_key=fair_key,
    )
    state, _ = start_deal(base, dealer, deal, secret)
    return state


def require_in_pack(cards: Iterable[Card], pack: Iterable[Card], what: str, accepts: str) -> None:
    """Refuse an explicit deal that holds more of a card than ``pack`` does. Raises
    :class:`RuleOptionError` (option ``deal``) naming the surplus: "the deal has
    ``what`` does not: ...", with ``accepts`` as what the option takes."""
    extra = Counter(cards) - Counter(pack)
    if extra:
        raise RuleOptionError(
            detail=f"the deal has {what} does not: " + " ".join(map(str, extra)),
            option="deal",
            value=" ".join(map(str, extra)),
            accepts=accepts,
        )


def start_deal(
    state: GameState, dealer: int, deal: DealSpec | None = None, secret: bytes | None = None
) -> tuple[GameState, tuple[Event, ...]]:
    """Deal the next hand with ``dealer`` dealing; returns the new state and its event.

    Without ``deal`` the hand is shuffled from :func:`deal_key` (or from ``secret`` when
    given). ``secret``: the deal's secret; with ``deal`` it says that ``deal`` is what the
    secret deals (a variant dealing to some seats only, a record's replay). A deal from a
    secret gets its commitment (:func:`engine.fairness.commitment` of
    :meth:`engine.variant.Variant.deck_order`), in the state and in
    :class:`engine.events.DealStarted`."""
    number = state.deal_number + 1
    rules = state.rules
    seats = state.seats
    var = rules.var
    key: DealKey | None = secret
    if deal is None and key is None:
        key = deal_key(state, number)
    spec = deal or var.deal(rules, seats, dealer, key if key is not None else state.seed, number)
    committed = (
        commitment(var.deck_order(rules, seats, key, number), key)
        if isinstance(key, bytes)
        else None
    )
    if len(spec.hands) != seats:
        raise RuleOptionError(
            detail=f"the deal has {len(spec.hands)} hands for {seats} players",
            option="deal",
            value=str(len(spec.hands)),
            accepts=str(seats),
        )
    if deal is not None:
        require_in_pack(
            spec.cards(), var.deck(rules, seats), "cards the pack", "the variant's pack"
        )
    first = starter(dealer, seats)
    no_draw = var.starter_extra_card(rules)
    discard = (spec.upcard,) if spec.upcard is not None else ()
    new = replace(
        state,
        deal_number=number,
        dealer=dealer,
        current=first,
        phase=Phase.PLAY if no_draw else Phase.DRAW,
        hands=spec.hands,
        stock=spec.stock,
        discard=discard,
        melds=(),
        turn=TurnState(fresh=True),
        has_melded=tuple(False for _ in range(seats)),
        has_played=tuple(False for _ in range(seats)),
        reuses=0,
        version=state.version + (1 if state.deal_number else 0),
        deal_secret=key if isinstance(key, bytes) else None,
        commitment=committed,
    )
    return var.on_deal(new, spec), (DealStarted(number, dealer, spec.upcard, committed),)
