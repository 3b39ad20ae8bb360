"""The selection behind the hand keyboard: card orders and selections as bit sets (the
moves a selection stands for are the hand model's offers: tests/bot/interaction)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.interaction.hand import SortMode, mask_of, order_cards, selected_cards, valid_mask
from engine.cards import Card, standard_deck
from engine.dealing import new_game
from engine.rules import make_rules
from engine.search import best_melds
from engine.views import PlayerView, view_for

VIEW: PlayerView = view_for(new_game(make_rules("basic"), ["ana", "ben"], seed=3), 0)
DECK = standard_deck(2, 2)


@given(st.lists(st.sampled_from(DECK), min_size=1, max_size=20), st.integers(0, 2), st.data())
def test_a_selection_reads_back_in_every_order(
    hand: list[Card], sort: int, data: st.DataObject
) -> None:
    """Whatever the order, the bit set of some cards selects exactly those cards (copies
    of one card included)."""
    melds = best_melds(hand, VIEW.table.rules) if sort == 2 else None
    order = order_cards(hand, SortMode(sort), melds)
    assert sorted(order, key=str) == sorted(hand, key=str)
    chosen = data.draw(st.lists(st.sampled_from(range(len(order))), unique=True))
    cards = [order[i] for i in sorted(chosen)]
    mask = mask_of(order, cards)
    assert valid_mask(order, mask)
    assert sorted(selected_cards(order, mask), key=str) == sorted(cards, key=str)
    assert not valid_mask(order, 1 << len(order))
