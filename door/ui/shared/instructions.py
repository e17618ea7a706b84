"""Instructions: each game's rules, the door's keys, scoring and the hall of fame, and the
sysop's news — all pages the sysop may rewrite in the ``ansi`` folder.

``<game>.ins``, ``keys.ins`` and ``scoring.ins`` are text in our own words with BBS colour
codes (the games' ``I`` key shows the same ``<game>.ins``).  ``news.ans`` (ANSI art) or
``news.asc`` (text with colour codes) is the sysop's own page: the menu offers it only when
one of them is there.  Every page is paged at the caller's screen height.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...catalog import registry as gamelist
from ...session import Session
from ...term.art import load_art
from ...term.codes import Line
from ...term.screen import BLACK, Screen
from . import theme
from .key_overlay import is_help, show_menu_keys
from .keymap import HELP
from .pager import page_lines, page_text
from .widgets import box_text, header, message, status_line

NEWS_FILES = ("news.ans", "news.asc")
ART_ROWS = 500
"""Rows of ANSI art a news page may hold (art taller than this scrolls its top away)."""


@dataclass(frozen=True)
class Entry:
    key: str
    label: str
    file: str
    title: str


def entries(ansi_dir: Path) -> list[Entry]:
    """The menu: each game (1, 2, ...), the keys, scoring, and the news when the sysop wrote
    some."""
    found = [Entry(str(i), info.title, info.instructions_file, f"{info.title}: how to play")
             for i, info in enumerate(gamelist.games(), 1)]
    found += [Entry("K", "The door's keys", "keys.ins", "The door's keys"),
              Entry("S", "Scores and the hall of fame", "scoring.ins", "Scores")]
    news = next((name for name in NEWS_FILES if (ansi_dir / name).is_file()), None)
    if news:
        found.append(Entry("N", "News from the sysop", news, "News from the sysop"))
    return found


async def show_page(session: Session, file: str, title: str) -> None:
    """Page one file of the ansi folder; say so plainly when the sysop removed it."""
    path = session.settings.ansi_dir / file
    try:
        data = path.read_bytes()
    except OSError:
        session.screen.clear()
        header(session, "Instructions")
        box_text(session, [f"No page here: {path.name} is missing from the ansi folder.", "",
                           "Press any key."])
        await session.show()
        while (await session.key()).name == "resize":
            await session.show()
        return
    if path.suffix.lower() == ".ans":
        await page_lines(session, art_lines(data), title=title)
    else:
        await page_text(session, data.decode("cp437"), title=title)


def art_lines(data: bytes) -> list[Line | None]:
    """ANSI art as coloured lines for the pager (trailing blank rows dropped)."""
    canvas = Screen(80, ART_ROWS)
    rows = load_art(canvas, data)
    lines: list[Line | None] = []
    for cells in canvas.cells[:rows]:
        line: Line = []
        for cell in cells:
            if line and line[-1][1] == cell.attr:
                line[-1] = (line[-1][0] + cell.ch, cell.attr)
            else:
                line.append((cell.ch, cell.attr))
        while line and not line[-1][0].rstrip() and line[-1][1].bg == BLACK:
            line.pop()
        lines.append(line)
    while lines and not lines[-1]:
        lines.pop()
    return lines


async def show_instructions(session: Session, game: str) -> None:
    """A game's rules (the games' ``I`` key)."""
    info = gamelist.game(game)
    await show_page(session, info.instructions_file, f"{info.title}: how to play")


def draw_menu(session: Session, menu: list[Entry], selected: int, note: str) -> None:
    screen = session.screen
    screen.clear()
    header(session, "Instructions")
    width = max(len(e.label) for e in menu) + 12
    left = max(0, (screen.cols - width) // 2)
    top = max(2, (screen.rows - len(menu) - 6) // 2)
    screen.box(top, left, len(menu) + 4, width, theme.FRAME, style="╔╗╚╝═║")
    screen.center(top, " Read about ", theme.TITLE)
    for i, entry in enumerate(menu):
        row = top + 2 + i
        attr = theme.SELECTED if i == selected else theme.LABEL
        screen.put(row, left + 2, " " * (width - 4), attr)
        screen.put(row, left + 3, f"[{entry.key}]", attr if i == selected else theme.HOTKEY)
        screen.put(row, left + 8, entry.label, attr)
    screen.cursor = None
    if note:
        message(session, note, theme.WARNING)
    status_line(session, f"Hot key or ↑↓ Enter · {HELP.label} keys · Esc or Q back")


async def instructions_menu(session: Session) -> None:
    """The main menu's Instructions: pick a page, read it, come back here."""
    selected, note = 0, ""
    while True:
        menu = entries(session.settings.ansi_dir)
        selected = min(selected, len(menu) - 1)
        by_key = {e.key: i for i, e in enumerate(menu)}
        draw_menu(session, menu, selected, note)
        await session.show()
        note = ""
        key = await session.key()
        char = key.char.upper() if key.is_char else ""
        choice = None
        if is_help(key):
            await show_menu_keys(session, "Instructions", [
                ("A-Z", "the page of that [letter]"), ("↑↓ Enter", "move to a page, read it"),
                ("Esc Q", "back")])
            continue
        if key.name == "esc" or char == "Q":
            return
        if char in by_key:
            choice = by_key[char]
        elif key.name in ("up", "left"):
            selected = (selected - 1) % len(menu)
        elif key.name in ("down", "right", "tab"):
            selected = (selected + 1) % len(menu)
        elif key.name == "enter":
            choice = selected
        elif key.name != "resize":
            session.bell()
            note = "Press one of the highlighted keys."
        if choice is not None:
            selected = choice
            await show_page(session, menu[choice].file, menu[choice].title)
