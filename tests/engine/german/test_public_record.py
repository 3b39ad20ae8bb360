"""German Rommé: the public record of the views stays right while the last one is reused
("Show the running total while a player builds the opening"; the pot, the buy-back
"Er muss den Betrag in den Pot bezahlen welcher dem derzeitigen Pot geteilt durch die
Anzahl Spieler ... entspricht", german-romme.de.txt)."""

from __future__ import annotations

from engine.ai import make_ai
from engine.frozen import replace
from engine.game import apply_legal, legal_actions, new_game
from engine.rules import make_rules
from engine.state import Phase
from engine.variants.german.state import GermanTurn, game_extra
from engine.variants.german.views import (
    _moving,
    _private_extra,
    _public_extra,
    private_extra,
    public_extra,
)
from engine.views import view_for


def test_the_public_record_follows_a_match_with_a_pot_and_closing_layoffs() -> None:
    """Greedy play of a pot match of three (stakes, eliminations, buy-back offers) with
    closing lay-offs: after every move the record read through the reuse equals the one
    built afresh, and the reuse did happen (a draw keeps the records it is read from)."""
    rules = make_rules("german", preset="pot", options={"closing_layoffs": True})
    state = new_game(rules, ["ana", "ben", "cem"], seed=5)
    seats = [make_ai("greedy", 5 + s) for s in range(3)]
    reused = buybacks = closings = 0
    previous = None
    for _ in range(4000):
        if state.phase is Phase.GAME_OVER:
            break
        table = public_extra(state)
        assert table == _public_extra(state, _moving(state))
        reused += table is previous
        previous = table
        buybacks += table.buyback is not None
        closings += bool(table.closing)
        seat = state.current
        legal = legal_actions(state, seat) or legal_actions(state, 0)
        state, _ = apply_legal(state, seats[seat].decide(view_for(state, seat), legal))
    assert reused > 100
    assert buybacks and closings


def test_a_running_turn_and_a_finished_deal_with_the_same_records_differ() -> None:
    """The record shows this turn's first-meld points only while a turn runs: the same
    match, turn and totals records with the hand over are read again, not reused."""
    rules = make_rules("german")
    state = new_game(rules, ["ana", "ben"], seed=3)
    building = GermanTurn(provisional=1, total=25)
    state = replace(state, phase=Phase.PLAY, turn=replace(state.turn, extra=building))
    over = replace(state, phase=Phase.HAND_OVER)
    assert public_extra(state).opening_total == 25
    assert public_extra(state).provisional == 1
    assert public_extra(over).opening_total == 0
    assert public_extra(over).provisional == 0
    assert public_extra(state).opening_total == 25


def _own_records_reused(preset: str | None, ai: str, players: int) -> int:
    """Play a match (``ai`` players) asking the own record of the seat to move as the game
    loop asks it; assert it equals the one built afresh after every move; return how often
    the last record of that seat and phase was reused."""
    rules = make_rules("german", preset=preset, options={"closing_layoffs": True})
    state = new_game(rules, ["ana", "ben", "cem"][:players], seed=5)
    seats = [make_ai(ai, 5 + s) for s in range(players)]
    reused = 0
    last: dict[object, object] = {}
    for _ in range(4000):
        if state.phase is Phase.GAME_OVER:
            break
        seat = state.current
        status = private_extra(state, seat)
        assert status == _private_extra(state, seat)
        reused += status is last.get((seat, state.phase))
        last[seat, state.phase] = status
        legal = legal_actions(state, seat) or legal_actions(state, 0)
        state, _ = apply_legal(state, seats[seat].decide(view_for(state, seat), legal))
    return reused


def test_the_seats_record_follows_the_match_while_it_is_reused() -> None:
    """The own record of the seat to move ("Show the running total while a player builds
    the opening": the opening total, whether it may lay off, its first turn) read through
    the reuse equals the one built afresh after every move: in the pot match of three
    above and in random play of two, where the reuse happens often (a turn starts with a
    shared turn record)."""
    _own_records_reused("pot", "greedy", 3)
    assert _own_records_reused(None, "random", 2) > 100


def test_the_seats_record_is_read_again_when_a_part_it_is_read_from_changes() -> None:
    """The reuse compares every part the record is read from, not only the turn record: a
    state that differs in who has melded, who has played or the match record (same turn
    record) gets its own record."""
    rules = make_rules("german")
    state = new_game(rules, ["ana", "ben"], seed=5)
    mover, other = state.current, 1 - state.current
    assert not private_extra(state, mover).opened
    melded = replace(state, has_melded=tuple(s == mover for s in range(2)))
    assert private_extra(melded, mover).opened
    assert private_extra(state, other).fresh
    played = replace(state, has_played=(True, True))
    assert not private_extra(played, other).fresh
    assert private_extra(state, other).first_turn
    extra = game_extra(state)
    replayed = replace(state, extra=replace(extra, played=(True, True)))
    assert not private_extra(replayed, other).first_turn
