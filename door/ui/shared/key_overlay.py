"""``?`` on any game screen or menu: the key map in a box over the screen, then the screen
exactly as it was (the cells it covered put back, the cursor too).

The map's own keys lead on: ``?`` again to the screen's older help (a game's rules in
short), ``I`` to how to play; any other key (Esc) closes it.  A resize meanwhile closes it
for a moment: the screen underneath redraws at its new size in its own loop, which then
reads the ``?`` the map puts back and opens it again over that screen (one way to redraw
every screen that shows the map, its own; the map puts back what it covers at that size).
A window too small for any screen shows the session's notice instead, the map still open
under it: it comes back with the screen when the window is widened.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence

from ...session import Session
from ...term import Key
from .keymap import DESCRIBE, HELP, MENU_SHARED, map_lines
from .pointer import RANGE, key_named
from .widgets import KEYS_APART, box_text

Entries = Sequence[tuple[str, str]]
ARROWS = re.compile(r"^[↑↓←→]+$")
REOPEN = Key("char", HELP.key)
"""The key that opens the map on every screen, put back to open it again after a resize."""
More = dict[str, tuple[str, Callable[[], Awaitable[None]]]]
"""Keys the map leads on with: key (as ``keymap.key_of`` names it) -> (label, screen)."""


def overlay_lines(session: Session, sections: Sequence[tuple[str, Entries]],
                  more: More) -> list[str]:
    screen = session.screen
    footer = KEYS_APART.join([*(f"{k.upper()} {what}" for k, (what, _) in more.items()),
                              "F9 in words", "other keys: back"])
    return map_lines(sections, screen.cols - 6, screen.rows - 4, footer)


async def show_key_map(session: Session, title: str, sections: Sequence[tuple[str, Entries]],
                       more: More | None = None) -> Key | None:
    """Show the map until a key; put the screen back.  Returns the resize that closed it
    (the caller redraws, then reads the ``?`` that opens the map again), else None."""
    more = more or {}
    screen = session.screen
    size, saved, cursor = (screen.cols, screen.rows), screen.snapshot(), screen.cursor
    box_text(session, overlay_lines(session, sections, more), title=title)
    screen.cursor = None
    await session.show()
    key = await session.key()
    if key.name == "resize":
        session.read_next(REOPEN)
        return key
    if (screen.cols, screen.rows) != size:    # a key, then the resize that is queued
        return Key("resize")
    follow = more.get(key.char.lower() if key.is_char else key.name)
    if follow is not None:
        screen.restore(saved)                 # the next screen opens over the board alone
        await follow[1]()
        if (screen.cols, screen.rows) != size:
            return Key("resize")
    screen.restore(saved)
    screen.cursor = cursor
    await session.show()
    return None


def menu_sections(title: str, own: Entries) -> list[tuple[str, Entries]]:
    """A menu's map: its own keys, then what every menu shares with the games."""
    shared = [(action.label, action.about) for action in MENU_SHARED
              if action is not DESCRIBE]      # the footer names F9
    return [(f"{title}: its keys", own), ("The same on every screen", shared)]


async def show_menu_keys(session: Session, title: str, own: Entries,
                         more: More | None = None) -> Key | None:
    """``?`` on a menu: its keys and the shared ones, over the menu (see show_key_map)."""
    return await show_key_map(session, f"{title}: keys", menu_sections(title, own), more)


def is_help(key: Key) -> bool:
    """``?`` or F1: the key map's help key, on every screen that reads whole keys."""
    return key.name in HELP.also or (key.is_char and key.char == HELP.key)


def names_keys(word: str) -> bool:
    """``Enter``, ``W``, ``1-4``, ``↑↓``, ``PgUp/PgDn``, ``#``: a word that names keys."""
    if RANGE.match(word) or ARROWS.match(word) or (len(word) == 1 and not word.isalnum()):
        return True
    return all(key_named(part) is not None for part in word.split("/") if part)


def entries_from_line(line: str) -> list[tuple[str, str]]:
    """A screen's line of keys (``↑↓ Enter read · W write · Esc``) as the map's entries:
    each item's leading key names, then what they do (door/ui/shared/pointer.py reads keys the
    same way)."""
    entries = []
    for item in line.split(KEYS_APART):
        words = item.replace(":", "").split()
        keys: list[str] = []
        for i, word in enumerate(words):
            joins = word == "or" and i + 1 < len(words) and names_keys(words[i + 1])
            if not (joins or names_keys(word)):
                break
            keys.append(word)
        if not keys:
            continue
        entries.append((" ".join(keys), " ".join(words[len(keys):]) or "back"))
    return entries
