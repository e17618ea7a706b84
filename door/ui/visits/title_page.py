"""The title and goodbye pages drawn into a :class:`Screen`, without a session: ``reussite
door`` draws its caller's title before the session, the game registry and asyncio load
(door/commands/door.py), and the visit's title (:mod:`door.ui.visits.title`) draws the same
page again on the session's screen, the games' names added, so only they are sent then.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ...ini.door_section import DoorSettings
from ...term.art import load_art
from ...term.screen import Screen
from ..shared import theme

SUITS = "♠ ♥ ♣ ♦"


def draw_art(screen: Screen, path: Path) -> bool:
    """Draw ``path`` if it is a readable file; any bytes draw something, nothing raises."""
    try:
        data = path.read_bytes()
    except OSError:
        return False
    screen.clear()
    load_art(screen, data)
    return True


def draw_builtin_title(screen: Screen, door: DoorSettings, games: Sequence[str]) -> None:
    """Our own title: the door's name, its sysop, and ``games`` (their titles)."""
    screen.clear()
    screen.box(1, 4, 20, 72, theme.FRAME_BRIGHT, style="╔╗╚╝═║")
    screen.center(3, SUITS, theme.FRAME)
    screen.center(5, "  ".join(door.name.upper()), theme.TITLE)
    screen.center(7, "classic solitaires for callers of good taste", theme.LABEL)
    suits = SUITS.split()
    for i, title in enumerate(games):
        screen.center(10 + i, f"{suits[i % len(suits)]}  {title:<12}", theme.BRIGHT)
    screen.center(15, f"Sysop: {door.sysop}", theme.LABEL)
    screen.center(17, SUITS, theme.FRAME)


def draw_title(screen: Screen, door: DoorSettings, home: Path,
               games: Sequence[str] = ()) -> None:
    """The title page: the sysop's ``title.ans`` in [door] ansi_dir (of ``home``) when
    there is one, else ours listing ``games``."""
    if not draw_art(screen, home / door.ansi_dir / "title.ans"):
        draw_builtin_title(screen, door, games)
