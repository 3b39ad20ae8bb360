"""German Rommé (``german``): shared/rules/german-romme.de.txt, "Deutsches Rommé (Rummy mit
Joker und Auslegen)".

2-6 players, 2 x 52 cards and 6 jokers (or 4), 13 cards each (11 with 5-6 players), an
upcard; draw from the stock or take the upcard; melds of 3+ with joker limits; a first
meld of 40 points (option) made within one turn, lay-offs and joker exchanges from the
next turn on; every turn ends with a discard, going out too; hand rummy doubles the
losers' penalty points; elimination at a target or a fixed number of deals; optional
play-money chips; every house rule of the text as an option. The modules of this package
hold one idea each (rules, melds, values, dealing, moves, exchange, closing, buyback,
ending, chips, legal, views, ai, commands, state).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from engine.actions import Discard, Draw, LayOff, MeldCards, NextDeal, SwapJoker
from engine.cards import Card
from engine.fairness import DealKey
from engine.jsonio import RecordError, as_int
from engine.melds import MeldRules
from engine.moves import handler_table
from engine.options import RuleSet
from engine.state import DealSpec, GameState
from engine.variants.base import Apply, Variant, Verify
from engine.variants.german import buyback, closing, exchange, moves
from engine.variants.german import rules as german_rules
from engine.variants.german.actions import (
    BuyBack,
    DeclineBuyBack,
    EndLayOffs,
    ExchangeJoker,
    TakeBack,
)
from engine.variants.german.commands import COMMANDS
from engine.variants.german.dealing import cutter, deal_cards, deal_pack, deck, hand_size
from engine.variants.german.ending import deal_scores, totals_over, totals_winners
from engine.variants.german.legal import legal_actions, quick_actions
from engine.variants.german.melds import meld_rules
from engine.variants.german.moves import on_deal
from engine.variants.german.state import (
    GermanState,
    GermanTurn,
    eliminated_seats,
    game_from_json,
    game_to_json,
    turn_from_json,
    turn_to_json,
)
from engine.variants.german.values import card_points
from engine.variants.german.views import private_extra, public_extra


class GermanRummy(Variant):
    """German Rommé and its house rules; see the module docstring."""

    id = "german"
    name = "German Rommé"
    source = german_rules.SOURCE
    min_players = 2
    max_players = 6
    options = german_rules.OPTIONS
    presets = german_rules.PRESETS
    commands = COMMANDS

    def validate(self, rules: RuleSet) -> None:
        """See :func:`engine.variants.german.rules.validate`."""
        german_rules.validate(rules)

    # --- the flow ------------------------------------------------------------------------

    def handlers(self) -> Mapping[type, tuple[Verify, Apply]]:
        """The shared table with German moves for draw, meld, lay off, swap (refused),
        discard and next, plus exchange, take back, done, buy back and decline."""
        return _HANDLERS

    def legal_actions(self, state: GameState, seat: int) -> list[Any]:
        """See :func:`engine.variants.german.legal.legal_actions`."""
        return legal_actions(state, seat)

    def deal_shape(
        self, rules: RuleSet, seats: int, dealer: int, dealt: Sequence[bool] | None = None
    ) -> tuple[tuple[int, ...], bool]:
        """13 cards to each seat still in the match (:func:`engine.variants.german.dealing.
        hand_size` of their number), none to an eliminated one; with ``dealer_extra`` the
        dealer one more and no upcard: "Optional kann sich der Geber eine zusätzliche Karte
        verteilen, anstatt eine Karte aufzudecken"."""
        playing = [True] * seats if dealt is None else list(dealt)
        size = hand_size(rules, sum(playing))
        extra = rules.flag("dealer_extra")
        return (
            tuple(
                0 if not playing[seat] else size + (1 if extra and seat == dealer else 0)
                for seat in range(seats)
            ),
            not extra,
        )

    def seats_dealt(self, state: GameState) -> tuple[bool, ...]:
        """The seats still in the match: "ein Spieler welcher mehr Verlustpunkte geschrieben
        hat scheidet aus" (:func:`engine.variants.german.state.eliminated_seats`)."""
        return tuple(not out for out in eliminated_seats(state))

    def check_deal_extra(
        self, rules: RuleSet, spec: DealSpec, dealer: int, dealt: Sequence[bool], where: str
    ) -> None:
        """A joker kept when cutting (``"stolen"``) needs ``joker_steal`` ("Der abhebende
        Spieler darf die unterste Karte des abgehobenen Kartenpackets ansehen, und wenn es
        ein Joker ist, darf er sie behalten"), names the cutter (the player still in the
        match to the dealer's right: :func:`engine.variants.german.dealing.cutter`), and
        that hand holds a joker. Raises ``RecordError``."""
        stolen = spec.extra
        if not isinstance(stolen, int):
            return
        at = f"{where}.stolen"
        if not rules.flag("joker_steal"):
            raise RecordError(at, "no joker is kept when cutting unless joker_steal is on")
        who = cutter(len(dealt), dealer, dealt)
        if stolen != who:
            raise RecordError(
                at,
                f"seat {stolen} did not cut: the cutter is seat {who}, "
                "the player to the dealer's right",
            )
        if not any(card.is_joker for card in spec.hands[stolen]):
            raise RecordError(at, f"seat {stolen} kept a joker, but its hand holds none")

    def quick_actions(self, state: GameState, seat: int) -> list[Any]:
        """See :func:`engine.variants.german.legal.quick_actions`."""
        return quick_actions(state, seat)

    def deal(
        self, rules: RuleSet, seats: int, dealer: int, seed: DealKey, deal_number: int
    ) -> DealSpec:
        """The first deal (every seat plays); later deals come from ``next``, which knows
        who is eliminated."""
        return deal_cards(rules, seats, dealer, seed, deal_number)

    def deal_next(self, state: GameState, dealer: int, seed: DealKey, deal_number: int) -> DealSpec:
        """Deal to the seats still in the match (:meth:`seats_dealt`), with the cut of
        ``joker_steal`` (:func:`engine.variants.german.dealing.deal_cards`)."""
        return deal_cards(
            state.rules, state.seats, dealer, seed, deal_number, self.seats_dealt(state)
        )

    def deal_from_deck(
        self, rules: RuleSet, seats: int, dealer: int, deck: Sequence[Card]
    ) -> DealSpec:
        """A record's ``{"deck": [...]}``: dealt as the rules deal, without a cut."""
        return deal_pack(rules, seats, dealer, deck)

    #: An explicit deal in a record may say who kept a joker when cutting (seat number).
    deal_keys = frozenset({"stolen"})

    def deal_extra_to_json(self, extra: Any) -> dict[str, Any]:
        """``{"stolen": seat}`` when the cutter kept a joker."""
        return {"stolen": extra} if isinstance(extra, int) else {}

    def deal_extra_from_json(self, deal: Mapping[str, Any], where: str) -> Any:
        """The seat of ``"stolen"`` (or ``None``); raises ``RecordError``."""
        raw = deal.get("stolen")
        return None if raw is None else as_int(raw, f"{where}.stolen", 0, 5)

    def on_deal(self, state: GameState, spec: DealSpec) -> GameState:
        """See :func:`engine.variants.german.moves.on_deal`."""
        return on_deal(state, spec)

    # --- views and saving --------------------------------------------------------------

    def public_extra(self, state: GameState) -> Any:
        """A :class:`engine.variants.german.views.GermanTable`."""
        return public_extra(state)

    def private_extra(self, state: GameState, seat: int) -> Any:
        """A :class:`engine.variants.german.views.SeatStatus`."""
        return private_extra(state, seat)

    def extra_to_json(self, extra: Any) -> Any:
        """:class:`GermanTurn` / :class:`GermanState` as JSON objects (``None`` stays)."""
        if isinstance(extra, GermanTurn):
            return turn_to_json(extra)
        if isinstance(extra, GermanState):
            return game_to_json(extra)
        return None

    def extra_from_json(self, data: Any, where: str) -> Any:
        """Inverse of :meth:`extra_to_json` (``where`` ends in ``turn.extra`` for the turn
        record); raises ``RecordError``."""
        if data is None:
            return None
        if where.endswith("turn.extra"):
            return turn_from_json(data, where)
        return game_from_json(data, where)

    # --- the rules as hooks ---------------------------------------------------------------

    def meld_rules(self, rules: RuleSet) -> MeldRules:
        """See :func:`engine.variants.german.melds.meld_rules`."""
        return meld_rules(rules)

    def deck(self, rules: RuleSet, seats: int) -> list[Card]:
        """2 x 52 cards and 6 jokers (or 4)."""
        return deck(rules)

    def hand_size(self, rules: RuleSet, seats: int) -> int:
        """13 cards for 2-4 players, 11 for 5-6 (``two_player_cards`` with two)."""
        return hand_size(rules, seats)

    def card_points(self, rules: RuleSet, card: Card) -> int:
        """See :func:`engine.variants.german.values.card_points`."""
        return card_points(rules, card)

    def final_discard_required(self, rules: RuleSet) -> bool:
        """ "Er wirft eine Karte verdeckt auf den Abwurfstapel ab" — going out needs a last
        discard."""
        return True

    def stock_end(self, rules: RuleSet) -> tuple[str, int | None]:
        """ "wird der Abwurfstapel mit Ausnahme der obersten (sichtbaren) Karte neu gemischt"."""
        return ("shuffle_keep_top", None)

    def score_deal(
        self, state: GameState, points: tuple[int, ...], winner: int | None, rummy: bool
    ) -> tuple[Fraction, ...]:
        """See :func:`engine.variants.german.ending.deal_scores`."""
        return deal_scores(state, points, winner, rummy)

    def match_over(self, rules: RuleSet, totals: tuple[Fraction, ...], deals: int) -> bool:
        """See :func:`engine.variants.german.ending.totals_over`."""
        return totals_over(rules, totals, deals)

    def match_winners(self, rules: RuleSet, totals: tuple[Fraction, ...]) -> tuple[int, ...]:
        """See :func:`engine.variants.german.ending.totals_winners`."""
        return totals_winners(rules, totals)


#: The shared table with the German moves (built once: every applied move looks here).
_HANDLERS = handler_table(
    {
        Draw: (moves.verify_draw, moves.apply_draw),
        MeldCards: (moves.verify_meld, moves.apply_meld),
        LayOff: (moves.verify_layoff, moves.apply_layoff),
        SwapJoker: (moves.verify_swap, moves.apply_swap),
        Discard: (moves.verify_discard, moves.apply_discard),
        NextDeal: (moves.verify_next, moves.apply_next),
        TakeBack: (moves.verify_takeback, moves.apply_takeback),
        ExchangeJoker: (exchange.verify_exchange, exchange.apply_exchange),
        EndLayOffs: (closing.verify_done, closing.apply_done),
        BuyBack: (buyback.verify_decision, buyback.apply_buyback),
        DeclineBuyBack: (buyback.verify_decision, buyback.apply_decline),
    }
)
