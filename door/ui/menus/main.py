"""The main menu, drawn from sysop.ini's [menu]: hot keys, arrows and Enter."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from ...catalog import registry as gamelist
from ...config import QUIT_DIRECT, QUIT_TO_BBS, MenuEntry
from ...session import Session
from ..shared import theme
from ..shared.key_overlay import show_menu_keys
from ..shared.keymap import HELP
from ..shared.widgets import confirm, header, message, status_line

Action = Callable[[Session], Awaitable[None]]

FEATURE_NAMES = {
    "messages": "The message centre", "halloffame": "The hall of fame",
    "instructions": "Instructions", "whosonline": "Who's online",
    "settings": "Terminal settings", "watch": "Watching", "daily": "The daily challenge",
}


MENU_KEYS = [("A-Z", "the entry of that [letter]"), ("↑↓ Enter", "move to an entry, choose it"),
             ("Home End", "the first, the last entry"), ("Ctrl-R", "draw the screen again")]
"""The main menu's keys, as ``?`` shows them (the entries' own letters are on the menu)."""
MENU_KEYS_LINE = f"Hot key or ↑↓ Enter · Ctrl-R redraws · {HELP.label} keys"


class QuitDoor(Exception):
    """The caller chose Quit."""


def label_for(session: Session, entry: MenuEntry) -> str:
    """The entry's label; the default Quit label says "Log off" to a direct caller."""
    if entry.action == "quit" and entry.label == QUIT_TO_BBS and not session.caller.source:
        return QUIT_DIRECT
    return entry.label


def draw_menu(session: Session, entries: tuple[MenuEntry, ...], selected: int,
              footer: str = "") -> None:
    screen = session.screen
    screen.clear()
    header(session, "Main Menu")
    width = max(len(label_for(session, e)) for e in entries) + 12
    left = (screen.cols - width) // 2
    top = max(2, (screen.rows - len(entries) - 6) // 2)
    screen.box(top, left, len(entries) + 4, width, theme.FRAME, style="╔╗╚╝═║")
    screen.center(top, f" {session.settings.door.name} ", theme.TITLE)
    for i, entry in enumerate(entries):
        row = top + 2 + i
        attr = theme.SELECTED if i == selected else theme.LABEL
        screen.put(row, left + 2, " " * (width - 4), attr)
        screen.put(row, left + 3, f"[{entry.key}]", theme.SELECTED if i == selected
                   else theme.HOTKEY)
        screen.put(row, left + 8, label_for(session, entry), attr)
    prompt_row = top + len(entries) + 5
    screen.put(prompt_row, left, "Your choice: ", theme.BRIGHT)
    if footer and prompt_row + 1 < screen.rows - 2:
        screen.center(prompt_row + 1, footer[:screen.cols - 2], theme.LABEL)
    screen.cursor = (prompt_row, left + 13)
    status_line(session, MENU_KEYS_LINE)


async def main_menu(session: Session, actions: dict[str, Action]) -> None:
    """Loop on the menu until the caller quits (raises :class:`QuitDoor`)."""
    # Late imports, for start-up time: the settings and message screens load the store
    # (SQLAlchemy), which must not delay the title a BBS caller sees first.
    from ..shared.news import messages_news  # local: the store, after the title
    from .settings import apply_saved_choice  # local: the store, after the title

    apply_saved_choice(session)
    entries = session.settings.enabled_menu
    by_key = {e.key: i for i, e in enumerate(entries)}
    selected = 0
    note = await messages_news(session)
    today = await daily_news(session)
    while True:
        draw_menu(session, entries, selected, today)
        if note:
            message(session, note)
        await session.show()
        key = await session.key()
        note = ""
        choice: int | None = None
        if key.is_char and key.char.upper() in by_key:
            choice = by_key[key.char.upper()]
        elif key.name in ("up", "left"):
            selected = (selected - 1) % len(entries)
        elif key.name in ("down", "right", "tab"):
            selected = (selected + 1) % len(entries)
        elif key.name == "home":
            selected = 0
        elif key.name == "end":
            selected = len(entries) - 1
        elif key.name == "enter":
            choice = selected
        elif key.name == "f1" or (key.is_char and key.char == HELP.key):
            await show_menu_keys(session, "The main menu", MENU_KEYS)
        elif key.name != "resize":
            session.bell()
            note = "Press one of the highlighted keys."
        if choice is None:
            continue
        selected = choice
        entry = entries[choice]
        if entry.action == "quit":
            if not session.settings.door.confirm_quit or await confirm(
                    session, f"{label_for(session, entry)}?"):
                raise QuitDoor
            continue
        action = actions.get(entry.action)
        if action is None:
            name = FEATURE_NAMES.get(entry.action) or gamelist.title(entry.action)
            note = f"{name} is not built yet: it comes with a later version of this door."
            continue
        await action(session)
        session.renderer.invalidate()
        note = await messages_news(session)
        today = await daily_news(session)


async def straight_to(session: Session, action: Action) -> None:
    """One screen and no menu (an RLogin caller sent to one game): when the caller leaves
    it, the visit is over (raises :class:`QuitDoor`)."""
    from .settings import apply_saved_choice  # local: the store (see main_menu)

    apply_saved_choice(session)
    await action(session)
    raise QuitDoor


async def daily_news(session: Session) -> str:
    """The line under the menu: today's challenges and their players so far (the daily
    board, docs/daily.md, has the best scores)."""
    entry = next((e for e in session.settings.enabled_menu if e.action == "daily"), None)
    if entry is None:
        return ""
    from ..game.daily_status import players_today  # local: the store (see main_menu)

    return await players_today(session, entry.key)
