"""Mariant's board in sentences (the describe key, the web page's live region): each
column's face-down count and face-up cards, its movable group, the selection, the
moves that can be made, the stock and the score."""

from __future__ import annotations

from ...games.mariant import Mariant
from ..shared.describe import card_words, cards_words, listing
from ..shared.widgets import plural
from .board import COLUMNS, KEYS
from .screen import REMOVE_KEY, MariantScreen


def column_words(game: Mariant, col: int) -> str:
    down, up = game.visible()[col]
    if not down and not up:
        return f"Column {KEYS[col]}: empty."
    parts = [f"{down} face down"] if down else []
    if up:
        parts.append(("then " if down else "") + cards_words(up))
    group = game.group_length(col)
    movable = f" Its group: {plural(group, 'card')} from {card_words(up[-group])}." \
        if up and group > 1 else ""
    return f"Column {KEYS[col]}: {', '.join(parts)}.{movable}"


def move_words(game: Mariant, move: str) -> str | None:
    """``column 3's 7 of clubs and 1 card on it onto column 5, on 8 of hearts``; None for
    a part of a group to an empty column (said once for all)."""
    if move in ("d", "auto") or move.startswith("r"):
        return {"d": "deal (D)", "auto": "Auto Ending (A)"}.get(
            move, f"remove the suit of column {move[1:]} ({REMOVE_KEY.upper()} {move[1:]})")
    head, dst_key = move.split(">")
    src_key, _, count_text = head.partition(":")
    src, dst = KEYS.index(src_key), KEYS.index(dst_key)
    group = game.group_length(src)
    count = int(count_text) if count_text else group
    target = game.columns[dst]
    if not target and count != group:
        return None
    first = game.columns[src][-count]
    more = f" and {plural(count - 1, 'card')} on it" if count > 1 else ""
    onto = f"on {card_words(target[-1])}" if target else "empty"
    return f"column {src_key}'s {card_words(first)}{more} onto column {dst_key}, {onto}"


def board_words(screen: MariantScreen) -> list[str]:
    game = screen.game
    percent = round(game.multiplier * 100)
    lines = [f"Mariant, game {game.number}, {game.fd} face down and {game.fu} face up. "
             f"Score {game.score} (the lowest wins; it counts {percent} %). "
             f"Cards left to deal: {game.stock_count}. Suits off the board: "
             f"{len(game.removed)} of 8."]
    lines += [column_words(game, col) for col in range(COLUMNS)]
    if screen.sel is not None:
        up = game.visible()[screen.sel][1]
        lines.append(f"Selected: {plural(screen.count, 'card')} of column "
                     f"{KEYS[screen.sel]}, from {card_words(up[-screen.count])}.")
    lines.append(f"Cursor on column {KEYS[screen.cursor]}.")
    if game.won:
        lines.append("Game over: you won.")
    else:
        moves = [words for move in game.legal_moves()
                 if (words := move_words(game, move)) is not None]
        if any(not cards for cards in game.columns):
            moves.append("any part of a group onto an empty column")
        lines.append(f"Moves: {listing(moves)}." if moves else "No move is left.")
    if screen.note:
        lines.append(f"Message: {screen.note}")
    return lines
