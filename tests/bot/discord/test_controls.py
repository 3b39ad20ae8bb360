"""The pieces without a server: hand state codec, custom ids within Discord's 100
characters, message text within 2000, the hand model laid out as components, and the
privacy checker of the game test catching a leak."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from bot.discord_bot.components import ControlId, hand_controls, table_controls
from bot.discord_bot.hand import HandState, hand_digest
from bot.discord_bot.render import CONTENT_LIMIT, fit, table_content
from bot.i18n import use_locale
from bot.interaction.hand import SortMode, mask_of, model_of, order_cards
from bot.ports.model import ChatKey, Seat, SeatKind, Status, TableInfo, TableSettings
from engine.actions import Draw
from engine.cards import standard_deck
from engine.dealing import DealSpec, new_game
from engine.game import apply, legal_actions
from engine.rules import make_rules
from engine.views import public_view, view_for
from tests.bot.discord.players import Truth

DECK = list(standard_deck())


@given(st.integers(0, 60), st.integers(0, (1 << 60) - 1), st.sampled_from(list(SortMode)))
def test_hand_state_round_trips(start: int, mask: int, sort: SortMode) -> None:
    hand = DECK[start % 10 : start % 10 + 40]
    state = HandState(hand_digest(hand), sort, mask)
    assert HandState.decode(state.encode()) == state
    assert state.matches(reversed(hand)) and not state.matches(hand[1:])


@given(st.integers(1, 60))
def test_custom_ids_stay_within_100_characters(size: int) -> None:
    """Every card of a 60-tile rack selected: the custom id still fits for a big table id
    and version."""
    hand = DECK[:size]
    state = HandState(hand_digest(hand), SortMode.MELDS, (1 << size) - 1)
    text = ControlId(9_999_999, 999_999, "refresh", state.encode()).encode()
    assert len(text) <= 100
    assert ControlId.parse(text) == ControlId(9_999_999, 999_999, "refresh", state.encode())
    assert ControlId.parse("pick:variant") is None


def _info(seats: int, status: Status = Status.PLAYING, variant: str = "basic") -> TableInfo:
    names = tuple(
        Seat(SeatKind.HUMAN, f"Player{'x' * 20}{n}", f"discord:{n}") for n in range(seats)
    )
    return TableInfo(
        7,
        ChatKey("discord", "1"),
        status,
        variant,
        None,
        (),
        "discord:0",
        names,
        TableSettings(),
        3,
    )


def test_table_text_fits_for_six_players_and_many_melds() -> None:
    rules = make_rules("basic")
    hands = [" ".join(str(c) for c in DECK[i * 7 : i * 7 + 7]) for i in range(6)]
    state = new_game(
        rules,
        [f"Player{'x' * 20}{n}" for n in range(6)],
        dealer=0,
        deal=DealSpec.parse(hands, "ks", "qs js"),
    )
    recent = ["a very long line of what happened " * 4] * 20
    with use_locale("de"):
        text = table_content(_info(6), public_view(state), recent)
    assert len(text) <= CONTENT_LIMIT and text.count("```") % 2 == 0
    assert len(fit(["x" * 3000])) <= CONTENT_LIMIT
    assert len(fit(["```\n" + "y\n" * 1500 + "```"])) <= CONTENT_LIMIT


def test_controls_lay_out_the_hand_model() -> None:
    """Draw/Take (controls of the hand model) to the seat to play at the start of the
    turn; the moves of a selection in one select; only the card select and Sort / Hint /
    Refresh to the others."""
    rules = make_rules("basic")
    state = new_game(
        rules,
        ["ana", "ben"],
        dealer=1,
        deal=DealSpec.parse(["7h 8h 9h 2c 3d", "4c 5c 6c 7d 8d"], "ks", "qs js"),
    )
    info = _info(2)
    with use_locale("en"):
        mine, theirs = view_for(state, 0), view_for(state, 1)
        model = model_of(info, mine, legal_actions(state, 0), None)
        view = hand_controls(info, model, HandState.fresh(mine.hand))
        actions = [ControlId.parse(i.custom_id) for i in view.children]  # type: ignore[attr-defined]
        assert [a.action for a in actions if a] == ["c0", "o0", "o1", "sort", "hint", "refresh"]
        labels = [getattr(getattr(i, "item", i), "label", None) for i in view.children]
        assert labels[1:3] == ["Draw", "Take K♠"]
        other = model_of(info, theirs, legal_actions(state, 1), None)
        view = hand_controls(info, other, HandState.fresh(theirs.hand))
        actions = [ControlId.parse(i.custom_id) for i in view.children]  # type: ignore[attr-defined]
        assert [a.action for a in actions if a] == ["c0", "sort", "hint", "refresh"]

        drawn, _events = apply(state, Draw(0))
        after = view_for(drawn, 0)
        order = order_cards(after.hand, SortMode.SUIT)
        chosen = mask_of(
            order, [c for c in after.hand if c.suit is not None and str(c) in ("7h", "8h", "9h")]
        )
        model = model_of(info, after, legal_actions(drawn, 0), None, mask=chosen)
        view = hand_controls(info, model, HandState(hand_digest(after.hand), SortMode.SUIT, chosen))
        [moves] = [i for i in view.children if ControlId.parse(i.custom_id).action == "mv"]  # type: ignore[attr-defined, union-attr]
        assert [o.label for o in moves.item.options] == ["Meld 7♥ 8♥ 9♥"]  # type: ignore[attr-defined]

        table = table_controls(info, public_view(state))
        assert table is not None and len(table.children) == 3
        assert table_controls(replace(info, status=Status.FINISHED), None) is None
        lobby = table_controls(replace(info, status=Status.LOBBY), None)
        assert lobby is not None and len(lobby.children) == 7
        assert [c.item.label for c in lobby.children] == [  # type: ignore[attr-defined]
            "Join",
            "Leave",
            "Start",
            "+🤖 easy",
            "+🤖 normal",
            "+🤖 hard",
            "+🤖 expert",
        ]


def test_privacy_checker_catches_a_hidden_card() -> None:
    """The game test's checker flags a card hidden in another seat's hand."""
    rules = make_rules("basic")
    state = new_game(
        rules,
        ["ana", "ben"],
        dealer=1,
        deal=DealSpec.parse(["7h 8h 9h 2c 3d", "4c 5c 6c 7d 8d"], "ks", "qs js"),
    )
    truth = Truth()
    seats = (Seat(SeatKind.HUMAN, "ana", "discord:1"), Seat(SeatKind.HUMAN, "ben", "discord:2"))
    truth.update(state, seats, [])
    assert truth.leaks("ben holds 7♦", viewer_seat=None) == ["7♦ of seat 1"]
    assert truth.leaks("your 7♦", viewer_seat=1) == []
    assert truth.leaks("upcard K♠, 17♦", viewer_seat=None) == []
