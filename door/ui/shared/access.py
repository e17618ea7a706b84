"""Ways in besides the keyboard: the mouse (a click, or a tap on the web page) and the
describe key, on every screen of a visit.

The session hands this the keys it claims (``Session.attach``): a click becomes the keys
that do the same thing from the keyboard, so each screen goes on reading keys as it always
did and a terminal that never reports the mouse loses nothing.

* On a game's board (the screen showing is that game's frame: ``Session.showing``) the
  game's own map says what a click means (``door/ui/<game>_pointer.py``, named by its
  record): most often "the cursor there, then Enter".
* Anywhere else — a menu, the key line, a question's ``(Y/n)``, ``Press any key`` — the
  click is the key the screen writes there (door/ui/shared/pointer.py).
* The describe key (F9: free in every game, menu and text field; ``?`` and F1 are help)
  shows the screen in sentences (door/ui/shared/describe.py), then the screen as it was.
* A terminal that announces (the web page with its screen-reader switch on) is told, after
  each frame of a game, the sentences that changed: its live region reads them out.

Whether the mouse is asked for at all: the caller's choice in Terminal Settings, else the
terminal's type (door/term/mouse.py); the web page's terminal always reports it.
"""

from __future__ import annotations

from typing import Any, Protocol

from ...catalog.record import GameInfo
from ...session import Session
from ...term import Key
from ...term.keys import MOUSE_KEYS
from ...term.mouse import reports_mouse
from .describe import screen_words, show_words
from .keymap import DESCRIBE
from .pointer import box_key_at, key_at

DESCRIBE_KEY = DESCRIBE.key
"""The key that shows the screen in words (``F9``): the key map's (door/ui/shared/keymap.py)."""
DESCRIBE_LABEL = DESCRIBE.label


class Board(Protocol):
    """A game screen, as this module needs it (door/ui/game/screen.py has the class)."""

    info: GameInfo
    watching: bool


def mouse_wanted(session: Session) -> bool:
    """The caller's choice (Terminal Settings), else whether their terminal reports it."""
    player = session.player
    if player is not None and player.mouse is not None:
        return player.mouse
    return reports_mouse(session.terminal.term_type)


def start(session: Session) -> None:
    """At the start of a visit: the mouse and the describe key on every screen of it."""
    session.attach(ScreenAccess(session))
    session.set_mouse(mouse_wanted(session))


def finish(session: Session) -> None:
    """At the end of a visit: the caller's terminal stops reporting the mouse."""
    session.set_mouse(False)


class ScreenAccess:
    """One visit's mouse and describe key (see the module's docstring)."""

    claims = MOUSE_KEYS | {DESCRIBE_KEY}

    def __init__(self, session: Session) -> None:
        self.session = session
        self._said: tuple[object, list[str]] = (None, [])  # the game, its sentences said
        self._describing = False

    def board(self, playing: bool = True) -> Board | None:
        """The game whose board the caller sees now; with ``playing``, not a replay's,
        whose board plays nothing (its words are the position shown all the same)."""
        owner = self.session.showing
        info = getattr(owner, "info", None)
        if not isinstance(info, GameInfo) or (playing and getattr(owner, "watching", True)):
            return None
        return owner  # type: ignore[return-value]  # a GameScreen, checked by its record

    async def keys_for(self, key: Key) -> list[Key]:
        if key.name == DESCRIBE_KEY:  # again on the words: back to the screen
            return [Key("esc")] if self._describing else await self.describe()
        session = self.session
        screen = session.screen
        if not session.mouse:
            return []  # reports nobody asked for (another program left the mouse on)
        if key.name not in ("click", "right-click") or not (
                0 <= key.y < screen.rows and 0 <= key.x < screen.cols):
            return []  # the wheel, the middle button, a click off the screen: nothing
        board = self.board()
        boxed = box_key_at(screen.text()[key.y], key.x) if key.name == "click" else None
        if boxed is not None:
            return [boxed]
        if board is not None:
            pointer = board.info.pointer_function()
            keys = pointer(board, key) if pointer is not None else None
            if keys is not None:
                return list(keys)
        if key.name != "click":
            return []
        hit = key_at(screen.text()[key.y], key.x)
        return [hit] if hit is not None else []

    def words(self, board: Board | None = None) -> list[str]:
        """The screen in sentences: the game's own words for its board, else its text."""
        board = board or self.board(playing=False)
        words: Any = board.info.words_function() if board is not None else None
        if board is None or words is None:
            return screen_words(self.session.screen)
        lines: list[str] = words(board)
        return lines

    async def describe(self) -> list[Key]:
        """Show the screen in words, then put the screen back as it was: no key for the
        screen underneath (a resize meanwhile: a ``resize``, so that it redraws)."""
        session = self.session
        screen = session.screen
        lines = self.words()
        owner, size = session.showing, (screen.cols, screen.rows)
        saved, cursor = screen.snapshot(), screen.cursor
        self._describing = True
        try:
            await show_words(session, lines)
        finally:
            self._describing = False
        if (screen.cols, screen.rows) != size:
            return [Key("resize")]
        screen.restore(saved)
        screen.cursor = cursor
        if owner is not None:
            session.frame_of(owner)
        await session.show()
        return []

    def after_frame(self) -> None:
        """Tell a terminal that announces the sentences of a game's board that changed
        with this frame (all of them for a game it had not heard of)."""
        board = self.board(playing=False)
        if board is None:
            return
        lines = self.words(board)
        said_of, said = self._said
        self._said = (board, lines)
        if said_of is not board:
            news = lines
        else:
            before = set(said)
            news = [line for line in lines if line not in before]
        if news:
            self.session.terminal.announce(" ".join(news))
