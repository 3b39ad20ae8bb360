"""Joker exchange (Jokeraustausch) in German Rommé, from stacked deals.

german-romme.de.txt: "Wenn ein Spieler bereits seine erste Figur/en (Erstmeldung) in einem
vorherigen Spielzug melden konnte, kann er einen Joker in einer gemeldeten Figur irgend
eines Spielers durch die zutreffende natürliche Karte austauschen, sofern er mit dem
ausgetauschten Joker sogleich eine Figur auslegen kann."
"""

from __future__ import annotations

import pytest

from engine.cards import JOKER
from engine.commands import format_action, parse_command
from engine.errors import CardNotInHand, InvalidMeld
from engine.events import Melded
from engine.game import legal_actions
from engine.variants.german.actions import ExchangeJoker
from engine.variants.german.errors import (
    ExchangeNeedsFour,
    ExchangeNeedsMeld,
    ExchangeNoJoker,
    ExchangeSyntax,
    FreedJokerNotMelded,
    NotOpenedYet,
)
from engine.variants.german.events import JokerExchanged

ANA = "10h jh qh 5c 5d 5s 7c 9s 10s 2d 3h 4s 8d"
ANA_KINGS = "10h jh qh 5c 5d 5s kc ks 9s 10s 2d 3h 4s"
BEN_RUN = "6c jk 8c kd kh ks 2c 3d 4h 9c 10d jd qs"
BEN_SET = "6c 7c 8c kd kh jk 2c 3d 4h 9c 10d jd qs"
CEM = "as ad 5h 6h 9h 2s 3c 4d 6d 8h 10c jc qc"
STOCK = "4c 3s 2h 6s 7d 8s 9d"


def opened(german, ana: str, ben: str, ben_meld: str, **options):
    """Ana and Ben have made their first melds; it is Ana's second turn, after drawing."""
    t = german([ana, ben, CEM], "7s", STOCK, **options)
    t.play("draw")
    t.play("meld 10h jh qh | 5c 5d 5s")
    t.play("discard 4c")
    t.play("draw")
    t.play("meld " + ben_meld)
    t.play("discard 3s")
    t.play("draw")
    t.play("discard 2h")
    t.play("draw")
    return t


def test_exchange_puts_the_natural_card_in_and_melds_the_joker(german) -> None:
    """ "durch die zutreffende natürliche Karte austauschen, sofern er mit dem ausgetauschten
    Joker sogleich eine Figur auslegen kann" """
    t = opened(german, ANA, BEN_RUN, "6c jk 8c | kd kh ks")
    t.play("exchange 7c 3 | jk=js 9s 10s")
    assert [str(p) for p in t.state.melds[2].cards] == ["6c", "7c", "8c"]
    assert [str(p) for p in t.state.melds[4].cards] == ["9s", "10s", "jk=js"]
    assert JOKER not in t.state.hands[0]
    (exchanged,) = t.of(JokerExchanged)
    assert (exchanged.seat, exchanged.index, exchanged.jokers) == (0, 2, 1)
    assert t.of(Melded)[-1].index == 4


def test_the_freed_joker_never_goes_to_the_hand(german) -> None:
    """ "Ein ausgetauschter Joker darf also nicht für spätere Spielzüge in sein Blatt
    eingegliedert werden, sondern muss sofort mit einer Figur ausgelegt werden." """
    t = opened(german, ANA, BEN_RUN, "6c jk 8c | kd kh ks")
    with pytest.raises(ExchangeNeedsMeld):
        t.play("swap 7c 3")
    with pytest.raises(FreedJokerNotMelded):
        t.play("exchange 7c 3 | 9s 10s 8s")
    with pytest.raises(InvalidMeld):
        t.play("exchange 7c 3 | jk 9s 2d")
    with pytest.raises(CardNotInHand):
        t.play("exchange 7c 3 | jk=js 9s 10s qs")


def test_only_the_card_the_joker_stands_for(german) -> None:
    """ "durch die zutreffende natürliche Karte" """
    t = opened(german, ANA, BEN_RUN, "6c jk 8c | kd kh ks")
    with pytest.raises(ExchangeNoJoker):
        t.play("exchange 8d 3 | jk=js 9s 10s")
    with pytest.raises(ExchangeNoJoker):
        t.play("exchange 7c 4 | jk=js 9s 10s")


def test_no_exchange_before_the_first_meld_of_an_earlier_turn(german) -> None:
    """ "Wenn ein Spieler bereits seine erste Figur/en (Erstmeldung) in einem vorherigen
    Spielzug melden konnte" — Cem has not melded."""
    t = opened(german, ANA, BEN_RUN, "6c jk 8c | kd kh ks")
    t.play("discard 8d")
    t.play("draw")
    t.play("discard 7d")
    t.play("draw")
    with pytest.raises(NotOpenedYet):
        t.play("exchange 7c 3 | jk 6d 8d")


def test_exchange_in_a_set_takes_a_missing_suit(german) -> None:
    """A joker in a set stands for its rank in any missing suit (K♦ K♥ J: K♣ or K♠)."""
    t = opened(german, ANA_KINGS, BEN_SET, "6c 7c 8c | kd kh jk")
    t.play("exchange kc 4 | jk=js 9s 10s")
    assert sorted(str(p) for p in t.state.melds[3].cards) == ["kc", "kd", "kh"]


def test_house_rule_set_exchange_only_for_a_joker_free_four(german) -> None:
    """Hausregel: "Ein Joker in einem gemeldeten Drilling darf nur ausgetauscht werden,
    wenn er beide fehlenden Karten der selben Ranghöhe ergänzt werden, also nach dem Tausch
    ein Vierling ohne Joker da liegt." """
    t = opened(german, ANA_KINGS, BEN_SET, "6c 7c 8c | kd kh jk", set_swap_four=True)
    with pytest.raises(ExchangeNeedsFour) as info:
        t.play("exchange kc 4 | jk=js 9s 10s")
    assert info.value.params["cards"] == "kc ks"
    t.play("exchange kc ks 4 | jk=js 9s 10s")
    assert sorted(str(p) for p in t.state.melds[3].cards) == ["kc", "kd", "kh", "ks"]
    assert [str(c) for c in t.of(JokerExchanged)[-1].cards] == ["kc", "ks"]


def test_exchanges_are_legal_actions(german) -> None:
    """The legal list offers the exchange with every new meld the freed joker can make."""
    t = opened(german, ANA, BEN_RUN, "6c jk 8c | kd kh ks")
    offered = [a for a in legal_actions(t.state, 0) if isinstance(a, ExchangeJoker)]
    assert offered
    assert all(a.cards == (parse_command("discard 7c", 0).card,) and a.meld == 2 for a in offered)
    assert any(format_action(a) == "exchange 7c 3 | 9s 10s jk=js" for a in offered)


def test_exchange_command_round_trip() -> None:
    """``exchange CARD... MELD | NEW MELD`` parses and formats back; a missing part is a
    clear error."""
    action = parse_command("exchange 7c 3 | jk=js 9s 10s", 1)
    assert isinstance(action, ExchangeJoker)
    assert (action.seat, action.meld, len(action.group)) == (1, 2, 3)
    assert parse_command(format_action(action), 1) == action
    assert parse_command("austauschen 7c #3 / jk=js 9s 10s", 1) == action
    with pytest.raises(ExchangeSyntax):
        parse_command("exchange 7c 3", 1)
    with pytest.raises(ExchangeSyntax):
        parse_command("exchange 3 | jk 9s 10s", 1)
