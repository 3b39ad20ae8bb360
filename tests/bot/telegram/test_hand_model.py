"""The hand model behind the keyboard: card orders, selections as bit sets, the meld a
selection stands for, and joker readings."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.interaction.hand import mask_of, valid_mask
from bot.telegram_bot.hand import (
    faces_arg,
    faces_from_arg,
    meld_action,
    ordered,
    reading_faces,
    selected,
    with_joker_faces,
)
from engine.actions import LayOff, MeldCards
from engine.cards import JOKER, Card, parse_cards, standard_deck
from engine.dealing import new_game
from engine.melds import CardSpec, Meld, MeldKind, Placed
from engine.rules import make_rules
from engine.search import best_melds
from engine.views import PlayerView, view_for

VIEW: PlayerView = view_for(new_game(make_rules("basic"), ["ana", "ben"], seed=3), 0)
DECK = standard_deck(2, 2)


@given(st.lists(st.sampled_from(DECK), min_size=1, max_size=20), st.integers(0, 2),
       st.data())
def test_a_selection_reads_back_in_every_order(hand: list[Card], sort: int,
                                               data: st.DataObject) -> None:
    """Whatever the order, the bit set of some cards selects exactly those cards (copies
    of one card included)."""
    melds = best_melds(hand, VIEW.table.rules) if sort == 2 else None
    order = ordered(hand, sort, melds)
    assert sorted(order, key=str) == sorted(hand, key=str)
    chosen = data.draw(st.lists(st.sampled_from(range(len(order))), unique=True))
    cards = [order[i] for i in sorted(chosen)]
    mask = mask_of(order, cards)
    assert valid_mask(order, mask)
    assert sorted(selected(order, mask), key=str) == sorted(cards, key=str)
    assert not valid_mask(order, 1 << len(order))


def test_a_whole_hand_of_melds_splits_into_groups() -> None:
    """Wrotham's all-at-once deals: selecting two melds gives one action with both."""
    cards = parse_cards("7h 8h 9h 2c 2d 2s")
    action = meld_action(0, cards, best_melds(cards, VIEW.table.rules))
    assert isinstance(action, MeldCards) and len(action.groups) == 2
    run = parse_cards("7h 8h 9h")
    single = meld_action(0, run, best_melds(run, VIEW.table.rules))
    assert single == MeldCards(0, (tuple(CardSpec(c) for c in parse_cards("7h 8h 9h")),))


def test_joker_readings_become_declared_faces() -> None:
    seven, eight, nine = parse_cards("7h 8h 9h")
    assert reading_faces("7h 8h jk=9h", None) == [nine]
    run = Meld(MeldKind.RUN, (Placed(JOKER, Card(6, seven.suit), 0), Placed(seven, seven, 0),
                              Placed(eight, eight, 0)), 0)
    # Laying a second joker off: only the new joker's face counts.
    assert reading_faces("jk=6h 7h 8h jk=9h", run) == [nine]
    assert faces_from_arg(faces_arg([nine, Card(8, None)])) == [nine, Card(8, None)]
    meld = with_joker_faces(MeldCards(0, ((CardSpec(seven), CardSpec(JOKER)),)), [nine])
    assert meld == MeldCards(0, ((CardSpec(seven), CardSpec(JOKER, nine)),))
    layoff = with_joker_faces(LayOff(0, (CardSpec(JOKER),), 2), [nine])
    assert layoff == LayOff(0, (CardSpec(JOKER, nine),), 2)
