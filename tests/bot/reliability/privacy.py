"""Privacy checking shared by the Telegram and Discord privacy tests.

:class:`Truth` follows one table from the repository: it sees every state the service
commits (:func:`watch_repository` wraps ``commit``) *before* the notifications about
it are drawn, and keeps, per deal,

- ``known``: card texts that were face up at some moment of the deal (the discard pile,
  the upcard, melds, the Romanian face-up tile, a card taken from the pile, every hand
  once the deal is scored): showing them reveals nothing hidden;
- ``seen[seat]``: card texts that seat held at some moment of the deal;
- what is hidden *now*: each hand's cards and the stock (wall) minus ``known``.

The platform tests check every message version at the moment the fake server stores
it (:meth:`Truth.check`): a public message may show no hidden card at all, a private
one no hidden card of another seat or of the stock; public button payloads carry no
hidden card either. Card texts are matched in every rendering the bot or a user could
produce: ``7♥`` (``♡`` too), ``10♦``, the notation ``7h`` / ``10d`` / ``qs``, tiles
``🔴7``, ``r7``, ``rot7``, ``red7``. Jokers (and Jolys) are alike, so naming one tells
nothing: they are never counted as a leak; a joker's declared face (``🃏(9♥)``,
``jk=9h``) is a declaration, not a card, and is left out. Identical cards of two packs
(German Rommé, the tiles) share a text: a text is hidden only while no copy is known.

Cards stay ``known`` for the rest of their deal (a card laid open once is no secret,
even after the pile is turned into a new stock); at a new deal everything is hidden
again, except that messages still under way about the deal just scored may show its
cards until the step that started the deal has settled (:meth:`Truth.settled`). A line
that was already shown (to the same reader, or publicly) in an earlier deal, when it
passed the check, may be shown again: the table message keeps the last moves, which
reach back into the previous deal ("Ada discards Q♠." of deal 1 says nothing about
where Q♠ lies in deal 2). Checks are line by line, so only verbatim history passes.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from bot.render.cards import card_text
from bot.service.model import Table
from engine.actions import Action
from engine.ai import make_ai
from engine.cards import Card, parse_card
from engine.errors import CardParseError
from engine.state import GameState, Phase
from engine.variants.romanian.actions import AnnounceDoubla, AnswerDoubla, OfferDoubla
from engine.views import PlayerView

# A joker's declared face is no card: "🃏(9♥)", "🃏(9)", "jk=9h", "jo=r7".
_JOKER_FACE = re.compile(r"🃏\s*\([^)]*\)")
_JOKER_DECLARED = re.compile(r"(?i)(?<![0-9a-z])(?:jk|jo|joly|joker)\s*=\s*\S+")
_PRETTY_CARD = re.compile(r"(?<![0-9A-Za-z])(10|[2-9AJQKBD])\s?([♣♦♥♠♧♢♡♤])")
_PRETTY_TILE = re.compile(r"([🔴🟡🔵⚫])\s?(1[0-3]|[1-9])(?![0-9])")
_NOTATION_CARD = re.compile(r"(?i)(?<![0-9a-z])(10|[2-9tajqkbd])([cdhs]|kr|ka|he|pi)(?![0-9a-z])")
_NOTATION_TILE = re.compile(
    r"(?i)(?<![0-9a-z])(rot|red|gelb|yellow|blau|blue|schwarz|black"
    r"|[rybkgs])-?(1[0-3]|[1-9])(?![0-9])"
)
# Two-letter words of English and German prose that read like card notation ("as" is
# the ace of spades): not counted in message texts (payloads have no prose).
PROSE_WORDS = frozenset({"as", "ad", "ah", "the"})
_TOKEN = re.compile(r"[0-9A-Za-z🔴🟡🔵⚫♣♦♥♠♧♢♡♤]+")


def _parsed(text: str) -> str | None:
    try:
        card = parse_card(text)
    except CardParseError:
        return None
    return None if card.is_joker else card_text(card)


def mentioned_cards(text: str) -> set[str]:
    """The cards (as :func:`card_text`) that ``text`` names in any rendering; jokers and
    a joker's declared face are left out."""
    text = _JOKER_DECLARED.sub(" ", _JOKER_FACE.sub("🃏", text))
    found = set()
    for match in _PRETTY_CARD.finditer(text):
        found.add(_parsed(match.group(1) + match.group(2)))
    for match in _PRETTY_TILE.finditer(text):
        found.add(_parsed(match.group(0).replace(" ", "")))
    for match in _NOTATION_CARD.finditer(text):
        if match.group(0).lower() not in PROSE_WORDS:
            found.add(_parsed(match.group(0)))
    for match in _NOTATION_TILE.finditer(text):
        found.add(_parsed(match.group(1) + match.group(2)))
    found.discard(None)
    return {f for f in found if f is not None}


def payload_cards(payload: str) -> set[str]:
    """The cards named by a button payload's free part (split at anything that is not a
    letter, digit or card symbol): ``7h``, ``r7``, ``7♥``, ``rot7``, ``7h,8h``."""
    found = {_parsed(token) for token in _TOKEN.findall(payload)}
    found |= mentioned_cards(payload)
    return {f for f in found if f is not None}


def texts(cards: Iterable[Card]) -> set[str]:
    """The texts of ``cards``, jokers left out."""
    return {card_text(c) for c in cards if not c.is_joker}


def face_up_cards(state: GameState) -> set[str]:
    """Cards face up in ``state``: the discard pile, the melds, the card taken this turn,
    the Romanian face-up tile and, once the deal is scored, every hand."""
    shown = texts(state.discard) | texts(p.card for m in state.melds for p in m.cards)
    if state.turn.taken is not None:
        shown |= texts([state.turn.taken])
    face_up = getattr(state.extra, "face_up", None)
    if isinstance(face_up, Card):
        shown |= texts([face_up])
    if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
        shown |= texts(c for hand in state.hands for c in hand)
    return shown


@dataclass
class Truth:
    """What is public, what each seat has seen and what is hidden now (module docstring);
    ``problems`` collects every leak found by :meth:`check`."""

    platform: str
    table_id: int | None = None
    deal: int | None = None
    known: set[str] = field(default_factory=set)
    seen: dict[int, set[str]] = field(default_factory=dict)
    hands: dict[int, set[str]] = field(default_factory=dict)
    stock: set[str] = field(default_factory=set)
    names: dict[int, str] = field(default_factory=dict)
    seat_of: dict[str, int] = field(default_factory=dict)
    grace: set[str] = field(default_factory=set)
    grace_seen: dict[int, set[str]] = field(default_factory=dict)
    states: int = 0
    deals: set[int] = field(default_factory=set)
    history: dict[tuple[str | None, str], int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    checked: Counter[str] = field(default_factory=Counter)

    # --- following the game -----------------------------------------------------------------

    def observe(self, table: Table) -> None:
        """Take in a state the service is about to commit (before anyone is told)."""
        if self.table_id is not None and table.id != self.table_id:
            raise AssertionError(f"one Truth per table: {table.id} after {self.table_id}")
        self.table_id = table.id
        for seat, info in enumerate(table.seats):
            self.names[seat] = info.name
            if info.user is not None:
                self.seat_of[info.user] = seat
        state = table.state
        if state is None:
            return
        self.states += 1
        if state.deal_number != self.deal:
            if self.deal is not None:  # messages about the old deal may still be under way
                self.grace |= self.known
                for seat, cards in self.seen.items():
                    self.grace_seen.setdefault(seat, set()).update(cards)
            self.deal = state.deal_number
            self.deals.add(self.deal)
            self.known, self.seen = set(), {}
        self.known |= face_up_cards(state)
        for seat, hand in enumerate(state.hands):
            self.seen.setdefault(seat, set()).update(texts(hand))
        self.hands = {seat: texts(hand) - self.known for seat, hand in enumerate(state.hands)}
        self.stock = texts(state.stock) - self.known

    def settled(self) -> None:
        """Every message of the last step went out: drop what the previous deal allowed."""
        self.grace, self.grace_seen = set(), {}

    @property
    def hiding(self) -> bool:
        """True while some hand holds a card nobody else may know."""
        return any(self.hands.values())

    # --- checking messages ------------------------------------------------------------------

    def allowed(self, viewer: str | None) -> set[str]:
        """Cards ``viewer`` (a user key; ``None``: everyone) may be shown now."""
        allowed = self.known | self.grace
        seat = None if viewer is None else self.seat_of.get(viewer)
        if seat is not None:
            allowed = allowed | self.seen.get(seat, set()) | self.grace_seen.get(seat, set())
        return allowed

    def leaks(self, cards: set[str], viewer: str | None) -> list[str]:
        """Which of ``cards`` (texts) ``viewer`` must not see, and where each one hides."""
        found = []
        for text in sorted(cards - self.allowed(viewer)):
            where = [
                f"seat {s} ({self.names.get(s, '?')})"
                for s, hand in self.hands.items()
                if text in hand
            ]
            if text in self.stock:
                where.append("the stock")
            if where:
                found.append(f"{text} hidden in {' and '.join(where)}")
        return found

    def check(
        self, where: str, viewer: str | None, text: str, payloads: Iterable[str] = ()
    ) -> list[str]:
        """Check one message version: ``text`` is everything it shows (text and button
        labels), ``payloads`` the free part of its buttons' data (checked when public).
        ``viewer``: the user key of the only person who sees it, ``None`` when public."""
        kind = "public" if viewer is None else "private"
        self.checked[kind] += 1
        if self.hiding:
            self.checked[kind + " while hiding"] += 1
        leaks = []
        for line in text.splitlines():
            found = self.leaks(mentioned_cards(line), viewer)
            if found and self._history(line, viewer):
                self.checked["history lines"] += 1
                continue
            if not found and self.deal is not None:
                self.history.setdefault((viewer, line), self.deal)
            leaks += [leak for leak in found if leak not in leaks]
        if viewer is None:
            for payload in payloads:
                self.checked["public payloads"] += 1
                leaks += [
                    f"button data {payload!r}: {leak}"
                    for leak in self.leaks(payload_cards(payload), None)
                ]
        if leaks:
            seat = None if viewer is None else self.seat_of.get(viewer)
            who = "everyone" if viewer is None else f"{viewer} (seat {seat})"
            self.problems.append(
                f"{self.platform} {where}, seen by {who}, deal {self.deal}: "
                f"{'; '.join(leaks)}: {text!r}"
            )
        return leaks

    def _history(self, line: str, viewer: str | None) -> bool:
        """Whether ``line`` passed the check for this reader (or everyone) in an earlier
        deal."""
        deal = self.deal if self.deal is not None else 0
        return any(self.history.get((who, line), deal) < deal for who in {None, viewer})


def watch_repository(repo: Any, truth: Truth) -> None:
    """Let ``truth`` observe every table the service commits, before the commit (so before
    any message about it can be drawn)."""
    commit: Callable[..., Awaitable[Any]] = repo.commit

    async def observed(table: Table, *args: Any, **kwargs: Any) -> Any:
        truth.observe(table)
        return await commit(table, *args, **kwargs)

    repo.commit = observed


class Chooser:
    """Chooses the people's moves: the greedy AI, except that in Romanian Rummy's pre-play
    step (``swaps``) they announce doublas, offer them and accept offers, so pairs of
    tiles change hands face down."""

    def __init__(self, seed: int, swaps: bool = False) -> None:
        self.ai = make_ai("greedy", seed=seed)
        self.swaps = swaps
        self.made: Counter[str] = Counter()

    def decide(self, view: PlayerView, legal: list[Action]) -> Action:
        if self.swaps:
            for kind in (AnswerDoubla, OfferDoubla, AnnounceDoubla):
                for action in legal:
                    if isinstance(action, kind) and getattr(action, "tile", True) is not None:
                        self.made[kind.__name__] += 1
                        return action
        return self.ai.decide(view, legal)
