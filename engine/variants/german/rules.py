"""Options and presets of German Rommé (``german``), each with its rule sentence.

Source: shared/rules/german-romme.de.txt. Every house rule of the text's list
"Variationen Deutsches Rommé" is an option; the play-money modes ("Wertung mit
Spielgeld") are an optional score sheet in chips (no real money anywhere).
"""

from __future__ import annotations

from engine.options import Option, Preset, RuleSet, deals_option, require_match_end, target_option

SOURCE = "german-romme.de.txt"
_S = SOURCE + ": "

OPTIONS: tuple[Option, ...] = (
    target_option(
        150,
        "Elimination: a player with more penalty points than this is out; the last "
        "player left wins (none: no elimination).",
        _S + "Es wird eine bestimmte Punktzahl definiert (150, 200 oder mehr ...), ein "
        "Spieler welcher mehr Verlustpunkte geschrieben hat scheidet aus.",
    ),
    deals_option(
        None,
        "Fixed number of deals; then the fewest penalty points win (none: no limit).",
        _S + "Es werden eine bestimmte Anzahl von Spielen durchgeführt, z.B. 5 oder 10 ... "
        "Der Spieler der am Ende am wenigsten Verlustpunkte hat, gewinnt die Partie.",
    ),
    Option(
        "four_jokers",
        bool,
        False,
        "Only 4 jokers in the pack instead of 6.",
        _S + "2 x 52 Karten und 6 Joker ... Optional können auch nur je 2, also 4 Joker "
        "benützt werden; Hausregel: Anstatt 6 Joker werden nur 4 benutzt.",
    ),
    Option(
        "around",
        bool,
        False,
        "Runs may go around the corner (K-A-2), as on GameDuell; else the ace is low "
        "(A-2-3) or high (Q-K-A).",
        _S + "Sequenzen 'um die Ecke' sind nicht erlaubt: K A 2 ist z.B. eine ungültige "
        "Sequenz. Achtung: Diese Regel gilt bei Gameduell nicht",
    ),
    Option(
        "dealer_extra",
        bool,
        False,
        "No upcard: the dealer gets one card more and opens the deal by discarding.",
        _S + "Optional kann sich der Geber eine zusätzliche Karte verteilen, anstatt eine "
        "Karte aufzudecken. Er wirft dann eine Karte aufgedeckt ... ab",
    ),
    Option(
        "opening",
        int,
        40,
        "Points the first meld of a player needs (30, 35, 40, 50 ...).",
        _S + "wenn die Punktsumme der gemeldeten Karten zusammen 40 (30) oder mehr Punkte "
        "beträgt; Hausregel: Die Punktzahl, die es für eine Erstmeldung braucht beträgt "
        "50, 30 Punkte oder 35 Punkte.",
        minimum=0,
        maximum=200,
    ),
    Option(
        "opening_exceed",
        bool,
        False,
        "The first meld must exceed the opening points (41 for 40, 51 for 50).",
        _S + "Zur Erstmeldung muss die erforderliche Punktzahl überschritten werden, es "
        "benötigt also 41 Punkte, 40 Punkte reichen nicht.",
    ),
    Option(
        "two_player_cards",
        int,
        13,
        "Cards per player with two players; 14 or 15 also raise the first meld to 51.",
        _S + "Die Anzahl der verteilten Karten ist bei 2 Spielern 14 oder 15 Karten und die "
        "zu erreichende Punktzahl für eine Erstmeldung beträgt 51 oder mehr Punkte.",
        minimum=13,
        maximum=15,
    ),
    Option(
        "one_joker",
        bool,
        False,
        "At most one joker per meld.",
        _S + "Eine Figur darf grundsätzlich nicht mehr als ein Joker enthalten.",
    ),
    Option(
        "card_values",
        str,
        "standard",
        "Card values: standard (2-9 face, 10-K 10) or flat (2-8 = 5, 9-K = 10); the ace "
        "and the joker keep their own options.",
        _S + "Spielkarten haben folgende Werte: 2 - 8 = 5 Punkte, 9 - K = 10 Punkte, As = "
        "11 Joker = 25",
        choices=("standard", "flat"),
    ),
    Option(
        "joker_points",
        int,
        25,
        "Penalty value of a joker left in a hand (25; 30; 20 on GameDuell).",
        _S + "Joker = 25 Punkte ( 30 Punkte ) in der Hand, 20 Punkte bei Gameduell",
        minimum=0,
        maximum=100,
    ),
    Option(
        "ace_points",
        int,
        11,
        "Penalty value of an ace left in a hand (11, or 15).",
        _S + "As = 11 Punkte ( 15 Punkte ) in der Hand",
        minimum=1,
        maximum=30,
    ),
    Option(
        "set_swap_four",
        bool,
        False,
        "A joker in a set is exchanged only for all its missing cards (a joker-free four).",
        _S + "Ein Joker in einem gemeldeten Drilling darf nur ausgetauscht werden, wenn er "
        "beide fehlenden Karten der selben Ranghöhe ergänzt werden",
    ),
    Option(
        "open_turn_play",
        bool,
        False,
        "Lay-offs and joker exchanges are allowed right after the first meld, in the same "
        "turn (going out then is no hand rummy).",
        _S + "Ein Spieler darf bereits nach einer Erstmeldung (im selben Spielzug) Karten "
        "an Figuren ergänzen oder Joker austauschen. ... gilt dies nicht als Rummy",
    ),
    Option(
        "no_rummy_first_turn",
        bool,
        False,
        "No hand rummy in a player's first turn of a deal (a first meld is allowed).",
        _S + "Es ist nicht erlaubt im 1. Spielzug Rummy zu gehen, eine Erstmeldung "
        "hingegen kann getätigt werden.",
    ),
    Option(
        "one_layoff",
        bool,
        False,
        "Only one card may be laid off per turn.",
        _S + "In einem Spielzug darf ein Spieler nur eine Karte an eine Figur ergänzen.",
    ),
    Option(
        "closing_layoffs",
        bool,
        False,
        "When someone goes out, the others (who have melded) lay off in turn before the scoring.",
        _S + "Hat ein Spieler eine Runde beendet, dürfen die Spieler der Reihe nach eine "
        "oder mehrere Karten an (alle) Figuren ergänzen, bevor abgerechnet wird.",
    ),
    Option(
        "joker_steal",
        bool,
        False,
        "The cutter keeps a joker at the bottom of the cut and is dealt one card fewer.",
        _S + "Der abhebende Spieler darf die unterste Karte des abgehobenen "
        "Kartenpackets ansehen, und wenn es ein Joker ist, darf er sie behalten",
    ),
    Option(
        "chips",
        str,
        "off",
        "Play-money score sheet in chips (no real money): off; points (each loser pays "
        "the match winner chip_rate per point of difference, round_bonus per deal); pot "
        "(stake per deal into a pot, one buy-back, the last player takes the pot).",
        _S + "Wertung mit Spielgeld: Jeder Verlierer bezahlt für seine Differenz pro Punkt "
        "einen bestimmten Betrag ... Vor jeder Runde leistet jeder (verbleibende) Spieler "
        "einen ... Betrag (E) in den Spielpot",
        choices=("off", "points", "pot"),
    ),
    Option(
        "chip_rate",
        int,
        1,
        "Chips per point (settlement and round bonus).",
        _S + "Jeder Verlierer bezahlt für seine Differenz pro Punkt einen bestimmten Betrag",
        minimum=1,
        maximum=1000,
    ),
    Option(
        "round_bonus",
        int,
        0,
        "With chips: each loser of a deal pays its winner this many points' worth "
        "(doubled for hand rummy); 0 = off, usually 10.",
        _S + "dass die Verlierer einer einzelnen Runde dem Rundensieger eine Siegesprämie "
        "bezahlen, gewöhnlich ein Betrag der 10 Punkten in der Endabrechnung entspricht, "
        "20 Punkten bei Rummy gehen",
        minimum=0,
        maximum=100,
    ),
    Option(
        "stake",
        int,
        1,
        "Chips=pot: the stake E each remaining player pays per deal.",
        _S + "Vor jeder Runde leistet jeder (verbleibende) Spieler einen im voraus zu "
        "bestimmenden Betrag (E) in den Spielpot.",
        minimum=1,
        maximum=1000,
    ),
    Option(
        "pot_split",
        bool,
        False,
        "Chips=pot with 3 or more players: 70% of the pot to the winner, 30% to the second.",
        _S + "Optional kann bei 3 oder mehr Spieler der Pot auch zwischen dem 1. und 2. "
        "geteilt werden, üblicher weise 70% für den 1. und 30 % für den 2.",
    ),
)

PRESETS: dict[str, Preset] = {
    "standard": Preset(
        "standard",
        "German Rommé: 2 x 52 cards and 6 jokers, first meld 40, out above 150 penalty points.",
        _S + "Deutsches Rommé (Rummy mit Joker und Auslegen)",
    ),
    "deals": Preset(
        "deals",
        "A fixed number of deals (5); the fewest penalty points win.",
        _S + "Es werden eine bestimmte Anzahl von Spielen durchgeführt, z.B. 5 oder 10",
        {"target": None, "deals": 5},
    ),
    "gameduell": Preset(
        "gameduell",
        "As on GameDuell: runs around the corner (K-A-2), a joker left in the hand counts 20.",
        _S + "20 Punkte bei Gameduell ... Sequenzen 'um die Ecke' sind dort explizit erlaubt!",
        {"around": True, "joker_points": 20},
    ),
    "pot": Preset(
        "pot",
        "Play money with a pot: out above 100, a stake per deal, one "
        "buy-back, the last player takes the pot (chips, no real money).",
        _S + "Es werden 100 oder 150 Punkte definiert ... Der letzte übrigbleibende "
        "Spieler wird Gesamtsieger und erhält den Pot.",
        {"target": 100, "chips": "pot"},
    ),
}


def validate(rules: RuleSet) -> None:
    """A match needs an end: a target (elimination) or a number of deals, or both (whichever
    comes first). Raises :class:`RuleOptionError` when both are ``none``."""
    require_match_end(rules)
