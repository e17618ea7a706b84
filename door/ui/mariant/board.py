"""Mariant's ten columns on the screen: which cells each column shows, and how they look.

A column can grow past 30 cards (two decks) while a 24-row screen has 17 card rows, so a
column too long for the rows is *compressed* to fit them exactly: its face-down cards always
take one cell (``▒▒×3``), and a face-up run too long for the rows left shows its first
cards, a ``+k`` cell standing for the ``k`` cards after them, and then its last
``SHOWN_TAIL`` cards (more when its topmost group is longer) — every row is used before a
card is hidden.  A topmost group holds at most 13 cards (King to Ace), and it always shows
whole, so the cards a caller can move are always on the screen.  The *view* (key V) shows
every column whole instead, on the card rows and the foot row, scrolled when even that is
too short.

The ``+k`` sits low, above the last cards only: a card dealt or moved onto a compressed
column moves the cards under ``+k`` up a row, and ten of them cost some 40 bytes fewer on
the caller's line than the fourteen under a ``+k`` right after the first card (issue #20).

The layout is computed apart from the drawing so it can be tested without a terminal.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...games.cards import Card
from ...term.screen import BLACK, GREEN, RED, WHITE, YELLOW, Attr, Screen
from ..shared import theme
from ..shared.cards import FACE_DOWN, FACE_DOWN_TEXT, card_attr, card_label

COLUMNS = 10
COLUMN_WIDTH = 8                 # 10 columns × 8 cells = the 80-column screen
FACE_OFFSET = 2                  # a card face is 4 cells at x+2 … x+5 of its column
INFO_ROW, LABEL_ROW, CARDS_TOP = 1, 2, 3
KEYS = "1234567890"
MIN_TAIL = 13                    # the longest group (K … A) always shows whole
SHOWN_TAIL = 10                  # a compressed column's last cards under its "+k"

SELECTED_RED = Attr(RED, YELLOW)
SELECTED_BLACK = Attr(BLACK, YELLOW)
MORE = Attr(BLACK, WHITE)
EMPTY_TEXT = " ·· "
HELP_MARK = " ▲▲ "
FITS_MARK = " ok "
FITS = Attr(GREEN, BLACK, bright=True)


@dataclass(frozen=True)
class Cell:
    """One card row of one column: a face-down pile, a face-up card, hidden cards, or empty."""

    kind: str                    # "down", "card", "more", "empty"
    count: int = 0               # face-down cards, or cards hidden behind "more"
    index: int = 0               # for "card": index among the column's face-up cards


def column_x(col: int) -> int:
    """Screen column of the first cell of column ``col`` (0 … 9)."""
    return COLUMN_WIDTH * col


def card_rows(screen_rows: int) -> int:
    """Card rows between the column labels and the foot row (17 on a 24-row screen)."""
    return foot_row(screen_rows) - CARDS_TOP


def foot_row(screen_rows: int) -> int:
    """The row under the card rows: markers of columns that fill the screen go there."""
    return screen_rows - 4


def view_rows(screen_rows: int) -> int:
    """Rows the view shows columns in: the card rows and the foot row (no markers there)."""
    return card_rows(screen_rows) + 1


def full_column(down: int, up: int) -> list[Cell]:
    """Every row of a column, uncompressed (what the view scrolls through)."""
    cells = [Cell("down", count=down)] if down else []
    cells += [Cell("card", index=i) for i in range(up)]
    return cells or [Cell("empty")]


def fitted_column(down: int, up: int, height: int, keep: int = MIN_TAIL) -> list[Cell]:
    """A column compressed into exactly ``height`` rows (untouched when it fits): its first
    cards, ``+k``, its last ``SHOWN_TAIL`` cards, or its last ``keep`` when more."""
    cells = full_column(down, up)
    if len(cells) <= height:
        return cells
    head = [Cell("down", count=down)] if down else []
    room = max(keep, height - len(head) - 2)          # first card and "+k" take two rows
    hidden = up - 1 - room
    if hidden <= 0:
        return head + [Cell("card", index=i) for i in range(up - room - 1, up)]
    tail = max(keep, min(SHOWN_TAIL, room))
    first = max(1, height - len(head) - 1 - tail)     # more than one when the tail is short
    if up - first - tail <= 0:                        # a screen too short for the rule
        first, tail = 1, room
    return head + [Cell("card", index=i) for i in range(first)] + \
        [Cell("more", count=up - first - tail)] + [Cell("card", index=i)
                                                   for i in range(up - tail, up)]


def view_height(columns: list[tuple[int, tuple[Card, ...]]]) -> int:
    """Rows the tallest column needs uncompressed."""
    return max(len(full_column(down, len(up))) for down, up in columns)


def draw_cell(screen: Screen, row: int, col: int, cell: Cell, cards: tuple[Card, ...],
              selected_from: int | None) -> None:
    """Draw one 4-cell face; a selected card is ``»K♠«`` on yellow (> < in ASCII/mono)."""
    x = column_x(col) + FACE_OFFSET
    if cell.kind == "down":
        screen.put(row, x, f"{FACE_DOWN_TEXT}×{cell.count}", FACE_DOWN)
    elif cell.kind == "more":
        screen.put(row, x, f"+{cell.count}".center(4), MORE)
    elif cell.kind == "empty":
        screen.put(row, x, EMPTY_TEXT, theme.DIM)
    else:
        card = cards[cell.index]
        label = card_label(card)
        if selected_from is not None and cell.index >= selected_from:
            screen.put(row, x, f"»{label}«", SELECTED_RED if card.is_red else SELECTED_BLACK)
        else:
            screen.put(row, x, f" {label} ", card_attr(card))


def draw_labels(screen: Screen, cursor: int) -> None:
    """The column keys 1 … 0 above the columns; the cursor's column reads ``►3``."""
    for col in range(COLUMNS):
        x = column_x(col) + FACE_OFFSET
        screen.put(LABEL_ROW, x, "►" if col == cursor else " ", theme.NORMAL)
        screen.put(LABEL_ROW, x + 1, KEYS[col], theme.HOTKEY)


def move_label_cursor(screen: Screen, old: int, new: int) -> None:
    """The labels' ``►`` from column ``old`` to ``new``: two cells, where a cursor key used
    to put the whole row (twenty puts) again."""
    screen.put(LABEL_ROW, column_x(old) + FACE_OFFSET, " ", theme.NORMAL)
    screen.put(LABEL_ROW, column_x(new) + FACE_OFFSET, "►", theme.NORMAL)


def visible_rows(column: tuple[int, tuple[Card, ...]], height: int) -> int:
    """Rows a column takes on the screen, ``height`` at most (as :func:`fitted_column`)."""
    down, up = column
    return min(height, (1 if down else 0) + len(up) or 1)


def draw_mark(screen: Screen, col: int, mark: str, depth: int) -> int:
    """``▲▲`` (Help) right under a movable column's last row (``depth`` rows); ``ok`` (where
    the selection may go) on the foot row, one strip whose marks clear in a few bytes after
    the move.  Returns the row it went on."""
    last = foot_row(screen.rows)
    if mark == HELP_MARK:
        row = min(CARDS_TOP + depth, last)
        screen.put(row, column_x(col) + FACE_OFFSET, mark, theme.HOTKEY)
    else:
        row = last
        screen.put(row, column_x(col) + FACE_OFFSET, mark, FITS)
    return row
