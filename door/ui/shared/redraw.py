"""Drawing only what changed: a screen made of parts, each drawn again only when what it
shows has changed.

A game screen used to clear and redraw all of itself on every key, and the renderer then
found the two cells that differed; that redraw was a third of the server's time (issue
#20).  Now each part of a screen — a card cell, a column, the panel, the status line —
is drawn under a *state*: a hashable value holding everything the drawing depends on.
:meth:`Parts.changed` says whether that state differs from the one last drawn; if not,
the part's cells are left as they are.  A part whose state changed is drawn again over its
own cells: its area is blanked first when it is given one, or it writes every cell of its
rows and :meth:`Parts.shrink` blanks the rows it no longer reaches.  Parts must not
overlap, except an overlay (a cursor's brackets) that puts back what it covered.

Everything is drawn afresh (the screen cleared first) on the first frame, on another
screen, and whenever anything else drew on the screen since this screen's last frame: a
help box, a question, the session's notices, a resize (:attr:`Screen.version` says so).
The renderer needs no help: it compares only the rows the screen stamped.

tests/ui/test_incremental.py checks, for random keys in all four games, that the screen
drawn part by part is cell for cell the screen drawn whole, and what pyte shows too.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from itertools import compress
from operator import ne

from ...term.screen import DEFAULT, Screen

_NOTHING = object()


class Parts:
    """What one screen last drew, part by part (one per game screen object)."""

    def __init__(self) -> None:
        self._drawn: dict[Hashable, object] = {}
        self._heights: dict[Hashable, int] = {}
        self._screen: Screen | None = None
        self._version = -1
        self.full = True
        """This frame draws everything (the screen was cleared for it)."""

    def begin(self, screen: Screen) -> bool:
        """Start a frame on ``screen``; True when everything must be drawn afresh (the
        caller clears the screen): a first frame, another screen, or one drawn on since."""
        self.full = screen is not self._screen or screen.version != self._version
        if self.full:
            self._drawn.clear()
            self._heights.clear()
            self._screen = screen
        return self.full

    def end(self, screen: Screen) -> None:
        """The frame is drawn: anything that draws on ``screen`` after this forces the next
        frame to be drawn whole."""
        self._version = screen.version

    def forget(self) -> None:
        """Draw everything at the next frame (say, after drawing over the screen)."""
        self._screen = None

    def changed(self, name: Hashable, state: object,
                area: tuple[int, int, int, int] | None = None) -> bool:
        """True when part ``name`` must be drawn now: its ``state`` differs from the one it
        was last drawn with (which is then forgotten).  ``area`` (row, column, height,
        width): blanked first when the part is drawn again, for parts whose drawing does
        not cover every cell it once covered."""
        if self._drawn.get(name, _NOTHING) == state:
            return False
        self._drawn[name] = state
        if area is not None and not self.full and self._screen is not None:
            row, col, height, width = area
            self._screen.fill(row, col, height, width, " ", DEFAULT)
        return True

    def shrink(self, name: Hashable, row: int, col: int, height: int, width: int) -> None:
        """After part ``name`` drew ``height`` rows from ``row`` (``width`` cells each, every
        cell of them): blank the rows below those that it covered the last time (a column
        of cards grown shorter), instead of blanking its whole area first."""
        before = self._heights.get(name, 0)
        self._heights[name] = height
        if before > height and self._screen is not None:
            self._screen.fill(row + height, col, before - height, width, " ", DEFAULT)

    def changed_items(self, name: Hashable, states: Sequence[object]) -> list[int]:
        """The indexes of ``states`` (one per item of a row of like parts: the cells of a
        grid) that changed since last drawn: all of them in a full frame."""
        last = self._drawn.get(name)
        self._drawn[name] = states
        if not isinstance(last, list | tuple) or len(last) != len(states):
            return list(range(len(states)))
        return list(compress(range(len(states)), map(ne, states, last)))
