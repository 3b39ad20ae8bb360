"""Checking a game record's fair deals (``rummy-bot verify``): :func:`check_record`.

For every deal of a record of format 2 (``{"secret", "commitment", "deck"}``, see
docs/records.md and :mod:`engine.fairness`), in order:

1. the deck is rebuilt from the revealed secret
   (:meth:`engine.variant.Variant.deck_order`) and its commitment
   (:func:`engine.fairness.commitment`) must be the one the record says was announced;
2. the deck the record lists must be that deck, card by card;
3. the actions are replayed (:func:`engine.records.replay`), the deals dealt from their
   secrets, so each card drawn is the next card of that deck: every action must be legal.

The first thing that does not hold is the result, naming the deal (and the card or the
action). A record none of whose deals carries a commitment (written before fair dealing)
is reported as such; so is a deal without one in a record that has others.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import EngineError
from engine.fairness import commitment
from engine.options import RuleSet
from engine.records import DealPlan, read_record, run_record

__all__ = ["FairCheck", "check_record"]


@dataclass(frozen=True, slots=True)
class FairCheck:
    """The outcome of :func:`check_record`.

    ``code``: ``"ok"`` (every deal holds), ``"no_commitments"`` (no deal carries one),
    ``"no_commitment"`` (deal ``deal`` carries none), ``"commitment"`` (the commitment of
    deal ``deal`` is not the SHA-256 of the deck its secret deals and the secret),
    ``"card"`` (card number ``card`` (1-based) of deal ``deal``'s listed deck is
    ``listed``, the secret deals ``expected``; ``None`` for a card missing or extra),
    ``"action"`` (action number ``action`` (1-based, in its deal) ``text`` of deal
    ``deal`` fails with ``error``; ``action`` ``None``: the deal could not start),
    ``"unreadable"`` (the record cannot be read: ``error``). ``deals``: the deals checked.
    """

    code: str
    deal: int | None = None
    card: int | None = None
    listed: str | None = None
    expected: str | None = None
    action: int | None = None
    text: str | None = None
    error: EngineError | None = None
    deals: int = 0

    @property
    def ok(self) -> bool:
        """True when every deal holds."""
        return self.code == "ok"


def check_record(record: Mapping[str, Any]) -> FairCheck:
    """Check the fair deals of ``record`` (a parsed JSON record, see the module docstring);
    never raises for a bad record (an unreadable one gives code ``"unreadable"``)."""
    try:
        plan = read_record(record)
    except EngineError as exc:
        return FairCheck("unreadable", error=exc)
    if all(deal.secret is None for deal in plan.deals):
        return FairCheck("no_commitments")
    seats = len(plan.players)
    for number, deal in enumerate(plan.deals, start=1):
        problem = _check_deal(plan.rules, seats, number, deal)
        if problem is not None:
            return problem
    run = run_record(record)
    if run.error is not None:
        return FairCheck(
            "action",
            deal=run.deal,
            action=run.action_number,
            text=None if run.line is None else str(run.line),
            error=run.error,
        )
    return FairCheck("ok", deals=len(plan.deals))


def _check_deal(rules: RuleSet, seats: int, number: int, deal: DealPlan) -> FairCheck | None:
    if deal.secret is None:
        return FairCheck("no_commitment", deal=number)
    deck = rules.var.deck_order(rules, seats, deal.secret, number)
    if commitment(deck, deal.secret) != deal.commitment:
        return FairCheck("commitment", deal=number)
    for index in range(max(len(deck), len(deal.listed))):
        listed = deal.listed[index] if index < len(deal.listed) else None
        expected = deck[index] if index < len(deck) else None
        if listed != expected:
            return FairCheck(
                "card",
                deal=number,
                card=index + 1,
                listed=None if listed is None else str(listed),
                expected=None if expected is None else str(expected),
            )
    return None
