"""Provably fair dealing: per-deal secrets and the commitment to each deal's deck.

Every deal of a *fair* game (a :class:`engine.state.GameState` with a ``fair_key``) is
shuffled from its own **deal secret**, 32 bytes: the deck is the variant's pack shuffled
with :func:`engine.dealing.deal_rng` seeded by the secret, and so is everything else the
deal leaves to chance (a German cut, a new Romanian wall after a Joly as the extra tile,
the reshuffles of the discard pile). When the deal starts, its **commitment** is public:
the SHA-256 of the deck order and the secret in the canonical text of
:func:`commitment_text`. When the deal ends the secret is revealed (in
:class:`engine.events.HandEnded`, the deal's :class:`engine.state.DealResult` and the game
record), and anyone can check with any SHA-256 tool that the cards dealt were fixed
before the first move (docs/fairness.md).

Secrets come from the game's ``fair_key`` one-way: ``secret_k = HMAC-SHA256(fair_key,
"deal k")`` (:func:`deal_secret`), so a revealed secret tells nothing about the key or
any other deal's secret. The chat bot draws the key from :mod:`secrets`; a seeded game
(tests, ``rummy-bot simulate``) derives it from its seed with :func:`fair_key_from_seed`
(again one-way), so it stays reproducible.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Sequence

from engine.cards import Card

__all__ = [
    "SECRET_BYTES",
    "DealKey",
    "commitment",
    "commitment_text",
    "deal_rng",
    "deal_secret",
    "fair_key_from_seed",
    "secret_from_hex",
]

#: Length of a deal secret and of a fair key, in bytes.
SECRET_BYTES = 32

#: What a deal is shuffled from: the game seed (games dealt as before fair dealing, and
#: records without commitments) or the deal's secret.
DealKey = int | bytes


def deal_rng(seed: DealKey, deal_number: int, purpose: str = "deal") -> random.Random:
    """The deterministic random source for one purpose of one deal of a game.

    From a game seed (an ``int``): ``random.Random(f"{seed}/{deal_number}/{purpose}")``.
    From a deal secret (``bytes``, already the deal's own): ``random.Random(secret +
    b"/" + purpose)`` (the deal number is not used)."""
    if isinstance(seed, bytes):
        return random.Random(seed + b"/" + purpose.encode("ascii"))
    return random.Random(f"{seed}/{deal_number}/{purpose}")


def fair_key_from_seed(seed: int) -> bytes:
    """The fair key of a seeded game: ``HMAC-SHA256(key="rummy-bot fair key", msg=str(seed))``
    (32 bytes). One-way: a deal secret reveals neither this key nor the seed."""
    return hmac.new(b"rummy-bot fair key", str(seed).encode("ascii"), hashlib.sha256).digest()


def deal_secret(fair_key: bytes, deal_number: int) -> bytes:
    """The secret of deal ``deal_number`` (1-based): ``HMAC-SHA256(fair_key, "deal <k>")``,
    32 bytes."""
    return hmac.new(fair_key, f"deal {deal_number}".encode("ascii"), hashlib.sha256).digest()


def commitment_text(deck: Sequence[Card], secret: bytes) -> bytes:
    """The canonical text hashed for a commitment (UTF-8, two lines, each ending in a
    newline): the deck's cards in order (the first card dealt first) in record notation
    (``7h``, ``10d``, ``jk``, tiles ``r7``), separated by single spaces; then the secret as
    lowercase hex. The shell form: ``printf '%s\\n%s\\n' "$DECK" "$SECRET" | sha256sum``."""
    return (" ".join(map(str, deck)) + "\n" + secret.hex() + "\n").encode("utf-8")


def commitment(deck: Sequence[Card], secret: bytes) -> str:
    """The commitment of a deal: the SHA-256 of :func:`commitment_text`, 64 lowercase hex
    digits."""
    return hashlib.sha256(commitment_text(deck, secret)).hexdigest()


def secret_from_hex(text: str) -> bytes | None:
    """The secret written as hex (64 digits), or ``None`` when ``text`` is not that."""
    if len(text) != 2 * SECRET_BYTES:
        return None
    try:
        return bytes.fromhex(text)
    except ValueError:
        return None
