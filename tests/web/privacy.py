"""The privacy check of the web table: everything a seat's page received (WebSocket frames,
API answers) and showed (its DOM: card elements, aria-labels, text) is compared with that
seat's own view at the version shown, as multisets (packs hold duplicates):

- the cards the page lays out (hand, melds, discard pile or row, face-up tile, the hands
  laid open for scoring) are exactly the view's, card for card;
- any card named in a text (event lines, phase line, offers, hint, score sheet, labels) is
  one the view shows or one a public event of that change named (a card taken from the
  discard pile was face up);

so no other seat's hidden card can ever appear.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from bot.i18n import use_locale
from bot.i18n.notation import card_text
from bot.ports.screens import TableUpdate
from bot.web.strings import page_strings
from engine.cards import Card, parse_card, standard_deck
from engine.views import PlayerView, PublicView

RANKS = {
    1: "ace",
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "jack",
    12: "queen",
    13: "king",
}
SUITS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
COLOURS = {"r": "red", "y": "yellow", "b": "blue", "k": "black"}
JOKER_FACE = re.compile(r"🃏\([^)]*\)")


def every_card() -> list[Card]:
    """Every card and tile code there is (one of each)."""
    cards = set(standard_deck(1, 1))
    cards |= {parse_card(f"{colour}{number}") for colour in COLOURS for number in range(1, 14)}
    return sorted(cards, key=str)


def card_name(card: Card, strings: dict[str, str], tiles: bool) -> str:
    """The page's name of ``card`` (as cards.js puts it together)."""
    code = str(card)
    if card.is_joker:
        return strings["Joly"] if tiles else strings["joker"]
    if tiles:
        return (
            strings["{colour} {number}"]
            .replace("{colour}", strings[COLOURS[code[0]]])
            .replace("{number}", code[1:])
        )
    return (
        strings["{rank} of {suit}"]
        .replace("{rank}", strings[RANKS[card.rank]])
        .replace("{suit}", strings[SUITS[code[-1]]])
    )


class Reader:
    """Finds the cards named in texts and labels of one language."""

    def __init__(self, locale: str) -> None:
        strings: dict[str, str] = page_strings(locale)["strings"]  # type: ignore[assignment]
        self.names: dict[str, str] = {}
        self.shown: dict[str, str] = {}
        with use_locale(locale):
            for card in every_card():
                tile = card.suit is not None and card.suit.is_colour
                self.names[card_name(card, strings, tile)] = str(card)
                self.shown[card_text(card)] = str(card)
                if card.is_joker:
                    self.names[card_name(card, strings, True)] = str(card)
        self.as_word = (
            strings["{joker} as {face}"].split("{face}")[0].replace("{joker}", "").strip()
        )
        names = sorted(self.names, key=len, reverse=True)
        self._names = re.compile("|".join(re.escape(n) for n in names))
        shown = sorted(self.shown, key=len, reverse=True)
        self._shown = re.compile("(?<![0-9A-Za-z])(" + "|".join(re.escape(s) for s in shown) + ")")

    def in_text(self, text: str) -> list[str]:
        """The codes of the cards a text shows (a joker's declared face is no card)."""
        return [self.shown[m.group(1)] for m in self._shown.finditer(JOKER_FACE.sub("🃏", text))]

    def in_label(self, label: str) -> list[str]:
        """The codes of the cards a label names (a joker "as" a face names the joker)."""
        if self.as_word and f" {self.as_word} " in label:
            label = label.split(f" {self.as_word} ")[0]
        return [self.names[m.group(0)] for m in self._names.finditer(label)]


def codes(cards: Iterable[Card]) -> Counter[str]:
    return Counter(str(c) for c in cards)


def event_cards(value: Any) -> Iterator[Card]:
    """Every card inside an engine event (its fields, tuples, melds, placed cards)."""
    if isinstance(value, Card):
        yield value
    elif isinstance(value, tuple | list):
        for item in value:
            yield from event_cards(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for item in dataclasses.fields(value):
            yield from event_cards(getattr(value, item.name))


def table_cards(view: PublicView) -> Counter[str]:
    """The cards a public table shows: melds, discard, face-up tile, hands laid open."""
    shown = Counter[str]()
    for meld in view.melds:
        shown += codes(p.card for p in meld.cards)
    shown += codes(view.discard)
    face_up = getattr(view.extra, "face_up", None)
    if face_up is not None:
        shown[str(face_up)] += 1
    for hand in view.shown_hands or ():
        shown += codes(hand)
    if view.taken is not None:
        shown[str(view.taken)] += 1
    return shown


class Views:
    """The views of one table by version (from every published update)."""

    def __init__(self, updates: list[TableUpdate], table_id: int) -> None:
        self.updates = {u.info.version: u for u in updates if u.info.id == table_id}

    def player(self, version: int, seat: int) -> PlayerView:
        update = self.updates.get(version)
        assert update is not None, f"no update was published at version {version}"
        screen = update.seat_screen(seat)
        assert screen is not None, f"no screen of seat {seat} at version {version}"
        return screen.view

    def public(self, version: int) -> PublicView:
        update = self.updates.get(version)
        assert update is not None and update.table.view is not None, version
        return update.table.view

    def history(self, version: int) -> set[str]:
        """The cards public events named up to ``version`` (the page's last moves)."""
        return {
            str(c)
            for v, u in self.updates.items()
            if v <= version
            for e in u.table.events
            for c in event_cards(e)
        }

    def allowed(self, version: int, seat: int | None) -> set[str]:
        """Every card code a text of the page at ``version`` may name."""
        update = self.updates[version]
        view = self.public(version) if seat is None else self.player(version, seat).table
        allowed = set(table_cards(view))
        allowed |= {str(c) for meld in view.melds for p in meld.cards for c in (p.card,)}
        if seat is not None:
            allowed |= {str(c) for c in self.player(version, seat).hand}
        allowed |= {str(c) for e in update.table.events for c in event_cards(e)}
        return allowed


def _meld_codes(meld: dict[str, Any]) -> list[str]:
    return [entry[0] if isinstance(entry, list) else entry for entry in meld["cards"]]


def check_screen(frame: dict[str, Any], views: Views, seat: int | None, reader: Reader) -> int:
    """One ``screen`` frame against the view at its version; returns the cards checked."""
    version = frame["version"]
    if frame["status"] in ("closed", "lobby") or frame["public"] is None:
        assert frame["hand"] is None
        return 0
    view = views.public(version) if seat is None else views.player(version, seat).table
    public = frame["public"]
    laid = Counter[str]()
    for meld, placed in zip(public["melds"], view.melds, strict=True):
        assert _meld_codes(meld) == [str(p.card) for p in placed.cards]
        laid += Counter(_meld_codes(meld))
    assert public["discard"] == [str(c) for c in view.discard]
    assert [p["cards"] for p in public["players"]] == list(view.hand_sizes)
    face_up = getattr(view.extra, "face_up", None)
    assert public["face_up"] == (None if face_up is None else str(face_up))
    checked = sum(laid.values()) + len(public["discard"])
    if frame["sheet"] is not None:
        assert frame["sheet"]["hands"] == [[str(c) for c in h] for h in view.shown_hands or ()]
    if seat is None:
        assert frame["hand"] is None, "a spectator was sent a hand"
    elif frame["hand"] is not None:
        own = views.player(version, seat)
        assert Counter(frame["hand"]["cards"]) == codes(own.hand), "not the seat's own hand"
        checked += len(own.hand)
    allowed = views.allowed(version, seat)
    for text in texts_of(frame):
        for code in reader.in_text(text):
            assert code in allowed, f"{code} in {text!r} is no card the seat may see"
    return checked


def texts_of(frame: dict[str, Any]) -> Iterator[str]:
    """Every text of a frame."""
    yield from frame.get("events", [])
    yield from frame.get("notices", [])
    public = frame.get("public") or {}
    yield from public.get("lines", [])
    hand = frame.get("hand") or {}
    if hand:
        yield hand["phase"]
        yield from (offer["label"] for offer in hand["offers"])
        if hand.get("hint"):
            yield hand["hint"]["label"]
    if frame.get("sheet"):
        yield frame["sheet"]["text"]
    if frame.get("type") in ("reply", "warn", "error"):
        yield frame.get("text") or ""


def check_frames(
    frames: list[dict[str, Any]], views: Views, seat: int | None, reader: Reader
) -> int:
    """Every frame a page received; returns the number of cards checked."""
    checked = 0
    version = None
    for frame in frames:
        kind = frame["type"]
        if kind == "screen":
            checked += check_screen(frame, views, seat, reader)
            version = frame["version"]
        elif kind == "hand":
            assert seat is not None, "a spectator was sent a hand"
            own = views.player(frame["version"], seat)
            assert Counter(frame["hand"]["cards"]) == codes(own.hand)
            allowed = views.allowed(frame["version"], seat)
            for text in texts_of(frame):
                for code in reader.in_text(text):
                    assert code in allowed, f"{code} in {text!r}"
            checked += len(own.hand)
        elif version is not None and version in views.updates:
            allowed = views.allowed(version, seat)
            for text in texts_of(frame):
                for code in reader.in_text(text):
                    assert code in allowed, f"{code} in {text!r}"
    return checked


def check_dom(dom: dict[str, Any], views: Views, seat: int | None, reader: Reader) -> int:
    """A snapshot of the page's DOM (:data:`DOM_SNAPSHOT`) against the view it shows."""
    version = dom["version"]
    if version < 0 or version not in views.updates or dom["phase"] == "":
        return 0
    view = views.public(version) if seat is None else views.player(version, seat).table
    allowed = views.allowed(version, seat)
    if seat is not None:
        own = views.player(version, seat)
        if (dom["hand"] or own.hand) and dom["status"] == "playing":
            assert Counter(dom["hand"]) == codes(own.hand), "the DOM's hand"
    else:
        assert not dom["hand"], "a spectator's page shows a hand"
    assert Counter(dom["melds"]) == Counter(str(p.card) for m in view.melds for p in m.cards)
    for code in dom["all"]:
        assert code in allowed, f"a card element {code} the seat may not see"
    for label in dom["labels"]:
        for code in reader.in_label(label):
            assert code in allowed, f"{code} in the label {label!r}"
    history = allowed | views.history(version)  # the last moves: public events
    for code in reader.in_text(dom["text"]):
        assert code in history, f"{code} in the page's text"
    return len(dom["all"])


DOM_SNAPSHOT = """() => {
  const app = document.getElementById('app');
  const cards = (selector) => [...document.querySelectorAll(selector)]
    .map((n) => n.dataset.card);
  const clone = app.cloneNode(true);
  clone.querySelectorAll('svg').forEach((n) => n.remove());
  return {
    version: Number(app.dataset.version ?? -1), phase: app.dataset.phase ?? '',
    status: app.dataset.status ?? '',
    hand: cards('.hand-row [data-card]'), melds: cards('.melds [data-card]'),
    all: cards('[data-card]'),
    labels: [...document.querySelectorAll('[aria-label]')]
      .map((n) => n.getAttribute('aria-label')),
    text: clone.innerText || clone.textContent,
  };
}"""
"""Reads what the page shows: card elements by region, every aria-label, the text
(without the drawings' own letters)."""
