"""The offers' optional ``kind`` and ``meld`` fields (bot/web/protocol.py): what a drop of
cards onto the pile, the table or a meld presses on the page."""

from __future__ import annotations

from bot.web.protocol import offer_kind
from engine.actions import Discard, Draw, LayOff, MeldCards, NextDeal, TakeDiscard
from engine.cards import parse_card


def test_each_move_a_drop_can_press_names_its_kind() -> None:
    seven = parse_card("7h")
    assert offer_kind(Draw(0)) == ("draw", None)
    assert offer_kind(TakeDiscard(0)) == ("take", None)
    assert offer_kind(Discard(0, seven)) == ("discard", None)
    assert offer_kind(MeldCards(0, ((seven,),))) == ("meld", None)
    assert offer_kind(LayOff(0, (seven,), 2)) == ("layoff", 2)
    assert offer_kind(NextDeal(0)) == (None, None)  # no drop presses it
