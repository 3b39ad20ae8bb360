"""How to play each variant, in our own words from the rule texts (``rules/*.de.txt``), as
structured sections that every front end shows the same: the terminal and the chats
(``regeln``/``rules``, ``regeln <thema>``) and, later, the web table.

API (call inside ``use_locale``; every text is a gettext msgid, so the German screen reads
the German catalogue):

- :data:`TOPICS`: the topic keys, in reading order: ``goal``, ``deal``, ``turn``,
  ``melds``, ``first_meld``, ``layoff``, ``jokers``, ``going_out``, ``scoring``;
- :func:`how_to_play` ``(rules) -> list[Section]``: the sections for the table's rules
  (a preset or option changes what they say: Block, Wrotham, the beginners' Rommé, a
  first meld of 30, no jokers ...); each :class:`Section` has its ``topic``, a localised
  ``title``, its ``paragraphs`` (localised text, cards written as the screen writes them)
  and the example ``melds`` it shows (engine codes, for tests and for a page that draws
  cards) and, for ``scoring``, the worked :class:`ScoringExample`;
- :func:`render_how_to_play` ``(rules, topic=None) -> str``: the text of every section, or
  of one topic (a topic word in either language: ``regeln folge``, ``rules scoring``);
- :func:`topic_of` ``(word) -> str | None``: the topic a word names.

``tests/bot/test_howto.py`` checks that every variant covers every topic in both languages,
that each example meld is legal in that variant and that each worked scoring example is
what the engine scores for that position.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bot.i18n import N_, _
from bot.render.cards import card_text, points_text
from engine.cards import parse_cards
from engine.melds import CardSpec
from engine.rules import RuleSet

__all__ = [
    "TOPICS",
    "ScoringExample",
    "Section",
    "how_to_play",
    "render_how_to_play",
    "topic_of",
]

TOPICS: tuple[str, ...] = (
    "goal",
    "deal",
    "turn",
    "melds",
    "first_meld",
    "layoff",
    "jokers",
    "going_out",
    "scoring",
)
"""The topics of every variant's how-to-play, in reading order."""

_TITLES: dict[str, str] = {
    "goal": N_("Goal"),
    "deal": N_("The deal"),
    "turn": N_("A turn, step by step"),
    "melds": N_("Sets and runs"),
    "first_meld": N_("The first meld"),
    "layoff": N_("Laying off"),
    "jokers": N_("Jokers"),
    "going_out": N_("Going out"),
    "scoring": N_("Scoring"),
}

_JOLYS = N_("Jolys")
"""The jokers' title at a tile table (the Romanian joker is the Joly)."""

_TOPIC_WORDS: dict[str, str] = {
    "goal": "goal",
    "ziel": "goal",
    "deal": "deal",
    "geben": "deal",
    "austeilen": "deal",
    "turn": "turn",
    "zug": "turn",
    "melds": "melds",
    "meld": "melds",
    "set": "melds",
    "run": "melds",
    "meldungen": "melds",
    "satz": "melds",
    "folge": "melds",
    "first_meld": "first_meld",
    "opening": "first_meld",
    "erstmeldung": "first_meld",
    "layoff": "layoff",
    "anlegen": "layoff",
    "jokers": "jokers",
    "joker": "jokers",
    "joly": "jokers",
    "jolys": "jokers",
    "going_out": "going_out",
    "out": "going_out",
    "ausgehen": "going_out",
    "scoring": "scoring",
    "score": "scoring",
    "wertung": "scoring",
    "punkte": "scoring",
    "abrechnung": "scoring",
}


@dataclass(frozen=True, slots=True)
class ScoringExample:
    """A worked scoring example: the cards each seat holds at the end (``hands``, engine
    codes, ``""`` for none), the melds on the table (``melds``: (owner, codes)), who went
    out (``winner``; ``None``: nobody) and the deal ``scores`` the text states, which the
    engine must give for that position (``tests/bot/test_howto.py``)."""

    players: tuple[str, ...]
    hands: tuple[str, ...]
    melds: tuple[tuple[int, str], ...]
    winner: int | None
    scores: tuple[int, ...]
    text: str
    """msgid with ``{hand0}``..., ``{points0}``..., ``{score0}``... and ``{name0}``..."""

    def render(self, rules: RuleSet) -> str:
        """The example's text in the current language, its cards as the screen shows
        them."""
        from engine.scoring import hand_points

        values: dict[str, str] = {}
        for seat, name in enumerate(self.players):
            cards = parse_cards(self.hands[seat]) if self.hands[seat] else ()
            values[f"name{seat}"] = name
            values[f"hand{seat}"] = " ".join(card_text(c) for c in cards) or "—"
            values[f"points{seat}"] = points_text(hand_points(rules, cards))
            values[f"score{seat}"] = points_text(self.scores[seat])
        for number, (_owner, codes) in enumerate(self.melds):
            values[f"meld{number}"] = _cards(codes)
        return _(self.text).format(**values)


@dataclass(frozen=True, slots=True)
class Section:
    """One topic of a variant's how-to-play: ``topic`` (a key of :data:`TOPICS`), the
    localised ``title`` and ``paragraphs``, the example ``melds`` it names (engine codes,
    each a legal meld of the variant) and, for scoring, its worked ``example``."""

    topic: str
    title: str
    paragraphs: tuple[str, ...]
    melds: tuple[str, ...] = ()
    example: ScoringExample | None = field(default=None)


def _cards(codes: str) -> str:
    """Engine codes (``7h 8h jk=9h``) as the screen writes them (``7♥ 8♥ 🃏(9♥)``)."""
    shown = []
    for word in codes.split():
        spec = CardSpec.parse(word)
        text = card_text(spec.card)
        if spec.face is not None:
            face = card_text(spec.face) if spec.face.suit is not None else str(spec.face.rank)
            text += f"({face})"
        shown.append(text)
    return " ".join(shown)


@dataclass(frozen=True, slots=True)
class _Part:
    """A paragraph msgid with ``{m0}``, ``{m1}``... for its example melds (engine codes)
    and further named values; ``when``: only for rules where it holds."""

    text: str
    melds: tuple[str, ...] = ()
    when: Callable[[RuleSet], bool] | None = None
    values: Callable[[RuleSet], dict[str, object]] | None = None


def _on(name: str) -> Callable[[RuleSet], bool]:
    return lambda rules: bool(rules.get(name))


def _off(name: str) -> Callable[[RuleSet], bool]:
    return lambda rules: not rules.get(name)


def _is(name: str, value: object) -> Callable[[RuleSet], bool]:
    return lambda rules: rules.get(name) == value


# --- Basic Rummy (basic-rummy.de.txt, romme-basic.de.txt) ---------------------------------

_BASIC: dict[str, tuple[_Part, ...]] = {
    "goal": (
        _Part(
            N_(
                "Be the first to get rid of every card in your hand: put them on the table "
                "as sets and runs, lay them off on melds, and discard the last one."
            )
        ),
        _Part(
            N_("The match ends at the target score ({target} points)."),
            when=lambda r: isinstance(r.get("target"), int),
            values=lambda r: {"target": r.get("target")},
        ),
        _Part(
            N_("The match lasts {deals} deals; the most points win."),
            when=lambda r: isinstance(r.get("deals"), int),
            values=lambda r: {"deals": r.get("deals")},
        ),
    ),
    "deal": (
        _Part(
            N_(
                "One pack of 52 cards, aces low (A 2 3 ... 10 J Q K). Two players get 10 "
                "cards each, three or four get 7, five or six get 6. The next card is turned "
                "face up as the upcard of the discard pile; the rest is the stock."
            ),
            when=lambda r: not r.get("starter_extra"),
        ),
        _Part(
            N_(
                "Wrotham Rummy: 55 cards with 3 jokers; the starting player gets 8 cards and "
                "the others 7. The starting player does not draw in the first turn but "
                "begins by discarding (or melding and discarding)."
            ),
            when=_on("starter_extra"),
        ),
    ),
    "turn": (
        _Part(
            N_(
                "1. Draw: take the top card of the stock (draw), or the upcard of the "
                "discard pile (take)."
            )
        ),
        _Part(
            N_("2. Meld, if you like: put one set or run from your hand on the table."),
            when=_off("multiple_melds"),
        ),
        _Part(
            N_("2. Meld, if you like: put as many sets and runs on the table as you want."),
            when=_on("multiple_melds"),
        ),
        _Part(N_("3. Lay off, if you like: add cards to any meld on the table.")),
        _Part(
            N_(
                "4. Discard one card onto the discard pile; this ends your turn. A card "
                "you took from the discard pile this turn may not be discarded in the same "
                "turn."
            )
        ),
        _Part(
            N_("When the stock is empty, the discard pile becomes the new stock."),
            when=lambda r: r.get("reuses") != 0,
        ),
        _Part(
            N_(
                "Block Rummy: the discard pile is never used again; when the stock is empty "
                "and nobody wants the upcard, the deal ends and everyone counts the cards "
                "left in the hand."
            ),
            when=_is("reuses", 0),
        ),
        _Part(
            N_(
                "Wrotham Rummy: from deal {first} on you may only meld when you put down "
                "your whole hand at once."
            ),
            when=lambda r: isinstance(r.get("all_at_once_from"), int),
            values=lambda r: {"first": r.get("all_at_once_from")},
        ),
    ),
    "melds": (
        _Part(
            N_(
                "A set is three or four cards of one rank: {m0}. A run is three or more "
                "cards of one suit in sequence: {m1}."
            ),
            melds=("7h 7s 7d", "4s 5s 6s"),
        ),
        _Part(
            N_("The ace is low: {m0} is a run, but Q K A is not."),
            melds=("ac 2c 3c",),
            when=_is("ace", "low"),
        ),
        _Part(
            N_("The ace is low or high: {m0} and {m1} are runs; K A 2 is not."),
            melds=("ac 2c 3c", "qd kd ad"),
            when=_is("ace", "high_or_low"),
        ),
        _Part(
            N_("The ace is low, high or in the middle: {m0} is a run too."),
            melds=("kd ad 2d",),
            when=_is("ace", "around"),
        ),
    ),
    "first_meld": (_Part(N_("Any set or run may be your first meld; there is no minimum.")),),
    "layoff": (
        _Part(
            N_(
                "Laying off adds cards from your hand to a meld on the table, yours or "
                "another player's, as long as it stays a set or run: {m0} on the table takes "
                "the 3♣ or the 7♣. Melds are never rearranged."
            ),
            melds=("4c 5c 6c",),
        ),
        _Part(
            N_("Here you may lay off on other players' melds only after a meld of your own."),
            when=_on("layoff_after_meld"),
        ),
    ),
    "jokers": (
        _Part(N_("This game has no jokers."), when=lambda r: not r.get("jokers")),
        _Part(
            N_(
                "There are {jokers} jokers. A joker stands for any card a set or run needs; "
                "say which one when it is not clear (jk=8h): {m0}. A joker left in the hand "
                "counts {points}."
            ),
            melds=("6h 7h jk=8h",),
            when=_on("jokers"),
            values=lambda r: {"jokers": r.get("jokers"), "points": r.get("joker_points")},
        ),
        _Part(
            N_(
                "Whoever holds the card a joker on the table stands for may swap it for "
                "the joker in their turn."
            ),
            when=_on("joker_swap"),
        ),
    ),
    "going_out": (
        _Part(
            N_(
                "You go out when your last card leaves your hand, by melding, laying off "
                "or discarding it. The deal ends at once."
            ),
            when=_off("final_discard"),
        ),
        _Part(
            N_("You go out by discarding your last card: you may not meld or lay off every card."),
            when=_on("final_discard"),
        ),
        _Part(
            N_(
                "Going rummy: putting down the whole hand in one turn without having melded "
                "or laid off before doubles the deal's score."
            ),
            when=_is("going_rummy", "double"),
        ),
        _Part(
            N_(
                "Going rummy: putting down the whole hand in one turn without having melded "
                "or laid off before earns 10 extra points."
            ),
            when=_is("going_rummy", "bonus10"),
        ),
    ),
    "scoring": (
        _Part(
            N_(
                "Cards count: ace 1, 2 to 10 their number, J Q K 10 each. The player who "
                "goes out scores the cards left in the other hands."
            ),
            when=lambda r: r.get("ace") == "low" and r.get("scoring") == "winner",
        ),
        _Part(
            N_(
                "Cards count: ace 15, 2 to 10 their number, J Q K 10 each. The player who "
                "goes out scores the cards left in the other hands."
            ),
            when=lambda r: r.get("ace") != "low" and r.get("scoring") == "winner",
        ),
        _Part(
            N_(
                "Each loser writes the cards left in the hand as penalty points (ace 1, J Q K "
                "10); at the target the lowest total wins."
            ),
            when=_is("scoring", "penalty"),
        ),
        _Part(
            N_("Each loser pays the winner the points left in the hand (ace 1, J Q K 10)."),
            when=_is("scoring", "payment"),
        ),
        _Part(
            N_(
                "When the stock runs out and nobody goes out, the lowest hand wins the "
                "differences to the others."
            )
        ),
    ),
}

_BASIC_EXAMPLE = ScoringExample(
    players=("Ana", "Ben", "Cem"),
    hands=("", "qs 3d", "7c ac"),
    melds=(),
    winner=0,
    scores=(21, 0, 0),
    text=N_(
        "Example: {name0} goes out. {name1} still holds {hand1} ({points1} points) and "
        "{name2} {hand2} ({points2} points): {name0} scores {score0}."
    ),
)

# --- Rummy 500 (rummy-500.de.txt) -----------------------------------------------------------

_R500: dict[str, tuple[_Part, ...]] = {
    "goal": (
        _Part(
            N_(
                "Score points for the cards you meld and lay off; the cards left in your "
                "hand when a deal ends count against you. The first to {target} points "
                "wins the match."
            ),
            values=lambda r: {"target": r.get("target")},
        ),
    ),
    "deal": (
        _Part(
            N_(
                "52 cards and 2 jokers (two packs from five players). Two players get 13 "
                "cards each, more players 7. One card is turned face up to start the "
                "discard pile; the discard pile is spread so every card in it can be seen."
            )
        ),
    ),
    "turn": (
        _Part(
            N_(
                "1. Draw the top card of the stock (draw), or take from the discard pile: "
                "the upcard (take), or a deeper card together with every card above it "
                "(take 7h); a deeper card must be melded or laid off at once."
            )
        ),
        _Part(N_("2. Meld sets and runs and lay off cards, as many as you like.")),
        _Part(
            N_(
                "3. Discard one card, unless you have no card left. If you took only the "
                "upcard you must discard another card."
            )
        ),
        _Part(
            N_(
                "Rommé!: after a discard, before the next player draws, anyone but the "
                "discarder may call (call 7h) to take the discard pile down to a card that "
                "can be played at once, play it and take a turn."
            ),
            when=lambda r: r.get("calling") == "any",
        ),
        _Part(
            N_(
                "Rommé!: after a discard, anyone but the discarder may call to lay that "
                "card off on a meld at once (call 10h 2); then play goes on."
            ),
            when=lambda r: r.get("calling") == "last_layoff",
        ),
    ),
    "melds": (
        _Part(
            N_(
                "A set is three or four cards of one rank, all of different suits: {m0}. A "
                "run is three or more cards of one suit in sequence: {m1}. The ace is low "
                "or high ({m2}, {m3}) but never in the middle: K A 2 is no run."
            ),
            melds=("jc jd jh", "5h 6h 7h", "ad 2d 3d", "qs ks as"),
        ),
    ),
    "first_meld": (_Part(N_("There is no minimum: any set or run may be your first meld.")),),
    "layoff": (
        _Part(
            N_(
                "You may lay cards off on any meld on the table, also another player's: on "
                "{m0} the 4♥ or the 8♥. The points count for you."
            ),
            melds=("5h 6h 7h",),
        ),
    ),
    "jokers": (
        _Part(N_("This game is played without jokers."), when=_off("jokers")),
        _Part(
            N_(
                "A joker stands for any card; say which one when you meld it (jk=8h), and it "
                "keeps that place: {m0}. A joker counts 15."
            ),
            melds=("6h 7h jk=8h",),
            when=_on("jokers"),
        ),
    ),
    "going_out": (
        _Part(
            N_(
                "The deal ends when a player has no card left (by melding every card, or "
                "by discarding the last one), or when the stock is empty and the player to "
                "move does not want the discard pile."
            ),
            when=_is("going_out", "any"),
        ),
        _Part(
            N_("To go out you must discard your last card; melding every card is not allowed."),
            when=_is("going_out", "discard"),
        ),
        _Part(
            N_(
                "Melding every card makes you float: play goes on, and in your next turn "
                "you go out by drawing and discarding, or melding all but one card."
            ),
            when=lambda r: r.get("going_out") in ("float", "unplayable", "callable"),
        ),
        _Part(
            N_(
                "You go out by discarding only a card that no meld on the table could "
                "take; a last card that could still be played may not be discarded."
            ),
            when=_is("going_out", "unplayable"),
        ),
        _Part(
            N_(
                "If your last discard could still be laid off, any other player may call "
                "Rommé! and play it (call 7h); then you float. If nobody calls it, you are "
                "out as soon as the next player draws."
            ),
            when=_is("going_out", "callable"),
        ),
    ),
    "scoring": (
        _Part(
            N_(
                "Cards count: 2 to 10 their number, J Q K 10, ace 15 (1 in A 2 3), joker "
                "15. Each player adds the cards on the table in front of them and subtracts "
                "the cards left in the hand; a deal can be negative."
            ),
            when=_is("values", "standard"),
        ),
        _Part(
            N_(
                "Cards count: 2 to 9 five, 10 J Q K ten, ace 15 (5 in A 2 3), joker 15. Each "
                "player adds the cards on the table in front of them and subtracts the cards "
                "left in the hand."
            ),
            when=_is("values", "5_10_15"),
        ),
    ),
}

_R500_EXAMPLE = ScoringExample(
    players=("Ana", "Ben"),
    hands=("", "ks 4c"),
    melds=((0, "5h 6h 7h"), (0, "jc jd jh"), (1, "ad 2d 3d")),
    winner=0,
    scores=(48, -8),
    text=N_(
        "Example: {name0} melded {meld0} and {meld1} and goes out: {score0}. {name1} "
        "melded {meld2} (6 points) and still holds {hand1} ({points1}): {score1}."
    ),
)

# --- German Rommé (german-romme.de.txt) ---------------------------------------------------

_GERMAN: dict[str, tuple[_Part, ...]] = {
    "goal": (
        _Part(
            N_(
                "Be the first to get rid of your cards. The others write the cards left in "
                "their hands as penalty points; above {target} points a player is out, and "
                "the last one left wins."
            ),
            when=lambda r: isinstance(r.get("target"), int),
            values=lambda r: {"target": r.get("target")},
        ),
        _Part(
            N_(
                "Be the first to get rid of your cards. The others write the cards left in "
                "their hands as penalty points; after {deals} deals the fewest points "
                "win."
            ),
            when=lambda r: not isinstance(r.get("target"), int),
            values=lambda r: {"deals": r.get("deals")},
        ),
    ),
    "deal": (
        _Part(
            N_(
                "Two packs of 52 cards and 6 jokers (4 by house rule). Two to four players "
                "get 13 cards each, five or six get 11. One card is turned face up as the "
                "upcard; the rest is the stock."
            )
        ),
    ),
    "turn": (
        _Part(N_("1. Draw the top card of the stock (draw) or take the upcard (take).")),
        _Part(
            N_(
                "2. Meld sets and runs, once your first meld is on the table or if it "
                "reaches the minimum this turn."
            )
        ),
        _Part(
            N_(
                "3. Lay off cards on any meld, and exchange a joker for the card it stands "
                "for (exchange), but only after your first meld, from your next turn on."
            )
        ),
        _Part(
            N_(
                "4. Discard one card to end your turn. When the stock is empty, the discard "
                "pile except its top card is shuffled into a new stock."
            )
        ),
    ),
    "melds": (
        _Part(
            N_(
                "A set is three or four cards of one rank, all of different suits: {m0}. A "
                "run is three or more cards of one suit in sequence: {m1}. The ace is low or "
                "high ({m2}, {m3}); a run around the corner (K A 2) is not allowed."
            ),
            melds=("8s 8h 8c", "4s 5s 6s", "ah 2h 3h", "qc kc ac"),
            when=_off("around"),
        ),
        _Part(
            N_(
                "A set is three or four cards of one rank, all of different suits: {m0}. A "
                "run is three or more cards of one suit in sequence: {m1}; here runs may go "
                "around the corner: {m2}."
            ),
            melds=("8s 8h 8c", "4s 5s 6s", "kd ad 2d"),
            when=_on("around"),
        ),
    ),
    "first_meld": (
        _Part(
            N_(
                "Your first meld must be worth at least {opening} points in one turn (one "
                "or more melds): ace 11 (1 in A 2 3), 10 J Q K 10, the others their number, a "
                "joker the card it stands for. Example: {m0} and {m1} make 42."
            ),
            melds=("10h jh qh", "4s 4d 4c"),
            values=lambda r: {"opening": r.get("opening")},
        ),
    ),
    "layoff": (
        _Part(
            N_(
                "After your first meld you may lay off cards on every meld: on {m0} an 8 of "
                "the fourth suit, on {m1} the 4♠ or the 8♠. Melds are never rearranged."
            ),
            melds=("8s 8h 8c", "5s 6s 7s"),
        ),
    ),
    "jokers": (
        _Part(
            N_(
                "A joker stands for any card: {m0}. A run may not hold more jokers than "
                "natural cards, a set needs at least two natural cards. A joker left in the "
                "hand costs {points} points."
            ),
            melds=("5c jk=6c jk=7c 8c",),
            values=lambda r: {"points": r.get("joker_points")},
        ),
        _Part(
            N_(
                "Exchange: whoever holds the card a joker on the table stands for may put "
                "it there and must meld the joker at once in a new meld."
            )
        ),
    ),
    "going_out": (
        _Part(
            N_(
                "You go out by discarding your last card after melding and laying off all "
                "the others. Hand rummy: melding the whole hand at once, without any meld "
                "before, doubles the others' penalty points and needs no minimum."
            )
        ),
    ),
    "scoring": (
        _Part(
            N_(
                "The losers count the cards left in their hands: joker {joker}, ace {ace}, "
                "10 J Q K 10, the others their number. The winner writes nothing."
            ),
            values=lambda r: {"joker": r.get("joker_points"), "ace": r.get("ace_points")},
        ),
    ),
}

_GERMAN_EXAMPLE = ScoringExample(
    players=("Ana", "Ben", "Cem"),
    hands=("", "kh 9c", "jk ad"),
    melds=(),
    winner=0,
    scores=(0, 19, 36),
    text=N_(
        "Example: {name0} goes out. {name1} still holds {hand1} and writes {score1} "
        "penalty points, {name2} holds {hand2} and writes {score2}."
    ),
)

# --- Romanian Rummy (romanian-rummy.de.txt) -------------------------------------------------

_ROMANIAN: dict[str, tuple[_Part, ...]] = {
    "goal": (
        _Part(
            N_(
                "Collect tiles into sets and runs and put them on the table; whoever melds "
                "every tile but one and discards that one wins the game. Every tile on the "
                "table scores, every tile left on the rack counts against you."
            )
        ),
        _Part(
            N_("The match lasts {deals} games."),
            when=lambda r: isinstance(r.get("deals"), int),
            values=lambda r: {"deals": r.get("deals")},
        ),
    ),
    "deal": (
        _Part(
            N_(
                "106 tiles: four colours (red, yellow, blue, black) of 1 to 13, twice each, "
                "and 2 Jolys. Every player gets 14 tiles on a rack, the first player 15; "
                "the rest is the wall. One tile lies face up on the wall (the face-up "
                "tile)."
            )
        ),
        _Part(
            N_(
                "Before play each player may announce a doubla (two identical tiles), swap "
                "doublas, or announce the twin of the face-up tile (+25); then say ready."
            ),
            when=_on("preplay"),
        ),
    ),
    "turn": (
        _Part(
            N_(
                "The first player begins by discarding one tile; it starts the discard row "
                "and is never taken."
            )
        ),
        _Part(
            N_(
                "1. Draw the next tile of the wall (draw). After your opening you may take "
                "the previous player's discard instead (take), or a tile further back in "
                "the discard row that two tiles of your rack meld at once, together with "
                "every tile after it (take r7)."
            )
        ),
        _Part(N_("2. Meld and lay off, once you have opened.")),
        _Part(N_("3. Discard one tile to end your turn.")),
    ),
    "melds": (
        _Part(
            N_(
                "A set is three or four tiles of one number in different colours: {m0}. A "
                "run is three or more tiles of one colour in sequence: {m1}. The 1 comes "
                "before 2 or after 13 ({m2}), never in the middle: 13 1 2 is no run."
            ),
            melds=("r9 b9 k9", "y4 y5 y6", "b12 b13 b1"),
        ),
    ),
    "first_meld": (
        _Part(
            N_(
                "Your opening comes from your rack in one turn, holds at least one run and "
                "is worth at least {opening} points: 2 to 9 five, 10 to 13 ten, a 1 five "
                "(1 2 3) or ten (12 13 1), a 1 in a set 25, a Joly the tile it stands for. "
                "Example: {m0} and {m1} make 55."
            ),
            melds=("r10 r11 r12 r13", "k9 b9 y9"),
            values=lambda r: {"opening": r.get("opening")},
        ),
    ),
    "layoff": (
        _Part(
            N_(
                "After your opening, from your next turn on, you may lay tiles off on every "
                "meld: on {m0} the red 7 or the red 11."
            ),
            melds=("r8 r9 r10",),
        ),
    ),
    "jokers": (
        _Part(
            N_(
                "A Joly stands for any tile: {m0}. A meld needs at least twice as many real "
                "tiles as Jolys. Whoever holds the tile a Joly stands for may put it there "
                "and must meld the Joly at once with two tiles of the rack (joly). A Joly "
                "scores 50 for whoever melds it first and costs 25 on the rack."
            ),
            melds=("b9 b10 jo=b11",),
        ),
    ),
    "going_out": (
        _Part(
            N_(
                "You win by melding every tile but one and discarding that one. With one "
                "or two tiles left you must draw from the wall; you may take the face-up "
                "tile only to go out with it."
            )
        ),
    ),
    "scoring": (
        _Part(
            N_(
                "The winner gets 100 and the tiles melded; the others the tiles they melded "
                "minus the tiles on their racks (same values as the opening). A player who "
                "never melded loses 200. Winning with the whole rack at once adds 100."
            )
        ),
    ),
}

_ROMANIAN_EXAMPLE = ScoringExample(
    players=("Ana", "Ben"),
    hands=("", "k13 y2"),
    melds=((0, "r10 r11 r12"), (0, "k9 b9 y9"), (1, "b4 b5 b6")),
    winner=0,
    scores=(145, 0),
    text=N_(
        "Example: {name0} melded {meld0} and {meld1} (45) and wins: 100 + 45 = {score0}. "
        "{name1} melded {meld2} (15) and still holds {hand1} (15): {score1}."
    ),
)

_VARIANTS: dict[str, tuple[dict[str, tuple[_Part, ...]], ScoringExample]] = {
    "basic": (_BASIC, _BASIC_EXAMPLE),
    "500": (_R500, _R500_EXAMPLE),
    "german": (_GERMAN, _GERMAN_EXAMPLE),
    "romanian": (_ROMANIAN, _ROMANIAN_EXAMPLE),
}


def scoring_example(variant: str) -> ScoringExample:
    """The worked scoring example of ``variant`` (for tests and pages)."""
    return _VARIANTS[variant][1]


def how_to_play(rules: RuleSet) -> list[Section]:
    """The how-to-play sections of the table's ``rules``, one per topic of :data:`TOPICS`
    (localised: call inside ``use_locale``). Raises ``KeyError`` for a variant without
    texts."""
    parts_by_topic, example = _VARIANTS[rules.variant]
    sections = []
    for topic in TOPICS:
        paragraphs, melds = _paragraphs(parts_by_topic.get(topic, ()), rules)
        shown = example if topic == "scoring" else None
        if shown is not None:
            paragraphs.append(shown.render(rules))
        title = _(_JOLYS) if topic == "jokers" and rules.var.uses_tiles else _(_TITLES[topic])
        sections.append(Section(topic, title, tuple(paragraphs), tuple(melds), shown))
    return sections


def _paragraphs(parts: Sequence[_Part], rules: RuleSet) -> tuple[list[str], list[str]]:
    """The paragraphs of a topic's ``parts`` that ``rules`` call for, their values and
    example melds filled in, and the melds' card codes."""
    paragraphs: list[str] = []
    melds: list[str] = []
    for part in parts:
        if part.when is not None and not part.when(rules):
            continue
        values: dict[str, object] = dict(part.values(rules)) if part.values else {}
        values |= {f"m{i}": _cards(codes) for i, codes in enumerate(part.melds)}
        paragraphs.append(_(part.text).format(**values))
        melds.extend(part.melds)
    return paragraphs, melds


def topic_of(word: str) -> str | None:
    """The topic a word names (English or German, e.g. ``folge``, ``scoring``), or
    ``None``."""
    return _TOPIC_WORDS.get(word.strip().lower())


def render_how_to_play(
    rules: RuleSet, topic: str | None = None, sections: Sequence[Section] | None = None
) -> str:
    """The how-to-play text: every section (title, then its paragraphs), or only ``topic``'s
    section."""
    found = list(sections) if sections is not None else how_to_play(rules)
    lines = [_("How to play:")] if topic is None else []
    for section in found:
        if topic is not None and section.topic != topic:
            continue
        lines.append(f"{section.title}:")
        lines.extend(f"  {paragraph}" for paragraph in section.paragraphs)
    return "\n".join(lines)
