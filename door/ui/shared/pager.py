"""Text screens with BBS colour codes, paged at the screen height with a "more" prompt.

Game instructions (``ansi/*.ins``) and other text files go through here: the colour codes
are read by :mod:`door.term.codes` (the Monte Carlo door's ``@E@ @H@ @B@ @N@`` in the
sysop's ``[colors]``), lines wider than the screen are wrapped at a space where there is
one, and page breaks in the text (``@CLS@``, ``@PAUSE@``, Ctrl-A L/P) start a new page.
"""

from __future__ import annotations

from ...session import Session
from ...term import Attr
from ...term.codes import Line, parse_codes
from . import theme
from .widgets import header

NEXT_KEYS = {"pgdn", "right", "enter"}
BACK_KEYS = {"pgup", "left"}


def wrap_line(line: Line, width: int) -> list[Line]:
    """Cut a coloured line into rows of at most ``width`` cells, at a space when possible."""
    cells = [(ch, attr) for text, attr in line for ch in text]
    rows: list[Line] = []
    while len(cells) > width:
        cut = width
        for i in range(width, width // 2, -1):
            if cells[i][0] == " ":
                cut = i
                break
        rows.append(_spans(cells[:cut]))
        cells = cells[cut:]
        while cells and cells[0][0] == " ":
            cells = cells[1:]
    rows.append(_spans(cells))
    return rows


def _spans(cells: list[tuple[str, Attr]]) -> Line:
    spans: Line = []
    for ch, attr in cells:
        if spans and spans[-1][1] == attr:
            spans[-1] = (spans[-1][0] + ch, attr)
        else:
            spans.append((ch, attr))
    return spans


def paginate(doc: list[Line | None], width: int, height: int) -> list[list[Line]]:
    """Pages of at most ``height`` rows; a ``None`` in ``doc`` starts a new page."""
    pages: list[list[Line]] = [[]]
    for item in doc:
        if item is None:
            if pages[-1]:
                pages.append([])
            continue
        for row in wrap_line(item, width):
            if len(pages[-1]) >= height:
                pages.append([])
            pages[-1].append(row)
    while len(pages) > 1 and not any(pages[-1]):
        pages.pop()
    return pages


def draw_page(session: Session, pages: list[list[Line]], index: int, title: str) -> None:
    screen = session.screen
    screen.clear()
    screen.cursor = None
    header(session, title[: screen.cols - 20] if title else "Text")
    for r, line in enumerate(pages[index], start=1):
        screen.put_spans(r, 0, line)
    last = index == len(pages) - 1
    where = f"page {index + 1}/{len(pages)}"
    prompt = (f"-- End ({where}) -- any key: back · B/PgUp: previous page" if last else
              f"-- More ({where}) -- Space/Enter/PgDn: next · B/PgUp: back · Q/Esc: stop")
    row = screen.rows - 1
    screen.put(row, 0, " " * (screen.cols - 1), theme.STATUS)
    screen.put(row, 1, prompt[: screen.cols - 3], theme.STATUS)


async def page_lines(session: Session, doc: list[Line | None], title: str = "") -> None:
    """Show ``doc`` a page at a time until the caller leaves it (any key on the last page,
    Q or Esc anywhere)."""
    index = 0
    while True:
        screen = session.screen
        pages = paginate(doc, screen.cols, screen.rows - 2)
        index = min(index, len(pages) - 1)
        draw_page(session, pages, index, title)
        await session.show()
        key = await session.key()
        last = index == len(pages) - 1
        if key.name == "resize":
            continue
        if key.name == "esc" or (key.is_char and key.char in "qQ"):
            return
        if key.name in BACK_KEYS or (key.is_char and key.char in "bB"):
            index = max(0, index - 1)
        elif key.name == "home":
            index = 0
        elif key.name == "end":
            index = len(pages) - 1
        elif last:
            return
        elif key.name in NEXT_KEYS or key.is_char or key.name == "down":
            index += 1


async def page_text(session: Session, text: str, title: str = "") -> None:
    """Page text with BBS colour codes; the sysop's ``[colors]`` colour @E@ @H@ @B@ @N@."""
    palette = session.settings.colors.palette
    doc = parse_codes(text, palette=palette, base=palette["normal"])
    await page_lines(session, doc, title)
