"""Texts of Romanian Rummy: its events, its table lines and its errors, in English and
German (bot/render/variants/romanian.py, bot/i18n/errors.py)."""

from __future__ import annotations

import pytest

from bot.i18n import use_locale
from bot.i18n.errors import error_template, localize_error
from bot.render.events import render_event
from bot.render.text import MAX_CHARS, render_table
from engine.actions import Discard
from engine.cards import parse_card, parse_cards
from engine.dealing import new_game
from engine.errors import IllegalMove
from engine.game import apply, current_player, legal_actions
from engine.rules import make_rules
from engine.search import best_melds
from engine.state import GameState
from engine.variants.romanian import errors as romanian_errors
from engine.variants.romanian.actions import Ready
from engine.variants.romanian.commands import BadHint, MissingPlayerName
from engine.variants.romanian.events import (
    DoublaAnnounced,
    DoublaAnswered,
    DoublaOffered,
    FaceUpAnnounced,
    FewTilesLeft,
    GameBlocked,
    JolyExchanged,
    PlayBegins,
    PlayerReady,
    ScoreSheet,
    SeatScore,
    TookFaceUp,
    TookFromRow,
)
from engine.views import view_for

from .conftest import Factory

PLAYERS = ["ana", "ben", "cem"]
R7 = parse_card("r7")

EVENTS = [
    (
        DoublaAnnounced(0, "high"),
        "ana announces a doubla (high).",
        "ana sagt eine Doubla an (hoch).",
    ),
    (DoublaAnnounced(0, ""), "ana announces a doubla.", "ana sagt eine Doubla an."),
    (
        DoublaOffered(1, 0),
        "ben offers ana a doubla swap.",
        "ben bietet ana einen Doubla-Tausch an.",
    ),
    (
        DoublaAnswered(1, 0, True),
        "ana and ben swap their doublas face down.",
        "ana und ben tauschen ihre Doublas verdeckt.",
    ),
    (
        DoublaAnswered(1, 0, False),
        "ana rejects the doubla swap of ben.",
        "ana lehnt den Doubla-Tausch von ben ab.",
    ),
    (
        FaceUpAnnounced(2, R7),
        "cem holds the twin of the face-up tile 🔴7 (+25).",
        "cem hat den gleichen Stein wie den aufgedeckten 🔴7 (+25).",
    ),
    (PlayerReady(1), "ben is ready.", "ben ist fertig."),
    (PlayBegins(0), "Play begins: ana discards first.", "Das Spiel beginnt: ana legt zuerst ab."),
    (
        TookFromRow(0, R7, parse_cards("r7 b2")),
        "ana takes 🔴7 from the discard row with the tiles after it (🔴7 🔵2) and must meld 🔴7 "
        "at once.",
        "ana nimmt 🔴7 aus der Ablagereihe mit den Steinen danach (🔴7 🔵2) und muss "
        "🔴7 sofort melden.",
    ),
    (
        TookFaceUp(0, R7),
        "ana takes the face-up tile 🔴7 to go out.",
        "ana nimmt den aufgedeckten Stein 🔴7, um auszugehen.",
    ),
    (
        JolyExchanged(1, 2, parse_cards("b7 k7")),
        "ben puts 🔵7 ⚫7 in place of the Joly of meld 3 and must meld the Joly at once.",
        "ben legt 🔵7 ⚫7 an die Stelle des Jolys in Meldung 3 und muss den Joly sofort melden.",
    ),
    (FewTilesLeft(2, 3), "cem announces: tiles left: 3.", "cem sagt an: noch 3 Steine."),
    (
        GameBlocked(4),
        "Nobody can place a tile any more: no tile in play makes a meld, fits a meld or "
        "replaces a Joly. The game ends without a winner.",
        "Niemand kann mehr einen Stein auslegen: Kein Stein im Spiel bildet eine Meldung, "
        "passt an eine Meldung oder ersetzt einen Joly. Das Spiel endet ohne Gewinner.",
    ),
]


@pytest.mark.parametrize(("event", "english", "german"), EVENTS)
def test_events_in_english_and_german(event: object, english: str, german: str) -> None:
    with use_locale("en"):
        assert render_event(event, PLAYERS) == english  # type: ignore[arg-type]
    with use_locale("de"):
        assert render_event(event, PLAYERS) == german  # type: ignore[arg-type]


def test_the_score_sheet() -> None:
    """romanian-rummy.de.txt: "Der Gewinner bekommt 100 Punkte und den Wert der Steine,
    die er gemeldet hat. Die anderen Spieler bekommen den Wert der Steine, die sie
    gemeldet haben, vermindert um den Wert der Steine, die sie noch auf ihren Ständern
    haben." The sheet adds up only the terms that count, in the text's order."""
    sheet = ScoreSheet(
        (
            SeatScore(50, 50, 0, 0, 100, True, 400),
            SeatScore(15, 0, 60, 0, 0, False, -45),
            SeatScore(0, 0, 0, -200, 25, False, -175),
        )
    )
    with use_locale("en"):
        text = render_event(sheet, PLAYERS)  # type: ignore[arg-type]
    assert text == (
        "Score: ana: melded 50, Jolys +50, bonus +100, doubled = 400; "
        "ben: melded 15, rack -60 = -45; cem: no meld -200, bonus +25 = -175."
    )
    with use_locale("de"):
        assert render_event(sheet, PLAYERS) == (  # type: ignore[arg-type]
            "Wertung: ana: gemeldet 50, Jolys +50, Prämie +100, verdoppelt = 400; "
            "ben: gemeldet 15, Ständer -60 = -45; cem: keine Meldung -200, Prämie +25 = -175."
        )


def test_the_table_shows_face_up_tile_row_and_announcements(romanian: Factory) -> None:
    game = romanian(
        ["r5 r6 r7 y2", "b2 b3 b4 k8", "k1 k2 k3 y9"], face_up="b13", stock="y5 y6 y7", preplay=True
    )
    with use_locale("en"):
        text = render_table(view_for(game.state, 1).table)
    assert "Face-up tile: 🔵13" in text
    # what may be done, not the typed words (the web table and the chats have buttons)
    assert (
        "Before play: ana may announce a doubla, offer a doubla swap or announce the "
        "face-up twin." in text
    )
    game.play("ready")
    game.play("ready")
    game.play("ready")
    game.play("discard y2")
    game.play("draw")
    game.play("discard k8")
    with use_locale("de"):
        text = render_table(view_for(game.state, 1).table)
    assert "Ablagereihe: [🟡2] ⚫8" in text
    assert len(text) < MAX_CHARS


def test_the_table_shows_the_opening_still_owed(romanian: Factory) -> None:
    """romanian-rummy.de.txt: "Bei der ersten Meldung ... mindestens eine eine Folge ...
    mindestens 50 Punkte betragen": the table says so while the seat to play has not
    opened, as German Rommé's table shows its first meld (issue 37)."""
    game = romanian(
        ["r5 r6 r7 y2", "b2 b3 b4 k8", "k1 k2 k3 y9"],
        face_up="b13",
        stock="y5 y6 y7",
        preplay=False,
    )
    game.play("discard y2")
    with use_locale("de"):
        text = render_table(view_for(game.state, 1).table)
    assert (
        "Erstmeldung von ben: 0 von 50 Punkten (mindestens eine Folge, alles in einem Zug)." in text
    )
    with use_locale("en"):
        text = render_table(view_for(game.state, 1).table)
    assert "ben's opening: 0 of 50 points (at least one run, all in one turn)." in text


def test_the_hint_groups_tiles() -> None:
    """The shared best-meld search works on tiles (colours keep their tiles)."""
    part = best_melds(parse_cards("r5 r6 r7 y9 b9 k9 jo k1"), make_rules("romanian"))
    assert {str(c) for g in part.melds for c in (s.card for s in g)} >= {"r5", "r6", "r7"}
    assert all(c.suit is None or c.suit.is_colour for c in part.deadwood)


ERRORS = [
    c
    for c in vars(romanian_errors).values()
    if isinstance(c, type) and issubclass(c, IllegalMove) and c is not IllegalMove
]


@pytest.mark.parametrize("cls", [*ERRORS, MissingPlayerName, BadHint], ids=lambda c: c.__name__)
def test_every_error_has_a_german_message(cls: type) -> None:
    assert error_template(cls) is not None
    params = {
        "player": "ben",
        "tile": "r7",
        "hint": "high",
        "points": 50,
        "value": 40,
        "kind": "row",
        "verb": "offer",
        "text": "up",
    }
    error = cls.__new__(cls)
    IllegalMove.__init__(error, **params)
    with use_locale("de"):
        german = localize_error(error)
    with use_locale("en"):
        english = localize_error(error)
    assert german and german != english


def _turn_line(state: GameState) -> str:
    with use_locale("en"):
        return render_table(view_for(state, 0).table).splitlines()[1]


def test_the_turn_line_follows_the_romanian_steps() -> None:
    """romanian-rummy.de.txt: before play the players may announce ("Vor dem ersten
    Spielzug ..."), the player right of the dealer begins by discarding a tile, the
    row's first tile is never taken, and the screens speak of tiles, rack and wall."""
    state = new_game(make_rules("romanian"), PLAYERS, seed=3)
    assert _turn_line(state).startswith("Before play: ")
    while (seat := current_player(state)) is not None and state.extra.preplay:
        state, _events = apply(state, Ready(seat))
    seat = current_player(state)
    assert seat is not None
    assert _turn_line(state) == f"{state.players[seat]} begins play: discard one tile."
    with use_locale("en"):
        table = render_table(view_for(state, 0).table)
    assert "Wall: " in table and "stock" not in table and " cards" not in table
    assert "Discard row: empty" in table
    discard = next(a for a in legal_actions(state, seat) if isinstance(a, Discard))
    state, _events = apply(state, discard)
    seat = current_player(state)
    assert seat is not None
    assert _turn_line(state) == f"{state.players[seat]} to play: draw from the wall."
