"""The legal actions of a Romanian table (see :func:`engine.game.legal_actions`).

Complete for the pre-play step, draw, the takes from the discard row (each tile by
its latest place), the face-up tile, single-tile lay-offs, Joly exchanges and
discards. Melds are listed in canonical form: every single meld of the rack once
opened (:func:`engine.variants.romanian.plan.new_melds`), a canonical selection of
openings before (:func:`engine.variants.romanian.opening.opening_choices`), the melds
that fulfil an owed meld, and the first move of a going-out plan when there is one
(:mod:`engine.variants.romanian.plan`; after the face-up tile only that move and the
last discard: every move must keep a way out, and any other that does may be typed).
Every listed action is verified.
"""

from __future__ import annotations

from engine.actions import Action, Discard, Draw, LayOff, MeldCards, NextDeal, TakeDiscard
from engine.cards import TILE_COLOURS, Card
from engine.game import can
from engine.melds import CardSpec, Meld, MeldKind, extend_readings
from engine.state import GameState, Phase
from engine.variants.romanian.actions import (
    AnswerDoubla,
    ExchangeJoly,
    Ready,
    TakeFaceUp,
    as_action,
)
from engine.variants.romanian.flow import extra_of, first_turn, plan_for, turn_of
from engine.variants.romanian.melds import MELD_RULES
from engine.variants.romanian.obligation import pays
from engine.variants.romanian.opening import opening_choices, opening_with
from engine.variants.romanian.plan import Plan, new_melds
from engine.variants.romanian.preplay import preplay_actions


def _distinct(cards: tuple[Card, ...]) -> list[Card]:
    return sorted(set(cards), key=lambda c: c.sort_key)


def plan_actions(seat: int, plan: Plan, hand_size: int) -> list[Action]:
    """The first move of ``plan``: its melds, else its first lay-off, else the discard."""
    if plan.melds:
        return [MeldCards(seat, plan.melds)]
    if plan.layoffs:
        index, cards = plan.layoffs[0]
        return [LayOff(seat, cards, index)]
    return [Discard(seat, plan.discard)] if hand_size == 1 else []


def _draw_actions(state: GameState, seat: int) -> list[Action]:
    out: list[Action] = [Draw(seat), TakeDiscard(seat)]
    row = state.discard
    for tile in _distinct(row[1:-1]):
        if tile != row[-1]:
            out.append(TakeDiscard(seat, tile))
    if extra_of(state).face_up is not None:
        out.append(as_action(TakeFaceUp(seat)))
    return out


def layoff_actions(state: GameState, seat: int) -> list[Action]:
    """Single-tile lay-offs: one per meld, or per face when a Joly fits several places."""
    out: list[Action] = []
    for tile in _distinct(state.hands[seat]):
        for index, meld in enumerate(state.melds):
            found = extend_readings(meld, (CardSpec(tile),), seat, MELD_RULES)
            if len(found) == 1:
                out.append(LayOff(seat, (CardSpec(tile),), index))
            elif tile.is_joker:
                for reading in found:
                    faces = list(reading.faces)
                    for face in meld.faces:
                        faces.remove(face)
                    out.append(LayOff(seat, (CardSpec(tile, faces[0]),), index))
    return out


def exchange_actions(state: GameState, seat: int) -> list[Action]:
    """The Joly exchanges the rack allows (one tile, or both missing colours of a set of
    three); whether they are legal is checked by the caller."""
    hand = state.hands[seat]
    out: list[Action] = []
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


def _meld_actions(state: GameState, seat: int) -> list[Action]:
    hand = state.hands[seat]
    obligation = turn_of(state).obligation
    threshold = state.rules.number("opening") or 0
    if obligation is not None and obligation.kind == "opening":
        found = opening_with(hand, seat, threshold, obligation.tile)
        groups = [found] if found is not None else []
        groups += [g for g in opening_choices(hand, seat, threshold)
                   if any(s.card == obligation.tile for grp in g for s in grp)]
        return [MeldCards(seat, g) for g in groups]
    if not state.has_melded[seat]:
        one = state.rules.number("rack_one")
        return [MeldCards(seat, g) for g in opening_choices(hand, seat, threshold,
                                                            25 if one is None else one)]
    melds = new_melds(hand, seat)
    if obligation is not None:
        melds = [m for m in melds if pays(obligation, m)]
    return [MeldCards(seat, (_specs(m),)) for m in melds]


def _specs(meld: Meld) -> tuple[CardSpec, ...]:
    return tuple(CardSpec(p.card, p.face) if p.card.is_joker else CardSpec(p.card)
                 for p in meld.cards)


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """The legal actions of ``seat`` now, in a stable order (see the module docstring)."""
    if state.phase is Phase.GAME_OVER:
        return []
    if state.phase is Phase.HAND_OVER:
        return [NextDeal(seat)]
    if extra_of(state).preplay is not None:
        pre = [as_action(a) for a in preplay_actions(state, seat)]
        return [a for a in pre if can(state, a)]
    if seat != state.current:
        return []
    if state.phase is Phase.DRAW:
        return [a for a in _draw_actions(state, seat) if can(state, a)]
    hand = state.hands[seat]
    discards: list[Action] = [Discard(seat, c) for c in _distinct(hand)]
    if first_turn(state):
        return discards
    out: list[Action] = []
    plan = plan_for(state, seat)
    if plan is not None:
        out += plan_actions(seat, plan, len(hand))
    if turn_of(state).out:
        # after the face-up tile every move must keep a way out: the list gives the
        # plan's next move (any other move that keeps one may be typed)
        return [a for a in out + discards if can(state, a)]
    out += _meld_actions(state, seat)
    if turn_of(state).obligation is None:
        out += layoff_actions(state, seat)
        out += exchange_actions(state, seat)
        out += discards
    seen: dict[Action, None] = {}
    for action in out:
        if action not in seen and can(state, action):
            seen[action] = None
    return list(seen)


def quick_actions(state: GameState, seat: int) -> list[Action]:
    """Cheap candidates (:func:`engine.game.quick_action`): in the pre-play step reject an
    offer or say ``ready``; draw; the first player's first discard; the melds that pay an
    owed meld (the opening with the taken discard, or the new melds holding the owed tile:
    :func:`engine.variants.romanian.plan.new_melds`); after the face-up tile the first move
    of the going-out plan; the discards."""
    pre = extra_of(state).preplay
    if pre is not None:
        return [as_action(AnswerDoubla(seat, None) if pre.offer is not None else Ready(seat))]
    out: list[Action] = []
    turn = turn_of(state)
    hand = state.hands[seat]
    if state.phase is Phase.PLAY and not first_turn(state):
        obligation = turn.obligation
        if obligation is not None and obligation.kind == "opening":
            found = opening_with(hand, seat, state.rules.number("opening") or 0,
                                 obligation.tile)
            if found is not None:
                out.append(MeldCards(seat, found))
        elif obligation is not None:
            # only tiles that can share a meld with the owed tile (all, for a Joly)
            owed = obligation.tile
            near = [t for t in hand if owed.is_joker or t.is_joker or t.rank == owed.rank
                    or t.suit == owed.suit]
            out += [MeldCards(seat, (_specs(m),)) for m in new_melds(near, seat)
                    if pays(obligation, m)]
        if turn.out:
            plan = plan_for(state, seat)
            if plan is not None:
                out += plan_actions(seat, plan, len(hand))
    return out + [Draw(seat)] + [Discard(seat, c) for c in _distinct(hand)]
