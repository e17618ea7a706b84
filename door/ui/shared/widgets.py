"""Pieces every screen shares: the header bar, the status line, the message line, prompts."""

from __future__ import annotations

from collections.abc import Callable

from ...session import Session
from ...term import Attr
from ...term.screen import DOUBLE
from ...term.width import clip, pad, text_width, wrap
from . import theme
from .canvas import Canvas


def plural(n: int, word: str) -> str:
    """``1 card``, ``2 cards``: counts in what callers read."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def cut(text: str, width: int) -> str:
    """``text`` in ``width`` cells: whole when it fits, else cut short with ``…`` at the end
    (so a reader knows there was more)."""
    if text_width(text) <= width:
        return text
    return clip(text, width - 1) + "…" if width > 0 else ""


def header(view: Canvas, title: str) -> None:
    """Row 0: the door's name on the left, the screen's title on the right."""
    screen = view.screen
    screen.put(0, 0, " " * screen.cols, theme.HEADER)
    screen.put(0, 1, view.settings.door.name, theme.HEADER)
    screen.put(0, screen.cols - len(title) - 1, title, theme.HEADER)


KEYS_APART = " · "
"""Between the items of a line of keys (the status line's, the key line's)."""
SHORTEST_ALIAS = 12
"""Cells a long handle keeps on the status line when the keys need the rest."""


def essential(item: str) -> bool:
    """A key every line keeps while any fits: help, quit or leave."""
    return item.startswith(("?", "Q ", "Q/")) or "Esc" in item


def fit_keys(text: str, width: int) -> str:
    """A line of keys (items joined by " · ") in ``width`` cells: whole when it fits, else
    the items that do not say how to get help or leave are dropped from the right, and
    what still does not fit is cut with ``…``."""
    if text_width(text) <= width:
        return text
    items = text.split(KEYS_APART)
    for i in range(len(items) - 1, -1, -1):
        if not essential(items[i]) and len(items) > 1:
            del items[i]
            if text_width(KEYS_APART.join(items)) <= width:
                break
    return cut(KEYS_APART.join(items), width)


def status_line(view: Canvas, text: str) -> None:
    """The last row: keys and time left.  Never touches the bottom-right cell's meaning.
    A long handle gives way to the keys (down to :data:`SHORTEST_ALIAS` cells, cut with
    ``…``), and keys that still do not fit are dropped, help and leave last (fit_keys)."""
    screen = view.screen
    row = screen.rows - 1
    minutes = view.time_left // 60
    tail = f" · {minutes} min left "
    room = screen.cols - 4 - text_width(tail)   # a blank each side, two between
    alias = cut(view.caller.alias, max(SHORTEST_ALIAS, room - text_width(text)))
    right = alias + tail
    screen.put(row, 0, " " * (screen.cols - 1), theme.STATUS)
    screen.put(row, 1, fit_keys(text, screen.cols - text_width(right) - 3), theme.STATUS)
    screen.put(row, screen.cols - 1 - text_width(right), right, theme.STATUS)


def message(view: Canvas, text: str, attr: Attr = theme.MESSAGE, most: int = 2) -> int:
    """The message line (second to last row): answers to what the caller just did.  Text too
    long for it wraps onto the rows above, ``most`` rows in all (the screen's next frame puts
    them back); returns the rows used."""
    screen = view.screen
    row = screen.rows - 2
    lines = wrap(text, screen.cols - 2)
    most = max(1, min(most, row + 1))
    if len(lines) > most:
        lines = [*lines[:most - 1], clip(" ".join(lines[most - 1:]), screen.cols - 2)]
    for i, line in enumerate(lines):
        screen.put(row - len(lines) + 1 + i, 0, " " * screen.cols)
        screen.put(row - len(lines) + 1 + i, 1, line, attr)
    return len(lines)


async def press_any_key(session: Session, prompt: str = "Press any key to continue") -> None:
    screen = session.screen
    screen.put(screen.rows - 1, 0, " " * (screen.cols - 1))
    screen.center(screen.rows - 1, prompt, theme.BRIGHT)
    await session.show()
    while (await session.key()).name == "resize":
        await session.show()


async def confirm(session: Session, question: str, default: bool = True) -> bool:
    """Ask a yes/no question on the message line (and the rows above it that a long one
    needs: never cut).  Y is yes and any other key no, except Enter, which answers
    ``default``: yes ``(Y/n)``, or no ``(y/N)`` where a stray key must not throw anything
    away."""
    screen = session.screen
    saved = screen.snapshot()
    message(session, f"{question} {'(Y/n)' if default else '(y/N)'}", theme.WARNING,
            most=screen.rows - 2)
    await session.show()
    key = await session.key()
    while key.name == "resize":
        await session.show()
        key = await session.key()
    screen.restore(saved, range(screen.rows - 2))  # the rows the question covered come back
    message(session, "")
    char = key.char.lower() if key.is_char else ""
    if default:
        return key.name == "enter" or char in ("y", "o")
    return char in ("y", "o")


async def read_line(session: Session, row: int, col: int, prompt: str, width: int,
                    allowed: Callable[[str], bool] = str.isprintable,
                    text: str = "", mask: str = "", limit: int | None = None,
                    refusal: str = "", ask_to_cancel: str = "") -> str | None:
    """A one-line input field: typed characters, Backspace, Enter accepts, Esc cancels (None).
    ``text`` is what the field starts with (say, the digit that opened it); ``mask`` shows
    one character per typed one (passwords); ``limit`` allows more than ``width`` characters
    (the field then shows the last ``width``); ``refusal`` is said on the message line
    (unless the field is on it) when a key is not ``allowed``.  ``ask_to_cancel``: a
    question (asked y/N) before Esc or Ctrl-C throws away what is typed; an Esc among
    pasted text is ignored."""
    screen = session.screen
    limit = width if limit is None else limit
    while True:
        shown = mask * len(text) if mask else text
        if text_width(shown) > width:
            shown = shown[-width:]
            while text_width(shown) > width:
                shown = shown[1:]
        end = screen.put(row, col, prompt, theme.BRIGHT)
        screen.put(row, end, pad(shown, width), theme.SELECTED)
        screen.cursor = (row, end + text_width(shown))
        await session.show()
        key = await session.key()
        if key.name == "enter":
            return text
        if key.name in ("esc", "ctrl-c") and ask_to_cancel:
            if session.typed_ahead:
                continue  # a stray Esc in pasted text, or the Esc of an Alt key
            if text and not await confirm(session, ask_to_cancel, default=False):
                continue
            return None
        if key.name == "esc":
            return None
        if key.name == "backspace":
            text = text[:-1]
        elif key.is_char and len(text) < limit and allowed(key.char):
            text += key.char
        elif key.name != "resize":
            session.bell()
            if refusal and key.is_char and not allowed(key.char) and row != screen.rows - 2:
                message(session, refusal, theme.WARNING)


def new_game_box(view: Canvas, game: str, height: int, width: int) -> tuple[int, int]:
    """A cleared screen under ``game``'s header, with a double-framed "New … game" box of
    ``height`` by ``width`` in its middle (a game's setup); the box's top row and left column."""
    screen = view.screen
    screen.clear()
    screen.cursor = None
    header(view, game)
    top = max(1, (screen.rows - height) // 2)
    left = (screen.cols - width) // 2
    screen.fill(top, left, height, width, " ", theme.NORMAL)
    screen.box(top, left, height, width, theme.FRAME_BRIGHT, style=DOUBLE)
    screen.put(top, left + 2, f" New {game} game ", theme.TITLE)
    return top, left


def box_text(view: Canvas, lines: list[str], title: str = "") -> None:
    """A framed panel in the middle of the screen holding ``lines`` (help, notices)."""
    screen = view.screen
    width = min(screen.cols - 2,
                max([text_width(line) for line in lines] + [text_width(title) + 4]) + 4)
    height = min(screen.rows - 2, len(lines) + 2)
    top, left = (screen.rows - height) // 2, (screen.cols - width) // 2
    screen.fill(top, left, height, width, " ", theme.NORMAL)
    screen.box(top, left, height, width, theme.FRAME_BRIGHT, style="╔╗╚╝═║")
    if title:
        screen.put(top, left + 2, f" {cut(title, width - 6)} ", theme.TITLE)
    for i, line in enumerate(lines[: height - 2]):
        screen.put(top + 1 + i, left + 2, cut(line, width - 4), theme.LABEL)
