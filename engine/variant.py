"""What a variant supplies to the game flow: the :class:`Variant` interface.

The flow (:mod:`engine.game`, :mod:`engine.moves`, :mod:`engine.dealing`, ...) is handed
the variant object with the rules (``RuleSet.var``) and asks it for everything that
differs between games; it never looks a variant up by id. A variant module subclasses
:class:`Variant`, or :class:`engine.flow.SharedFlow` to take the shared moves, legal
actions and deal.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.actions import Action
from engine.cards import Card, shuffled
from engine.errors import RuleOptionError
from engine.events import Event
from engine.fairness import DealKey, deal_rng
from engine.melds import MeldRules
from engine.options import Option, OptionValue, Preset, RuleSet
from engine.state import DealSpec, GameState
from engine.verbs import CommandHelp

Verify = Callable[[GameState, Any], None]
Apply = Callable[[GameState, Any], tuple[GameState, tuple[Event, ...]]]


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
    #: Shared verbs as this variant's players type them: a ``CommandHelp`` with the shared
    #: verb's name and aliases and the variant's own syntax and help (Romanian tiles,
    #: Rummy 500's deep take); :func:`engine.commands.command_table` shows it instead.
    help_overrides: tuple[CommandHelp, ...] = ()
    #: Played with tiles (a rack, a wall) rather than cards: front ends say "tiles".
    uses_tiles: bool = False
    #: How the pieces are written in commands, as examples for help and error texts.
    notation_examples: str = "7h 10d qs ac jk"

    # --- the flow: actions, their moves and the legal ones --------------------------------

    @abstractmethod
    def handlers(self) -> Mapping[type, tuple[Verify, Apply]]:
        """Action type -> (verify, apply). The shared table
        (:data:`engine.moves.BASE_HANDLERS`) serves Draw, TakeDiscard, MeldCards, LayOff,
        SwapJoker, Discard and NextDeal; a variant adds or replaces entries for its own
        moves."""

    @abstractmethod
    def legal_actions(self, state: GameState, seat: int) -> list[Action]:
        """The legal actions of ``seat`` (see :func:`engine.game.legal_actions`)."""

    @abstractmethod
    def deal(
        self, rules: RuleSet, seats: int, dealer: int, seed: DealKey, deal_number: int
    ) -> DealSpec:
        """Shuffle and deal one hand from ``seed``: the game seed, or the deal's secret
        (:mod:`engine.fairness`); every random choice of the deal comes from
        ``engine.fairness.deal_rng(seed, deal_number, purpose)``."""

    def deck_order(self, rules: RuleSet, seats: int, seed: DealKey, deal_number: int) -> list[Card]:
        """The deck :meth:`deal` deals from ``seed``, in order (the first card dealt
        first): the pack shuffled with ``deal_rng(seed, deal_number)``. A deal's commitment
        is over this order (:func:`engine.fairness.commitment`); a variant that shuffles
        otherwise says so here."""
        return shuffled(self.deck(rules, seats), deal_rng(seed, deal_number))

    def deal_next(self, state: GameState, dealer: int, seed: DealKey, deal_number: int) -> DealSpec:
        """Deal deal ``deal_number`` after ``state`` (the hand before, or a new game) from
        ``seed``, as ``next`` deals it; the base: :meth:`deal` (every seat gets cards)."""
        return self.deal(state.rules, state.seats, dealer, seed, deal_number)

    @abstractmethod
    def deal_from_deck(
        self, rules: RuleSet, seats: int, dealer: int, deck: Sequence[Card]
    ) -> DealSpec:
        """Deal ``deck`` (front first) as the rules deal (a record's ``{"deck": [...]}``)."""

    def deal_shape(
        self, rules: RuleSet, seats: int, dealer: int, dealt: Sequence[bool] | None = None
    ) -> tuple[tuple[int, ...], bool]:
        """What an explicit deal must hold: the number of cards per seat and whether an
        upcard is turned; ``dealt``: the seats that get cards (:meth:`seats_dealt`, all
        by default), the others none. The base: :meth:`hand_size` each, one card more for
        the starter (left of the dealer) instead of an upcard when
        :meth:`starter_extra_card`."""
        size = self.hand_size(rules, seats)
        extra = self.starter_extra_card(rules)
        first = (dealer + 1) % seats
        return (
            tuple(
                0
                if dealt is not None and not dealt[seat]
                else size + (1 if extra and seat == first else 0)
                for seat in range(seats)
            ),
            not extra,
        )

    def seats_dealt(self, state: GameState) -> tuple[bool, ...]:
        """Which seats the next deal gives cards to (a player out of the match gets none);
        the base: every seat."""
        return tuple(True for _ in range(state.seats))

    def check_deal_extra(
        self, rules: RuleSet, spec: DealSpec, dealer: int, dealt: Sequence[bool], where: str
    ) -> None:
        """Check what an explicit deal says besides the cards (``spec.extra``, from
        :attr:`deal_keys`) against the rules, the ``dealer`` and the seats ``dealt``; raise
        ``RecordError`` naming ``where``. The base has nothing to check."""
        return None

    def quick_actions(self, state: GameState, seat: int) -> list[Action]:
        """A few cheap candidates for the action of ``seat``, the seat to move in a
        running deal, most likely legal first (each is still verified): see
        :func:`engine.game.quick_action`. Must cost little whatever the hand; the base has
        none."""
        return []

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
    def score_deal(
        self, state: GameState, points: tuple[int, ...], winner: int | None, rummy: bool
    ) -> tuple[Fraction, ...]:
        """Per-seat score of one deal; ``points`` are the hand values left per seat."""

    @abstractmethod
    def match_over(self, rules: RuleSet, totals: tuple[Fraction, ...], deals: int) -> bool:
        """True when the match ends after ``deals`` deals with these totals."""

    @abstractmethod
    def match_winners(self, rules: RuleSet, totals: tuple[Fraction, ...]) -> tuple[int, ...]:
        """Seats sharing first place at the end of the match."""


def build_rules(var: Variant, preset: str | None, options: Mapping[str, OptionValue]) -> RuleSet:
    """A validated :class:`RuleSet` of ``var``: option defaults < preset values <
    ``options``. Raises :class:`engine.errors.RuleOptionError` for an unknown preset or
    option, a bad value, or a combination the variant refuses
    (:meth:`Variant.validate`)."""
    specs = {o.name: o for o in var.options}
    values: dict[str, OptionValue] = {o.name: o.default for o in var.options}
    preset_name = preset or var.default_preset
    if preset_name not in var.presets:
        raise RuleOptionError(
            detail=f"unknown preset '{preset_name}' for {var.id}; presets: "
            + ", ".join(var.presets),
            option="preset",
            value=preset_name,
            accepts=", ".join(var.presets),
        )
    values.update(var.presets[preset_name].values)
    for name, raw in options.items():
        key = name.strip().lower().replace("-", "_")
        if key not in specs:
            raise RuleOptionError(
                detail=f"unknown option '{name}' for {var.id}; options: " + ", ".join(specs),
                option=name,
                value=str(raw),
                accepts=", ".join(specs),
            )
        values[key] = specs[key].parse(raw)
    rules = RuleSet(var.id, preset_name, tuple((o.name, values[o.name]) for o in var.options), var)
    var.validate(rules)
    return rules
