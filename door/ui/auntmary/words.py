"""Aunt Mary's board in sentences (the describe key, the web page's live region): the
stock, waste and foundations, each column's face-down count and face-up cards, what is
picked up, the cursor, and the moves that can be made."""

from __future__ import annotations

from ...games import Status
from ...games.auntmary import PASSES, AuntMary, parse_move, run_length
from ...games.cards import SUITS, Card
from ..shared.describe import SUIT_WORDS, card_words, cards_words, listing
from ..shared.widgets import plural
from .screen import FOUNDATIONS, PILES, AuntMaryScreen

STOCK_MOVES = {"s": "turn a stock card (S)", "r": "redeal the waste (S)",
               "auto": "finish, every card can go home (A)"}


def spot_words(spot: str) -> str:
    if spot in PILES:
        return f"column {spot}"
    if spot in FOUNDATIONS:
        return f"the {SUIT_WORDS[spot[1]]} foundation"
    return {"s": "the stock", "w": "the waste"}[spot]


def move_words(game: AuntMary, move: str) -> str:
    """``column 2's 7 of clubs and 2 cards on it onto column 5, on 8 of hearts``."""
    if move in STOCK_MOVES:
        return STOCK_MOVES[move]
    mv, pos = parse_move(move), game.position
    if mv.src == "w":
        card, where, more = pos.waste[-1], "the waste's", ""
    elif isinstance(mv.src, int):
        col = pos.columns[mv.src]
        n = 1 if mv.dst == "f" else mv.cards or run_length(col, pos.down[mv.src])
        card, where = col[-n], f"column {mv.src + 1}'s"
        more = f" and {plural(n - 1, 'card')} on it" if n > 1 else ""
    else:
        assert isinstance(mv.src, str)
        card = Card(pos.foundations[SUITS.index(mv.src[1])], mv.src[1])
        where, more = "the foundation's", ""
    if mv.dst == "f":
        return f"{where} {card_words(card)} home"
    assert isinstance(mv.dst, int)
    target = pos.columns[mv.dst]
    onto = f"on {card_words(target[-1])}" if target else "empty"
    return f"{where} {card_words(card)}{more} onto column {mv.dst + 1}, {onto}"


def stock_words(game: AuntMary) -> str:
    """``Stock: 12 cards. Waste: 7 of clubs on top, 3 cards.``"""
    waste = game.waste
    return (f"Stock: {plural(len(game.stock), 'card')}. Waste: "
            + (f"{card_words(waste[-1])} on top, {plural(len(waste), 'card')}."
               if waste else "empty."))


def column_words(game: AuntMary, k: int) -> str:
    """``Column 2: 1 face down, then King of spades, Queen of hearts.``"""
    col, down = game.columns[k], game.face_down[k]
    parts = [f"{down} face down"] if down else []
    if len(col) > down:
        parts.append(("then " if down else "") + cards_words(col[down:]))
    return f"Column {k + 1}: {', '.join(parts) if parts else 'empty'}."


def board_words(screen: AuntMaryScreen) -> list[str]:
    game = screen.game
    lines = [f"Aunt Mary, game {game.number}. Home: {game.score} of 52 cards. "
             f"Pass {game.pass_number} of {PASSES}.",
             stock_words(game),
             "Foundations: " + ", ".join(
                 f"{SUIT_WORDS[suit]} up to {card_words(Card(rank, suit)).split(' of ')[0]}"
                 if (rank := game.foundations[suit]) else f"{SUIT_WORDS[suit]} empty"
                 for suit in SUITS) + "."]
    lines += [column_words(game, k) for k in range(len(PILES))]
    if screen.picked is not None:
        spot, count = screen.picked
        lines.append(f"Picked up from {spot_words(spot)}"
                     + (f": {plural(count, 'card')}." if count else ": as many as fit."))
    depth = f", {plural(screen.depth, 'card')} deep" if screen.spot in PILES \
        and screen.depth > 1 else ""
    lines.append(f"Cursor on {spot_words(screen.spot)}{depth}.")
    if game.status is Status.WON:
        lines.append("Game over: every card is home, you won.")
    elif game.status is Status.LOST:
        lines.append("Game over: you resigned.")
    else:
        moves = [move_words(game, move) for move in game.legal_moves()]
        lines.append(f"Moves: {listing(moves)}." if moves else "No move is left: X resigns.")
    if screen.note:
        lines.append(f"Message: {screen.note}")
    return lines
