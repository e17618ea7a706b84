"""What a screen's drawing reads from where it is drawn: a :class:`Canvas`.

A caller's :class:`~door.session.Session` is one; so is a watcher's viewport
(door/ui/menus/watch.py), a screen of a game's size and colour that nobody types on, which the
game's own screen class draws for every watcher who shares it.  Code that only draws (a
game's board, the header, status and message lines, a box of text) is typed against this,
so that it runs on either; code that reads keys or plays asks for the session itself
(``GameScreen.session``).
"""

from __future__ import annotations

from typing import Protocol

from ...config import Settings
from ...session import Caller
from ...term import Renderer, Screen


class Canvas(Protocol):
    """The cells to draw in, and what drawing them may depend on."""

    @property
    def screen(self) -> Screen:
        """The cells (80 columns, the caller's rows)."""
        ...

    @property
    def renderer(self) -> Renderer:
        """Its ``charset`` and ``color``: a few screens draw otherwise in monochrome, or
        pick a glyph the charset has."""
        ...

    @property
    def settings(self) -> Settings:
        """The door's settings (its name in the header, a game's sysop.ini section)."""
        ...

    @property
    def caller(self) -> Caller:
        """Whose name the status line shows."""
        ...

    @property
    def time_left(self) -> int:
        """Seconds left in the call, for the status line."""
        ...

    @property
    def in_burst(self) -> bool:
        """Keys are pouring in: a frame may be skipped (never, where nobody types)."""
        ...

    @property
    def origin(self) -> tuple[int, int]:
        """Where the screen sits in the window (row, column of its top-left cell)."""
        ...

    def frame_of(self, owner: object) -> None:
        """The screen as it stands is ``owner``'s frame (a game's board: a click there is
        that game's, door/ui/shared/access.py)."""
        ...
