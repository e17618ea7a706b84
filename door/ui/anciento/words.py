"""Anciento's board in sentences (the describe key, the web page's live region): the
stones on the board square by square (the empty ones are the rest), the stone to place,
where it fits and what each fitting square scores, the score, BONUS and the pouch."""

from __future__ import annotations

from ..shared.describe import listing
from ..shared.keymap import RESIGN, UNDO
from ..shared.widgets import plural
from .screen import AncientoScreen
from .stones import stone_words


def board_words(screen: AncientoScreen) -> list[str]:
    game = screen.game
    geo = game.geo
    deal = "a random game" if game.options.get("random") else f"game {game.number}"
    lines = [f"Anciento, {deal}, {geo.rows} rows by {geo.cols} columns (a to "
             f"{game.square_name(geo.cols - 1)[0]}, 1 to {geo.rows}). Score {game.score}, "
             f"BONUS times {game.bonus}, {plural(game.quatros, 'Quatro')}, "
             f"{plural(game.stones_left, 'stone')} left."]
    for r in range(geo.rows):
        stones = [f"{game.square_name(s)} {stone_words(stone)}"
                  for s in range(r * geo.cols, (r + 1) * geo.cols)
                  if (stone := game.board[s]) is not None]
        if stones:
            lines.append(f"Row {r + 1}: {', '.join(stones)}.")
    stone = game.current
    if game.ended:
        lines.append("The game has ended.")
    elif stone is None:
        lines.append("Every stone is placed: X ends the game.")
    else:
        fits = [f"{name} ({plural(points, 'point')})" for name, points in game.check()]
        lines.append(f"Your stone: {stone_words(stone)}. "
                     + (f"It fits on {listing(fits)}." if fits
                        else f"It fits nowhere: take back ({UNDO.label}) or end the game "
                          f"({RESIGN.label})."))
    taken = game.board[screen.cursor]
    lines.append(f"Cursor on {game.square_name(screen.cursor)}, "
                 f"{stone_words(taken) if taken else 'empty'}.")
    if screen.note:
        lines.append(f"Message: {screen.note}")
    return lines
