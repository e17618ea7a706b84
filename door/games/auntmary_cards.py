"""Aunt Mary's cards as the solver and its quick proof of lost positions see them: small
integer ids, which card may lie on which, foundation masks.  A module of its own so that
both (door/games/auntmary_solver.py, door/games/auntmary_deadlock.py) read the same tables
without importing each other."""

from __future__ import annotations

from .cards import SUITS, Card

DOWN = 64
"""Added to a card id in a column while the card is face down."""
KING_ID = 48
"""Card ids are ``(rank - 1) * 4 + suit`` (suits S H D C), so Kings are 48 … 51."""
_RED = (False, True, True, False)
_OTHER_COLOUR = ((1, 2), (0, 3), (0, 3), (1, 2))
_SAME_COLOUR = (3, 2, 1, 0)


def card_id(card: Card) -> int:
    return (card.rank - 1) * 4 + SUITS.index(card.suit)


def _fits(x: int, y: int) -> bool:
    return y >> 2 == (x >> 2) + 1 and _RED[x & 3] != _RED[y & 3]


FIT = [[_fits(x, y) for y in range(52)] for x in range(52)]
"""``FIT[x][y]``: card x may lie on card y (one rank lower, the other colour)."""
HOSTS = [tuple(y for y in range(52) if FIT[x][y]) for x in range(52)]
"""The two cards a card may lie on (none for a King)."""
GUESTS = [tuple(x for x in range(52) if FIT[x][y]) for y in range(52)]
"""The two cards that may lie on a card (none on an Ace)."""
TWIN = [next(g for g in range(52) if g != x and g >> 2 == x >> 2 and _RED[g & 3] == _RED[x & 3])
        for x in range(52)]
"""The other card of the same rank and colour: the other guest of a card's hosts."""
_HOME = [[sum(1 << (r * 4 + su) for r in range(top)) for top in range(14)] for su in range(4)]
"""``_HOME[suit][top]``: bit mask of the cards of a suit on its foundation."""


def home_mask(suit: int, top: int) -> int:
    """Bit mask (by card id) of the cards of ``suit`` on a foundation whose top is ``top``."""
    return _HOME[suit][top]
