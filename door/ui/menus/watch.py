"""Watch a Game: the games being played now, and one of them live, read-only.

The list holds this process's games (``door/watching/hub.py``) and those of the other processes
sharing the database (``door/watching/link.py``); a game of another process is followed
through the store and drawn here exactly as a local one.

The watcher's screen is drawn from the player's game object (``door/watching/hub.py``) by the
game's own screen class, in a :class:`Viewport` of the watcher's window size and colour:
never a copy of the player's bytes.  Watchers with the same size and colour share one
viewport, drawn once per change, and watchers who also share a charset share the bytes
of each change (:class:`Broadcast`): a hundred watchers cost one drawing and one diff per
move, and a write each.  A watcher who joins, falls behind or was shown something else
(an idle warning, Ctrl-R) gets a full repaint once, then follows the shared bytes again.
A fresh screen object draws each change, with none of the player's cursor or peeking
modes: face-down cards stay face down.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from ...config import Settings
from ...games import Status
from ...session import Caller, Services, Session
from ...store.live import LiveListing
from ...store.visit import node_doing
from ...term import Key, Renderer, Screen
from ...term.charset import Charset
from ...term.width import clip
from ...watching.hub import WatchedGame, Watcher
from ..game.screen import screen_class
from ..shared import theme
from ..shared.key_overlay import entries_from_line, is_help, show_menu_keys
from ..shared.key_waiter import KeyWaiter
from ..shared.keymap import HELP
from ..shared.number_input import choice_number
from ..shared.widgets import header, message, plural, status_line
from .whosonline import idle_text

LIST_TOP = 4
REFRESH = 2.0
"""Seconds between redraws of the list (idle times and watcher counts move)."""
KEY_LINE = "You are watching: read-only.  Q or Esc leaves."
LIST_KEYS = f"↑↓ Enter or 1-9 watch · {HELP.label} keys · Esc back"
"""The list of games to watch: its keys (the status line, and ``?``)."""


class Broadcast:
    """The bytes that take a terminal from one drawing of a viewport to the next, for one
    charset: made once, written to every watcher whose terminal shows the drawing before."""

    KEEP = 16
    """Changes kept: a watcher this many behind is repainted instead."""

    def __init__(self, charset: Charset, color: bool, origin: tuple[int, int]) -> None:
        self.renderer = Renderer(charset, color)
        self.renderer.place(*origin)
        self.version = -1
        """The viewport version last rendered."""
        self._steps: dict[int, tuple[int, bytes]] = {}  # version -> (previous version, bytes)

    def render(self, view: Viewport) -> None:
        if view.version == self.version:
            return
        self._steps[view.version] = (self.version, self.renderer.frame(view.screen))
        self.version = view.version
        if len(self._steps) > self.KEEP:
            del self._steps[min(self._steps)]

    def since(self, version: int) -> bytes | None:
        """The bytes from ``version`` to now; None when they are no longer kept."""
        chunks, at = [], self.version
        while at != version:
            step = self._steps.get(at)
            if step is None:
                return None
            at, data = step
            chunks.append(data)
        return b"".join(reversed(chunks))

    def repaint(self, view: Viewport) -> bytes:
        """A whole frame of the viewport that leaves the terminal where the shared bytes
        expect it (cursor and colour)."""
        fresh = Renderer(self.renderer.charset, self.renderer.color)
        fresh.place(self.renderer.top, self.renderer.left)
        return fresh.frame(view.screen) + fresh.align(self.renderer)


class Viewport:
    """A :class:`~door.ui.shared.canvas.Canvas` nobody types on: what a game screen's drawing
    reads from a session (the screen itself, the door's settings, a caller name for the
    status line, the renderer's colour choice: a few screens grey keys differently in
    monochrome), for the watchers of one size, colour and place."""

    in_burst = False
    time_left = 0

    def __init__(self, settings: Settings, alias: str, cols: int, rows: int,
                 color: bool, origin: tuple[int, int] = (0, 0)) -> None:
        self.settings = settings
        self.origin = origin
        """Where the drawing sits in its watchers' windows (centred: ``Session.origin``)."""
        self.caller = Caller(alias=alias)
        self.screen = Screen(cols, rows)
        self.renderer = Renderer(color=color)
        self.version = -1
        """The watched game's version this viewport shows (-1: not drawn yet)."""
        self.casts: dict[tuple[str, bool], Broadcast] = {}
        """The bytes of each change, per charset (name, glyphs) of its watchers."""

    def frame_of(self, owner: object) -> None:
        """A game screen drew its board here: nobody clicks on a viewport."""

    def broadcast(self, charset: Charset) -> Broadcast:
        """This charset's bytes, rendered up to the viewport's current drawing."""
        key = (charset.name, charset.c0_glyphs)
        shared = self.casts.get(key)
        if shared is None:
            shared = self.casts[key] = Broadcast(charset, self.renderer.color, self.origin)
        shared.render(self)
        return shared


ViewKey = tuple[int, int, bool, tuple[int, int]]
"""A viewport's size, colour and place in its watchers' windows."""


def view_key(session: Session) -> ViewKey:
    """Watchers share a drawing who share its size, colour and place in their window."""
    return (session.screen.cols, session.screen.rows, session.renderer.color,
            session.origin)


def shared_view(session: Session, watched: WatchedGame, watcher: Watcher) -> Viewport:
    """The viewport of the watcher's size and colour, drawn up to date (once per change
    for all the watchers who share it)."""
    key = view_key(session)
    if key != watcher.view_key:
        watched.move_view(watcher, key)
    view = watched.views.get(key)
    if view is None:
        cols, rows, color, origin = key
        view = watched.views[key] = Viewport(session.settings, watched.alias, cols, rows, color,
                                             origin)
    if view.version != watched.version:
        draw_view(view, watched)
        view.version = watched.version
    return view


def draw_view(view: Viewport, watched: WatchedGame) -> None:
    drawer = screen_class(watched.game.name)(view, watched.game)
    drawer.note = watched.note
    drawer.draw()
    screen = view.screen
    screen.put(screen.rows - 3, 0, " " * screen.cols)
    screen.put(screen.rows - 3, 1, KEY_LINE, theme.DIM)
    if watched.over:
        message(view, over_note(watched), theme.WARNING)
    row = screen.rows - 1
    # The player's status line (with the score: game panels no longer repeat it) is this.
    text = (f"Watching {watched.alias} · {watched.title} {watched.deal} · "
            f"Score {watched.game.score} · {watched.watching} watching · Q leaves")
    screen.put(row, 0, " " * (screen.cols - 1), theme.STATUS)
    screen.put(row, 1, clip(text, screen.cols - 3), theme.STATUS)


def over_note(watched: WatchedGame) -> str:
    game = watched.game
    if game.status is not Status.PLAYING or game.finished or game.cannot_win:
        return (f"{watched.alias}'s game is over: final score {game.score}.  "
                "Press a key to go back.")
    return f"{watched.alias} has left this game.  Press a key to go back."


def show_copy(session: Session, view: Viewport) -> None:
    """Put the shared drawing on the watcher's own screen too: whatever the session draws
    over it (an idle warning, a time warning) shows the watched game underneath."""
    screen = session.screen
    screen.cells = [list(line) for line in view.screen.cells]
    screen.wide_rows = set(view.screen.wide_rows)
    screen.cursor = None
    touch = getattr(screen, "touch", None)  # screens that stamp changed rows
    if touch is not None:
        touch()


Shown = tuple[Broadcast, int] | None
"""What a watcher's terminal shows: a broadcast's version, or None (unknown: repaint)."""


async def send_shared(session: Session, view: Viewport, shown: Shown) -> Shown:
    """Bring the watcher's terminal to the viewport's drawing with the bytes every watcher
    of that charset gets, or with a repaint when the terminal shows something else.  The
    session's own renderer is kept invalid, so that anything the session draws meanwhile
    (an idle warning, Ctrl-R) is a full frame, which the next call notices."""
    shared = view.broadcast(session.renderer.charset)
    data = None
    if shown is not None and shown[0] is shared and session.renderer.invalidated:
        data = shared.since(shown[1])
    if data is None:
        data = shared.repaint(view)
    session.renderer.invalidate()
    version = shared.version  # others may render more while this is sent
    await session.send(data)
    return shared, version


async def watch_game(session: Session, watched: WatchedGame) -> None:
    """Show ``watched`` live until the watcher presses Q or Esc (or any key once the game
    is over).  The watcher's keys are read by a task that outlives each wait, so a move
    arriving never loses a key."""
    watcher = watched.join(session.caller.alias, view_key(session))
    node_doing(session.store, session.caller, session.player,
                    f"Watching {watched.alias}"[:40])
    reading: asyncio.Future[Key] | None = None
    shown: Shown = None
    keyed = [time.monotonic()]  # when the watcher last pressed a key
    limit = session.settings.limits.watch_minutes * 60

    def busy_watching() -> bool:
        """Watching a game in play counts as activity, up to sysop.ini's watch_minutes
        without a key; then the idle limit counts as anywhere else."""
        return not watched.over and time.monotonic() - keyed[0] < limit

    session.idle_hold = busy_watching
    try:
        while True:
            watcher.woken.clear()
            view = shared_view(session, watched, watcher)
            show_copy(session, view)
            if session.too_small:  # the session's notice instead
                await session.show()
                shown = None
            else:
                shown = await send_shared(session, view, shown)
            if reading is None:
                reading = asyncio.ensure_future(session.key())
            woken = asyncio.ensure_future(watcher.woken.wait())
            try:
                await asyncio.wait((reading, woken), return_when=asyncio.FIRST_COMPLETED)
            finally:
                woken.cancel()
            if not reading.done():
                continue
            key, reading = reading.result(), None
            keyed[0] = time.monotonic()
            letter = key.char.lower() if key.is_char else ""
            if key.name == "esc" or letter == "q" or (watched.over and key.name != "resize"):
                return
    finally:
        session.idle_hold = None
        watched.leave(watcher)
        if reading is not None:
            reading.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reading
        session.renderer.invalidate()


Listed = WatchedGame | LiveListing
"""A line of the list: a game of this process, or of another one sharing the database."""


class GamesNow:
    """The list's games: this process's, read at each redraw, and the other processes',
    from the store every :data:`REFRESH` seconds at most (one read for all the callers of
    this process: door/watching/link.py)."""

    def __init__(self, services: Services) -> None:
        self.hub, self.link = services.watch, services.link
        self.elsewhere: list[LiveListing] = []
        self.read_at = -REFRESH

    async def games(self, fresh: bool = False) -> list[Listed]:
        link = self.link if self.link is not None and self.link.running else None
        loop = asyncio.get_running_loop()
        if link is not None and (fresh or loop.time() - self.read_at >= REFRESH):
            self.elsewhere = await link.listing(0.0 if fresh else REFRESH)
            self.read_at = loop.time()
        return [*self.hub.games(), *(self.elsewhere if link is not None else [])]


def draw_list(session: Session, games: list[Listed], selected: int, note: str) -> None:
    screen = session.screen
    screen.clear()
    screen.cursor = None
    header(session, "Watch a Game")
    screen.put(2, 2, "Games being played now:", theme.TITLE)
    screen.put(LIST_TOP, 2, f"{'#':>2}  {'Player':<16} {'Game':<20} {'Moves':>5}  "
                            f"{'Idle':>6}  Watching", theme.BRIGHT)
    if not games:
        screen.put(LIST_TOP + 2, 6, "Nobody is playing right now: try again later.",
                   theme.LABEL)
    for i, watched in enumerate(games[: screen.rows - LIST_TOP - 5]):
        line = (f"{i + 1:>2}  {watched.alias[:16]:<16} "
                f"{(watched.title + ' ' + watched.deal)[:20]:<20} {watched.moves:>5}  "
                f"{idle_text(watched.idle):>6}  {watched.watching:>3}")
        if not watched.watchable:
            line += "  (not watchable)"
        screen.put(LIST_TOP + 1 + i, 2, line, theme.SELECTED if i == selected
                   else theme.LABEL)
    if note:
        message(session, note, theme.WARNING)
    status_line(session, LIST_KEYS)


def refusal(watched: Listed) -> str:
    return (f"{watched.alias} prefers not to be watched (a choice in their Terminal "
            "Settings).")


async def watch_menu(session: Session) -> None:
    """The menu action: list the games in progress; watch the one chosen; Esc goes back."""
    node_doing(session.store, session.caller, session.player, "Watch a Game")
    waiter = KeyWaiter(session)
    selected, note = 0, ""
    now = GamesNow(session.services)
    try:
        while True:
            games = await now.games()
            selected = min(selected, max(0, len(games) - 1))
            draw_list(session, games, selected, note)
            await session.show()
            key = await waiter.get(REFRESH)
            if key is None:
                continue
            note = ""
            letter = key.char.lower() if key.is_char else ""
            chosen: int | None = None
            if is_help(key):
                await waiter.close()
                await show_menu_keys(session, "Watch a game", entries_from_line(LIST_KEYS))
                continue
            if key.name == "esc" or letter == "q":
                return
            if key.name in ("up", "down") and games:
                selected = (selected + (1 if key.name == "down" else -1)) % len(games)
            elif key.name == "enter" and games:
                chosen = selected
            elif key.is_char and (number := choice_number(key.char, len(games))):
                chosen = number - 1
            elif key.name != "resize":
                session.bell()
                note = "Press a game's number, or Esc to go back."
            if chosen is None:
                continue
            watched = games[chosen]
            if watched.over:
                note = f"{watched.alias}'s game has just ended."
            elif not watched.watchable:
                session.bell()
                note = refusal(watched)
            else:
                await waiter.close()
                if isinstance(watched, LiveListing):
                    note = await watch_elsewhere(session, watched)
                else:
                    await watch_game(session, watched)
                node_doing(session.store, session.caller, session.player,
                                "Watch a Game")
                games = await now.games(fresh=True)
                note = note or plural(len(games), "game") + " being played now."
    finally:
        await waiter.close()
        node_doing(session.store, session.caller, session.player, "main menu")


async def watch_elsewhere(session: Session, listing: LiveListing) -> str:
    """Watch a game played in another process: followed through the store while watched.
    Returns a note for the list when it could not be reached."""
    link = session.services.link
    if link is None or not link.running:
        return ""
    message(session, f"Joining {listing.alias}'s game...", theme.MESSAGE)
    await session.show()
    watched = await link.follow(listing)
    if watched is None:
        return f"{listing.alias}'s game could not be reached: it may have just ended."
    try:
        await watch_game(session, watched)
    finally:
        link.unfollow(listing.id)
    return ""
