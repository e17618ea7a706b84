"""How a playing card looks on screen, shared by the three card games.

A face-up card is two cells: the rank as one character (A 2-9 T J Q K, so ten is ``T``)
and the suit glyph.
Suit glyphs are ♠ ♥ ♦ ♣; the charset turns them into S H D C where the caller's terminal
cannot show them, so the same screen reads in CP437, UTF-8 and ASCII.
"""

from __future__ import annotations

import re

from ...games.cards import RANKS, Card
from ...term.screen import BLACK, RED, WHITE, Attr

SUIT_GLYPHS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_CARD = Attr(RED, WHITE)
BLACK_CARD = Attr(BLACK, WHITE)
FACE_DOWN = Attr(WHITE, BLACK)
FACE_DOWN_TEXT = "▒▒"
EMPTY_SLOT = Attr(WHITE, BLACK)


CARD_TEXT = re.compile(r"\b[A2-9TJQK][SHDC]\b")
"""A card as the engines write it in their reasons (``2C``)."""


def shown_cards(text: str) -> str:
    """``text`` with the cards the engines write (``6D QH``) as the board shows them
    (``6♦ Q♥``; the charset still turns glyphs into letters where it must)."""
    return CARD_TEXT.sub(lambda m: card_label(Card.parse(m[0])), text)


def card_label(card: Card) -> str:
    """Two cells: rank then suit glyph, e.g. ``T♥``."""
    return RANKS[card.rank - 1] + SUIT_GLYPHS[card.suit]


def card_attr(card: Card) -> Attr:
    """Red suits in red, black suits in black, on a white card (reverse video in mono)."""
    return RED_CARD if card.is_red else BLACK_CARD
