"""The callback_data codec: at most 64 bytes, a lossless round trip, and a typed error
for anything the bot did not write."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.telegram_bot.callbacks import (
    GROUP_ACTIONS,
    HAND_ACTIONS,
    MAX_BYTES,
    Callback,
    MalformedCallback,
    UnverifiedCallback,
    decode,
    sign_with,
)
from tests.fakes.telegram.server import DEFAULT_TOKEN

ARGS = st.text(
    alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789=,_-", max_size=20
)


@st.composite
def callbacks(draw: st.DrawFn) -> Callback:
    kind = draw(st.sampled_from(["g", "h"]))
    actions = GROUP_ACTIONS if kind == "g" else HAND_ACTIONS
    return Callback(
        kind,
        draw(st.sampled_from(sorted(actions))),
        draw(st.integers(0, 10**9)),
        draw(st.integers(0, 10**7)),
        draw(st.integers(0, 2**40 - 1)),
        draw(st.integers(0, 2)),
        draw(ARGS),
    )


@given(callbacks())
def test_every_button_fits_in_64_bytes_and_reads_back(data: Callback) -> None:
    """Table ids up to 10⁹, versions up to 10⁷, a selection of 40 cards and a 20-character
    argument still fit Telegram's 64 bytes."""
    encoded = data.encode()
    assert len(encoded.encode("utf-8")) <= MAX_BYTES
    assert decode(encoded) == data


def test_the_encoding_is_compact_and_signed() -> None:
    def unsigned(data: Callback) -> str:
        body, _dot, mac = data.encode().rpartition(".")
        assert len(mac) == 8
        return body

    assert unsigned(Callback("h", "s", 12, 87, 0b110100011, 0)) == "hs0.c.2f.bn."
    assert unsigned(Callback("g", "j", 12, 5)) == "gj0.c.5.."
    assert unsigned(Callback("h", "a", 1, 2, 7, 1, "13")) == "ha1.1.2.7.13"


def test_data_this_bot_did_not_sign_reads_as_what_it_claims_but_is_refused() -> None:
    real = Callback("h", "a", 12, 87, 0b101, 0, "3")
    data = real.encode()
    assert decode(data) == real
    body, _dot, mac = data.rpartition(".")
    changed = [
        body,
        body.replace(".3", ".4") + "." + mac,
        f"{body}.{mac[::-1]}",
        data.replace("ha0", "ha1"),
    ]
    for forged in changed:
        with pytest.raises(UnverifiedCallback) as refused:
            decode(forged)
        assert refused.value.claimed.table_id == 12, forged


def test_another_token_signs_otherwise() -> None:
    real = Callback("g", "j", 12, 5)
    data = real.encode()
    try:
        sign_with("123:another-token")
        with pytest.raises(UnverifiedCallback):
            decode(data)
        assert decode(real.encode()) == real
    finally:
        sign_with(DEFAULT_TOKEN)


@pytest.mark.parametrize(
    "data",
    [
        None,
        "",
        "join",
        "gj0.c.5.",
        "gj0.c.5...",
        "gq0.c.5..",
        "xj0.c.5..",
        "gj9.c.5..",
        "gjx.c.5..",
        "gj0.C.5..",
        "gj0.-1.5..",
        "gj0.c.5..a b",
        "gj0.c.5..ä",
        "gj0..5..",
        "hs0.c.2f.bn." + "0" * 60,
    ],
)
def test_anything_else_is_malformed(data: str | None) -> None:
    with pytest.raises(MalformedCallback):
        decode(data)


def test_encoding_refuses_what_could_not_be_read_back() -> None:
    with pytest.raises(ValueError):
        Callback("h", "s", 1, 1, 0, 0, "x" * 41).encode()
    with pytest.raises(ValueError):
        Callback("h", "s", 1, 1, 0, 3).encode()
    with pytest.raises(ValueError):
        Callback("g", "s", -1, 1).encode()
    with pytest.raises(ValueError):
        Callback("g", "Z", 1, 1).encode()
