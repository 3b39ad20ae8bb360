"""Hypothesis example counts from the active profile only (tests/conftest.py: 30 locally,
100 in CI): a property that plays whole games, or calls a solver per example, runs a share
of the profile's count instead of a number of its own."""

from __future__ import annotations

from hypothesis import settings


def share(fraction: float) -> int:
    """``fraction`` of the active profile's ``max_examples`` (at least 2)."""
    return max(2, round(settings().max_examples * fraction))
