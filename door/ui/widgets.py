"""Pieces every screen shares: the header bar, the status line, the message line, prompts."""

from __future__ import annotations

from ..session import Session
from . import theme


def header(session: Session, title: str) -> None:
    """Row 0: the door's name on the left, the screen's title on the right."""
    screen = session.screen
    screen.put(0, 0, " " * screen.cols, theme.HEADER)
    screen.put(0, 1, session.settings.door.name, theme.HEADER)
    screen.put(0, screen.cols - len(title) - 1, title, theme.HEADER)


def status_line(session: Session, text: str) -> None:
    """The last row: keys and time left.  Never touches the bottom-right cell's meaning."""
    screen = session.screen
    row = screen.rows - 1
    minutes = session.time_left // 60
    right = f"{session.caller.alias} · {minutes} min left "
    screen.put(row, 0, " " * (screen.cols - 1), theme.STATUS)
    screen.put(row, 1, text[: screen.cols - len(right) - 3], theme.STATUS)
    screen.put(row, screen.cols - 1 - len(right), right, theme.STATUS)


def message(session: Session, text: str, attr=theme.MESSAGE) -> None:
    """The message line (second to last row): answers to what the caller just did."""
    screen = session.screen
    row = screen.rows - 2
    screen.put(row, 0, " " * screen.cols)
    screen.put(row, 1, text[: screen.cols - 2], attr)


async def press_any_key(session: Session, prompt: str = "Press any key to continue") -> None:
    screen = session.screen
    screen.put(screen.rows - 1, 0, " " * (screen.cols - 1))
    screen.center(screen.rows - 1, prompt, theme.BRIGHT)
    await session.show()
    await session.key()
