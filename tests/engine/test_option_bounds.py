"""Every number option has a documented range (docs/variants.md; the texts give no maximum
for targets, deals and reuses, so engine/options.py chooses one a table could play), and a
number outside it, of any length, is refused with that range in a short message."""

from __future__ import annotations

import pytest

from engine.errors import RuleOptionError
from engine.options import Option
from engine.rules import make_rules
from engine.variants import VARIANTS

INT_OPTIONS = [
    (variant_id, option)
    for variant_id, variant in VARIANTS.items()
    for option in variant.options
    if option.kind is int
]


def test_there_are_number_options_in_every_variant() -> None:
    # guards the parametrisation below: a variant without them would test nothing
    assert {variant_id for variant_id, _option in INT_OPTIONS} == set(VARIANTS)


@pytest.mark.parametrize(
    ("variant_id", "option"), INT_OPTIONS, ids=[f"{v}-{o.name}" for v, o in INT_OPTIONS]
)
def test_every_number_option_has_a_range_that_holds_its_default(
    variant_id: str, option: Option
) -> None:
    assert option.minimum is not None and option.maximum is not None, option.name
    assert option.minimum <= option.maximum
    if option.default is not None:
        assert isinstance(option.default, int)
        assert option.minimum <= option.default <= option.maximum
    high = make_rules(variant_id, options={option.name: str(option.maximum)})
    assert high.get(option.name) == option.maximum
    assert f"{option.minimum}..{option.maximum}" in option.accepts()
    with pytest.raises(RuleOptionError) as raised:
        make_rules(variant_id, options={option.name: str(option.maximum + 1)})
    assert raised.value.params["option"] == option.name


@pytest.mark.parametrize("variant_id", ["basic", "500", "german", "romanian"])
@pytest.mark.parametrize("digits", [13, 900, 4301, 20_000])
def test_a_number_of_any_length_is_refused_with_a_short_message(
    variant_id: str, digits: int
) -> None:
    typed = "9" * digits
    with pytest.raises(RuleOptionError) as raised:
        make_rules(variant_id, options={"target": typed})
    params = raised.value.params
    assert params["option"] == "target" and "1..10000" in params["accepts"]
    assert len(str(raised.value)) < 200 and len(params["value"]) <= 24
    assert params["value"] == (typed if digits <= 24 else "9" * 21 + "...")


def test_a_long_number_with_leading_zeros_or_spaces_is_refused_too() -> None:
    for typed in ("0" * 897 + "100", " " * 50 + "100" + " " * 50 + "0"):
        with pytest.raises(RuleOptionError):
            make_rules("basic", options={"target": typed})
    assert make_rules("basic", options={"target": "  0100  "}).get("target") == 100


@pytest.mark.parametrize(
    "typed", ["\u0661\u0660\u0660", "\uff11\uff10\uff10", "1_000", "+100", "1e2", "\u00b9\u00b2"]
)
def test_a_number_is_ascii_digits_only(typed: str) -> None:
    """``int()`` reads Arabic-Indic and full-width digits and underscores; an option
    does not (the value would be stored as typed, and shown so)."""
    with pytest.raises(RuleOptionError) as raised:
        make_rules("basic", options={"target": typed})
    assert raised.value.params["option"] == "target"
    assert make_rules("basic", options={"target": "100"}).get("target") == 100
