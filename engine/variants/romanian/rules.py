"""The options and presets of Romanian Rummy (shared/rules/romanian-rummy.de.txt)."""

from __future__ import annotations

from engine.options import (
    MAX_REUSES,
    Option,
    Preset,
    deals_option,
    target_option,
)

SOURCE = "romanian-rummy.de.txt"

OPTIONS: tuple[Option, ...] = (
    deals_option(
        4,
        "Match ends after this many games (none: no limit).",
        f"{SOURCE}: Die Spieler können wählen, ob die Partie nach einer bestimmten Anzahl "
        "von Spielen enden soll oder ob ein Spieler eine bestimmte Punktzahl erreichen muss.",
    ),
    target_option(
        None,
        "Match ends when someone reaches this score (none: no target).",
        f"{SOURCE}: ... oder ob ein Spieler eine bestimmte Punktzahl erreichen muss.",
    ),
    Option(
        "opening",
        int,
        50,
        "Points the first melds must be worth (45 in some circles).",
        f"{SOURCE}: Der Gesamtwert der Meldungen muss mindestens 50 Punkte betragen. / "
        "Einige Runden fordern nur 45 Punkte und nicht 50 Punkte für die erste Meldung.",
        minimum=0,
        maximum=200,
    ),
    Option(
        "no_meld",
        str,
        "flat200",
        "A player with no meld at all: flat200 (-200, the rack does not count) or "
        "100_plus_rack (-100 and the rack's value).",
        f"{SOURCE}: Ein Spieler, der überhaupt keine Meldungen gemacht hat, verliert 200 "
        "Punkte / In einigen gedruckten Regeln steht, dass ein Spieler, der keine Meldung "
        "gemacht hat, 100 Punkte und den Punktwert der Steine auf seinem Ständer verliert",
        choices=("flat200", "100_plus_rack"),
    ),
    Option(
        "opening_take",
        bool,
        False,
        "The previous player's discard may be taken for the opening if it is melded in it at once.",
        f"{SOURCE}: Manche Runden erlauben es, dass der Stein vom vorhergehenden Spieler "
        "(nur ein Stein) aufgenommen werden darf, wenn er sofort für die Anfangsmeldung "
        "benutzt wird.",
    ),
    Option(
        "joly_double",
        bool,
        False,
        "Going out by discarding a Joly after melding everything doubles the winner's "
        "points of that game.",
        f"{SOURCE}: Wenn man gewinnt, indem man einen Joly ablegt und vorher alle seine "
        "Steine gemeldet hat, wird der Punktgewinn dieses Spiels verdoppelt.",
    ),
    Option(
        "preplay",
        bool,
        True,
        "Before play: doubla announcements and swaps and the face-up announcement, each "
        "player in turn (off: no doubla; a face-up twin is announced automatically).",
        f"{SOURCE}: Bevor das eigentliche Spiel beginnt, kann ein Spieler, der zwei gleiche "
        "Steine ... hat, „doubla“ ansagen.",
    ),
    Option(
        "renewals",
        int,
        None,
        "How often the discards may become a new wall (unlimited as in the text; a limit "
        "ends a game with no winner when the wall is used up).",
        f"{SOURCE}: Diese jetzt verdeckt liegenden Steine ... werden gründlich gemischt und "
        "benutzt, um eine neue Mauer zu bauen",
        minimum=0,
        maximum=MAX_REUSES,
        none_word="unlimited",
    ),
    Option(
        "rack_one",
        int,
        25,
        "Value of a 1 left on the rack (the text values a 1 only in melds: 5, 10 or 25).",
        "not in the text: a 1 on the rack counts like a 1 in a set of 1s",
        minimum=0,
        maximum=25,
    ),
)

PRESETS: dict[str, Preset] = {
    "standard": Preset(
        "standard",
        "Romanian Rummy as the text's main rules describe it.",
        f"{SOURCE}: Rumänisches Rummy",
    ),
    "variations": Preset(
        "variations",
        "All four variations of the text: -100 and the rack for no meld, opening 45, the "
        "previous discard for the opening, a Joly as the last discard doubles.",
        f"{SOURCE}: Varianten",
        {"no_meld": "100_plus_rack", "opening": 45, "opening_take": True, "joly_double": True},
    ),
}
