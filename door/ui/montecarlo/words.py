"""Monte Carlo's board in sentences (the describe key, the web page's live region): the
grid row by row with each place's name, the stock, the card picked, the cursor, and the
pairs that can be removed — what a sighted caller reads off the board."""

from __future__ import annotations

from ...games import Status
from ...games.montecarlo import SIZE, position_name
from ..shared.describe import RANK_WORDS, card_words, listing
from .screen import MonteCarloScreen

ENDS = {Status.WON: "Game over: every card is off the grid, you won.",
        Status.LOST: "Game over: no pair is left and nothing more can be dealt."}


def rank_plural(rank: int) -> str:
    """``Kings``, ``7s``: what a pair is made of."""
    return f"{RANK_WORDS.get(rank, str(rank))}s"


def place_words(screen: MonteCarloScreen, p: int) -> str:
    """``b2, 7 of hearts`` or ``b2, empty``."""
    card = screen.game.grid[p]
    return f"{position_name(p)}, {card_words(card) if card else 'empty'}"


def board_words(screen: MonteCarloScreen) -> list[str]:
    game = screen.game
    lines = [f"Monte Carlo, game {game.number}. Score {game.score}. "
             f"Stock: {len(game.stock)} cards. "
             f"Consolidation: {'relaxed, F consolidates' if game.relaxed else 'strict'}."]
    for r in range(SIZE):
        places = "; ".join(place_words(screen, r * SIZE + c) for c in range(SIZE))
        lines.append(f"Row {r + 1}: {places}.")
    if screen.picked is not None:
        lines.append(f"Picked: {place_words(screen, screen.picked)}.")
    lines.append(f"Cursor on {place_words(screen, screen.cursor)}.")
    grid = game.grid
    pairs = [f"{position_name(p)} and {position_name(q)} "
             f"({rank_plural(card.rank)})" for p, q in game.pairs()
             if (card := grid[p]) is not None]
    if game.status is not Status.PLAYING:
        lines.append(ENDS.get(game.status, "Game over."))
    elif pairs:
        lines.append(f"Pairs to remove: {listing(pairs)}.")
    elif game.hints():
        lines.append("No pair is left: F consolidates." if game.relaxed
                     else "No pair is left: the door consolidates.")
    if screen.note:
        lines.append(f"Message: {screen.note}")
    return lines
