"""The state of one ephemeral hand message, carried in its custom ids.

Why in the custom ids and not in memory: a card select tells the bot only its own
values, and the buttons (Meld, Discard, ...) tell nothing; so the selection must be
kept somewhere between clicks. Keeping it in the components themselves (every select
change re-draws the message, which Discord needs as an answer anyway) survives a bot
restart, needs no clean-up of per-user memory, and keeps two hand messages of the same
player independent. It fits: a selection is a bit mask over the hand in
:func:`canonical` order, in hex (15 cards: 4 characters; 50 cards: 13).

A :class:`HandState` is valid only for the hand it was drawn for: ``digest`` (4 hex
digits of a hash of the hand) spots a hand that changed since, and the bot then shows
the fresh hand instead of acting on positions that moved.

Text form: ``<digest><g|s><mask>[.<staged mask>...][r<readings>]``, e.g.
``3fa2g1c.e0r1`` (grouped view, cards 2-4 selected, one group of cards 5-7 staged,
reading 1 chosen for the first ambiguous joker).
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from engine.cards import Card, sort_cards
from engine.melds import CardSpec, Meld

_STATE = re.compile(r"^([0-9a-f]{4})([gs])([0-9a-f]{1,16})((?:\.[0-9a-f]{1,16})*)(?:r(\d{1,5}))?$")


def canonical(hand: Iterable[Card]) -> tuple[Card, ...]:
    """The hand in the fixed order the masks refer to (:func:`engine.cards.sort_cards`)."""
    return sort_cards(hand)


def hand_digest(hand: Iterable[Card]) -> str:
    """Four hex digits identifying the hand's cards (order does not matter)."""
    text = " ".join(str(card) for card in canonical(hand))
    return hashlib.sha1(text.encode()).hexdigest()[:4]


def _mask(positions: Iterable[int]) -> str:
    value = 0
    for position in positions:
        value |= 1 << position
    return format(value, "x")


def _positions(mask: str) -> frozenset[int]:
    value = int(mask, 16)
    return frozenset(i for i in range(value.bit_length()) if value >> i & 1)


@dataclass(frozen=True, slots=True)
class HandState:
    """What a hand message shows beyond the hand: the ``selected`` positions, ``staged``
    groups (several melds in one move), whether the hand is ``grouped`` into melds and
    the ``readings`` chosen so far for ambiguous jokers (indexes into the options the
    engine offered, one per ambiguity met in order)."""

    digest: str
    grouped: bool = False
    selected: frozenset[int] = frozenset()
    staged: tuple[frozenset[int], ...] = ()
    readings: tuple[int, ...] = ()

    @staticmethod
    def fresh(hand: Iterable[Card], grouped: bool = False) -> HandState:
        """Nothing selected, for ``hand``."""
        return HandState(hand_digest(hand), grouped)

    def encode(self) -> str:
        """The text form (see the module docstring)."""
        text = self.digest + ("g" if self.grouped else "s") + _mask(self.selected)
        text += "".join("." + _mask(group) for group in self.staged)
        if self.readings:
            text += "r" + "".join(str(r) for r in self.readings)
        return text

    @staticmethod
    def decode(text: str) -> HandState:
        """Inverse of :meth:`encode`; raises ``ValueError`` for anything else."""
        match = _STATE.match(text)
        if match is None:
            raise ValueError(f"not a hand state: {text!r}")
        staged = tuple(_positions(m) for m in match.group(4).split(".")[1:])
        readings = tuple(int(d) for d in match.group(5) or "")
        return HandState(match.group(1), match.group(2) == "g", _positions(match.group(3)),
                         staged, readings)

    def matches(self, hand: Iterable[Card]) -> bool:
        """True when this state was drawn for ``hand``."""
        return self.digest == hand_digest(hand)

    def select(self, positions: Iterable[int]) -> HandState:
        """A copy with another selection (readings forgotten)."""
        return replace(self, selected=frozenset(positions), readings=())

    def stage(self) -> HandState:
        """The selection becomes a staged group; nothing stays selected."""
        if not self.selected:
            return self
        return replace(self, staged=(*self.staged, self.selected), selected=frozenset(),
                       readings=())

    def cleared(self) -> HandState:
        """Nothing selected or staged."""
        return replace(self, selected=frozenset(), staged=(), readings=())

    def with_reading(self, index: int) -> HandState:
        """A copy with one more reading chosen."""
        return replace(self, readings=(*self.readings, index))


def cards_at(hand: Sequence[Card], positions: Iterable[int]) -> list[Card]:
    """The cards at ``positions`` of the canonical hand (positions outside are ignored)."""
    ordered = canonical(hand)
    return [ordered[i] for i in sorted(positions) if 0 <= i < len(ordered)]


def groups_of(state: HandState, hand: Sequence[Card]) -> list[list[Card]]:
    """The groups a Meld click puts down: the staged ones, then the selection."""
    groups = [cards_at(hand, group) for group in state.staged]
    if state.selected:
        groups.append(cards_at(hand, state.selected))
    return [g for g in groups if g]


def display_order(hand: Sequence[Card], partition_groups: Sequence[Sequence[Card]] | None
                  ) -> list[int]:
    """Canonical positions in the order the hand is shown: grouped (the meld groups first,
    then the rest) when ``partition_groups`` is given, else canonical."""
    ordered = canonical(hand)
    if not partition_groups:
        return list(range(len(ordered)))
    free = list(range(len(ordered)))
    shown: list[int] = []
    for group in partition_groups:
        for card in group:
            for i in free:
                if ordered[i] == card:
                    shown.append(i)
                    free.remove(i)
                    break
    return shown + free


def positions_of(hand: Sequence[Card], cards: Iterable[Card]) -> frozenset[int]:
    """Canonical positions holding ``cards`` (each card used once)."""
    ordered = canonical(hand)
    free = list(range(len(ordered)))
    found = set()
    for card in cards:
        for i in free:
            if ordered[i] == card:
                found.add(i)
                free.remove(i)
                break
    return frozenset(found)


def words(cards: Iterable[Card | CardSpec]) -> str:
    """Cards (or declared specs) in the command language: ``7h 8h jk=9h``."""
    return " ".join(str(card) for card in cards)


def declare_group(groups: list[list[CardSpec]], option: str) -> bool:
    """Give the group whose cards are those of the reading ``option`` (``7h 8h jk=9h``)
    the jokers' faces of that reading; False when no group has those cards."""
    reading = [CardSpec.parse(word) for word in option.split()]
    wanted = Counter(spec.card for spec in reading)
    for index, group in enumerate(groups):
        if Counter(spec.card for spec in group) == wanted:
            groups[index] = reading
            return True
    return False


def declare_layoff(cards: list[CardSpec], meld: Meld, option: str) -> list[CardSpec]:
    """The lay-off ``cards`` with their jokers declared as in ``option``, the reading of
    the whole meld after the lay-off: the joker faces the reading has beyond those the
    meld had already go to the laid-off jokers, in order."""
    reading = [CardSpec.parse(word) for word in option.split()]
    faces = Counter(spec.face for spec in reading if spec.card.is_joker and spec.face)
    faces.subtract(Counter(p.face for p in meld.cards if p.card.is_joker))
    new_faces = [face for face, count in faces.items() for _ in range(max(count, 0))]
    declared = []
    for spec in cards:
        if spec.card.is_joker and spec.face is None and new_faces:
            declared.append(CardSpec(spec.card, new_faces.pop(0)))
        else:
            declared.append(spec)
    return declared
