"""The greedy policy shared by every variant: keeps the deadwood of its hand as low as it
can, turn by turn.

It sees only its :class:`engine.views.PlayerView` (own hand, public table) and
the legal actions, and always returns one of those actions. Each decision:

- draw phase: take the upcard when it goes into a meld and lowers the best
  deadwood of the hand (after the best discard), or when it can be laid off
  on the table right away (one card fewer at the end of the turn), else draw
  from the stock;
- play phase, in this order: go out when a legal meld uses all cards but at
  most one; exchange a natural card for a melded joker when that lowers the
  deadwood; meld a group of the best partition (:func:`engine.search.best_melds`,
  the one worth most points first); lay off a card that costs no deadwood;
  discard the card whose loss leaves the least deadwood (the highest deadwood
  card), preferring cards nobody can lay off on the table, then cards that do
  not help the hand's own near-melds;
- between deals: say ``next``.

Breaking deadlocks: greedy players can hold each other's missing cards forever
(two aces each, nobody discards an ace: they are worth 1 point), or keep the
lowest cards although only connected cards can still become a meld. Once the
stock has been renewed from the discard pile (``view.table.reuses >= 1``), a
greedy player discards to keep the most *outs* (unseen cards that would turn
two of its cards into a meld), and with probability
:data:`STUCK_RANDOM_DISCARD` a random deadwood card (its own
``random.Random(seed)``), which ends such cycles.

Keeping a way out: with one card in hand a player can only go out by laying
off, so when every meld on the table is closed (no card that has not been
seen could still be laid off), a table of one-card hands can never end. The
greedy player does not meld or lay off down to two cards (one after its
discard) when the table would be closed afterwards.

In all-at-once deals the legal list only offers whole-hand melds, so it melds
only when it goes out.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

from engine import actions
from engine.ai.base import require_legal
from engine.cards import CARD_SUITS, JOKER, SORT_KEY, TILE_COLOURS, Card, Suit, sort_cards
from engine.melds import AceMode, CardSpec, check_meld
from engine.options import RuleSet
from engine.search import Partition, best_melds, card_value, layoff_options
from engine.state import Phase
from engine.views import PlayerView

STUCK_RANDOM_DISCARD = 0.25


def _points(rules: RuleSet, card: Card) -> int:
    return card_value(card, rules)


def _without(cards: Sequence[Card], card: Card) -> tuple[Card, ...]:
    out = list(cards)
    out.remove(card)
    return tuple(out)


def _group_points(rules: RuleSet, group: tuple[CardSpec, ...]) -> int:
    return sum(_points(rules, s.card) for s in group)


def cards_to_place(
    view: PlayerView,
    cards: Sequence[Card],
    lay_off: bool | None = None,
    most_layoffs: int | None = None,
) -> int:
    """How many of ``cards`` lie outside the melds of their best partition and cannot be
    laid off on the table either. Lay-offs count where ``lay_off`` says so (by default
    once the seat has melded), at most ``most_layoffs`` of them (by default any number)."""
    table = view.table
    part = best_melds(cards, table.rules)
    left = len(part.deadwood)
    if lay_off is None:
        lay_off = table.has_melded[view.seat]
    if left and table.melds and lay_off:
        playable = {
            spec.card
            for spec, _ in layoff_options(part.deadwood, table.melds, table.rules, view.seat)
        }
        placed = sum(1 for c in part.deadwood if c in playable)
        left -= placed if most_layoffs is None else min(placed, most_layoffs)
    return left


def deadwood_after_discard(
    cards: Sequence[Card], rules: RuleSet, keep: Card | None = None
) -> list[tuple[Card, int]]:
    """For each distinct card that may be discarded (all but ``keep``): the best deadwood
    points of ``cards`` without it, as (card, points) pairs in card order.

    A deadwood card of the best partition leaves exactly its points less. A
    melded card is searched again only when it could tie or beat the best value
    so far; otherwise its entry is the lower bound ``deadwood - points``, which
    is already worse than the best. So the smallest values are exact.
    """
    part = best_melds(cards, rules)
    total = part.deadwood_points
    out: list[tuple[Card, int]] = []
    seen: list[Card] = [] if keep is None else [keep]
    bound: int | None = None
    for card in part.deadwood:
        if card not in seen:
            seen.append(card)
            value = total - _points(rules, card)
            out.append((card, value))
            bound = value if bound is None else min(bound, value)
    for card in sort_cards(part.melded_cards()):
        if card in seen:
            continue
        seen.append(card)
        value = total - _points(rules, card)
        if bound is None or value <= bound:
            value = best_melds(_without(cards, card), rules).deadwood_points
            bound = value if bound is None else min(bound, value)
        out.append((card, value))
    return out


def takes_upcard(hand: Sequence[Card], upcard: Card, rules: RuleSet) -> bool:
    """True when taking ``upcard`` helps: it goes into a meld of the best partition of the
    hand with it, and after the best discard (not the upcard: basic-rummy.de.txt "dürfen
    Sie diesen Zug nicht beenden, indem Sie dieselbe Karte ablegen") the deadwood is lower
    than the hand's deadwood now."""
    if not _may_meld(upcard, hand):
        return False
    now = best_melds(hand, rules).deadwood_points
    cards = (*hand, upcard)
    with_up = best_melds(cards, rules)
    if upcard not in with_up.melded_cards():
        return False
    if not with_up.deadwood:
        return True
    after = deadwood_after_discard(cards, rules, keep=upcard)
    return bool(after) and min(v for _, v in after) < now


def _may_meld(card: Card, hand: Sequence[Card]) -> bool:
    """Quick necessary test for ``card`` joining a meld with ``hand`` (melds of 3 or more).

    A meld holding ``card`` has two more cards: in a set, cards of its rank or
    jokers; in a run, the two nearest positions lie within two ranks, each a
    card of its suit or a joker.
    """
    if card.is_joker:
        return True
    jokers = 0
    for other in hand:
        if other.is_joker:
            jokers += 1
            if jokers >= 2:
                return True
        elif other.rank == card.rank or (
            other.suit == card.suit
            and min(abs(other.rank - card.rank), 13 - abs(other.rank - card.rank)) <= 2
        ):
            return True
    return False


def _can_lay_off(view: PlayerView, card: Card) -> bool:
    """True when ``card`` could be laid off on the table by this seat this turn."""
    table = view.table
    if not table.melds:
        return False
    var = table.rules.var
    if var.all_at_once(table.rules, table.deal_number):
        return False
    melds = table.melds
    if var.layoff_needs_own_meld(table.rules) and not (
        view.seat < len(table.has_melded) and table.has_melded[view.seat]
    ):
        melds = tuple(m for m in melds if m.owner == view.seat)
    return bool(layoff_options((card,), melds, table.rules, view.seat))


def take_or_draw(
    view: PlayerView, legal: Sequence[actions.Action], wanted: Callable[[Card], bool]
) -> actions.Action | None:
    """The ``take`` of ``legal`` when there is an upcard and ``wanted(upcard)`` says yes,
    else its ``draw`` (``None`` when ``legal`` has neither)."""
    take = next((a for a in legal if isinstance(a, actions.TakeDiscard)), None)
    draw = next((a for a in legal if isinstance(a, actions.Draw)), None)
    upcard = view.table.upcard
    if take is not None and upcard is not None and wanted(upcard):
        return take
    return draw


class GreedyCore:
    """The variant-independent greedy policy described in the module docstring
    (:class:`engine.ai.greedy.GreedyPlayer` adds each variant's own moves). ``seed``
    drives only the deadlock breaker."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def interrupt(self, view: PlayerView, legal: Sequence[actions.Action]) -> actions.Action | None:
        """Never: the shared policy acts only in turn."""
        return None

    def decide(self, view: PlayerView, legal: Sequence[actions.Action]) -> actions.Action:
        """One element of ``legal``; raises ``NoLegalAction`` when it is empty."""
        require_legal(view, legal)
        for action in legal:
            if isinstance(action, actions.NextDeal):
                return action
        return self.shared_choice(view, legal)

    def shared_choice(self, view: PlayerView, legal: Sequence[actions.Action]) -> actions.Action:
        """The shared greedy choice of a draw or a play (``legal`` non-empty)."""
        if view.table.phase is Phase.DRAW:
            return self._draw(view, legal)
        if view.table.phase is Phase.PLAY:
            return self.play(view, legal)
        return legal[0]

    def _draw(self, view: PlayerView, legal: Sequence[actions.Action]) -> actions.Action:
        choice = take_or_draw(
            view,
            legal,
            lambda upcard: (
                takes_upcard(view.hand, upcard, view.table.rules) or _can_lay_off(view, upcard)
            ),
        )
        return choice if choice is not None else legal[0]

    def play(self, view: PlayerView, legal: Sequence[actions.Action]) -> actions.Action:
        """The play-phase choice: go out, swap, meld, lay off or discard (see the module
        docstring)."""
        rules = view.table.rules
        hand = view.hand
        part = best_melds(hand, rules)
        return (
            self._go_out(hand, legal)
            or self._swap(hand, part, rules, legal)
            or self._meld(view, part, legal)
            or self._lay_off(view, part, legal)
            or self._discard(view, part, legal)
            or legal[0]
        )

    def _discard(
        self, view: PlayerView, part: Partition, legal: Sequence[actions.Action]
    ) -> actions.Action | None:
        if view.table.reuses >= 1:
            if self.rng.random() < STUCK_RANDOM_DISCARD:
                dead = [
                    a for a in legal if isinstance(a, actions.Discard) and a.card in part.deadwood
                ]
                if dead:
                    return dead[self.rng.randrange(len(dead))]
            return self._outs_discard(view, legal)
        return self._best_discard(view, part, legal)

    @staticmethod
    def _outs_discard(view: PlayerView, legal: Sequence[actions.Action]) -> actions.Action | None:
        """The discard keeping the most outs, then the least deadwood, then card order."""
        options = [a for a in legal if isinstance(a, actions.Discard)]
        if not options:
            return None
        rules = view.table.rules
        seen = [p.card for m in view.table.melds for p in m.cards]
        values = dict(deadwood_after_discard(view.hand, rules, keep=view.table.taken))
        ace = rules.var.meld_rules(rules).ace
        best: tuple[tuple[int, int, tuple[int, int]], actions.Discard] | None = None
        for action in options:
            kept = _without(view.hand, action.card)
            key = (-_outs(kept, seen, ace), values.get(action.card, 0), action.card.sort_key)
            if best is None or key < best[0]:
                best = (key, action)
        return best[1] if best is not None else None

    @staticmethod
    def _go_out(hand: Sequence[Card], legal: Sequence[actions.Action]) -> actions.Action | None:
        """A meld that leaves at most one card (discarded next), or the last lay-off."""
        best: actions.MeldCards | None = None
        for action in legal:
            if isinstance(action, actions.MeldCards):
                used = sum(len(g) for g in action.groups)
                if used >= len(hand) - 1 and (
                    best is None or used > sum(len(g) for g in best.groups)
                ):
                    best = action
        if best is not None:
            return best
        if len(hand) == 1:
            return next((a for a in legal if isinstance(a, actions.LayOff)), None)
        return None

    @staticmethod
    def _swap(
        hand: Sequence[Card], part: Partition, rules: RuleSet, legal: Sequence[actions.Action]
    ) -> actions.Action | None:
        """Wrotham: "Ein Spieler, der die Karte hält, die ein gemeldeter Joker darstellt,
        kann während seines Zuges die echte Karte gegen den Joker eintauschen" — done when
        the joker in hand lowers the deadwood."""
        best: tuple[int, actions.SwapJoker] | None = None
        for action in legal:
            if isinstance(action, actions.SwapJoker):
                after = best_melds((*_without(hand, action.card), JOKER), rules).deadwood_points
                if after < part.deadwood_points and (best is None or after < best[0]):
                    best = (after, action)
        return best[1] if best is not None else None

    @staticmethod
    def _meld(
        view: PlayerView, part: Partition, legal: Sequence[actions.Action]
    ) -> actions.Action | None:
        """A group of the best partition that is a legal meld, most points first, unless it
        leaves two cards and a closed table."""
        offered = [
            a.groups[0] for a in legal if isinstance(a, actions.MeldCards) and len(a.groups) == 1
        ]
        if not offered or not part.melds:
            return None
        rules = view.table.rules
        for group in sorted(part.melds, key=lambda g: -_group_points(rules, g)):
            if group in offered:
                if len(view.hand) - len(group) == 2 and not _table_open(view, group):
                    continue
                return actions.MeldCards(view.seat, (group,))
        return None

    @staticmethod
    def _lay_off(
        view: PlayerView, part: Partition, legal: Sequence[actions.Action]
    ) -> actions.Action | None:
        """A single-card lay-off that costs no deadwood (a deadwood card, or a melded card
        the best partition can spare), the one saving most points first; not down to two
        cards on a closed table."""
        hand = view.hand
        rules = view.table.rules
        best: tuple[int, int, actions.LayOff] | None = None
        for action in legal:
            if not isinstance(action, actions.LayOff) or len(action.cards) != 1:
                continue
            card = action.cards[0].card
            if card in part.deadwood:
                gain = _points(rules, card)
            else:
                gain = (
                    part.deadwood_points - best_melds(_without(hand, card), rules).deadwood_points
                )
            if gain < 0:
                continue
            key = (gain, _points(rules, card))
            if best is None or key > best[:2]:
                best = (*key, action)
        if best is None or (len(hand) == 3 and not _table_open(view, ())):
            return None
        return best[2]

    @staticmethod
    def _best_discard(
        view: PlayerView, part: Partition, legal: Sequence[actions.Action]
    ) -> actions.Action | None:
        """The discard leaving the least deadwood; ties: not playable on the table melds,
        then fewest near-melds with the rest of the hand, then card order."""
        options = [a for a in legal if isinstance(a, actions.Discard)]
        if not options:
            return None
        rules = view.table.rules
        values = deadwood_after_discard(view.hand, rules, keep=view.table.taken)
        allowed = [c for c, _ in values if any(a.card == c for a in options)]
        if not allowed:
            return options[0]
        low = min(v for c, v in values if c in allowed)
        tied = [c for c, v in values if v == low and c in allowed]
        if len(tied) > 1:
            playable = [
                spec.card for spec, _ in layoff_options(tied, view.table.melds, rules, view.seat)
            ]
            tied.sort(key=lambda c: (c in playable, _near_melds(c, part), c.sort_key))
        return next(a for a in options if a.card == tied[0])


def _near_melds(card: Card, part: Partition) -> int:
    """How many deadwood cards of the hand (other than ``card``) could meld with ``card``:
    same rank, or same suit within two ranks; jokers count for every card."""
    if card.is_joker:
        return len(part.deadwood)
    count = 0
    for other in part.deadwood:
        if other == card:
            continue
        if (
            other.is_joker
            or other.rank == card.rank
            or (other.suit == card.suit and abs(other.rank - card.rank) <= 2)
        ):
            count += 1
    return count


def _outs(cards: Sequence[Card], seen: Sequence[Card], ace: AceMode) -> int:
    """How many cards, neither in ``cards`` nor ``seen``, would make a three-card meld with
    two natural cards of ``cards`` (a third card of a pair's rank, or the card that
    completes two cards of one suit one or two places apart under ``ace``)."""
    known = {(c.rank, c.suit) for c in (*cards, *seen) if not c.is_joker}
    naturals = [c for c in cards if not c.is_joker]
    wanted: set[CardKey] = set()
    for i, a in enumerate(naturals):
        for b in naturals[i + 1 :]:
            wanted |= meld_completions(a, b, ace)
    return sum(1 for w in wanted if w not in known)


CardKey = tuple[int, Suit | None]


def meld_completions(a: Card, b: Card, ace: AceMode = AceMode.LOW) -> set[CardKey]:
    """The (rank, suit) of the natural cards that make a three-card meld with ``a`` and
    ``b``: the other suits of a pair, the cards next to two of a suit one apart, the card
    between two of a suit two apart, where the ace rule ``ace`` lets a run stand
    (basic-rummy.de.txt: "Im Standardspiel sind Asse niedrig. A-2-3 ist ein gültiger
    Lauf, Q-K-A jedoch nicht", LOW; "so dass Q-K-A auch ein gültiger Lauf ist",
    HIGH_OR_LOW: Q-K wants the ace; "Um die Ecke" runs, AROUND: K-2 wants the ace)."""
    if a.rank == b.rank:
        if a.suit == b.suit:
            return set()
        family = TILE_COLOURS if a.suit is not None and a.suit.is_colour else CARD_SUITS
        return {(a.rank, s) for s in family if s not in (a.suit, b.suit)}
    if a.suit != b.suit:
        return set()
    out: set[CardKey] = set()
    for x in run_places(a.rank, ace):
        for y in run_places(b.rank, ace):
            low, high = min(x, y), max(x, y)
            wanted = (
                (low - 1, high + 1) if high - low == 1 else (low + 1,) if high - low == 2 else ()
            )
            for place in wanted:
                rank = rank_of_place(place, ace)
                if rank is not None:
                    out.add((rank, a.suit))
    return out


def run_places(rank: int, ace: AceMode) -> tuple[int, ...]:
    """The places a card of ``rank`` may take in a run under ``ace``: its rank (1..13);
    the ace also 14 (after the king) where it may stand high; every rank also rank + 13
    where runs go round the corner (K-A-2 is places 13, 14, 15)."""
    if ace is AceMode.AROUND:
        return (rank, rank + 13)
    if ace is AceMode.HIGH_OR_LOW and rank == 1:
        return (1, 14)
    return (rank,)


def rank_of_place(place: int, ace: AceMode) -> int | None:
    """The rank at run place ``place`` (:func:`run_places`), ``None`` off the end."""
    top = 13 if ace is AceMode.LOW else 14 if ace is AceMode.HIGH_OR_LOW else 26
    return (place - 1) % 13 + 1 if 1 <= place <= top else None


def run_partners(rank: int, ace: AceMode) -> set[tuple[int, int]]:
    """The pairs of ranks (lower first) that make a three-card run with a card of ``rank``
    in one suit under ``ace``: the two below it, one on each side, the two above it
    (Q-K for an ace that may stand high)."""
    out: set[tuple[int, int]] = set()
    for place in run_places(rank, ace):
        for low, high in ((place - 2, place - 1), (place - 1, place + 1), (place + 1, place + 2)):
            a, b = rank_of_place(low, ace), rank_of_place(high, ace)
            if a is not None and b is not None:
                out.add((min(a, b), max(a, b)))
    return out


def _table_open(view: PlayerView, group: tuple[CardSpec, ...]) -> bool:
    """True when some card this seat has not seen (not in its hand or on the table) could
    still be laid off on the table melds or on the new meld ``group``."""
    table = view.table
    rules = table.rules
    var = rules.var
    melds = list(table.melds)
    if group:
        melds.extend(check_meld(group, view.seat, var.meld_rules(rules))[:1])
    if not melds:
        return True
    unseen = Counter(var.deck(rules, len(table.players)))
    unseen.subtract([*view.hand, *[p.card for m in table.melds for p in m.cards]])
    cards = sorted((c for c, n in unseen.items() if n > 0), key=SORT_KEY)
    return bool(layoff_options(cards, melds, rules, view.seat))
