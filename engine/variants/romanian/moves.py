"""The moves of play: draw, take, take the face-up tile, meld, lay off, exchange a Joly,
discard. Each ``verify_*`` raises an :class:`engine.errors.IllegalMove` subclass and
changes nothing; each ``apply_*`` assumes a verified action. The shared moves of
:mod:`engine.moves` do the common part (a meld's validity, a lay-off's reading).

romanian-rummy.de.txt, the turn:

- "Wenn man noch keine Meldungen vor sich liegen hat, muss man, wenn man dran ist,
  den nächsten verfügbaren Stein von der Mauer ziehen." (:func:`verify_take`)
- "Statt einen Stein von der Mauer zu ziehen, darf man den abgelegten Stein des
  vorherigen Spielers aufnehmen; es besteht auch keine Verpflichtung, diesen Stein
  sofort in einer Meldung auszulegen." and "Wenn man zwei Steine auf seinem Ständer
  hat, mit denen man einen Satz oder eine Folge mit irgendeinem Stein der abgelegten
  Steine vervollständigen kann, darf man diesen Stein aufnehmen und die Meldung
  machen – aber dann muss man auch alle Steine aufnehmen, die nach dem Stein ... in
  der Reihe der abgelegten Steine liegen" (``take`` / ``take r7``).
- "Wenn man nur noch einen oder zwei Steine hat, darf man keinen Stein der Reihe der
  abgelegten Steine aufnehmen."
- "Am Ende des Spielzuges muss man einen seiner Steine offen ablegen."
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Discard, Draw, LayOff, MeldCards, SwapJoker, TakeDiscard
from engine.cards import JOKER, SORT_KEY, TILE_COLOURS, Card, Suit, shuffled
from engine.dealing import deal_rng, reuse_key
from engine.errors import (
    IllegalMove,
    InvalidJokerSwap,
    NoSuchMeld,
    NothingToDraw,
)
from engine.events import Discarded, Drew, StockRenewed, TookDiscard, WentOut
from engine.frozen import replace
from engine.melds import (
    Meld,
    MeldKind,
    Placed,
    check_meld,
    extend_readings,
    joker_swap_target,
    run_window_masks,
)
from engine.moves import Result, remove_cards
from engine.moves import apply_layoff as shared_apply_layoff
from engine.moves import apply_meld as shared_apply_meld
from engine.moves import verify_discard as shared_verify_discard
from engine.moves import verify_layoff as shared_verify_layoff
from engine.moves import verify_meld as shared_verify_meld
from engine.scoring import end_hand
from engine.state import GameState, Phase, TurnState
from engine.variants.romanian.actions import ExchangeJoly, TakeFaceUp
from engine.variants.romanian.blocked import blocked
from engine.variants.romanian.errors import (
    ExchangeNeedsPair,
    ExchangeUnusable,
    FaceUpNotOut,
    FewTiles,
    FirstTileTaken,
    MustGoOut,
    NoFaceUp,
    NoRowMeld,
    NotInRow,
    NotOpened,
    ObligationNotMet,
    ObligationPending,
    OpeningNeedsRun,
    OpeningTooLow,
    OpeningTurn,
)
from engine.variants.romanian.events import (
    FewTilesLeft,
    GameBlocked,
    JolyExchanged,
    ScoreSheet,
    TookFaceUp,
    TookFromRow,
    as_events,
)
from engine.variants.romanian.flow import (
    extra_of,
    need_not_first_turn,
    need_phase,
    need_play_started,
    opened_before,
    plan_for,
    turn_of,
    with_extra,
    with_turn,
)
from engine.variants.romanian.melds import MELD_RULES
from engine.variants.romanian.obligation import paid_by, pays
from engine.variants.romanian.opening import has_run, opening_value, opening_with
from engine.variants.romanian.plan import new_melds, specs_of
from engine.variants.romanian.scoring import score_sheet
from engine.variants.romanian.state import JolyPlace, JolyTrack, Obligation, Replacement, TurnExtra

# --- draw ------------------------------------------------------------------------------------


def verify_draw(state: GameState, action: Draw) -> None:
    """Drawing from the wall starts a turn (always possible: an empty wall is renewed, or
    the game ends)."""
    need_play_started(state)
    need_phase(state, Phase.DRAW, "draw")


def _renewals_left(state: GameState) -> bool:
    limit = state.rules.number("renewals")
    return (limit is None or state.reuses < limit) and len(state.discard) > 1


def apply_draw(state: GameState, action: Draw) -> Result:
    """Draw the next tile of the wall. An empty wall is rebuilt from the discard row but
    its first tile: "werden alle Steine der Reihe abgelegter Steine umgedreht – mit
    Ausnahme des ersten Steins ... gründlich gemischt und benutzt, um eine neue Mauer zu
    bauen ... sobald ein Spieler einen Stein von der Mauer ziehen möchte". With nothing to
    rebuild it from the game ends without a winner ("wenn alle Steine von der Mauer
    gezogen worden sind und keiner es geschafft hat, seine Hand zu vervollständigen"), and
    so does a game in which no tile in play can ever be placed
    (:func:`engine.variants.romanian.blocked.blocked`: a new wall would not help)."""
    events: list[object] = []
    if not state.stock:
        if not _renewals_left(state):
            return finish(state, None, False, events)
        if blocked(state):
            return finish(state, None, False, [GameBlocked(state.deal_number)])
        reuse = state.reuses + 1
        pool = state.discard[1:]
        rng = deal_rng(reuse_key(state), state.deal_number, f"reuse{reuse}")
        stock = tuple(shuffled(pool, rng))
        state = replace(state, stock=stock, discard=state.discard[:1], reuses=reuse)
        events.append(StockRenewed(len(stock), True, reuse))
    hand = (*state.hands[action.seat], state.stock[0])
    state = replace(
        state, hands=state.hands_with(action.seat, hand), stock=state.stock[1:], phase=Phase.PLAY
    )
    events.append(Drew(action.seat))
    return state, as_events(events)


# --- take from the discard row -----------------------------------------------------------------


def _row_index(state: GameState, card: Card) -> int:
    """The latest place of ``card`` in the row after its first tile (``-1``: none)."""
    for i in range(len(state.discard) - 1, 0, -1):
        if state.discard[i] == card:
            return i
    return -1


def has_meld_pair(hand: Sequence[Card], tile: Card) -> bool:
    """True when two real tiles of ``hand`` make a set or run with ``tile`` (the condition
    of a deeper take from the row), read from numbers and colours: two more colours of its
    number (a set), or the other two numbers of a three-tile window of its colour that
    contains it (a run, the 1 low or after the 13 as the rules let it stand). A Joly of the
    row stands for any tile ("Ein Joly kann anstelle irgendeines Steines stehen"): any two
    colours of one number, or two numbers of one colour within a three-tile window, make a
    meld with it. Two rack tiles are real: a Joly of the rack with the taken tile would
    leave one real tile, and a meld holds twice as many real tiles as Jolys."""
    naturals = [c for c in hand if not c.is_joker]
    if tile.is_joker:
        return _pair_for_joly(naturals)
    colours = {c.suit for c in naturals if c.rank == tile.rank}
    colours.discard(tile.suit)
    if len(colours) >= 2:
        return True
    numbers = {c.rank for c in naturals if c.suit is tile.suit}
    return any(
        tile.rank in window and all(r in numbers for r in window if r != tile.rank)
        for window, _ in run_window_masks(3, MELD_RULES.ace)
    )


def _pair_for_joly(naturals: Sequence[Card]) -> bool:
    """:func:`has_meld_pair` for a Joly of the row: two colours of one number (a set of
    three with the Joly), or two numbers of one colour in a three-tile window (a run with
    the Joly in the gap or at an end)."""
    colours: dict[int, set[Suit | None]] = {}
    numbers: dict[Suit | None, set[int]] = {}
    for c in naturals:
        colours.setdefault(c.rank, set()).add(c.suit)
        numbers.setdefault(c.suit, set()).add(c.rank)
    if any(len(found) >= 2 for found in colours.values()):
        return True
    return any(
        sum(1 for r in window if r in held) >= 2
        for held in numbers.values()
        for window, _ in run_window_masks(3, MELD_RULES.ace)
    )


def verify_take(state: GameState, action: TakeDiscard) -> None:
    """``take``: the previous player's discard (after an opening in an earlier turn, or
    for the opening itself under ``opening_take``); ``take r7``: a deeper tile of the row
    that two rack tiles make a meld with. Never the row's first tile, never with one or
    two tiles in hand."""
    need_play_started(state)
    need_phase(state, Phase.DRAW, "take")
    seat = action.seat
    row = state.discard
    if not row:
        raise NothingToDraw()
    if len(state.hands[seat]) <= 2:
        raise FewTiles()
    top = row[-1]
    if action.card is None or (action.card == top and len(row) > 1):
        if len(row) == 1:
            raise FirstTileTaken()
        if state.has_melded[seat]:
            return
        threshold = state.rules.number("opening") or 0
        if (
            state.rules.flag("opening_take")
            and opening_with((*state.hands[seat], top), seat, threshold, top) is not None
        ):
            return
        raise NotOpened(points=threshold)
    index = _row_index(state, action.card)
    if index < 0:
        if row[0] == action.card:
            raise FirstTileTaken()
        raise NotInRow(tile=str(action.card))
    if not state.has_melded[seat]:
        raise NotOpened(points=state.rules.number("opening") or 0)
    if not has_meld_pair(state.hands[seat], action.card):
        raise NoRowMeld(tile=str(action.card))


def apply_take(state: GameState, action: TakeDiscard) -> Result:
    """Move the tile (and every tile after it) to the rack; a deeper tile, or the opening
    tile of ``opening_take``, is owed in a meld at once."""
    seat = action.seat
    row = state.discard
    top = row[-1]
    if action.card is None or action.card == top:
        hand = (*state.hands[seat], top)
        obligation = None if state.has_melded[seat] else Obligation("opening", top)
        state = replace(
            state,
            hands=state.hands_with(seat, hand),
            discard=row[:-1],
            phase=Phase.PLAY,
            turn=replace(state.turn, taken=top, extra=TurnExtra(obligation=obligation)),
        )
        return state, (TookDiscard(seat, top),)
    index = _row_index(state, action.card)
    taken = row[index:]
    rack = state.hands[seat]
    state = replace(
        state,
        hands=state.hands_with(seat, (*rack, *taken)),
        discard=row[:index],
        phase=Phase.PLAY,
        turn=replace(state.turn, extra=TurnExtra(obligation=Obligation("row", action.card, rack))),
    )
    return state, as_events([TookFromRow(seat, action.card, taken)])


# --- take the face-up tile ---------------------------------------------------------------------


def verify_take_face_up(state: GameState, action: TakeFaceUp) -> None:
    """ "Nur bei diesem letzten Spielzug darf man den offen liegenden Anfangsstein vom Ende
    der Mauer aufnehmen, um so seine Hand zu vervollständigen": allowed only when the
    seat can go out this turn with it (it may not be the last discard)."""
    need_play_started(state)
    need_phase(state, Phase.DRAW, "take the face-up tile")
    tile = extra_of(state).face_up
    if tile is None:
        raise NoFaceUp()
    probe = replace(state, turn=replace(state.turn, taken=tile))
    if plan_for(probe, action.seat, (*state.hands[action.seat], tile)) is None:
        raise FaceUpNotOut(tile=str(tile))


def apply_take_face_up(state: GameState, action: TakeFaceUp) -> Result:
    """The face-up tile goes to the rack; the turn must end by going out."""
    tile = extra_of(state).face_up
    assert tile is not None
    state = with_extra(state, face_up=None)
    state = replace(
        state,
        hands=state.hands_with(action.seat, (*state.hands[action.seat], tile)),
        phase=Phase.PLAY,
        turn=replace(state.turn, taken=tile, extra=TurnExtra(out=True)),
    )
    return state, as_events([TookFaceUp(action.seat, tile)])


# --- meld ------------------------------------------------------------------------------------


def _melds_of(action: MeldCards) -> list[Meld]:
    return [check_meld(group, action.seat, MELD_RULES)[0] for group in action.groups]


def verify_meld(state: GameState, action: MeldCards) -> None:
    """A meld (after the first discard) that is valid; the meld owed this turn first; an
    opening from the rack worth the ``opening`` value with a run ("Bei der ersten Meldung
    muss man Meldungen von seinem Ständer machen ... mindestens eine eine Folge ... mindestens
    50 Punkte"); after the face-up tile only a move that still lets the seat go out. A
    meld may not use the last tile: "Hat man zwei Steine und zieht einen dritten Stein, mit
    dem man einen Satz oder eine Folge melden könnte, darf man das nicht tun"."""
    need_play_started(state)
    need_not_first_turn(state)
    shared_verify_meld(state, action)
    seat = action.seat
    melds = _melds_of(action)
    obligation = turn_of(state).obligation
    if obligation is not None and not paid_by(obligation, melds):
        raise ObligationNotMet(tile=str(obligation.tile))
    if not state.has_melded[seat]:
        threshold = state.rules.number("opening") or 0
        if not has_run(melds):
            raise OpeningNeedsRun()
        value = opening_value(melds)
        if value < threshold:
            raise OpeningTooLow(value=value, points=threshold)
    if turn_of(state).out:
        left = remove_cards(state.hands[seat], [s.card for g in action.groups for s in g])
        if (
            plan_for(
                state,
                seat,
                left,
                melds=(*state.melds, *melds),
                opened=True,
                opening_turn=not opened_before(state, seat),
                obligation=None,
            )
            is None
        ):
            raise MustGoOut()


def _track_jolys(
    state: GameState, seat: int, placed: Sequence[tuple[int, Card]], obligation: Obligation | None
) -> GameState:
    """Record Jolys newly on the table (meld index, face): a freed Joly continues its
    track, any other starts one."""
    if not placed:
        return state
    tracks = list(extra_of(state).jolys)
    pending = obligation.track if obligation is not None and obligation.kind == "joly" else -1
    for index, face in placed:
        place = JolyPlace(index, face, seat)
        if pending >= 0:
            track = tracks[pending]
            tracks[pending] = replace(track, places=(*track.places, place))
            pending = -1
        else:
            tracks.append(JolyTrack((place,)))
    return with_extra(state, jolys=tuple(tracks))


def apply_meld(state: GameState, action: MeldCards) -> Result:
    """Put the melds down; remember the opening turn, Joly tracks and the met obligation."""
    seat = action.seat
    opening = not state.has_melded[seat]
    obligation = turn_of(state).obligation
    first = len(state.melds)
    state, events = shared_apply_meld(state, action)
    placed = [
        (i, p.face)
        for i in range(first, len(state.melds))
        for p in state.melds[i].cards
        if p.card.is_joker
    ]
    state = _track_jolys(state, seat, placed, obligation)
    state = with_turn(state, obligation=None, opening=turn_of(state).opening or opening)
    return state, events


# --- lay off -----------------------------------------------------------------------------------


def _may_change_table(state: GameState, seat: int) -> None:
    """Lay-offs and exchanges come after an opening, and not on others' melds (lay-off) or
    at all (exchange) in the opening turn; never before an owed meld."""
    obligation = turn_of(state).obligation
    if obligation is not None:
        raise ObligationPending(tile=str(obligation.tile), kind=obligation.kind)
    if not state.has_melded[seat]:
        raise NotOpened(points=state.rules.number("opening") or 0)


def verify_layoff(state: GameState, action: LayOff) -> None:
    """ "Man kann auch weitere Steine Sätzen und Folgen hinzufügen, die man selber oder andere
    Spieler früher gemeldet haben" — after the opening; "Gleichzeitig mit der
    Anfangsmeldung darf man keine Steine an die Meldungen anderer Spieler anlegen"."""
    need_play_started(state)
    need_not_first_turn(state)
    need_phase(state, Phase.PLAY, "lay off")
    seat = action.seat
    _may_change_table(state, seat)
    if (
        0 <= action.meld < len(state.melds)
        and state.melds[action.meld].owner != seat
        and not opened_before(state, seat)
    ):
        raise OpeningTurn()
    shared_verify_layoff(state, action)
    if turn_of(state).out:
        meld = state.melds[action.meld]
        new = extend_readings(meld, action.cards, seat, MELD_RULES)[0]
        table = list(state.melds)
        table[action.meld] = new
        left = remove_cards(state.hands[seat], [s.card for s in action.cards])
        if plan_for(state, seat, left, melds=table) is None:
            raise MustGoOut()


def apply_layoff(state: GameState, action: LayOff) -> Result:
    """Extend the meld (the tiles are the layer's); a laid-off Joly starts its track."""
    old = state.melds[action.meld]
    state, events = shared_apply_layoff(state, action)
    new = state.melds[action.meld]
    before = [p.face for p in old.cards if p.card.is_joker]
    placed = []
    for p in new.cards:
        if p.card.is_joker:
            if p.face in before:
                before.remove(p.face)
            else:
                placed.append((action.meld, p.face))
    return _track_jolys(state, action.seat, placed, None), events


# --- Joly exchange -----------------------------------------------------------------------------


def _exchange_index(state: GameState, action: ExchangeJoly) -> int:
    """The position of the Joly that ``action.tiles`` replace in the meld (rules 5-7)."""
    if not 0 <= action.meld < len(state.melds):
        raise NoSuchMeld(number=action.meld + 1)
    meld = state.melds[action.meld]
    remove_cards(state.hands[action.seat], action.tiles)
    no_joly = InvalidJokerSwap(
        reason=f"no Joly in meld {action.meld + 1} stands for " + " ".join(map(str, action.tiles)),
        reason_code="no_joker",
    )
    if not action.tiles or any(t.is_joker for t in action.tiles):
        raise no_joly
    if meld.kind is MeldKind.RUN:
        if len(action.tiles) != 1:
            raise no_joly
        index = joker_swap_target(meld, action.tiles[0])
        if index < 0:
            raise no_joly
        return index
    index = next((i for i, p in enumerate(meld.cards) if p.card.is_joker), -1)
    if index < 0:
        raise no_joly
    present = {p.card.suit for p in meld.cards if not p.card.is_joker}
    missing = sorted((Card(meld.rank, c) for c in TILE_COLOURS if c not in present), key=SORT_KEY)
    tiles = sorted(action.tiles, key=SORT_KEY)
    if len(missing) == 2 and len(tiles) == 1 and tiles[0] in missing:
        raise ExchangeNeedsPair()
    if tiles != missing:
        raise no_joly
    return index


def owed_meld_possible(state: GameState, seat: int) -> bool:
    """True when ``seat`` can pay the meld owed now (:mod:`.obligation`) with one new meld
    that :func:`verify_meld` accepts (so a tile is left that may be discarded: not only the
    tile taken this turn, "Am Ende des Spielzuges muss man einen seiner Steine offen
    ablegen")."""
    obligation = turn_of(state).obligation
    if obligation is None:
        return True
    for meld in new_melds(state.hands[seat], seat):
        if pays(obligation, meld):
            try:
                verify_meld(state, MeldCards(seat, (specs_of(meld),)))
            except IllegalMove:
                continue
            return True
    return False


def verify_exchange(state: GameState, action: ExchangeJoly) -> None:
    """Rules 5-7 of the text: "Hat man genau den Stein, den ein Joly ... ersetzt, darf man
    den Joly nehmen und durch diesen Stein ersetzen, vorausgesetzt, man gebraucht ihn
    sofort mit zwei Steinen vom eigenen Ständer"; a set of three with a Joly needs "die
    beiden Steine gleichen Ranges in den beiden fehlenden Farben"; with only one of them
    "darf man den Joly nicht nehmen" (lay it off instead). Not before or in the opening
    turn ("oder den Joly eines anderen Spielers mit einem entsprechenden Stein austauschen.
    Diese Möglichkeiten hat man erst dann, wenn man nach seiner Anfangsmeldung wieder an
    der Reihe ist"). Refused when the freed Joly then cannot be melded by a meld the moves
    accept (:func:`owed_meld_possible`), and after the face-up tile when no way out is
    left."""
    need_play_started(state)
    need_not_first_turn(state)
    need_phase(state, Phase.PLAY, "exchange a Joly")
    seat = action.seat
    _may_change_table(state, seat)
    if not opened_before(state, seat):
        raise OpeningTurn()
    _exchange_index(state, action)
    after, _ = apply_exchange(state, action)
    if not owed_meld_possible(after, seat):
        raise ExchangeUnusable()
    if turn_of(state).out and plan_for(after, seat) is None:
        raise MustGoOut()


def _exchanged(state: GameState, action: ExchangeJoly, index: int) -> Meld:
    meld = state.melds[action.meld]
    cards = list(meld.cards)
    new = [Placed(t, t, action.seat) for t in action.tiles]
    cards[index : index + 1] = new
    if meld.kind is MeldKind.SET:
        cards.sort(key=lambda p: p.face.sort_key)
    return replace(meld, cards=tuple(cards))


def apply_exchange(state: GameState, action: ExchangeJoly) -> Result:
    """The tiles take the Joly's place (face down, for the scoring chain); the Joly goes to
    the rack and must be melded at once."""
    seat = action.seat
    index = _exchange_index(state, action)
    meld = state.melds[action.meld]
    face = meld.cards[index].face
    melds = list(state.melds)
    melds[action.meld] = _exchanged(state, action, index)
    tracks = list(extra_of(state).jolys)
    number = next(
        (
            n
            for n, t in enumerate(tracks)
            if not t.pending and t.places[-1].meld == action.meld and t.places[-1].face == face
        ),
        -1,
    )
    if number < 0:
        tracks.append(JolyTrack((JolyPlace(action.meld, face, meld.cards[index].owner),)))
        number = len(tracks) - 1
    track = tracks[number]
    tracks[number] = replace(
        track, replacements=(*track.replacements, Replacement(action.meld, action.tiles, seat))
    )
    hand = (*remove_cards(state.hands[seat], action.tiles), JOKER)
    state = replace(
        state,
        hands=state.hands_with(seat, hand),
        melds=tuple(melds),
        has_played=tuple(True if i == seat else f for i, f in enumerate(state.has_played)),
    )
    state = with_extra(state, jolys=tuple(tracks))
    state = with_turn(state, obligation=Obligation("joly", JOKER, track=number))
    return state, as_events([JolyExchanged(seat, action.meld, action.tiles)])


def verify_swap(state: GameState, action: SwapJoker) -> None:
    """The shared ``swap k7 3``: the one-tile Joly exchange (:func:`verify_exchange`)."""
    verify_exchange(state, ExchangeJoly(action.seat, (action.card,), action.meld))


def apply_swap(state: GameState, action: SwapJoker) -> Result:
    """See :func:`apply_exchange`."""
    return apply_exchange(state, ExchangeJoly(action.seat, (action.card,), action.meld))


# --- discard and the end of a game -------------------------------------------------------------


def verify_discard(state: GameState, action: Discard) -> None:
    """ "Am Ende des Spielzuges muss man einen seiner Steine offen ablegen" — not before an
    owed meld, and after the face-up tile only the last tile (going out)."""
    need_play_started(state)
    shared_verify_discard(state, action)
    obligation = turn_of(state).obligation
    if obligation is not None:
        raise ObligationPending(tile=str(obligation.tile), kind=obligation.kind)
    if turn_of(state).out and len(state.hands[action.seat]) != 1:
        raise MustGoOut()


def finish(state: GameState, winner: int | None, rummy: bool, events: list[object]) -> Result:
    """Score the game (``winner`` went out, or ``None``) and say how (``ScoreSheet``)."""
    sheet = score_sheet(state, winner, rummy)
    state, more = end_hand(state, winner, rummy)
    return state, as_events([*events, more[0], ScoreSheet(sheet), *more[1:]])


def apply_discard(state: GameState, action: Discard) -> Result:
    """Discard to the row; the last tile goes out ("alle Steine ... melden bis auf einen
    Stein – dieser letzte Stein muss abgelegt werden"). Three tiles or fewer are
    announced ("Ein Spieler, der nur noch drei oder weniger Steine hat, muss das den
    anderen Spielern ansagen"). The turn passes in seat order (the text's
    counterclockwise)."""
    seat = action.seat
    left = remove_cards(state.hands[seat], [action.card])
    state = replace(
        state, hands=state.hands_with(seat, left), discard=(*state.discard, action.card)
    )
    events: list[object] = [Discarded(seat, action.card)]
    if not left:
        rummy = state.turn.fresh
        events.append(WentOut(seat, rummy))
        return finish(state, seat, rummy, events)
    extra = extra_of(state)
    low = list(extra.low)
    if len(left) > 3:
        low[seat] = None
    elif low[seat] is None or len(left) < (low[seat] or 0):
        low[seat] = len(left)
        events.append(FewTilesLeft(seat, len(left)))
    played = extra.played
    if seat < len(played) and not played[seat]:
        played = tuple(True if i == seat else p for i, p in enumerate(played))
    state = with_extra(state, low=tuple(low), played=played)
    nxt = state.next_seat(seat)
    state = replace(
        state, current=nxt, phase=Phase.DRAW, turn=TurnState(fresh=not state.has_melded[nxt])
    )
    return state, as_events(events)
