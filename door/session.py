"""One caller's visit: the screen they see, the keys they type, time and idle limits.

The session owns the caller's :class:`Screen`, :class:`Renderer` and :class:`KeyDecoder`;
UI code draws into ``session.screen``, calls :meth:`Session.show` and waits on
:meth:`Session.key`.  Mouse keys and the describe key never reach a screen as they are:
the visit's :class:`Access` (door/ui/shared/access.py) turns them into the keys they mean there.
Carrier loss, idle time-out and time-up arrive as exceptions so that every screen unwinds
through the same path (save, goodbye, close).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
import weakref
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from .bbs.dropfile import MAX_TIME_LEFT_S
from .config import Settings
from .net.terminal import Terminal
from .term import Attr, Charset, Key, KeyDecoder, Renderer, Screen
from .term.keys import MOUSE_KEYS
from .term.mouse import MOUSE_OFF, MOUSE_ON
from .term.render import centred_origin
from .term.width import wrap
from .ui.shared.theme import BRIGHT, WARNING
from .watching.hub import HUB, WatchHub

if TYPE_CHECKING:  # for start-up time: a BBS caller's title comes before these load
    from .solvers.pool import SolverPool
    from .store import Player, Store
    from .store.keeper import GameKeeper
    from .watching.link import WatchLink

log = logging.getLogger(__name__)

ESC_DELAY = 0.05  # seconds to wait after a lone Esc before calling it the Esc key
IDLE_WARNING = 30  # seconds of warning before an idle caller is disconnected
TIME_WARNINGS = (300, 180, 60)  # seconds left when the caller is told time is running out
NOTICE_PAUSE = 1.5  # seconds "your time is up" stays up before the goodbye
NEEDS = (80, 24)
"""The window every screen needs (columns, rows); smaller ones see a notice instead."""
DRAIN_TIMEOUT = 30.0  # seconds a frame may wait for a caller who reads nothing: then hang up
KEYS_PER_TURN = 64
"""Keys handled in a row from one read before the session lets other callers' tasks run (and
looks whether the line has dropped meanwhile): a pasted (or hostile) 4 KiB of keys must not
hold the event loop for all of them at once, nor be played after a hang-up."""
BURST_KEYS = 16
"""While at least this many keys wait (a paste or a flood: no typist is that far ahead), a
frame is put off; a few keys typed ahead still get every frame."""


class Access(Protocol):
    """Ways in besides the keyboard's (door/ui/shared/access.py): the keys it ``claims`` (mouse
    keys and the describe key) are handed to :meth:`keys_for`, which says what each
    means on the screen as it stands (a click on a card: the keys that pick it), or acts
    itself (the describe key shows the screen in words) and gives none."""

    claims: frozenset[str]

    async def keys_for(self, key: Key) -> list[Key]: ...

    def after_frame(self) -> None:
        """A frame went out (a terminal that announces changes in words is told)."""
        ...


class SessionEnded(Exception):
    """The visit is over for a reason the caller did not choose at a menu."""


class CarrierLost(SessionEnded):
    pass


class IdleTimeout(SessionEnded):
    pass


class TimeUp(SessionEnded):
    pass


class WindowTooSmall(SessionEnded):
    """The caller pressed Q at the small-window notice."""


@dataclass
class Caller:
    """Who is calling: a BBS user from a dropfile, or a direct caller."""

    alias: str = "Guest"
    node: int = 1
    time_left_s: int | None = None
    user_name: str = ""  # the real name a BBS gave, when it gave one
    user_id: str = ""  # the BBS's user number, opaque
    source: str = ""  # where the caller came from: the BBS name or dropfile format, "" direct
    token: str = field(default_factory=lambda: uuid.uuid4().hex)
    """Names this call in who's online (a node number alone may be reused by the BBS)."""
    on_doing: Callable[[Caller, str], None] | None = field(default=None, repr=False,
                                                           compare=False)
    """Told each activity who's online hears (door/store/visit.py): the caller's
    terminal, which may show it (the web page's title and key bar)."""


def process_solvers(settings: Settings) -> SolverPool:
    """This process's solver pool (door/solvers/pool.py), made on first use from sysop.ini
    ``[solver]``.  Imported when first asked for: no solver is needed before a game."""
    from .solvers.pool import solver_pool  # local: the solver pool loads when first asked for

    return solver_pool(settings)


@dataclass(frozen=True, slots=True)
class Services:
    """What a visit uses besides its caller's terminal: made once where sessions are made
    (the server for all its callers, a BBS launch, the local console, the web's viewers)
    and handed to each :class:`Session`, which looks nothing up itself.  Tests hand in
    their own (a clock that stands still, a hub of their own)."""

    settings: Settings
    store: Store | None = None
    """The database (scores, saves, messages); None when the door runs without one (a
    BBS launch replaces the services once its store opens beside the title)."""
    keeper: GameKeeper | None = None
    """Writes the game in progress as it is played, shared by the store's sessions
    (None: no database, nothing kept)."""
    watch: WatchHub = HUB
    """The games of this process that others may watch (door/watching/hub.py)."""
    link: WatchLink | None = None
    """The games of the other processes sharing the database (door/watching/link.py), while
    it runs; None: watching stays within the process."""
    clock: Callable[[], float] = time.monotonic
    """Seconds, for the call's time limit."""
    solvers: Callable[[Settings], SolverPool] = process_solvers
    """The solver pool verdicts and hints are asked of, given the settings."""

    def __post_init__(self) -> None:
        if self.keeper is None and self.store is not None:  # a store brings its keeper
            from .store.keeper import GameKeeper  # local: with the store, after the title

            keeper = GameKeeper(self.store.saves, self.settings.database.save_every)
            object.__setattr__(self, "keeper", keeper)  # frozen: set once, while made


class Session:
    # One per caller, for the whole call: attributes in slots, not a dictionary (1.6 KiB
    # a caller with the 38 attributes it had then; issue #36).
    # ``__weakref__``: door/serve/idle_rows.py.
    __slots__ = ("__weakref__", "_alarm", "_alert", "_alert_due", "_bell", "_claimed",
                 "_deferred", "_frame_of", "_hook_at_end", "_idle", "_keys", "_keys_in_a_row",
                 "_loop", "_notice", "_time_warnings", "access", "admission", "autosave",
                 "caller", "chores", "deadline", "decoder", "ended_by", "first_action",
                 "idle_hold", "leaving", "mouse", "player", "preparing", "renderer",
                 "screen", "services", "showing", "start_action", "terminal")

    def __init__(self, terminal: Terminal, services: Services, caller: Caller | None = None,
                 player: Player | None = None) -> None:
        self.terminal = terminal
        self.services = services
        """The store, game keeper, watch hub, clock and solvers the visit uses."""
        settings = services.settings
        self.caller = caller or Caller()
        if self.caller.on_doing is None:
            self.caller.on_doing = terminal.doing
        self.player = player
        """The caller's record in the store; None when unknown or the store is unavailable."""
        self.chores: list[asyncio.Future[None]] = []
        """Work beside the visit (``reussite door`` watches for hang-up orders): cancelled
        by whoever started it when the visit ends."""
        self.admission: Callable[[], Awaitable[bool]] | None = None
        """Asked after the title screen, before the main menu (one call per player): False
        ends the visit."""
        self.screen = Screen(terminal.cols, terminal.rows)
        self.renderer = Renderer(terminal.charset, terminal.color)
        self.decoder = KeyDecoder(terminal.charset.name)
        self._keys: deque[Key] = deque()
        limit = self.caller.time_left_s
        if limit is None:
            limit = settings.limits.minutes_per_call * 60
        limit = max(0, min(limit, MAX_TIME_LEFT_S))
        self.deadline = services.clock() + limit
        self._time_warnings = [s for s in TIME_WARNINGS if s < limit]
        self._notice: tuple[str, Attr | None] | None = None
        self._alert: str | None = None  # see alert
        self._alert_due = False  # changed since the last frame: the next wait draws one
        self._bell = False  # rung since the last frame: sent with the next one
        self._deferred = False  # a frame put off while typed-ahead keys wait
        self._keys_in_a_row = 0
        self._alarm: asyncio.TimerHandle | None = None  # wakes the read: see _read
        self._idle: tuple[float | None, bool] = (None, False)  # see _key
        self.idle_hold: Callable[[], bool] | None = None
        """Asked when the idle limit is reached: True means the caller is busy without
        typing (watching a live game, door/ui/menus/watch.py), and the idle clock starts over."""
        self._loop: asyncio.AbstractEventLoop | None = None  # the visit's, once known
        terminal.on_resize = self._on_resize
        self.access: Access | None = None
        """The mouse and the describe key (door/ui/shared/access.py), once the visit attaches it."""
        self._claimed: frozenset[str] = MOUSE_KEYS  # keys for ``access`` (none: dropped)
        self.mouse = False
        """The caller's terminal was asked to report the mouse (:meth:`set_mouse`)."""
        self._frame_of: tuple[object, int] = (None, -1)  # see frame_of
        self.showing: object = None
        """Whose frame the caller sees (a game screen's, :meth:`frame_of`), or None: a
        menu, a box or a question drawn over it."""
        self.autosave: Callable[[], Awaitable[None]] | None = None
        self._hook_at_end: Callable[[], Awaitable[None]] | None = None
        self.ended_by: SessionEnded | None = None
        """Why the visit ended, when it was not the caller's choice (exit codes read it)."""
        self.start_action: str | None = None
        """A game to open at once, instead of the title and the main menu (an RLogin caller
        whose BBS asked for ``xtrn=GAME``); leaving it ends the visit."""
        self.leaving = False
        """The visit is ending by the caller's choice or a limit: the goodbye is on its way,
        and a hang-up from now on changes nothing (``reussite door`` keeps exit code 0)."""
        self.first_action: str | None = None
        """A game to open at once, instead of the title, before the main menu (a web call
        resumed after its line dropped: the game it was playing, whose save it offers)."""
        self.preparing: asyncio.Future[Store | None] | None = None
        """Work started beside the title screen (``reussite door`` opens the store there);
        the visit waits for it before the main menu."""
        """Set by a game screen while a game is in progress: saves it for resume.  Called
        when the visit ends by carrier loss, idle time-out, time-up or a signal."""

    @property
    def settings(self) -> Settings:
        """The door's settings (sysop.ini)."""
        return self.services.settings

    @property
    def store(self) -> Store | None:
        """The database (scores, saves, messages); None when the door runs without one."""
        return self.services.store

    @property
    def keeper(self) -> GameKeeper | None:
        """Writes the game in progress as it is played (None: no database, nothing kept)."""
        return self.services.keeper

    @property
    def solvers(self) -> SolverPool:
        """The solver pool: verdicts computed beside the door."""
        return self.services.solvers(self.services.settings)

    def _ending(self, exc: SessionEnded) -> SessionEnded:
        """Keep the autosave hook as it is when the visit ends: screens unwinding past the
        exception may clear ``autosave`` before ``run_visit`` (door.ui.visits.visit) gets to
        save."""
        self._hook_at_end = self.autosave or self._hook_at_end
        self.ended_by = type(exc)(*exc.args)  # not the one raised: its traceback holds us
        return exc

    def on_the_line(self) -> bool:
        """The caller is still connected, as far as the transport knows (for work done
        between reads: a password's hash waiting its turn)."""
        return not self.terminal.hung_up()

    def carrier_lost(self) -> SessionEnded:
        """The exception that ends the visit of a caller found gone between reads."""
        return self._ending(CarrierLost("connection closed"))

    async def save_game_in_progress(self) -> None:
        """Run the autosave hook, if any; a failing save is logged, never raised."""
        hook, self.autosave = self.autosave or self._hook_at_end, None
        self._hook_at_end = None
        if hook is None:
            return
        try:
            await hook()
        except Exception:
            log.exception("node %s: could not save the game in progress", self.caller.node)

    # -- the mouse and the describe key ----------------------------------------------------
    def attach(self, access: Access) -> None:
        """Hand the mouse keys and the describe key to ``access`` from now on."""
        self.access, self._claimed = access, access.claims

    def set_mouse(self, on: bool) -> None:
        """Ask the caller's terminal to report the mouse, or to stop (door/term/mouse.py);
        the key decoder then reads the X10 form too."""
        if on != self.mouse:
            self.mouse = self.decoder.mouse = on
            self.terminal.write(MOUSE_ON if on else MOUSE_OFF)

    def frame_of(self, owner: object) -> None:
        """The screen as it stands is ``owner``'s frame (a game screen calls this when it
        has drawn its board): shown as it is, the caller sees ``owner`` (:attr:`showing`)
        until anything else draws over it (a box, a question)."""
        self._frame_of = (owner, self.screen.version)

    # -- output ---------------------------------------------------------------------------
    def carry_on(self, screen: Screen, renderer: Renderer) -> bool:
        """Carry on from a frame the caller already shows: ``reussite door`` sends its
        caller's title before the session exists (door/net/launch.py), and the visit's
        title then sends only what it adds.  Refused (False, nothing taken) for a frame
        drawn at another size, charset, colour setting or place in the window."""
        if ((screen.cols, screen.rows) != (self.screen.cols, self.screen.rows)
                or (renderer.charset, renderer.color) != (self.renderer.charset,
                                                          self.renderer.color)
                or (renderer.top, renderer.left) != self.origin or self.too_small):
            return False
        self.screen, self.renderer = screen, renderer
        return True

    def notify(self, text: str, attr: Attr | None = None) -> None:
        """Show ``text`` on the message row of the next frame only (greetings, time warnings);
        the screen underneath is untouched and comes back with the frame after."""
        self._notice = (text, attr)

    def alert(self, text: str | None) -> None:
        """Keep ``text`` on the bottom row of every frame (right-aligned, in the warning
        colour) until it is cleared with None: the game in progress cannot be saved just
        now (door/store/keeper.py).  Shown at once, the wait for a key woken for it;
        cleared with a word that all is well again."""
        if text == self._alert:
            return
        if text is None:
            self.notify("Saved: your moves are all written now.")
        self._alert, self._alert_due = text, True
        self.terminal.wake()

    def _alert_row(self) -> int | None:
        """Draw the alert on the bottom row; the row's number, to restore after the frame."""
        if self._alert is None:
            return None
        row, cols = self.screen.rows - 1, self.screen.cols
        text = f" {self._alert} "[: cols - 1]
        self.screen.put(row, cols - 1 - len(text), text, WARNING)
        return row

    @property
    def origin(self) -> tuple[int, int]:
        """Where the screen sits in the caller's window: the (row, column) of its top-left
        cell, centred (door/term/render.py); (0, 0) when the window is no larger, and
        under the small-window notice, which is drawn at the window's own size."""
        if self.too_small:
            return 0, 0
        return centred_origin(self.terminal.window, (self.screen.cols, self.screen.rows))

    @property
    def too_small(self) -> bool:
        """The caller's window is smaller than the screens need: they see a notice."""
        cols, rows = self.terminal.window
        return cols < NEEDS[0] or rows < NEEDS[1]

    def _small_window_frame(self) -> bytes:
        """The notice a too-small window gets in place of the screen (drawn at the window's
        own size, so it never wraps), with any pending notice under it."""

        cols, rows = self.terminal.window
        leave = "go back to the BBS" if self.caller.source else "log off"
        text = (f"This door needs {NEEDS[0]}×{NEEDS[1]}; your window is {cols}×{rows}. "
                f"Widen it, or press Q to {leave}.")
        lines = wrap(text, max(1, cols - 2))
        extra = []
        if self._notice is not None:
            extra = ["", *wrap(self._notice[0], max(1, cols - 2))]
            self._notice = None
        if self._alert is not None:
            extra += ["", *wrap(self._alert, max(1, cols - 2))]
        frame = Screen(cols, rows)
        top = max(0, (rows - len(lines) - len(extra)) // 2)
        for i, line in enumerate(lines + extra):
            frame.center(top + i, line, BRIGHT if i < len(lines) else WARNING)
        return self.renderer.frame(frame)

    async def show(self) -> None:
        """Send the caller what changed on ``self.screen`` since the last frame.

        While a burst of keys waits (BURST_KEYS or more: a paste, a flood), the frame is put
        off, being out of date at once: a later frame, at the latest the one before the next
        wait for a key, sends the screen as those keys left it.  A thousand keys pasted at
        once cost a few frames, not a thousand.  A window smaller than the screens need gets
        a notice instead of the screen."""
        if self.in_burst:
            self._deferred = True
            return
        self._deferred = self._alert_due = False
        owner, version = self._frame_of
        self.showing = owner if version == self.screen.version else None
        self.renderer.place(*self.origin)  # moved by a resize: the frame is drawn whole
        if self.too_small:
            data = self._small_window_frame()
        elif self._notice is not None or self._alert is not None:
            saved = self.screen.snapshot()
            drawn = []
            if self._notice is not None:
                text, attr = self._notice
                row = max(0, self.screen.rows - 2)
                self.screen.put(row, 0, " " * self.screen.cols, attr or WARNING)
                self.screen.put(row, 1, text[: self.screen.cols - 2], attr or WARNING)
                self._notice = None
                drawn.append(row)
            alert_row = self._alert_row()
            if alert_row is not None:
                drawn.append(alert_row)
            data = self.renderer.frame(self.screen)
            for row in drawn:
                self.screen.restore(saved, range(row, row + 1))
        else:
            data = self.renderer.frame(self.screen)
        self.terminal.cursor_shown(self.screen.cursor is not None and not self.too_small)
        if self._bell and not self._keys:  # one bell for a burst of refused keys
            data, self._bell = b"\x07" + data, False
        if data and self._waits(data):  # as send does, without a coroutine a frame
            await self._drained()
        if data and self.terminal.announces and self.access is not None:
            self.access.after_frame()

    async def send(self, data: bytes) -> None:
        """Write ``data`` and wait until it is on its way; a caller who reads nothing for
        DRAIN_TIMEOUT seconds, or is gone, ends the visit (CarrierLost).  :meth:`show` sends
        frames through here; a watcher's shared bytes come here straight."""
        if data and self._waits(data):
            await self._drained()

    def _waits(self, data: bytes) -> bool:
        """Write ``data``; True when some of it could not go at once (then the writer waits
        for :meth:`_drained`; when all of it went, there is nothing to wait for)."""
        terminal = self.terminal
        terminal.write(data)
        return terminal.unsent() != 0

    async def _drained(self) -> None:
        """Wait until what was written is on its way (see :meth:`send`)."""
        try:
            async with asyncio.timeout(DRAIN_TIMEOUT):  # no extra task, unlike wait_for
                await self.terminal.drain()
        except TimeoutError:
            raise self._ending(CarrierLost("the caller reads nothing")) from None
        except (ConnectionError, OSError) as exc:
            raise self._ending(CarrierLost(str(exc))) from None

    def sign_off(self, text: str = "", clear: bool = False) -> None:
        """After the visit's last frame: leave the caller's terminal clean, with ``text`` on
        a line of its own (``clear``: in a cleared window), for whatever it shows next
        (door/term/render.py ``Renderer.sign_off``).  Written, not waited for: :meth:`linger`
        or :meth:`flush` waits, or the line's close sends it."""
        self.terminal.write(self.renderer.sign_off(text, clear))

    async def flush(self) -> None:
        """Wait, up to DRAIN_TIMEOUT, until what was written is on its way: for a last word
        after which the visit ends whatever happens, so a caller who reads nothing is no
        reason to say (``ended_by``) it ended otherwise.  Raises ConnectionError or OSError
        when the line is gone."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(DRAIN_TIMEOUT):
                await self.terminal.drain()

    async def linger(self, seconds: float) -> None:
        """Leave the last screen up for ``seconds``; any key (one already typed too), or the
        caller hanging up, ends the wait at once.  The bytes read are the caller's goodbye:
        nothing to decode."""
        if seconds <= 0 or self.typed_ahead:
            return
        terminal = self.terminal
        with contextlib.suppress(TimeoutError, ConnectionError, OSError):
            await terminal.drain()
            async with asyncio.timeout(seconds):
                while await terminal.receive() == b"\0":  # a resize wake-up, not a key
                    pass

    @property
    def in_burst(self) -> bool:
        """True while a burst of keys waits (a paste, a flood): the next frame would be out
        of date at once, so screens may skip drawing it (``show`` skips sending it)."""
        return len(self._keys) >= BURST_KEYS

    def drop_typeahead(self) -> None:
        """Forget keys typed ahead: the visit is ending, and its last screen must show."""
        self._keys.clear()

    def read_next(self, *keys: Key) -> None:
        """Have ``keys`` read next, before any typed: the keys that open a screen again
        through its caller's loop (door/ui/shared/key_overlay.py: the key map, after a resize,
        over the screen drawn at the new size)."""
        self._keys.extendleft(reversed(keys))

    def server_working(self) -> contextlib.AbstractContextManager[None]:
        """While the server works for a caller who is logging in (a password hashed), the
        login pool's clock for the line stops (door/gate/pool.py ``Ticket.hold``)."""
        ticket = self.terminal.ticket
        return ticket.hold() if ticket is not None else contextlib.nullcontext()

    def bell(self) -> None:
        """Ring the caller's bell with the next frame (at most one per frame: a thousand
        refused keys pasted at once ring once, not a thousand writes)."""
        self._bell = True

    @property
    def time_left(self) -> int:
        """Seconds left in this call."""
        return max(0, int(self.deadline - self.services.clock()))

    # -- input ----------------------------------------------------------------------------
    def _on_resize(self, cols: int, rows: int) -> None:
        self.screen.resize(cols, rows)
        self.renderer.invalidate()
        self._keys.append(Key("resize"))

    def _in_frame(self, key: Key) -> Key:
        """A mouse key's cell in the screen's own cells: the window's, less the origin of
        the frame the caller sees (a click left of a centred board is off it)."""
        renderer = self.renderer
        if not key.is_mouse or not (renderer.top or renderer.left):
            return key
        return key._replace(x=key.x - renderer.left, y=key.y - renderer.top)

    def use_charset(self, charset: Charset, color: bool) -> None:
        """Draw and read in ``charset`` from now on (a full repaint at the next frame)."""
        self.renderer.charset, self.renderer.color = charset, color
        self.terminal.charset, self.terminal.color = charset, color
        self.decoder.set_encoding(charset.name)
        self.renderer.invalidate()

    def _late_answer(self, data: bytes) -> bytes:
        """The caller's bytes without the answer to a probe the door did not wait for;
        when that answer names another charset, the screen is drawn again in it (the
        resize key makes the screen underneath redraw itself)."""
        data, choice = self.terminal.heard_late_answer(data)
        if choice is not None:
            log.info("%s: %s%s, %s, late", self.terminal.peer, choice.charset.name,
                     " with glyphs" if choice.charset.c0_glyphs else "", choice.reason)
            self.use_charset(choice.charset, choice.color)
            self._keys.append(Key("resize"))
        return data

    @property
    def typed_ahead(self) -> bool:
        """Keys are waiting that arrived with the last one (pasted text, an Alt key's Esc
        and its letter): an Esc among them is not the caller pressing Esc."""
        return bool(self._keys)

    async def key(self) -> Key:
        """The caller's next key.  Ctrl-R repaints; silence past the idle limit ends the call.
        While the window is too small, keys go to the notice: Q leaves (WindowTooSmall),
        the rest wait; the resize that makes the window big enough comes back as a key so
        that the screen underneath redraws itself."""
        key = await self.key_unless(None)
        assert key is not None  # nothing to interrupt the wait
        return key

    async def key_unless(self, woken: Callable[[], bool] | None,
                         timeout: float | None = None) -> Key | None:
        """:meth:`key`, or None as soon as ``woken()`` is true, or once ``timeout`` seconds
        have passed with no key.  ``woken`` is asked before the wait and whenever the
        terminal's read is woken (:meth:`Terminal.wake`).  Background work that sets what
        ``woken`` reads and then wakes the terminal thus interrupts a wait for a key with no
        task of its own (a task and two waits per key were a sixth of the server's time).
        ``woken`` is for wakeable terminals (``terminal.wakeable``); ``timeout`` works on any.
        Bytes typed meanwhile wait in the terminal for the next call.  The idle limit counts
        afresh from a wait ``woken`` interrupted, but not from one that timed out: a screen
        that redraws a clock every second still lets its caller idle out.  A mouse key or
        the describe key is handed to :attr:`access` first (it may show a page and wait for
        keys of its own): the keys it gives back come next, in place of it."""
        while True:
            key = await self._key(woken, timeout)
            if key is not None and key.name in self._claimed:
                if self.access is not None and not self.too_small:  # else nothing to click
                    key = self._in_frame(key)
                    self._keys.extendleft(reversed(await self.access.keys_for(key)))
                continue
            if key is None or not self.too_small:
                return key
            if key.is_char and key.char in "qQ":
                raise self._ending(WindowTooSmall("the caller left a too-small window"))
            if key.name != "resize":
                self.bell()
            await self.show()

    async def _key(self, woken: Callable[[], bool] | None = None,
                   timeout: float | None = None) -> Key | None:
        """The next key (see :meth:`key_unless`); None when ``woken()`` or ``timeout``."""
        # The idle clock: when the next idle step is due (None: a full step from now), and
        # whether the warning is out.  A wait that timed out hands them to the next one.
        (idle_due, warned), self._idle = self._idle, (None, False)
        await self._next_turn()
        loop = self._running_loop()
        until = None if timeout is None else loop.time() + timeout
        while not self._keys:
            if self._alert_due:  # set or cleared from outside the visit: shown now
                await self.show()
            if woken is not None and woken():
                return None
            left = await self._time_left_told()
            now = loop.time()
            if idle_due is None:
                idle_due = now + (IDLE_WARNING if warned
                                  else self.settings.limits.idle_timeout - IDLE_WARNING)
            data = await self._read(self._wait(left, now, idle_due, until), woken)
            if data is None:  # nothing came for the wait
                quiet = await self._quiet(loop, idle_due, warned, until)
                if quiet is None:
                    self._idle = (idle_due, warned)  # the next wait goes on counting
                    return None
                idle_due, warned = quiet
                continue
            if not data:
                raise self._ending(CarrierLost("connection closed"))
            if woken is not None and not data.strip(b"\0") and woken():
                return None  # only the wake's NUL: no key, and not the caller's doing
            idle_due, warned = None, False
            await self._take(data)
        return self._keys.popleft()

    async def _next_turn(self) -> None:
        """Between keys: after a long run of them, let the other callers in (and drop the
        rest when the caller hung up meanwhile); once the typed-ahead keys are all handled,
        send the frame they put off."""
        if self._keys:
            self._keys_in_a_row += 1
            if self._keys_in_a_row % KEYS_PER_TURN == 0:
                await asyncio.sleep(0)  # a long burst of keys: let the other callers in
                if self.terminal.hung_up():  # pasted, then hung up: the rest is not played
                    self._keys.clear()
                    raise self._ending(CarrierLost("connection closed"))
        else:
            self._keys_in_a_row = 0
            if self._deferred:
                await self.show()  # typed-ahead keys all handled: the screen they left

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        loop = self._loop
        if loop is None:  # asked once: on Python 3.11 every ask is a getpid() system call
            loop = self._loop = asyncio.get_running_loop()
        return loop

    async def _time_left_told(self) -> float:
        """Seconds left in the call, the warning due at this much shown; TimeUp at none."""
        left = self.deadline - self.services.clock()
        if left <= 0:
            raise self._ending(TimeUp("time is up"))
        if self._time_warnings and left <= self._time_warnings[0]:
            await self._time_warning(left)
        return left

    def _wait(self, left: float, now: float, idle_due: float, until: float | None) -> float:
        """How long the read may wait: until the soonest of the idle step, the end of the
        call, the next time warning and ``until``, never below 0 once a warning or
        ``until`` counts; a lone Esc's short delay while the decoder holds one."""
        if self.decoder.pending:
            return ESC_DELAY
        # What min() and max() made, in comparisons (their four calls: 1 % of a key's
        # samples).
        wait = idle_due - now
        if left < wait:
            wait = left
        if self._time_warnings:
            warning = left - self._time_warnings[0]
            if warning < wait:
                wait = warning
            if wait < 0.0:
                wait = 0.0
        if until is not None:
            if until - now < wait:
                wait = until - now
            if wait < 0.0:
                wait = 0.0
        return wait

    async def _quiet(self, loop: asyncio.AbstractEventLoop, idle_due: float, warned: bool,
                     until: float | None) -> tuple[float | None, bool] | None:
        """Nothing came for a whole wait: a lone Esc is the Esc key, the call's end or a
        time warning may be due, the idle limit's warning or end, or ``until``.  The idle
        clock for the next wait; None when the wait for a key is over without one
        (``until`` passed)."""
        if self.decoder.pending:
            self._keys.extend(self.decoder.flush())
        elif self.deadline - self.services.clock() <= 0:
            raise self._ending(TimeUp("time is up"))
        elif self._time_warnings and (self.deadline - self.services.clock()
                                      <= self._time_warnings[0]):
            pass  # the warning is shown at the top of the loop
        elif loop.time() >= idle_due:
            if self.idle_hold is not None and self.idle_hold():
                return None, False  # busy watching: not idle
            if warned:
                raise self._ending(IdleTimeout("idle"))
            await self._idle_warning()
            return None, True
        elif until is not None and loop.time() >= until:
            return None
        return idle_due, warned

    async def _take(self, data: bytes) -> None:
        """The caller's bytes into keys; any number of Ctrl-Rs among them: one repaint."""
        if self.store is not None:  # who's online: the caller is at the keyboard
            self.store.online.touch(self.caller.node)
        if self.terminal.late_answer is not None:  # a charset probe's answer, maybe
            data = self._late_answer(data)
        repaint = False
        for key in self.decoder.feed(data):
            if key.name == "ctrl-r":
                repaint = True
            else:
                self._keys.append(key)
        if repaint:
            self.renderer.invalidate()
            await self.show()

    def visit_over(self) -> None:
        """The visit is over: its read's alarm goes now, and the session lets go of what
        points back at it (the terminal's resize hook, the mouse and describe helper, the
        last game screen drawn), so that the ended call goes with its last reference.

        Left, the alarm stayed scheduled until the idle limit, minutes after the call (a
        timer, its context and a weak reference for each call of a flood), scattered among
        what the calls had freed.  Left in reference cycles, every ended call waited for the
        server's full collection, whose pause grows with what it frees (0.2 to 2.2 s with
        350 callers: door/serve/collector.py), every caller's keys waiting meanwhile
        (issue #36)."""
        alarm, self._alarm = self._alarm, None
        if alarm is not None:
            alarm.cancel()
        self.access = None
        self._frame_of, self.showing = (None, -1), None
        self.autosave = self._hook_at_end = None
        if self.terminal.on_resize == self._on_resize:
            self.terminal.on_resize = None

    async def _read(self, wait: float,
                    woken: Callable[[], bool] | None = None) -> bytes | None:
        """The caller's next bytes, or None when ``wait`` seconds pass first (``b"\\0"``
        when the read was woken and ``woken()`` is true).

        A terminal whose read can be woken (the network transports) gets one alarm per
        visit, moved only when it must ring sooner: keys that keep coming cost no timer
        each (two timers per key were a tenth of the server's time).  When it rings early
        (set for a wait the caller's typing ended) the read goes on to this wait's end:
        only the caller's bytes, a hang-up or a resize end it before then (so the idle
        limit still counts from the last key), or an alert to show (:meth:`alert`)."""
        terminal = self.terminal
        if not terminal.wakeable:
            try:
                async with asyncio.timeout(wait):  # wait_for can swallow a cancel on 3.11
                    return await terminal.receive()
            except TimeoutError:
                return None
        loop = self._loop
        if loop is None:  # asked once: on Python 3.11 every ask is a getpid() system call
            loop = self._loop = asyncio.get_running_loop()
        due = loop.time() + wait
        while True:
            alarm = self._alarm
            if alarm is None or alarm.when() > due:
                if alarm is not None:
                    alarm.cancel()
                self._alarm = loop.call_at(due, _ring, weakref.ref(self))
            data = await terminal.receive()
            if (not data or data.strip(b"\0") or self._keys or self._alert_due
                    or (woken is not None and woken())):
                return data  # bytes, a hang-up, a resize (its key is waiting), an alert
                # to show, or woken
            if loop.time() >= due:
                return None  # woken by the alarm, and this wait is over
            # woken early by an alarm set for an earlier wait: not the caller, wait on

    async def _time_warning(self, left: float) -> None:
        """At 5, 3 and 1 minutes left: say so once each, with a bell."""
        if not self._time_warnings or left > self._time_warnings[0]:
            return
        while self._time_warnings and left <= self._time_warnings[0]:
            minutes = self._time_warnings.pop(0) // 60
        plural = "minute" if minutes == 1 else "minutes"
        self.notify(f"Only {minutes} {plural} left in this call.")
        self.bell()
        await self.show()

    async def _idle_warning(self) -> None:
        if self.too_small:
            self.notify(f"Still there? Press a key within {IDLE_WARNING} seconds.")
            await self.show()
            return
        row = self.screen.rows - 1
        saved = self.screen.snapshot()
        self.screen.put(row, 0, " " * (self.screen.cols - 1), WARNING)
        self.screen.put(row, 1, f"Still there? Press a key within {IDLE_WARNING} seconds.",
                        WARNING)
        await self.show()
        self.screen.restore(saved, range(row, row + 1))


def _ring(session: weakref.ref[Session]) -> None:
    """A session's alarm: wake its read (a visit that has ended is not kept alive by it)."""
    alive = session()
    if alive is not None:
        alive._alarm = None
        alive.terminal.wake()
