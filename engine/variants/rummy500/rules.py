"""Rummy 500 (``500``): rule options and presets, each naming its sentence in
shared/rules/rummy-500.de.txt.

Option values: ``target`` (500), ``jokers`` (on), ``values`` (``standard`` or
``5_10_15``), ``take_must_meld`` and ``take_new_meld`` (what a card taken from
the discard pile obliges), ``calling`` (``any``, ``last_layoff``, ``off``),
``going_out`` (``any``, ``discard``, ``float``, ``unplayable``, ``callable``) and
``win_needs_out``.
"""

from __future__ import annotations

from engine.options import MAX_TARGET, Option, Preset

SOURCE = "rummy-500.de.txt"

OPTIONS: tuple[Option, ...] = (
    Option(
        "target",
        int,
        500,
        "The match ends once someone has this total (ties play on).",
        f"{SOURCE}: Es werden so lange weitere Runden gespielt, bis ein Spieler eine "
        "Punktzahl von mindestens 500 erreicht. ... Falls es einen Gleichstand gibt, werden "
        "weitere Runden gespielt, bis es nur einen Sieger gibt.",
        minimum=1,
        maximum=MAX_TARGET,
    ),
    Option(
        "jokers",
        bool,
        True,
        "Two jokers per pack (off: the original game without jokers).",
        f"{SOURCE}: Rommé 500 kann ohne Joker gespielt werden (was ursprünglich auch der "
        "Fall war).",
    ),
    Option(
        "values",
        str,
        "standard",
        "Card values: standard (2-10 face value, J Q K 10, ace and joker 15, ace 1 low in "
        "A-2-3) or 5_10_15 (2-9 five, 10 J Q K ten, ace and joker 15, ace 5 low in a run).",
        f"{SOURCE}: Bei einigen Varianten zählen die Zahlenkarten 2 bis 9 jeweils 5 Punkte. "
        "Die Zehner und die Bildkarten B, D, K zählen jeweils 10 und die Joker zählen 15 "
        "Punkte.",
        choices=("standard", "5_10_15"),
    ),
    Option(
        "take_must_meld",
        bool,
        False,
        "A card taken from the discard pile must be melded or laid off at once, the top "
        "card too (else draw from the stock).",
        f"{SOURCE}: Diese Regel gilt auch dann, wenn Sie nur die oberste Karte vom "
        "Ablagestapel aufnehmen - in diesem Fall müssen Sie diese oberste Karte melden.",
    ),
    Option(
        "take_new_meld",
        bool,
        False,
        "The bottom card taken from the discard pile must go into a new meld of three or "
        "more cards; laying it off does not count.",
        f"{SOURCE}: muss die unterste Karte, die Sie aufnehmen, in einer neuen Auslage aus "
        "drei oder mehr Karten verwendet werden - es genügt nicht, die Karte an eine "
        "bestehende Auslage anlegen zu können.",
    ),
    Option(
        "calling",
        str,
        "any",
        "Calling Rommé!: any (take the pile down to a playable card and play a turn), "
        "last_layoff (only the last discard, laid off at once; the turn order stays) or "
        "off.",
        f'{SOURCE}: In manchen Varianten ist es nur dann erlaubt, "Rommé" zu rufen, wenn '
        "die letzte abgelegte Karte an eine Auslage auf dem Tisch angelegt werden kann. "
        "... Manchmal ist es überhaupt nicht erlaubt, Rommé zu rufen.",
        choices=("any", "last_layoff", "off"),
    ),
    Option(
        "going_out",
        str,
        "any",
        "Going out: any (meld every card, or discard the last one), discard (a final "
        "discard is required), float (melding every card makes you float), unplayable "
        "(going out only by discarding a card that could not be played, else float) or "
        "callable (a playable last discard may be called by the others, and you float).",
        f"{SOURCE}: muss der Spieler, der alle Karten auslegt, eine Karte auf der Hand "
        "behalten ... Schweben ... Nicht spielbare Karte für Ablagestapel beim Melden aller "
        "Karten erforderlich ... In einer alternativen Variante wird so gespielt, dass "
        'jeder andere Spieler "Rommé!" rufen und die von Ihnen auf den Ablagestapel '
        'gelegte Karte melden kann. In diesem Fall werden Sie zu einem "Schwebenden"',
        choices=("any", "discard", "float", "unplayable", "callable"),
    ),
    Option(
        "win_needs_out",
        bool,
        False,
        "Only the player who goes out with a total of the target or more wins.",
        f"{SOURCE}: Wenn der Spieler, der alle Karten ausgelegt hat, 500 oder mehr Punkte "
        "erzielt hat, gewinnt er; falls nicht, teilt der nächste Spieler die Karten aus",
    ),
)

PRESETS: dict[str, Preset] = {
    "standard": Preset(
        "standard",
        "Rummy 500 as described: 54 cards, deep takes, Rommé! calls, play to 500.",
        f"{SOURCE}: Rommé 500",
    ),
    "original": Preset(
        "original",
        "The original game without jokers.",
        f"{SOURCE}: Rommé 500 kann ohne Joker gespielt werden (was "
        "ursprünglich auch der Fall war).",
        {"jokers": False},
    ),
    "book": Preset(
        "book",
        "As most card game books have it: every card taken from the "
        "discard pile must be melded at once, and nobody calls Rommé!.",
        f"{SOURCE}: In den meisten Büchern über Kartenspiele gibt es die Regel, dass "
        "man melden muss, um vom Ablagestapel aufnehmen zu dürfen. ... In den meisten "
        "Büchern über Kartenspiele wird die Möglichkeit, Rommé zu rufen, nicht "
        "erwähnt.",
        {"take_must_meld": True, "calling": "off"},
    ),
}
