"""Basic Rummy (``basic``): shared/rules/basic-rummy.de.txt and romme-basic.de.txt.

Presets: ``standard`` (the plain rules), ``beginner`` (Basic Rommé as taught
for beginners, romme-basic.de.txt), ``block`` (Block Rummy) and ``wrotham``
(Wrotham Rummy). Every house rule of both texts is an option.

Choices where the texts are silent (written down here and in README):
- A joker left in a hand counts ``joker_points`` (default 15, as the ace
  high-or-low rule values a wild-ish card); the texts give no joker value.
- Wrotham: with the starter's extra card there is no upcard; the starter's
  first turn begins with melding/discarding.
- ``going_rummy=bonus10`` in penalty scoring takes 10 off the winner's total.
"""

from __future__ import annotations

from fractions import Fraction

from engine.cards import ACE, Card, standard_deck
from engine.errors import RuleOptionError
from engine.flow import SharedFlow
from engine.melds import AceMode, MeldRules
from engine.options import (
    MAX_DEALS,
    MAX_REUSES,
    Option,
    Preset,
    RuleSet,
    deals_option,
    require_match_end,
    target_option,
)
from engine.state import GameState

BASIC = "basic-rummy.de.txt"
BEGINNER = "romme-basic.de.txt"

OPTIONS: tuple[Option, ...] = (
    target_option(
        100,
        "Match ends when someone reaches this score (none: no target).",
        f"{BASIC}: Entweder wird eine feste Anzahl von Deals gespielt oder das Spiel wird "
        "zu einer Zielpunktzahl gespielt.",
    ),
    deals_option(
        None,
        "Match ends after this many deals (none: no limit).",
        f"{BASIC}: Das Spiel wird mit weiteren Deals fortgesetzt, bis ein Spieler das ... "
        "Punkteziel erreicht oder bis die vereinbarte Anzahl von Deals gespielt wurde.",
    ),
    Option(
        "multiple_melds",
        bool,
        False,
        "Any number of melds per turn (else one).",
        f"{BASIC}: Einige Leute spielen, dass Sie in jeder Runde so viele Meldungen "
        "ablegen können, wie Sie möchten.",
    ),
    Option(
        "going_rummy",
        str,
        "off",
        "Going out in one turn with no earlier meld or lay-off: score doubled, or +10.",
        f"{BASIC}: Dies nennt man Going Rummy, und die Punktzahl für die Hand ist verdoppelt, "
        "oder in einigen Versionen erhält der Gewinner einen Bonus von 10 Punkten.",
        choices=("off", "double", "bonus10"),
    ),
    Option(
        "layoff_after_meld",
        bool,
        False,
        "Lay off on others' melds only after an own meld.",
        f"{BASIC}: Einige spielen, dass du keine Karten auf die Meldungen anderer Spieler "
        "ablegen darfst, bis du mindestens eine eigene Meldung abgelegt hast.",
    ),
    Option(
        "ace",
        str,
        "low",
        "Ace in runs: low (A-2-3), high_or_low (also Q-K-A, ace 15 points), "
        "around (also K-A-2, ace 15 points).",
        f"{BASIC}: Einige spielen jedoch, dass Asse als hoch oder niedrig gezählt werden "
        "können ... erlauben „Um die Ecke“ -Läufe mit einem Ass in der Mitte (K-A-2)",
        choices=("low", "high_or_low", "around"),
    ),
    Option(
        "final_discard",
        bool,
        False,
        "Going out needs a final discard.",
        f"{BASIC}: Manche Leute spielen, dass du deinen Zug beenden musst, um auszugehen, "
        "indem du deine letzte Karte ablegst.",
    ),
    Option(
        "stock_end",
        str,
        "turn_over",
        "When the stock is empty: turn the discard pile over unshuffled, shuffle it, or "
        "shuffle all but its top card.",
        f"{BASIC}: wird der Ablagestapel umgedreht, ohne zu mischen / der Ablagestapel "
        f"gemischt wird; {BEGINNER}: alle Karten im Ablagestapel außer der obersten mischen",
        choices=("turn_over", "shuffle", "shuffle_keep_top"),
    ),
    Option(
        "reuses",
        int,
        None,
        "How often the discard pile may become the stock (0 = Block Rummy; unlimited).",
        f"{BASIC}: die Häufigkeit zu begrenzen, mit der der Ablagestapel als neuer Vorrat "
        "wiederverwendet werden kann",
        minimum=0,
        maximum=MAX_REUSES,
        none_word="unlimited",
    ),
    Option(
        "scoring",
        str,
        "winner",
        "winner: the winner scores the others' hands; penalty: "
        "losers score their hands, lowest wins at the target (100); payment: each loser "
        "pays the winner, for a fixed number of deals.",
        f"{BASIC}: jeder der Verlierer Strafpunkte entsprechend den Karten in seiner Hand "
        "erhält ... jeder Verlierer den Gewinner entsprechend der Anzahl der Punkte in "
        "seiner Hand auszahlt",
        choices=("winner", "penalty", "payment"),
    ),
    Option(
        "jokers",
        int,
        0,
        "Jokers in the pack (wild cards).",
        f"{BASIC}: Es wird ein 55-Karten-Pack verwendet, darunter drei Joker",
        minimum=0,
        maximum=4,
    ),
    Option(
        "joker_swap",
        bool,
        False,
        "The holder of the card a melded joker stands for may exchange it for the joker.",
        f"{BASIC}: Ein Spieler, der die Karte hält, die ein gemeldeter Joker darstellt, "
        "kann während seines Zuges die echte Karte gegen den Joker eintauschen.",
    ),
    Option(
        "joker_points",
        int,
        15,
        "Penalty value of a joker left in a hand (texts are silent).",
        "not in the texts: chosen like the ace high-or-low value",
        minimum=0,
        maximum=100,
    ),
    Option(
        "starter_extra",
        bool,
        False,
        "The starting player gets one card more and begins by discarding (no upcard).",
        f"{BASIC}: Acht Karten werden an den Startspieler und sieben an jeden anderen "
        "Spieler ausgeteilt. In der ersten Runde zieht der Startspieler nicht",
    ),
    Option(
        "all_at_once_from",
        int,
        None,
        "From this deal on, a player may meld only by putting down the whole hand at once.",
        f"{BASIC}: in den letzten drei Runden dürfen die Spieler keine Karten mehr melden, "
        "bis sie alle sieben auf einmal ablegen können.",
        minimum=1,
        maximum=MAX_DEALS,
        none_word="never",
    ),
    Option(
        "hand_size",
        int,
        None,
        "Cards per player (auto: 10 for two, 7 for 3-4, 6 for 5-6).",
        f"{BASIC}: In einem Zwei-Spieler-Spiel erhält jeder Spieler eine Hand mit zehn "
        "Karten. Bei drei oder vier Spielern werden jeweils sieben Karten ausgeteilt",
        minimum=3,
        maximum=13,
        none_word="auto",
    ),
)

PRESETS: dict[str, Preset] = {
    "standard": Preset(
        "standard", "Basic (Straight) Rummy with no house rules.", f"{BASIC}: Basic Rummy"
    ),
    "beginner": Preset(
        "beginner",
        "Basic Rommé for beginners: several melds a turn, 'Rommé' doubles the score, the "
        "discard pile is reshuffled except its top card, play to 150.",
        f"{BEGINNER}: Rommé gehen ... werden alle Punkte für diese Hand verdoppelt; (zB 150)",
        {
            "multiple_melds": True,
            "going_rummy": "double",
            "stock_end": "shuffle_keep_top",
            "target": 150,
        },
    ),
    "block": Preset(
        "block",
        "Block Rummy: the discard pile is never re-used; an empty stock ends the hand.",
        f"{BASIC}: In der als Block Rummy bekannten Version wird der Ablagestapel "
        "überhaupt nicht wiederverwendet.",
        {"reuses": 0},
    ),
    "wrotham": Preset(
        "wrotham",
        "Wrotham Rummy: 55 cards with 3 jokers, joker swap, 6 deals, 8 cards to the starter "
        "who does not draw first, whole hand at once in deals 4-6.",
        f"{BASIC}: Wrotham Rummy",
        {
            "jokers": 3,
            "joker_swap": True,
            "deals": 6,
            "target": None,
            "starter_extra": True,
            "all_at_once_from": 4,
            "hand_size": 7,
        },
    ),
}


#: One shared record per ace rule (the lay-off index is reused per record).
_MELD_RULES = {mode: MeldRules(ace=mode) for mode in AceMode}
_MELD_RULES_BY_TEXT = {mode.value: rules for mode, rules in _MELD_RULES.items()}


class BasicRummy(SharedFlow):
    """Basic Rummy and its presets; see the module docstring."""

    id = "basic"
    name = "Basic Rummy"
    source = BASIC
    min_players = 2
    max_players = 6
    options = OPTIONS
    presets = PRESETS

    def validate(self, rules: RuleSet) -> None:
        """Refuse a match with no end and payment scoring with no fixed number of deals."""
        require_match_end(rules)
        if rules.text("scoring") == "payment" and rules.number("deals") is None:
            raise RuleOptionError(
                detail="payment scoring is played for a fixed number of deals (deals=N)",
                option="deals",
                value="none",
                accepts="a number of deals",
            )

    def meld_rules(self, rules: RuleSet) -> MeldRules:
        """Sets of 3-4, runs of 3+, ace per the ``ace`` option, one natural card at least."""
        return _MELD_RULES_BY_TEXT[rules.text("ace")]

    def deck(self, rules: RuleSet, seats: int) -> list[Card]:
        """52 cards plus ``jokers`` jokers."""
        return standard_deck(1, rules.number("jokers") or 0)

    def hand_size(self, rules: RuleSet, seats: int) -> int:
        """10 for two players, 7 for three or four, 6 for five or six (or ``hand_size``)."""
        fixed = rules.number("hand_size")
        if fixed is not None:
            return fixed
        return 10 if seats == 2 else 7 if seats <= 4 else 6

    def starter_extra_card(self, rules: RuleSet) -> bool:
        return rules.flag("starter_extra")

    def card_points(self, rules: RuleSet, card: Card) -> int:
        """Faces 10, ace 1 (15 when aces may be high), pips face value, joker ``joker_points``.

        basic-rummy.de.txt: "Bildkarten (K, Q, J) sind jeweils 10 Punkte wert; Asse sind
        jeweils 1 Punkt wert; Zahlenkarten sind ihren Nennwert wert"; "erhalten Asse den
        höheren Wert von 15 Punkten".
        """
        if card.is_joker:
            return rules.number("joker_points") or 0
        if card.rank == ACE:
            return 1 if rules.text("ace") == "low" else 15
        return min(card.rank, 10)

    def max_melds_per_turn(self, rules: RuleSet) -> int | None:
        """basic-rummy.de.txt: "Sie können nicht mehr als eine Kombination in einem Zug
        verschmelzen (siehe Hausregeln)"."""
        return None if rules.flag("multiple_melds") else 1

    def layoff_needs_own_meld(self, rules: RuleSet) -> bool:
        return rules.flag("layoff_after_meld")

    def final_discard_required(self, rules: RuleSet) -> bool:
        return rules.flag("final_discard")

    def all_at_once(self, rules: RuleSet, deal_number: int) -> bool:
        start = rules.number("all_at_once_from")
        return start is not None and deal_number >= start

    def joker_swap(self, rules: RuleSet) -> bool:
        return rules.flag("joker_swap")

    def stock_end(self, rules: RuleSet) -> tuple[str, int | None]:
        return (rules.text("stock_end"), rules.number("reuses"))

    def score_deal(
        self, state: GameState, points: tuple[int, ...], winner: int | None, rummy: bool
    ) -> tuple[Fraction, ...]:
        """Score one deal under the ``scoring`` option.

        Going out: "Der Gesamtwert aller Karten in den Händen der anderen Spieler wird
        zur Gesamtpunktzahl des Gewinners addiert." Nobody out: "Der Gewinner ist der
        Spieler mit den wenigsten Punkten und erhält die Summe der Differenzen ... Wenn
        zwei oder mehr Spieler unentschieden spielen, teilen sie die Gewinne zu gleichen
        Teilen." Penalty: "jeder der Verlierer Strafpunkte entsprechend den Karten in
        seiner Hand erhält. Wenn das Spiel ohne Gewinner endet, erhält jeder seine Karten
        als Strafpunkte." Payment: "jeder Verlierer den Gewinner entsprechend der Anzahl
        der Punkte in seiner Hand auszahlt (oder der Differenz ... wenn niemand ausgeht)".
        """
        rules = state.rules
        mode = rules.text("scoring")
        n = len(points)
        factor = 2 if rummy and rules.text("going_rummy") == "double" else 1
        bonus = 10 if rummy and rules.text("going_rummy") == "bonus10" else 0
        scores = [Fraction(0)] * n
        if mode == "penalty":
            for seat in range(n):
                if seat != winner:
                    scores[seat] = Fraction(points[seat] * factor)
            if winner is not None:
                scores[winner] = Fraction(-bonus)
            return tuple(scores)
        if winner is not None:
            for seat in range(n):
                if seat != winner:
                    pay = Fraction(points[seat] * factor)
                    scores[winner] += pay
                    if mode == "payment":
                        scores[seat] -= pay
            scores[winner] += bonus
            return tuple(scores)
        low = min(points)
        winners = [s for s in range(n) if points[s] == low]
        pot = Fraction(sum(p - low for p in points))
        for seat in range(n):
            if seat in winners:
                scores[seat] += pot / len(winners)
            elif mode == "payment":
                scores[seat] -= points[seat] - low
        return tuple(scores)

    def match_over(self, rules: RuleSet, totals: tuple[Fraction, ...], deals: int) -> bool:
        """Target reached (not in payment scoring) or the agreed number of deals played."""
        limit = rules.number("deals")
        if limit is not None and deals >= limit:
            return True
        target = rules.number("target")
        if target is None or rules.text("scoring") == "payment":
            return False
        return max(totals) >= target

    def match_winners(self, rules: RuleSet, totals: tuple[Fraction, ...]) -> tuple[int, ...]:
        """Highest total; in penalty scoring the lowest ("gewinnt der Spieler mit der
        niedrigsten Punktzahl")."""
        best = min(totals) if rules.text("scoring") == "penalty" else max(totals)
        return tuple(s for s, t in enumerate(totals) if t == best)
