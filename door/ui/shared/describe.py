"""The screen in words: what the describe key (F9) shows, and the web page's live region
says, for a caller who listens to the screen rather than looks at it.

A screen reader reading a full-screen door hears cells: boxes, columns of cards side by
side, a cursor somewhere.  Each game says its board in sentences instead, pile by pile,
with the selection and the moves that can be made (``door/ui/<game>_words.py``, named by
the game's record); any other screen — a menu, a box, a list — is said as its text, row
by row, without the frames.  The sentences are shown as a page of plain lines, top to
bottom, which a screen reader reads as it is written (over telnet too); any key goes back.
"""

from __future__ import annotations

import re

from ...games.cards import Card
from ...session import Session
from ...term.screen import Screen
from ...term.width import wrap
from . import theme
from .pager import page_lines

RANK_WORDS = {1: "Ace", 11: "Jack", 12: "Queen", 13: "King"}
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
FRAME = re.compile(r"[─│┌┐└┘├┤┬┴┼═║╔╗╚╝╠╣╦╩╬╒╓╕╖╘╙╛╜╞╟╡╢╤╥╧╨╪╫░▒▓█▀▄▌▐■]+")
"""Box drawing and shades: how the screen looks, nothing to read out."""
TITLE = "The screen in words"


def card_words(card: Card) -> str:
    """``King of spades``, ``10 of hearts``: a card as it is said."""
    return f"{RANK_WORDS.get(card.rank, str(card.rank))} of {SUIT_WORDS[card.suit]}"


def cards_words(cards: tuple[Card, ...] | list[Card]) -> str:
    """Cards in order, separated by commas (``King of spades, Queen of hearts``)."""
    return ", ".join(card_words(card) for card in cards)


def listing(items: list[str], most: int = 12) -> str:
    """Items joined with commas, at most ``most`` of them and how many more."""
    shown = ", ".join(items[:most])
    return shown + (f", and {len(items) - most} more" if len(items) > most else "")


def screen_words(screen: Screen) -> list[str]:
    """Any screen's text, row by row: frames and shades left out, spaces closed up,
    empty rows dropped."""
    lines = []
    for row in screen.text():
        text = " ".join(FRAME.sub(" ", row).split())
        if text:
            lines.append(text)
    return lines


async def show_words(session: Session, lines: list[str]) -> None:
    """The sentences as a page of plain lines (more pages when they need them); any key
    goes back.  The caller's screen as it was comes back after it."""
    width = session.screen.cols - 1
    doc = [[(row, theme.LABEL)] for line in lines for row in wrap(line, width)]
    await page_lines(session, list(doc), TITLE)
