"""Game numbers: the documented generator that turns a number into a deal, forever.

We never use :mod:`random` for deals: its algorithms may change between Python versions,
and a game number must give the same deal on every machine and every version.

The generator is the linear congruential generator of MS FreeCell and PySolFC::

    state = (state * 214013 + 2531011) mod 2**31
    output = (state >> 16) & 0x7fff          # 0 .. 32767

seeded with the game number itself. A deal is a Fisher–Yates shuffle of a documented
initial order: for i from n-1 down to 1, j = output mod (i + 1), swap items i and j.
(The modulo bias of a 15-bit output is accepted; it is part of the definition.)
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")

CARD_GAME_NUMBERS = range(1, 2**31)
"""Card games accept 1 … 2^31−1."""

_MODULUS = 2**31


def lcg_outputs(number: int) -> Iterator[int]:
    """Yield the generator's 15-bit outputs for a game number, without end."""
    state = number % _MODULUS
    while True:
        state = (state * 214013 + 2531011) % _MODULUS
        yield (state >> 16) & 0x7FFF


def shuffled(items: Sequence[T], number: int) -> list[T]:
    """Return a new list: ``items`` shuffled by Fisher–Yates driven by the game number."""
    deck = list(items)
    outputs = lcg_outputs(number)
    for i in range(len(deck) - 1, 0, -1):
        j = next(outputs) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def check_number(number: int, numbers: range = CARD_GAME_NUMBERS) -> int:
    """Return ``number`` if it is a valid game number, else raise ValueError naming the range."""
    if isinstance(number, bool) or not isinstance(number, int) or number not in numbers:
        raise ValueError(f"game number must be {numbers.start}…{numbers.stop - 1}, got {number!r}")
    return number


def random_number(numbers: range = CARD_GAME_NUMBERS) -> int:
    """Pick a game number at random, to be shown so the deal can be replayed or shared."""
    return numbers.start + secrets.randbelow(len(numbers))
