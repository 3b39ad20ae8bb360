"""What a variant supplies to the shared game flow.

The flow in :mod:`engine.game` asks the variant object for everything that
differs between games; a variant module subclasses :class:`Variant`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from fractions import Fraction

from engine.cards import Card
from engine.melds import MeldRules
from engine.rules import Option, Preset, RuleSet


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
    def score_deal(self, rules: RuleSet, points: tuple[int, ...], winner: int | None,
                   rummy: bool) -> tuple[Fraction, ...]:
        """Per-seat score of one deal from the hand values left (``points``)."""

    @abstractmethod
    def match_over(self, rules: RuleSet, totals: tuple[Fraction, ...], deals: int) -> bool:
        """True when the match ends after ``deals`` deals with these totals."""

    @abstractmethod
    def match_winners(self, rules: RuleSet, totals: tuple[Fraction, ...]) -> tuple[int, ...]:
        """Seats sharing first place at the end of the match."""
