"""What a variant supplies to the shared game flow.

The flow in :mod:`engine.game` asks the variant object for everything that
differs between games; a variant module subclasses :class:`Variant`.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from engine.cards import Card
from engine.melds import MeldRules
from engine.rules import Option, Preset, RuleSet

if TYPE_CHECKING:
    from engine.actions import Action
    from engine.dealing import DealSpec
    from engine.events import Event
    from engine.state import GameState

Verify = Callable[["GameState", Any], None]
Apply = Callable[["GameState", Any], "tuple[GameState, tuple[Event, ...]]"]


@dataclass(frozen=True, slots=True)
class VariantCommand:
    """A verb of the command language that only some variants have.

    ``help``: its :class:`engine.commands.CommandHelp`; ``parse(verb, args, seat)``
    builds the action (raising ``CommandError``/``CardParseError``);
    ``action_type`` and ``format(action)`` give its canonical text.
    """

    help: Any
    parse: Callable[[str, list[str], int], Any]
    action_type: type
    format: Callable[[Any], str]


class Variant(ABC):
    """Base class of a variant. Subclasses set the class attributes and override hooks."""

    id: str = ""
    name: str = ""
    source: str = ""
    min_players: int = 2
    max_players: int = 6
    options: tuple[Option, ...] = ()
    presets: Mapping[str, Preset] = {}
    default_preset: str = "standard"
    commands: tuple[VariantCommand, ...] = ()

    # --- the flow: actions, their moves and the legal ones --------------------------------

    def handlers(self) -> Mapping[type, tuple[Verify, Apply]]:
        """Action type -> (verify, apply). The base table serves Draw, TakeDiscard,
        MeldCards, LayOff, SwapJoker, Discard and NextDeal; a variant adds or replaces
        entries for its own moves."""
        from engine.moves import BASE_HANDLERS

        return BASE_HANDLERS

    def legal_actions(self, state: GameState, seat: int) -> list[Action]:
        """The legal actions of ``seat`` (see :func:`engine.game.legal_actions`)."""
        from engine.legal import standard_legal_actions

        return standard_legal_actions(state, seat)

    def deal(self, rules: RuleSet, seats: int, dealer: int, seed: int,
             deal_number: int) -> DealSpec:
        """Shuffle and deal one hand (cards: the pack dealt one at a time)."""
        from engine.dealing import shuffled_deal

        return shuffled_deal(rules, seats, dealer, seed, deal_number)

    def deal_from_deck(self, rules: RuleSet, seats: int, dealer: int,
                       deck: Sequence[Card]) -> DealSpec:
        """Deal ``deck`` (front first) as the rules deal (a record's ``{"deck": [...]}``);
        the base deals one card at a time (:func:`engine.dealing.deal_from_deck`)."""
        from engine.dealing import deal_from_deck

        return deal_from_deck(rules, seats, dealer, deck)

    #: Further keys of an explicit deal in a record (``DealSpec.extra``), e.g. ``face_up``.
    deal_keys: frozenset[str] = frozenset()

    def deal_extra_to_json(self, extra: Any) -> dict[str, Any]:
        """The record keys (of :attr:`deal_keys`) that write ``DealSpec.extra``; the base
        has none."""
        return {}

    def deal_extra_from_json(self, deal: Mapping[str, Any], where: str) -> Any:
        """``DealSpec.extra`` from an explicit deal's keys (inverse of
        :meth:`deal_extra_to_json`); raise ``RecordError`` for bad data."""
        return None

    def on_deal(self, state: GameState, spec: DealSpec) -> GameState:
        """Adjust a freshly dealt state (e.g. set ``state.extra``); the base keeps it."""
        return state

    def may_act(self, state: GameState, action: Action) -> bool:
        """True when ``action`` of a seat that is not the current one may be verified during
        a turn (an interrupt of the turn order, such as calling "Rommé!" in Rummy 500); its
        handler still decides whether it is legal. The base says no: only the current seat
        acts during a turn."""
        return False

    def ai_move(self, view: Any, legal: Sequence[Action], rng: random.Random) -> Action | None:
        """A variant's own choice for the greedy AI (e.g. a variant-only action), or ``None``
        to let the shared greedy logic decide. Sees only the seat's view and ``legal``."""
        return None

    def ai_interrupt(self, view: Any, legal: Sequence[Action],
                     rng: random.Random) -> Action | None:
        """An out-of-turn action the greedy AI takes now, or ``None`` to let play go on.

        ``legal`` holds the seat's legal actions while it is not the seat to play (e.g.
        Rummy 500's calls). Sees only the seat's view and ``legal``."""
        return None

    # --- what the views show --------------------------------------------------------------

    def discard_pile_public(self, rules: RuleSet) -> bool:
        """True when every card of the discard pile is visible (spread), not just the top."""
        return False

    def public_extra(self, state: GameState) -> Any:
        """Variant information every seat may see (``PublicView.extra``)."""
        return None

    def private_extra(self, state: GameState, seat: int) -> Any:
        """Variant information only ``seat`` may see (``PlayerView.extra``)."""
        return None

    # --- saving the variant's own state ---------------------------------------------------

    def extra_to_json(self, extra: Any) -> Any:
        """``GameState.extra`` / ``TurnState.extra`` as JSON; the base has none."""
        return None

    def extra_from_json(self, data: Any, where: str) -> Any:
        """Inverse of :meth:`extra_to_json`; raise ``RecordError`` for bad data."""
        return None

    def validate(self, rules: RuleSet) -> None:
        """Refuse option combinations that make no sense (raise ``RuleOptionError``).

        The base accepts every combination.
        """
        return None

    @abstractmethod
    def meld_rules(self, rules: RuleSet) -> MeldRules:
        """What makes a meld valid."""

    @abstractmethod
    def deck(self, rules: RuleSet, seats: int) -> list[Card]:
        """The unshuffled cards used for ``seats`` players."""

    @abstractmethod
    def hand_size(self, rules: RuleSet, seats: int) -> int:
        """Cards dealt to each player."""

    def starter_extra_card(self, rules: RuleSet) -> bool:
        """True when the starting player gets one card more, no upcard is turned and
        the starter begins by discarding instead of drawing."""
        return False

    @abstractmethod
    def card_points(self, rules: RuleSet, card: Card) -> int:
        """Penalty value of ``card`` left in a hand."""

    def max_melds_per_turn(self, rules: RuleSet) -> int | None:
        """New melds allowed per turn (``None``: no limit)."""
        return None

    def layoff_needs_own_meld(self, rules: RuleSet) -> bool:
        """True when a seat may lay off only after melding itself."""
        return False

    def final_discard_required(self, rules: RuleSet) -> bool:
        """True when going out needs a last discard."""
        return False

    def all_at_once(self, rules: RuleSet, deal_number: int) -> bool:
        """True when, in this deal, cards may go down only all at once."""
        return False

    def joker_swap(self, rules: RuleSet) -> bool:
        """True when a natural card may be exchanged for the joker standing for it."""
        return False

    def stock_end(self, rules: RuleSet) -> tuple[str, int | None]:
        """How the discard pile renews the stock: (mode, most re-uses or ``None``).

        Modes: ``turn_over`` (no shuffle), ``shuffle``, ``shuffle_keep_top``.
        """
        return ("turn_over", None)

    @abstractmethod
    def score_deal(self, state: GameState, points: tuple[int, ...], winner: int | None,
                   rummy: bool) -> tuple[Fraction, ...]:
        """Per-seat score of one deal; ``points`` are the hand values left per seat."""

    @abstractmethod
    def match_over(self, rules: RuleSet, totals: tuple[Fraction, ...], deals: int) -> bool:
        """True when the match ends after ``deals`` deals with these totals."""

    @abstractmethod
    def match_winners(self, rules: RuleSet, totals: tuple[Fraction, ...]) -> tuple[int, ...]:
        """Seats sharing first place at the end of the match."""
