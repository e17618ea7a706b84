"""The title and goodbye screens: the sysop's .ans art when present, else our own."""

from __future__ import annotations

from ...catalog import registry as gamelist
from ...session import Session
from ..shared import theme
from ..shared.widgets import press_any_key
from .title_page import SUITS, draw_art, draw_title


async def title(session: Session) -> None:
    """The title page until a key.  ``reussite door`` has sent it already (but for the
    games' names, which go out now: the session carries on from its frame)."""
    settings = session.settings
    draw_title(session.screen, settings.door, settings.home,
               [info.title for info in gamelist.games()])
    await press_any_key(session)


async def goodbye(session: Session) -> None:
    """The last screen: art or a plain thank-you, left up for sysop.ini's goodbye_pause or
    until a key; the caller's terminal is left clean."""
    screen = session.screen
    if not draw_art(screen, session.settings.ansi_dir / "goodbye.ans"):
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
