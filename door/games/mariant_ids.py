"""Mariant positions as bytes, for the solver and the prover: a card is a small integer
(``(rank - 1) * 4 + suit``, suits S H D C), plus DOWN while it lies face down; a column is
the bytes of its cards, bottom first.  Cheap to copy, compare, hash and store by the
million, which a search needs and the engine's Card lists are not."""

from __future__ import annotations

from .cards import SUITS, Card
from .mariant import SUIT_LENGTH, Mariant

DOWN = 64
"""Added to a card id while it is face down."""
KING_IDS = 48
"""The Kings' card ids: 48 … 51."""


def _compatible(x: int, y: int) -> bool:
    """Card x may lie on card y: one rank lower, any suit but y's partner (S-C, H-D)."""
    return y >> 2 == (x >> 2) + 1 and x & 3 != 3 - (y & 3)


COMPAT = [[_compatible(x, y) for y in range(52)] for x in range(52)]


def card_id(card: Card) -> int:
    return (card.rank - 1) * 4 + SUITS.index(card.suit)


def encode(game: Mariant) -> tuple[tuple[bytes, ...], bytes]:
    """The game's columns and stock (next card first) as bytes."""
    cols = []
    for cards, down in zip(game.columns, game.face_down, strict=True):
        ids = [card_id(c) for c in cards]
        for i in range(down):
            ids[i] += DOWN
        cols.append(bytes(ids))
    return tuple(cols), bytes(card_id(c) for c in game.stock)


def group_length(col: bytes) -> int:
    """Length of the column's topmost group (0 when empty or topped by a face-down card)."""
    n = len(col)
    if not n or col[-1] >= DOWN:
        return 0
    i = n - 1
    while i and col[i - 1] < DOWN and COMPAT[col[i]][col[i - 1]]:
        i -= 1
    return n - i


SUIT_RUNS = tuple(bytes(r * 4 + suit for r in range(SUIT_LENGTH - 1, -1, -1))
                  for suit in range(4))
"""Each suit's complete run K..A as column bytes, bottom first."""


def ends_with_suit(col: bytes) -> bool:
    """The column ends with a complete suit K..A of one suit (removable)."""
    if len(col) < SUIT_LENGTH or col[-1] >> 2:
        return False
    return col[-SUIT_LENGTH:] == SUIT_RUNS[col[-1]]


def flip(col: bytes) -> bytes:
    """The column with a face-down last card turned face up (the automatic flip)."""
    return col[:-1] + bytes((col[-1] - DOWN,)) if col and col[-1] >= DOWN else col
