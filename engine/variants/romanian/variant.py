"""Romanian Rummy (``romanian``): shared/rules/romanian-rummy.de.txt.

106 tiles (:mod:`.tiles`), a wall of 15 stacks dealt by counting the face-up extra
tile (:mod:`.wall`), a pre-play step for doubla and the face-up announcement
(:mod:`.preplay`), openings of 50 with a run (:mod:`.opening`), takes from the whole
discard row, Joly exchanges and going out with a last discard (:mod:`.moves`), and the
scoring with the Joly chain (:mod:`.scoring`).

The text's play is counterclockwise; here play runs in seat order (seat 0, 1, 2, ...),
so "the player right of the dealer" is the seat after the dealer, who gets 15 tiles
and begins, and the next dealer is the seat after the dealer ("es gibt immer der
Spieler rechts vom letzten Geber").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.actions import Action, Discard, Draw, LayOff, MeldCards, SwapJoker, TakeDiscard
from engine.cards import Card
from engine.dealing import require_in_pack
from engine.fairness import DealKey
from engine.frozen import replace
from engine.jsonio import card_from_json
from engine.melds import MeldRules
from engine.moves import handler_table
from engine.options import RuleSet, require_match_end
from engine.scoring import top_seats
from engine.state import DealSpec, GameState, Phase
from engine.variants.base import Apply, Variant, Verify
from engine.variants.romanian import actions, moves, preplay
from engine.variants.romanian.commands import COMMANDS, HELP_OVERRIDES
from engine.variants.romanian.legal import legal_actions, quick_actions
from engine.variants.romanian.melds import MELD_RULES
from engine.variants.romanian.rules import OPTIONS, PRESETS, SOURCE
from engine.variants.romanian.scoring import score_sheet
from engine.variants.romanian.state import (
    JolyTrack,
    PrePlay,
    RomanianExtra,
    TurnExtra,
    extra_from_json,
    extra_to_json,
)
from engine.variants.romanian.tiles import rack_value, tile_set
from engine.variants.romanian.wall import shuffled_wall, wall_deal, wall_deck


@dataclass(frozen=True, slots=True)
class PublicExtra:
    """What every seat sees of a Romanian table besides the shared view.

    ``face_up``: the face-up tile (``None`` once taken). ``first_discard``: the row's
    first tile, never to be used. ``preplay``: the pre-play step is on; ``ready``,
    ``doublas`` (per seat: ``None``, ``""``, ``"high"``, ``"low"``), ``swapped`` and
    ``offer`` ((seat, partner) of a pending offer) describe it. ``announced``: seats that
    announced the face-up twin. ``low``: per seat, the tile count announced (3 or fewer).
    ``owed``: the tile the seat to play must meld now (or ``None``); ``going_out``: the
    seat to play took the face-up tile; ``opening_turn``: it opened this turn. ``jolys``:
    the Joly tracks.
    """

    face_up: Card | None
    first_discard: Card | None
    preplay: bool
    ready: tuple[bool, ...]
    doublas: tuple[str | None, ...]
    swapped: tuple[bool, ...]
    offer: tuple[int, int] | None
    announced: tuple[bool, ...]
    low: tuple[int | None, ...]
    owed: Card | None
    going_out: bool
    opening_turn: bool
    jolys: tuple[JolyTrack, ...]


class RomanianRummy(Variant):
    """Romanian (tile) Rummy; see the module docstring."""

    id = "romanian"
    name = "Romanian Rummy"
    source = SOURCE
    min_players = 2
    max_players = 4
    options = OPTIONS
    presets = PRESETS
    commands = COMMANDS
    help_overrides = HELP_OVERRIDES
    uses_tiles = True
    notation_examples = "r7 y10 b13 k1 jo"
    deal_keys = frozenset({"face_up"})

    def validate(self, rules: RuleSet) -> None:
        """A match needs an end: a number of games or a target."""
        require_match_end(rules)

    # --- the flow -----------------------------------------------------------------------------

    def handlers(self) -> Mapping[type, tuple[Verify, Apply]]:
        """The shared table with draw, take, meld, lay-off, swap and discard replaced, and
        the pre-play moves, the face-up take and the Joly exchange added."""
        return _HANDLERS

    def legal_actions(self, state: GameState, seat: int) -> list[Action]:
        """See :mod:`engine.variants.romanian.legal`."""
        return legal_actions(state, seat)

    def quick_actions(self, state: GameState, seat: int) -> list[Action]:
        """See :func:`engine.variants.romanian.legal.quick_actions`."""
        return quick_actions(state, seat)

    def deal(
        self, rules: RuleSet, seats: int, dealer: int, seed: DealKey, deal_number: int
    ) -> DealSpec:
        """Mix the tiles and deal the wall
        (:func:`engine.variants.romanian.wall.shuffled_wall`)."""
        return shuffled_wall(seats, dealer, seed, deal_number)

    def deck_order(self, rules: RuleSet, seats: int, seed: DealKey, deal_number: int) -> list[Card]:
        """The tiles in wall order, mixed again after a Joly as the extra tile
        (:func:`engine.variants.romanian.wall.wall_deck`)."""
        return wall_deck(seed, deal_number)

    def deal_from_deck(
        self, rules: RuleSet, seats: int, dealer: int, deck: Sequence[Card]
    ) -> DealSpec:
        """Build and deal the wall from ``deck``
        (:func:`engine.variants.romanian.wall.wall_deal`)."""
        return wall_deal(deck, seats, dealer)

    def deal_extra_to_json(self, extra: Any) -> dict[str, Any]:
        """``{"face_up": "r7"}`` (``null`` without a face-up tile)."""
        return {"face_up": None if extra is None else str(extra)}

    def deal_extra_from_json(self, deal: Mapping[str, Any], where: str) -> Any:
        """The face-up tile of an explicit deal (``"face_up": "r7"``, may be missing)."""
        raw = deal.get("face_up")
        return None if raw is None else card_from_json(raw, f"{where}.face_up")

    def on_deal(self, state: GameState, spec: DealSpec) -> GameState:
        """Set up the face-up tile and the pre-play step (or, with ``preplay`` off, announce
        face-up twins at once). Raises ``RuleOptionError`` for an explicit deal whose tiles
        with the face-up tile are more than the set holds."""
        face_up = spec.extra if isinstance(spec.extra, Card) else None
        if face_up is not None:
            require_in_pack([*spec.cards(), face_up], tile_set(), "tiles the set", "the 106 tiles")
        seats = state.seats
        no = tuple(False for _ in range(seats))
        if state.rules.flag("preplay"):
            pre: PrePlay | None = PrePlay(no, tuple(None for _ in range(seats)), no, no)
            announced = no
        else:
            pre = None
            announced = tuple(
                face_up is not None and face_up in state.hands[s] for s in range(seats)
            )
        extra = RomanianExtra(face_up, pre, announced, (), tuple(None for _ in range(seats)), no)
        return replace(state, extra=extra)

    # --- views and saving ---------------------------------------------------------------------

    def discard_pile_public(self, rules: RuleSet) -> bool:
        """The discard row is open: "Die abgelegten Steine werden etwa in die Mitte des
        Tisches in einer Reihe angeordnet, und zwar in der Reihenfolge, in der sie abgelegt
        wurden.\""""
        return True

    def public_extra(self, state: GameState) -> PublicExtra | None:
        """See :class:`PublicExtra`."""
        extra = state.extra
        if not isinstance(extra, RomanianExtra):
            return None
        pre = extra.preplay
        playing = state.phase in (Phase.DRAW, Phase.PLAY)
        turn = state.turn.extra if isinstance(state.turn.extra, TurnExtra) else TurnExtra()
        no = tuple(False for _ in range(state.seats))
        return PublicExtra(
            face_up=extra.face_up,
            first_discard=state.discard[0] if state.discard else None,
            preplay=pre is not None and playing,
            ready=pre.ready if pre is not None else no,
            doublas=pre.hints if pre is not None else tuple(None for _ in no),
            swapped=pre.swapped if pre is not None else no,
            offer=(pre.offer.seat, pre.offer.partner) if pre and pre.offer else None,
            announced=extra.announced,
            low=extra.low,
            owed=turn.obligation.tile if turn.obligation is not None and playing else None,
            going_out=turn.out and playing,
            opening_turn=turn.opening and playing,
            jolys=extra.jolys,
        )

    def extra_to_json(self, extra: Any) -> Any:
        """See :func:`engine.variants.romanian.state.extra_to_json`."""
        return extra_to_json(extra)

    def extra_from_json(self, data: Any, where: str) -> Any:
        """See :func:`engine.variants.romanian.state.extra_from_json`."""
        return extra_from_json(data, where)

    # --- tiles and melds ----------------------------------------------------------------------

    def meld_rules(self, rules: RuleSet) -> MeldRules:
        """See :mod:`engine.variants.romanian.melds`."""
        return MELD_RULES

    def deck(self, rules: RuleSet, seats: int) -> list[Card]:
        """The 106 tiles."""
        return tile_set()

    def hand_size(self, rules: RuleSet, seats: int) -> int:
        """14 tiles each ("jeder Spieler hat 14 Steine mit Ausnahme des Spielers rechts vom
        Geber, der mit 15 Steinen beginnt")."""
        return 14

    def starter_extra_card(self, rules: RuleSet) -> bool:
        """The first player has 15 tiles and begins by discarding: "Der erste Spieler (das
        ist der Spieler mit 15 Steinen) beginnt das Spiel, indem er einen unerwünschten
        Stein offen auf den Tisch legt.\""""
        return True

    def card_points(self, rules: RuleSet, card: Card) -> int:
        """The value of a tile left on a rack (a Joly 25, a 1 ``rack_one``)."""
        one = rules.number("rack_one")
        return rack_value(card, 25 if one is None else one, 25)

    def final_discard_required(self, rules: RuleSet) -> bool:
        """ "alle Steine ... melden bis auf einen Stein – dieser letzte Stein muss abgelegt
        werden\""""
        return True

    def joker_swap(self, rules: RuleSet) -> bool:
        """Jolys may be exchanged (rules 5-7 of the text)."""
        return True

    def stock_end(self, rules: RuleSet) -> tuple[str, int | None]:
        """The discards but the first become a new wall, shuffled (``renewals`` times)."""
        return ("shuffle", rules.number("renewals"))

    # --- scoring ------------------------------------------------------------------------------

    def score_deal(
        self, state: GameState, points: tuple[int, ...], winner: int | None, rummy: bool
    ) -> tuple[Fraction, ...]:
        """See :mod:`engine.variants.romanian.scoring`."""
        return tuple(Fraction(line.total) for line in score_sheet(state, winner, rummy))

    def match_over(self, rules: RuleSet, totals: tuple[Fraction, ...], deals: int) -> bool:
        """ "Die Spieler können wählen, ob die Partie nach einer bestimmten Anzahl von Spielen
        enden soll oder ob ein Spieler eine bestimmte Punktzahl erreichen muss.\""""
        limit = rules.number("deals")
        if limit is not None and deals >= limit:
            return True
        target = rules.number("target")
        return target is not None and max(totals) >= target

    def match_winners(self, rules: RuleSet, totals: tuple[Fraction, ...]) -> tuple[int, ...]:
        """The highest running total."""
        return top_seats(totals)


#: The shared table with the Romanian moves, the pre-play moves, the face-up take and the
#: Joly exchange (built once: every applied move looks here).
_HANDLERS = handler_table(
    {
        Draw: (moves.verify_draw, moves.apply_draw),
        TakeDiscard: (moves.verify_take, moves.apply_take),
        MeldCards: (moves.verify_meld, moves.apply_meld),
        LayOff: (moves.verify_layoff, moves.apply_layoff),
        SwapJoker: (moves.verify_swap, moves.apply_swap),
        Discard: (moves.verify_discard, moves.apply_discard),
        actions.TakeFaceUp: (moves.verify_take_face_up, moves.apply_take_face_up),
        actions.ExchangeJoly: (moves.verify_exchange, moves.apply_exchange),
        actions.AnnounceDoubla: (preplay.verify_doubla, preplay.apply_doubla),
        actions.OfferDoubla: (preplay.verify_offer, preplay.apply_offer),
        actions.AnswerDoubla: (preplay.verify_answer, preplay.apply_answer),
        actions.AnnounceFaceUp: (preplay.verify_announce, preplay.apply_announce),
        actions.Ready: (preplay.verify_ready, preplay.apply_ready),
    }
)
