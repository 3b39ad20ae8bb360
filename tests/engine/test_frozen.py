"""engine.frozen.replace: the engine's fast copy of its frozen records."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from engine.actions import Discard, Draw, LayOff, MeldCards
from engine.cards import parse_card
from engine.dealing import new_game
from engine.frozen import DRAFT_MIN_FIELDS, fast_init, replace
from engine.melds import CardSpec, Meld, Placed
from engine.record_class import record
from engine.rules import make_rules
from engine.state import GameState, TurnState
from engine.views import PlayerView, PublicView


def test_replace_equals_dataclasses_replace_and_leaves_the_original() -> None:
    """Same fields as ``dataclasses.replace``; the old state is unchanged (states are
    snapshots: "apply returns a new one")."""
    state = new_game(make_rules("basic"), ["ana", "ben"], seed=3)
    turn = TurnState(fresh=True)
    new = replace(state, version=7, turn=turn)
    assert new == dataclasses.replace(state, version=7, turn=turn)
    assert type(new) is type(state)
    assert state.version == 0 and new.version == 7 and new.turn is turn
    assert new.hands is state.hands
    with pytest.raises(dataclasses.FrozenInstanceError):
        new.version = 8  # type: ignore[misc]


def test_replace_refuses_unknown_fields_and_non_records() -> None:
    """An unknown field is a TypeError (as with ``dataclasses.replace``); so is a class
    that is not a plain slotted dataclass."""
    with pytest.raises(TypeError, match="no field"):
        replace(TurnState(), colour="red")

    @dataclasses.dataclass(frozen=True)
    class Loose:
        x: int = 0

    with pytest.raises(TypeError, match="not a plain slotted dataclass"):
        replace(Loose(), x=1)


def test_fast_init_builds_the_same_records_as_the_dataclass_init() -> None:
    """A record built by the descriptor ``__init__`` equals the one ``dataclasses`` builds:
    positional and keyword fields, defaults, default factories; wrong arguments raise
    ``TypeError``; the record stays frozen."""

    @dataclasses.dataclass(frozen=True, slots=True)
    class Plain:
        seat: int
        card: str | None = None
        cards: tuple[str, ...] = dataclasses.field(default_factory=lambda: ("jk",))

    @fast_init
    @dataclasses.dataclass(frozen=True, slots=True)
    class Fast:
        seat: int
        card: str | None = None
        cards: tuple[str, ...] = dataclasses.field(default_factory=lambda: ("jk",))

    def fields(record: object) -> tuple[object, ...]:
        return dataclasses.astuple(record)  # type: ignore[call-overload, no-any-return]

    for args, kwargs in (
        ((1,), {}),
        ((1, "7h"), {}),
        ((1,), {"cards": ()}),
        ((), {"seat": 2, "card": "qs", "cards": ("ah",)}),
    ):
        assert fields(Fast(*args, **kwargs)) == fields(Plain(*args, **kwargs))
    assert Fast(1).cards == ("jk",) and Fast(1) == Fast(1, None, ("jk",))
    with pytest.raises(TypeError):
        Fast(1, "7h", (), 4)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Fast()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Fast(1, colour="red")  # type: ignore[call-arg]
    with pytest.raises(dataclasses.FrozenInstanceError):
        Fast(1).seat = 2  # type: ignore[misc]


def test_record_is_the_frozen_slotted_dataclass_with_the_fast_init() -> None:
    """``@record`` (the events' and actions' decorator) builds the class the two stacked
    decorators build: same fields, equality, hash, ``repr``, pickling; frozen; slots; the
    descriptor ``__init__``."""

    rec = _Rec(1, ("7h",))
    assert vars(_Rec)["__slots__"] == vars(_Stacked)["__slots__"] == ("seat", "cards")
    assert [f.name for f in dataclasses.fields(_Rec)] == ["seat", "cards"]
    assert rec == _Rec(seat=1, cards=("7h",)) and rec != _Rec(1)
    assert hash(rec) == hash(_Rec(1, ("7h",))) and rec == pickle.loads(pickle.dumps(rec))
    assert repr(rec) == "_Rec(seat=1, cards=('7h',))"
    assert _Rec.__init__.__qualname__ == "_Rec.__init__"
    assert any(name.startswith("_set_") for name in _Rec.__init__.__code__.co_names)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rec.seat = 2  # type: ignore[misc]
    assert dataclasses.is_dataclass(rec)
    discard = Discard(0, parse_card("7h"))
    assert pickle.loads(pickle.dumps(discard)) == discard


@record
class _Rec:
    """A record made by ``@record``."""

    seat: int
    cards: tuple[str, ...] = ()


@fast_init
@dataclasses.dataclass(frozen=True, slots=True)
class _Stacked:
    """The same record made by the two decorators ``@record`` stands for."""

    seat: int
    cards: tuple[str, ...] = ()


def test_engine_records_use_the_fast_init() -> None:
    """The records built per move list (actions, views, placed cards, states) carry it."""
    for cls in (
        Discard,
        Draw,
        LayOff,
        MeldCards,
        CardSpec,
        Placed,
        Meld,
        PublicView,
        PlayerView,
        GameState,
        TurnState,
    ):
        assert cls.__init__.__qualname__ == f"{cls.__qualname__}.__init__"
        assert any(name.startswith("_set_") for name in cls.__init__.__code__.co_names)
    # five fields or more: filled through the draft class
    for cls in (PublicView, GameState, TurnState):
        assert "_draft" in cls.__init__.__code__.co_names
    for cls in (Discard, PlayerView):
        assert "_draft" not in cls.__init__.__code__.co_names


@fast_init
@dataclasses.dataclass(frozen=True, slots=True)
class _Wide:
    """A record filled through its draft class (more than DRAFT_MIN_FIELDS fields)."""

    a: int
    b: str = "b"
    c: tuple[int, ...] = dataclasses.field(default_factory=tuple)
    d: float = 0.5
    e: object = None
    f: int = 6


@dataclasses.dataclass(frozen=True, slots=True)
class _WidePlain:
    a: int
    b: str = "b"
    c: tuple[int, ...] = dataclasses.field(default_factory=tuple)
    d: float = 0.5
    e: object = None
    f: int = 6


def test_a_record_filled_through_its_draft_is_the_frozen_record() -> None:
    """The draft only fills the slots: the object built or copied has the record's own
    class, the same fields, equality and hash as the dataclass's own ``__init__`` gives,
    stays frozen, pickles, and a subclass's instance keeps its subclass."""
    assert DRAFT_MIN_FIELDS <= 6
    built = _Wide(1, "x", (2,), e="e")
    plain = _WidePlain(1, "x", (2,), e="e")
    assert type(built) is _Wide
    assert dataclasses.astuple(built) == dataclasses.astuple(plain)
    assert built == _Wide(1, "x", (2,), 0.5, "e", 6) and hash(built) == hash(
        _Wide(1, "x", (2,), 0.5, "e", 6)
    )
    copied = replace(built, f=7, a=0)
    assert type(copied) is _Wide and (copied.a, copied.f, copied.c) == (0, 7, (2,))
    assert built.f == 6
    for rec in (built, copied):
        with pytest.raises(dataclasses.FrozenInstanceError):
            rec.a = 2  # type: ignore[misc]
        with pytest.raises(dataclasses.FrozenInstanceError):
            del rec.b  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(copied)) == copied
    with pytest.raises(TypeError):
        _Wide()  # type: ignore[call-arg]

    class Sub(_Wide):
        __slots__ = ()

    assert type(Sub(3)) is Sub and Sub(3).a == 3
