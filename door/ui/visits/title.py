"""The title and goodbye screens: the sysop's .ans art when present, else our own."""

from __future__ import annotations

from pathlib import Path

from ...catalog import registry as gamelist
from ...session import Session
from ...term.art import load_art
from ..shared import theme
from ..shared.widgets import press_any_key

SUITS = "♠ ♥ ♣ ♦"


def _draw_art(session: Session, path: Path) -> bool:
    """Draw ``path`` if it is a readable file; any bytes draw something, nothing raises."""
    try:
        data = path.read_bytes()
    except OSError:
        return False
    session.screen.clear()
    load_art(session.screen, data)
    return True


def draw_builtin_title(session: Session) -> None:
    screen = session.screen
    door = session.settings.door
    screen.clear()
    screen.box(1, 4, 20, 72, theme.FRAME_BRIGHT, style="╔╗╚╝═║")
    screen.center(3, SUITS, theme.FRAME)
    screen.center(5, "  ".join(door.name.upper()), theme.TITLE)
    screen.center(7, "classic solitaires for callers of good taste", theme.LABEL)
    suits = SUITS.split()
    for i, info in enumerate(gamelist.games()):
        screen.center(10 + i, f"{suits[i % len(suits)]}  {info.title:<12}", theme.BRIGHT)
    screen.center(15, f"Sysop: {door.sysop}", theme.LABEL)
    screen.center(17, SUITS, theme.FRAME)


async def title(session: Session) -> None:
    if not _draw_art(session, session.settings.ansi_dir / "title.ans"):
        draw_builtin_title(session)
    await press_any_key(session)


async def goodbye(session: Session) -> None:
    """The last screen: art or a plain thank-you, left up for sysop.ini's goodbye_pause or
    until a key; the caller's terminal is left clean."""
    screen = session.screen
    if not _draw_art(session, session.settings.ansi_dir / "goodbye.ans"):
        screen.clear()
        screen.box(7, 14, 9, 52, theme.FRAME, style="╔╗╚╝═║")
        screen.center(9, f"Thanks for playing {session.settings.door.name}", theme.TITLE)
        screen.center(11, f"Farewell, {session.caller.alias}.", theme.LABEL)
        screen.center(13, SUITS, theme.FRAME)
    screen.cursor = (screen.rows - 2, 0)
    await session.show()
    session.sign_off()
    # Every caller: a BBS clears the screen as soon as its caller is back, and SyncTERM,
    # NetRunner or PuTTY go back to their dialing directory once the line drops.
    await session.linger(session.settings.door.goodbye_pause)
