"""The one interface every transport gives a session: bytes in, bytes out, a size, a charset."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from ..term import Charset
from ..term.detect import (
    LATE_ANSWER_S,
    PROBE,
    PROBE_CLEANUP,
    PROBE_TIMEOUT,
    Choice,
    LateAnswer,
    default_choice,
    from_hints,
    from_probe,
    read_reports,
)

if TYPE_CHECKING:  # asyncio: imported where used, not before a BBS caller's first screen
    import asyncio

    from ..gate.pool import Ticket

DEFAULT_COLS, DEFAULT_ROWS = 80, 24
MAX_ROWS = 60
MAX_WINDOW = 1000
"""Larger reported sizes are nonsense (or hostile): taken as this many cells."""
LINE_CHECK_S = 0.5
"""While a caller's input is paced (a paste, a flood), the meter's hang-ups and the lines
no transport reports at once (an SSH channel closed) are looked at this often."""


def sane_size(cols: int | None, rows: int | None) -> tuple[int, int]:
    """The screen the door draws for a reported window size: always 80 columns wide, 24
    to 60 rows tall.  A window smaller than 80 × 24 still gets an 80 × 24 screen, which
    the session does not show it: it shows a notice asking for a bigger window instead
    (see :func:`window_size`, ``Session.too_small``)."""
    rows = rows if rows and rows >= DEFAULT_ROWS else DEFAULT_ROWS
    return DEFAULT_COLS, min(rows, MAX_ROWS)


def window_size(cols: int | None, rows: int | None) -> tuple[int, int]:
    """The caller's window as reported (1 to MAX_WINDOW each way; unknown is 80 × 24)."""
    return (min(MAX_WINDOW, max(1, cols or DEFAULT_COLS)),
            min(MAX_WINDOW, max(1, rows or DEFAULT_ROWS)))


class ReadMeter(Protocol):
    """Paces one caller's input (``reussite serve``'s flood limit: door/serve/server.py).  Plain
    calls around the read, not a coroutine wrapped round it: asked on every key."""

    def pause(self) -> float | None:
        """Seconds to wait before the next read (0: none); None ends the call."""
        ...

    def took(self, size: int) -> None:
        """The read brought ``size`` bytes."""
        ...


class Terminal(ABC):
    """One caller's connection, whatever the transport.

    Transports implement ``read``: raw bytes (``b""`` at end of connection).  The door takes
    them through :meth:`receive` (paced by :attr:`meter` when one is set); the session
    decodes keys.
    Transports call :meth:`resized` when the window changes; the session listens through
    ``on_resize``.  They call :meth:`dropped` the moment they learn the line has dropped,
    whatever input is still waiting: they keep reading their connection, never pausing it,
    so its end is seen when it comes (input past INPUT_HELD waiting is dropped instead,
    door/net/buffers.py).
    """

    kind = ""
    """How the caller came: "telnet", "ssh", "rlogin", "web" for the server's callers (logs,
    rules)."""
    fixed_charset = False
    """The terminal shows one charset only (a browser's xterm.js: UTF-8): a charset saved
    from another terminal is not applied to it."""
    late_answer: LateAnswer | None = None
    """A charset probe sent without waiting for its answer, still listened for
    (:meth:`detect_charset` with no ``timeout``; the session hands what the caller sends to
    :meth:`heard_late_answer` meanwhile)."""

    def __init__(self, cols: int = DEFAULT_COLS, rows: int = DEFAULT_ROWS,
                 charset: Charset | None = None, term_type: str = "", peer: str = "") -> None:
        self.cols, self.rows = sane_size(cols, rows)
        self.window = window_size(cols, rows)
        """The caller's real window (the screen is ``cols`` × ``rows``, at least 80 × 24)."""
        self.charset = charset or Charset("cp437")
        self.color = True
        self.term_type = term_type.lower()
        self.peer = peer
        self.on_resize: Callable[[int, int], None] | None = None
        self._pushback = b""  # bytes read early (during the charset probe), read again first
        self.ticket: Ticket | None = None
        """This connection's place in the login pool (door/gate/pool.py), when its listener
        admitted it there; ``reussite serve`` gives it a node once the caller logs in."""
        self.meter: ReadMeter | None = None
        """Paces what :meth:`receive` takes from :meth:`read` (None: as it comes)."""
        self.gone = False
        """The line has dropped: reads say so at once (keys still buffered are dropped with
        it: what a caller typed before hanging up is not worth playing), writes go nowhere."""
        self._pacing: asyncio.Future[None] | None = None  # a paced read's wait: see paced

    async def receive(self) -> bytes:
        """The caller's next bytes as the door takes them: :meth:`read`, through
        :attr:`meter` when there is one."""
        meter = self.meter
        if meter is None:
            return await self.read()
        pause = meter.pause()
        if pause is None:
            return b""
        if pause and not await self.paced(meter, pause):
            return b""
        data = await self.read()
        meter.took(len(data))
        return data

    async def paced(self, meter: ReadMeter, pause: float) -> bool:
        """Wait out the meter's ``pause`` before the next read: True once it is over, False
        as soon as the caller is gone (the line dropped, or the meter hangs up).

        The pace applies to reading the caller's input, not to noticing that they left: a
        transport that learns of the drop ends the wait at once (:meth:`dropped`), and the
        meter and :meth:`hung_up` are asked again every :data:`LINE_CHECK_S` seconds."""
        import asyncio  # local: not before a BBS caller's first screen (door/net/launch.py)
        loop = asyncio.get_running_loop()
        while pause:
            if self.hung_up():
                return False
            self._pacing = waiter = loop.create_future()
            try:
                async with asyncio.timeout(pause if pause < LINE_CHECK_S else LINE_CHECK_S):
                    await waiter
            except TimeoutError:
                pass
            finally:
                self._pacing = None
            next_pause = meter.pause()  # what is left of it, or None: hang up
            if next_pause is None:
                return False
            pause = next_pause
        return not self.gone

    def dropped(self) -> None:
        """The transport has learned that the line dropped (EOF, a reset, the channel or
        socket closed): reads say so from now on, a paced read stops waiting, a pending
        read is woken."""
        if self.gone:
            return
        self.gone = True
        pacing = self._pacing
        if pacing is not None and not pacing.done():
            pacing.set_result(None)
        self.wake()

    def hung_up(self) -> bool:
        """Whether the caller has gone, asking the transport when it does not say so by
        itself (:meth:`_line_ended`).  Asked while input is paced and once per burst of
        typed-ahead keys (door/session.py), not per key."""
        if not self.gone and self._line_ended():
            self.dropped()
        return self.gone

    def _line_ended(self) -> bool:
        """The line has ended, though :meth:`dropped` was not called (an SSH channel that
        closed on its own asks its channel)."""
        return False

    def unread(self, data: bytes) -> None:
        """Give bytes back: the next :meth:`read` returns them first."""
        self._pushback = data + self._pushback

    def take_pushback(self) -> bytes:
        """For transports' :meth:`read`: bytes given back, if any (then empty)."""
        data, self._pushback = self._pushback, b""
        return data

    async def detect_charset(self, saved: str | None = None, bbs_hint: str | None = None,
                             lang: str = "", charset: str = "",
                             timeout: float = PROBE_TIMEOUT) -> Choice:
        """Choose the charset (door/term/detect.py has the order) and set ``charset`` and
        ``color``.  Probes the terminal only when no hint is conclusive; never waits longer
        than ``timeout`` for a terminal that does not answer.  A ``timeout`` of 0 does not
        wait at all: the default is taken now, and the answer, if one comes, changes it
        later (:meth:`heard_late_answer`), for a caller whose every second of silence at
        the login pool counts (a client that negotiates nothing, docs/sysop-standalone.md)."""
        import asyncio  # local: not before a BBS caller's first screen (door/net/launch.py)
        choice = from_hints(saved, bbs_hint, self.term_type, lang, charset)
        if choice is None and timeout <= 0:
            self.write(PROBE + PROBE_CLEANUP)
            self.late_answer = LateAnswer(asyncio.get_running_loop().time() + LATE_ANSWER_S)
            choice = default_choice("no hint; the probe's answer is listened for")
        elif choice is None:
            choice = await self._probe(timeout) or default_choice()
        self.charset, self.color = choice.charset, choice.color
        return choice

    def heard_late_answer(self, data: bytes) -> tuple[bytes, Choice | None]:
        """What the caller sent while :attr:`late_answer` listens: the bytes without the
        probe's answer, and the charset that answer chose when it differs from the one in
        use (then set here; the session switches its screen to it)."""
        probe = self.late_answer
        if probe is None:  # (every read: the import below only while a probe listens)
            return data, None
        import asyncio  # local: not before a BBS caller's first screen (door/net/launch.py)
        data, choice, over = probe.feed(data, asyncio.get_running_loop().time())
        if over:
            self.late_answer = None
        if choice is None or (choice.charset, choice.color) == (self.charset, self.color):
            return data, None
        self.charset, self.color = choice.charset, choice.color
        return data, choice

    async def _probe(self, timeout: float) -> Choice | None:
        import asyncio  # local: not before a BBS caller's first screen (door/net/launch.py)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        self.write(PROBE)
        buf = b""
        try:
            await asyncio.wait_for(self.drain(), timeout)
            while len(read_reports(buf)[0]) < 2:
                left = deadline - loop.time()
                if left <= 0:
                    break
                data = await asyncio.wait_for(self.receive(), left)
                if not data:
                    break
                buf += data
        except (TimeoutError, ConnectionError, OSError):
            pass
        self.write(PROBE_CLEANUP)
        reports, rest = read_reports(buf)
        self.unread(rest)
        return from_probe(reports)

    def resized(self, cols: int, rows: int) -> None:
        size, window = sane_size(cols, rows), window_size(cols, rows)
        if (size, window) != ((self.cols, self.rows), self.window):
            (self.cols, self.rows), self.window = size, window
            if self.on_resize:
                self.on_resize(*size)
            self.wake()

    wakeable = False
    """:meth:`wake` really makes a pending read return (the session then keeps one alarm
    for its time-outs instead of a timer per key)."""

    def wake(self) -> None:
        """Make a pending :meth:`read` return at once (with a NUL byte, which no key decoder
        turns into a key) so that the session sees a resize while it waits for a key.
        Transports that can, override this (and set :attr:`wakeable`); the default waits
        for the next key."""
        return None

    def doing(self, caller: Any, activity: str) -> None:
        """``caller`` went to ``activity`` (who's online's words: "main menu", "Playing
        <title>").  A terminal that can show it beside the screen (the web page: its
        title and its key bar) does; the others have nowhere to."""
        return None

    announces = False
    """The caller asked to hear what changed, in words, after each move (the web page's
    screen-reader switch: its live region); :meth:`announce` is then called."""

    def announce(self, text: str) -> None:
        """What changed on the board, in sentences (door/ui/shared/access.py), for a terminal
        that can say it beside the screen (the web page's live region)."""
        return None

    def cursor_shown(self, shown: bool) -> None:
        """Whether the frame being sent has a cursor (a screen without one leaves it
        wherever the last cell was written).  The web page hides xterm.js's cursor then;
        other terminals are not sent anything new."""
        return None

    def unsent(self) -> int | None:
        """Bytes written but still waiting in this process to be sent (0: :meth:`drain`
        has nothing to wait for; None: not known)."""
        return None

    @abstractmethod
    async def read(self) -> bytes:
        """The next bytes from the caller; ``b""`` when the caller has gone."""

    @abstractmethod
    def write(self, data: bytes) -> None: ...

    @abstractmethod
    async def drain(self) -> None:
        """Wait until written bytes are on their way (raises ConnectionError if gone)."""

    @abstractmethod
    async def close(self) -> None: ...
