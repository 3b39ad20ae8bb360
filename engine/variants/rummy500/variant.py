"""Rummy 500 (``500``): shared/rules/rummy-500.de.txt.

The variant object the registry holds. Its moves, legal actions, calls and scoring live
in the sibling modules; its greedy AI moves in :mod:`engine.ai.rummy500`.

Readings chosen where the text leaves room (also in the README):

- A joker counts 15 wherever it stands; only a natural ace starting a run counts low.
- ``take 7h`` takes from the topmost 7♥ of the pile (two packs may hold two).
- A card taken from the pile must be played in one move: the take is refused when
  it could not be, and no move may make it unplayable before it is played.
- "Playable without more cards from a hand" (calling): the card lays off directly on
  a table meld, or makes a new meld with cards above it in the pile.
- The call window opens after every turn that does not end the hand (also when a
  player floats away without a discard) and closes when the next player draws or takes.
- Floating needs no command: a player who melds the last card floats at once, and the
  turn passes.
- ``going_out=unplayable``: a playable last discard is refused outright (the "force
  them to take it back" reading); ``going_out=callable`` is the text's alternative: the
  discard opens a call window on it, the others may call it and the discarder floats;
  uncalled, the next player's draw ends the hand with the discarder out.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from engine.actions import Action, Discard, Draw, LayOff, MeldCards, TakeDiscard
from engine.cards import Card, standard_deck
from engine.flow import SharedFlow
from engine.frozen import replace
from engine.melds import MeldRules
from engine.moves import handler_table
from engine.options import RuleSet
from engine.scoring import top_seats
from engine.state import DealSpec, GameState
from engine.variants.base import Apply, Verify
from engine.variants.rummy500 import calls, moves
from engine.variants.rummy500.actions import CallRummy
from engine.variants.rummy500.commands import CALL_COMMAND, TAKE_HELP
from engine.variants.rummy500.legal import legal_actions, quick_actions
from engine.variants.rummy500.melds import MELD_RULES
from engine.variants.rummy500.rules import OPTIONS, PRESETS, SOURCE
from engine.variants.rummy500.scoring import deal_scores, target_reached
from engine.variants.rummy500.state import (
    GameExtra,
    PublicExtra,
    extra_from_json,
    extra_to_json,
)
from engine.variants.rummy500.values import card_value
from engine.variants.rummy500.views import public_extra


class Rummy500(SharedFlow):
    """Rummy 500: melded cards score for their owner, hands count against, play to 500."""

    id = "500"
    name = "Rummy 500"
    source = SOURCE
    min_players = 2
    max_players = 8
    options = OPTIONS
    presets = PRESETS
    commands = (CALL_COMMAND,)
    help_overrides = (TAKE_HELP,)

    # --- the flow ---------------------------------------------------------------------------

    def handlers(self) -> Mapping[type, tuple[Verify, Apply]]:
        """The shared table with draw, take, meld, lay-off and discard replaced and the call
        added (:mod:`engine.variants.rummy500.moves`, :mod:`.calls`)."""
        return _HANDLERS

    def may_act(self, state: GameState, action: Action) -> bool:
        """A call may come from any seat; its verify refuses the discarder and calls
        outside the window."""
        return isinstance(action, CallRummy)

    def legal_actions(self, state: GameState, seat: int) -> list[Action]:
        """See :mod:`engine.variants.rummy500.legal`."""
        return legal_actions(state, seat)

    def quick_actions(self, state: GameState, seat: int) -> list[Action]:
        """See :func:`engine.variants.rummy500.legal.quick_actions`."""
        return quick_actions(state, seat)

    def on_deal(self, state: GameState, spec: DealSpec) -> GameState:
        """A new deal starts with no call window."""
        return replace(state, extra=GameExtra(None))

    # --- views and saving -------------------------------------------------------------------

    def discard_pile_public(self, rules: RuleSet) -> bool:
        """ "Die Karten auf dem Ablagestapel liegen nicht deckend aufeinander, so dass alle
        zuvor abgelegten Karten erkennbar sind.\""""
        return True

    def public_extra(self, state: GameState) -> PublicExtra:
        """See :func:`engine.variants.rummy500.views.public_extra`."""
        return public_extra(state)

    def extra_to_json(self, extra: Any) -> Any:
        """See :func:`engine.variants.rummy500.state.extra_to_json`."""
        return extra_to_json(extra)

    def extra_from_json(self, data: Any, where: str) -> Any:
        """See :func:`engine.variants.rummy500.state.extra_from_json`."""
        return extra_from_json(data, where)

    # --- cards and melds --------------------------------------------------------------------

    def meld_rules(self, rules: RuleSet) -> MeldRules:
        """See :data:`engine.variants.rummy500.melds.MELD_RULES`."""
        return MELD_RULES

    def deck(self, rules: RuleSet, seats: int) -> list[Card]:
        """54 cards (52 and 2 jokers), two packs (108) for five or more players: "Bei 5
        oder mehr Spielern sollten 2 Kartenspiele (108 Karten) zusammen verwendet werden."
        Without jokers 52 or 104."""
        packs = 2 if seats >= 5 else 1
        return standard_deck(packs, 2 * packs if rules.flag("jokers") else 0)

    def hand_size(self, rules: RuleSet, seats: int) -> int:
        """Seven cards each, thirteen with two players: "bis jeder sieben Karten hat. Bei
        zwei Spielern teilt der Geber jedem Spieler dreizehn Karten aus"."""
        return 13 if seats == 2 else 7

    def card_points(self, rules: RuleSet, card: Card) -> int:
        """The value of a card in a hand (:func:`engine.variants.rummy500.values.card_value`)."""
        return card_value(rules, card)

    def final_discard_required(self, rules: RuleSet) -> bool:
        """``going_out=discard``: going out needs a final discard."""
        return rules.text("going_out") == "discard"

    def stock_end(self, rules: RuleSet) -> tuple[str, int | None]:
        """The discard pile never becomes a new stock: an empty stock ends the hand."""
        return ("turn_over", 0)

    # --- scoring ----------------------------------------------------------------------------

    def score_deal(
        self, state: GameState, points: tuple[int, ...], winner: int | None, rummy: bool
    ) -> tuple[Fraction, ...]:
        """Melded points minus the hand values ``points``, per seat (see
        :mod:`engine.variants.rummy500.scoring`)."""
        return deal_scores(state, points)

    def match_over(self, rules: RuleSet, totals: tuple[Fraction, ...], deals: int) -> bool:
        """Someone reached the target and the lead is not shared. With ``win_needs_out``
        the end of the hand decides (it knows who went out:
        :func:`engine.variants.rummy500.scoring.match_result`), so this says no."""
        return not rules.flag("win_needs_out") and target_reached(rules, totals)

    def match_winners(self, rules: RuleSet, totals: tuple[Fraction, ...]) -> tuple[int, ...]:
        """The highest total ("der Spieler mit der höchsten Punktzahl gewinnt")."""
        return top_seats(totals)


#: The shared table with the Rummy 500 moves and the call (built once: every applied move
#: looks here).
_HANDLERS = handler_table(
    {
        Draw: (moves.verify_draw, moves.apply_draw),
        TakeDiscard: (moves.verify_take, moves.apply_take),
        MeldCards: (moves.verify_meld, moves.apply_meld),
        LayOff: (moves.verify_layoff, moves.apply_layoff),
        Discard: (moves.verify_discard, moves.apply_discard),
        CallRummy: (calls.verify_call, calls.apply_call),
    }
)
