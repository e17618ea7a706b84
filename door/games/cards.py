"""Playing cards shared by the card games: ranks, suits, colours and the deck order.

A card is a small immutable value with a two-character text form (``5S``, ``TH``, ``AC``)
used in notation, JSON and tests.  Ranks: A=1 … K=13.  Suits: S H D C.
The documented initial deck order (before shuffling) is suit by suit S, H, D, C and,
within a suit, A up to K.  Two-deck games use two such decks one after the other.
"""

from __future__ import annotations

from typing import NamedTuple

RANKS = "A23456789TJQK"
SUITS = "SHDC"
RED_SUITS = frozenset("HD")


class Card(NamedTuple):
    """A card: rank 1..13 and suit letter."""

    rank: int
    suit: str

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS

    @property
    def pips(self) -> int:
        """Point value A=1 … K=13 (a score that counts pips)."""
        return self.rank

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``5S``/``TH``/``10H`` (case-insensitive); ValueError with a readable reason."""
        t = text.strip().upper()
        if t.startswith("10"):
            t = "T" + t[2:]
        if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
            raise ValueError(f"not a card: {text!r} (expected rank A23456789TJQK + suit SHDC)")
        return cls(RANKS.index(t[0]) + 1, t[1])


_ONE_DECK = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))
"""Cards are immutable, so every deal shares these 52 objects (a thousand callers' games
would otherwise hold a thousand copies)."""


def new_deck(decks: int = 1) -> list[Card]:
    """Return ``decks`` standard 52-card decks in the documented initial order."""
    return list(_ONE_DECK) * decks
