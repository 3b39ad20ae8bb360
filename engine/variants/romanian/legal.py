"""The legal actions of a Romanian table (see :func:`engine.game.legal_actions`).

Complete for the pre-play step, the face-up twin announced in a seat's first turn,
draw, the takes from the discard row (each tile by its latest place), the face-up tile,
single-tile lay-offs, Joly exchanges and discards. Melds are listed in canonical form:
every single meld of the rack once opened
(:func:`engine.variants.romanian.plan.new_melds`, read as shapes:
:mod:`engine.variants.romanian.shapes`), a canonical selection of openings before
(:func:`engine.variants.romanian.opening.opening_choices`), the melds
that fulfil an owed meld, and the first move of a going-out plan when there is one
(:mod:`engine.variants.romanian.plan`; after the face-up tile only that move and the
last discard: every move must keep a way out, and any other that does may be typed).
Each listed action is kept by the conditions of the moves computed for the position
(:class:`_Checks`), not by verifying it; the old candidates + verify path stays as the
oracle (:func:`checked_legal_actions`).

romanian-rummy.de.txt: "Am Ende des Spielzuges muss man einen seiner Steine offen
ablegen"; "Wenn man nur noch einen oder zwei Steine hat, darf man keinen Stein der Reihe
der abgelegten Steine aufnehmen."
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import cast

from engine import actions
from engine.cards import TILE_COLOURS, Card, distinct_cards
from engine.frozen import replace
from engine.game import can
from engine.melds import (
    CardSpec,
    Meld,
    MeldKind,
    extend_readings,
    layoff_choices,
    layoff_index,
    readings,
)
from engine.moves import Leftover
from engine.state import GameState, Phase
from engine.variants.romanian.actions import (
    AnnounceFaceUp,
    AnswerDoubla,
    ExchangeJoly,
    Ready,
    TakeFaceUp,
    as_action,
)
from engine.variants.romanian.flow import extra_of, first_turn, opened_before, plan_for, turn_of
from engine.variants.romanian.melds import MELD_RULES
from engine.variants.romanian.moves import apply_exchange, has_meld_pair
from engine.variants.romanian.obligation import paid_by, pays
from engine.variants.romanian.opening import opening_choices, opening_with, qualifies
from engine.variants.romanian.plan import Plan, new_melds, specs_of
from engine.variants.romanian.preplay import late_announcement, preplay_actions
from engine.variants.romanian.shapes import joly_meld_specs, new_meld_shapes
from engine.variants.romanian.state import Obligation


def plan_actions(seat: int, plan: Plan, hand_size: int) -> list[actions.Action]:
    """The first move of ``plan``: its melds, else its first lay-off, else the discard."""
    if plan.melds:
        return [actions.MeldCards(seat, plan.melds)]
    if plan.layoffs:
        index, cards = plan.layoffs[0]
        return [actions.LayOff(seat, cards, index)]
    return [actions.Discard(seat, plan.discard)] if hand_size == 1 else []


def _draw_actions(state: GameState, seat: int) -> list[actions.Action]:
    out: list[actions.Action] = [actions.Draw(seat), actions.TakeDiscard(seat)]
    row = state.discard
    for tile in distinct_cards(row[1:-1]):
        if tile != row[-1]:
            out.append(actions.TakeDiscard(seat, tile))
    if extra_of(state).face_up is not None:
        out.append(as_action(TakeFaceUp(seat)))
    return out


def layoff_actions(state: GameState, seat: int) -> list[actions.Action]:
    """Single-tile lay-offs: one per meld, or per face when a Joly fits several places
    (:func:`engine.melds.layoff_choices`)."""
    melds = state.melds
    ends = layoff_index(melds, MELD_RULES)
    return [
        actions.LayOff(seat, (spec,), index)
        for tile in distinct_cards(state.hands[seat])
        for index in ends.targets(tile)
        for spec, _ in layoff_choices(melds[index], tile, seat, MELD_RULES)
    ]


def exchange_actions(state: GameState, seat: int) -> list[actions.Action]:
    """The Joly exchanges the rack allows (one tile, or both missing colours of a set of
    three); whether they are legal is checked by the caller."""
    hand = state.hands[seat]
    out: list[actions.Action] = []
    for index, meld in enumerate(state.melds):
        tiles = _exchange_tiles(meld)
        for option in tiles:
            if all(hand.count(t) >= option.count(t) for t in option):
                out.append(as_action(ExchangeJoly(seat, option, index)))
    return out


def _exchange_tiles(meld: Meld) -> list[tuple[Card, ...]]:
    jolys = [p for p in meld.cards if p.card.is_joker]
    if not jolys:
        return []
    if meld.kind is MeldKind.RUN:
        return [(p.face,) for p in jolys]
    present = {p.card.suit for p in meld.cards if not p.card.is_joker}
    return [tuple(Card(meld.rank, c) for c in TILE_COLOURS if c not in present)]


def _meld_actions(
    state: GameState, seat: int
) -> list[tuple[actions.MeldCards, tuple[Meld, ...] | None]]:
    """The meld actions to check, each with its melds where they are built already (the
    melds that pay a meld owed; openings and the other new melds of an opened seat are
    read by the check only where it needs the melds: :meth:`_Checks.meld`)."""
    hand = state.hands[seat]
    obligation = turn_of(state).obligation
    threshold = state.rules.number("opening") or 0
    if obligation is not None and obligation.kind == "opening":
        found = opening_with(hand, seat, threshold, obligation.tile)
        groups = [found] if found is not None else []
        groups += [
            g
            for g in opening_choices(hand, seat, threshold)
            if any(s.card == obligation.tile for grp in g for s in grp)
        ]
        return [(actions.MeldCards(seat, g), None) for g in groups]
    if not state.has_melded[seat]:
        one = state.rules.number("rack_one")
        return [
            (actions.MeldCards(seat, g), None)
            for g in opening_choices(hand, seat, threshold, 25 if one is None else one)
        ]
    if obligation is None:
        return [(actions.MeldCards(seat, (shape.specs,)), None) for shape in new_meld_shapes(hand)]
    return [
        (actions.MeldCards(seat, (specs_of(m),)), (m,)) for m in owed_melds(hand, seat, obligation)
    ]


def owed_melds(hand: Sequence[Card], seat: int, obligation: Obligation) -> list[Meld]:
    """The new melds of ``hand`` that pay ``obligation``
    (:func:`engine.variants.romanian.obligation.pays`), in :func:`new_melds` order: built
    from the tiles that can share a meld with the owed tile only (its number or colour,
    and the Jolys; every tile for a Joly)."""
    owed = obligation.tile
    near = (
        hand
        if owed.is_joker
        else [t for t in hand if t.is_joker or t.rank == owed.rank or t.suit == owed.suit]
    )
    return [m for m in new_melds(near, seat) if pays(obligation, m)]


def legal_actions(state: GameState, seat: int) -> list[actions.Action]:
    """The legal actions of ``seat`` now, in a stable order (see the module docstring),
    built from the conditions of the moves (:mod:`.moves`, :mod:`.preplay`), never by
    verifying a candidate; the candidates + verify path stays as the oracle
    (:func:`checked_legal_actions`)."""
    if state.phase is Phase.GAME_OVER:
        return []
    if state.phase is Phase.HAND_OVER:
        return [actions.NextDeal(seat)]
    if extra_of(state).preplay is not None:
        return [as_action(a) for a in preplay_actions(state, seat)]
    if seat != state.current:
        return []
    late = [as_action(a) for a in late_announcement(state, seat)]
    if state.phase is Phase.DRAW:
        return [*_draw_legal(state, seat), *late]
    return _play_legal(state, seat, late)


def _play_legal(state: GameState, seat: int, late: list[actions.Action]) -> list[actions.Action]:
    """The legal actions of the seat to move in the play phase: the ways out of the
    going-out plan, melds, lay-offs, Joly exchanges, discards, late announcements."""
    hand = state.hands[seat]
    turn = turn_of(state)
    ends: list[actions.Action] = []
    if turn.obligation is None and (not turn.out or len(hand) == 1):
        ends = actions.discards(seat, distinct_cards(hand), state.turn.taken)
    if first_turn(state):
        return [*ends, *late]
    check = _Checks(state, seat)
    out: list[actions.Action] = []
    plain = not turn.out and turn.obligation is None and state.has_melded[seat]
    melds_now = (
        check.plain_melds()
        if plain
        else [
            a
            for a, melds in ([] if turn.out else _meld_actions(state, seat))
            if check.meld(a.groups, melds)
        ]
    )
    plan = plan_for(state, seat)
    if plan is not None:
        out += [a for a in plan_actions(seat, plan, len(hand)) if check.ok(a)]
    if not turn.out:
        out += melds_now
        out += _table_actions(state, seat, check)
    out += ends
    return list(dict.fromkeys(out))


def _table_actions(state: GameState, seat: int, check: _Checks) -> list[actions.Action]:
    """Lay-offs once opened (no meld owed), Joly exchanges after an earlier opening."""
    if turn_of(state).obligation is not None or not state.has_melded[seat]:
        return []
    out = [a for a in layoff_actions(state, seat) if check.listed_layoff(a)]
    if opened_before(state, seat):
        out += [a for a in exchange_actions(state, seat) if check.ok(a)]
    return out


def _draw_legal(state: GameState, seat: int) -> list[actions.Action]:
    """Draw; take the previous discard once opened (or for the opening with
    ``opening_take``); a deeper tile of the row that two rack tiles meld with, once opened;
    never the row's first tile, nothing from the row with two tiles or fewer; the face-up
    tile when the seat can go out with it (:func:`engine.variants.romanian.moves.verify_take`,
    ``verify_take_face_up``)."""
    out: list[actions.Action] = [actions.Draw(seat)]
    hand = state.hands[seat]
    row = state.discard
    if len(row) > 1 and len(hand) > 2:
        top = row[-1]
        threshold = state.rules.number("opening") or 0
        if state.has_melded[seat] or (
            state.rules.flag("opening_take")
            and opening_with((*hand, top), seat, threshold, top) is not None
        ):
            out.append(actions.TakeDiscard(seat))
        if state.has_melded[seat]:
            out += [
                actions.TakeDiscard(seat, tile)
                for tile in distinct_cards(row[1:-1])
                if tile != top and has_meld_pair(hand, tile)
            ]
    face_up = extra_of(state).face_up
    if face_up is not None:
        probe = replace(state, turn=replace(state.turn, taken=face_up))
        if plan_for(probe, seat, (*hand, face_up)) is not None:
            out.append(as_action(TakeFaceUp(seat)))
    return out


class _Checks:
    """The conditions of the play-phase moves of :mod:`.moves` for one position, computed
    once: a meld or lay-off leaves a tile to discard and not only copies of the tile taken,
    a meld pays the meld owed and an opening has a run and the value, a lay-off needs an
    opening (in the opening turn only on own melds), a Joly exchange an earlier opening and
    a meld for the freed Joly; after the face-up tile every move keeps a way out."""

    def __init__(self, state: GameState, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.hand = state.hands[seat]
        self.counts = Counter(self.hand)
        self.taken = state.turn.taken
        self.left = Leftover(self.hand, self.taken, True)
        self.turn = turn_of(state)
        self.opened_before = opened_before(state, seat)

    def ok(self, action: actions.Action) -> bool:
        """True when ``action`` (a meld, lay-off or Joly exchange of the seat) is legal."""
        if isinstance(action, actions.MeldCards):
            return self.meld(action.groups)
        if isinstance(action, actions.LayOff):
            return self.layoff(action)
        if isinstance(action, actions.Discard):
            return (
                self.turn.obligation is None
                and action.card != self.taken
                and (not self.turn.out or len(self.hand) == 1)
            )
        return self.exchange(cast(ExchangeJoly, action))

    def leaves_ok(self, used: Sequence[Card]) -> bool:
        """Whether ``used`` may leave the rack: it holds them, and a tile stays that is
        not a copy of the tile taken this turn (counted, not listed)."""
        need = Counter(used)
        have = self.counts
        if any(have[t] < n for t, n in need.items()):
            return False
        taken = self.taken
        return self.left.ok(len(used), len(used) - (need[taken] if taken is not None else 0))

    def plain_melds(self) -> list[actions.Action]:
        """The new melds of an opened seat that owes no meld and need not go out
        (:meth:`meld` for them: a tile stays, not only copies of the tile taken), read off
        the shapes: every tile of a shape is on the rack by construction."""
        seat, left = self.seat, self.left
        return [
            actions.MeldCards(seat, (shape.specs,))
            for shape in new_meld_shapes(self.hand)
            if left.ok_group(shape.specs)
        ]

    def rest(self, used: Sequence[Card]) -> list[Card]:
        """The rack after ``used`` (all held) leave it."""
        rest = Counter(self.counts)
        rest.subtract(used)
        return list(rest.elements())

    def meld(
        self, groups: Sequence[tuple[CardSpec, ...]], read: Sequence[Meld] | None = None
    ) -> bool:
        """:func:`engine.variants.romanian.moves.verify_meld` for generated ``groups`` (each
        reads one way: new melds, openings, a plan's melds); ``read``: the melds they make
        when the caller built them already. The melds are read only where a condition
        needs them (a meld owed, an opening, a way out after the face-up tile): an opened
        seat's plain meld needs only a tile left to discard."""
        state, seat = self.state, self.seat
        used = [s.card for g in groups for s in g]
        if not self.leaves_ok(used):
            return False
        owed = self.turn.obligation
        opened = state.has_melded[seat]
        if owed is None and opened and not self.turn.out:
            return True
        melds: list[Meld] = []
        if read is not None:
            melds += read
        else:
            for group in groups:
                found = readings(group, seat, MELD_RULES)
                if len(found) != 1:
                    return False
                melds.append(found[0])
        if owed is not None and not paid_by(owed, melds):
            return False
        if not opened and not qualifies(melds, state.rules.number("opening") or 0):
            return False
        return (
            not self.turn.out
            or plan_for(
                state,
                seat,
                self.rest(used),
                melds=(*state.melds, *melds),
                opened=True,
                opening_turn=not self.opened_before,
                obligation=None,
            )
            is not None
        )

    def layoff(self, action: actions.LayOff) -> bool:
        """:func:`engine.variants.romanian.moves.verify_layoff`."""
        state, seat = self.state, self.seat
        if self.turn.obligation is not None or not state.has_melded[seat]:
            return False
        meld = state.melds[action.meld]
        if meld.owner != seat and not self.opened_before:
            return False
        found = extend_readings(meld, action.cards, seat, MELD_RULES)
        used = [s.card for s in action.cards]
        if len(found) != 1 or not self.leaves_ok(used):
            return False
        if not self.turn.out:
            return True
        table = list(state.melds)
        table[action.meld] = found[0]
        return plan_for(state, seat, self.rest(used), melds=table) is not None

    def listed_layoff(self, action: actions.Action) -> bool:
        """:meth:`layoff` for a lay-off of :func:`layoff_actions` (one tile, which fits
        its meld one way: :func:`engine.melds.layoff_choices`) of an opened seat that owes
        no meld and need not go out: what is left to check is the meld's owner and a tile
        left to discard."""
        action = cast(actions.LayOff, action)
        if self.state.melds[action.meld].owner != self.seat and not self.opened_before:
            return False
        return self.left.ok(1, 0 if action.cards[0].card == self.taken else 1)

    def exchange(self, action: ExchangeJoly) -> bool:
        """:func:`engine.variants.romanian.moves.verify_exchange` for the tiles
        :func:`exchange_actions` names (the Joly's tile, or a set's missing colours): the
        freed Joly must go into a new meld the moves accept at once."""
        state, seat = self.state, self.seat
        if self.turn.obligation is not None or not self.opened_before or not action.tiles:
            return False
        after, _ = apply_exchange(state, action)
        then = _Checks(after, seat)
        # the Joly owed is paid by a new meld holding a Joly (obligation.pays_with), which
        # the check of the meld confirms; the first such meld that passes settles it
        if not any(then.meld((specs,)) for specs in joly_meld_specs(after.hands[seat])):
            return False
        return not self.turn.out or plan_for(after, seat) is not None


def checked_legal_actions(state: GameState, seat: int) -> list[actions.Action]:
    """The candidates that :func:`engine.game.can` accepts, the old way of listing: the
    oracle of :func:`legal_actions` (a property test holds them equal as sets)."""
    if state.phase is Phase.GAME_OVER:
        return []
    if state.phase is Phase.HAND_OVER:
        return [actions.NextDeal(seat)]
    if extra_of(state).preplay is not None:
        pre = [as_action(a) for a in preplay_actions(state, seat)]
        return [a for a in pre if can(state, a)]
    if seat != state.current:
        return []
    late = [as_action(AnnounceFaceUp(seat))]
    if state.phase is Phase.DRAW:
        return [a for a in [*_draw_actions(state, seat), *late] if can(state, a)]
    hand = state.hands[seat]
    discards: list[actions.Action] = [actions.Discard(seat, c) for c in distinct_cards(hand)]
    if first_turn(state):
        return [a for a in [*discards, *late] if can(state, a)]
    out: list[actions.Action] = []
    plan = plan_for(state, seat)
    if plan is not None:
        out += plan_actions(seat, plan, len(hand))
    if not turn_of(state).out:
        out += [a for a, _ in _meld_actions(state, seat)]
        out += layoff_actions(state, seat)
        out += exchange_actions(state, seat)
    out += discards
    return [a for a in dict.fromkeys(out) if can(state, a)]


def quick_actions(state: GameState, seat: int) -> list[actions.Action]:
    """Cheap candidates (:func:`engine.game.quick_action`): in the pre-play step reject an
    offer or say ``ready``; draw; the first player's first discard; the melds that pay an
    owed meld (the opening with the taken discard, or the new melds holding the owed tile:
    :func:`engine.variants.romanian.plan.new_melds`); after the face-up tile the first move
    of the going-out plan; the discards."""
    pre = extra_of(state).preplay
    if pre is not None:
        return [as_action(AnswerDoubla(seat, None) if pre.offer is not None else Ready(seat))]
    out: list[actions.Action] = []
    turn = turn_of(state)
    hand = state.hands[seat]
    if state.phase is Phase.PLAY and not first_turn(state):
        obligation = turn.obligation
        if obligation is not None and obligation.kind == "opening":
            found = opening_with(hand, seat, state.rules.number("opening") or 0, obligation.tile)
            if found is not None:
                out.append(actions.MeldCards(seat, found))
        elif obligation is not None:
            out += [
                actions.MeldCards(seat, (specs_of(m),)) for m in owed_melds(hand, seat, obligation)
            ]
        if turn.out:
            plan = plan_for(state, seat)
            if plan is not None:
                out += plan_actions(seat, plan, len(hand))
    return [*out, actions.Draw(seat), *actions.discards(seat, distinct_cards(hand))]
