"""Which character set a caller's terminal shows: the hints, in order, then a probe.

The order (issue 3): the caller's saved choice; the BBS's hint (the dropfile's graphics line
or emulation); what telnet told us (TTYPE, LANG from NEW-ENVIRON, an RFC 2066 CHARSET);
a cursor-position probe around a multi-byte character; else CP437.

The probe (research/stack.md §3.4) is one round trip: carriage return, a cursor position
request (CPR), the two UTF-8 bytes of ``é``, a second CPR, then the line is cleared.  A
UTF-8 terminal draws one cell between the two reports, a CP437 (or Latin-1) terminal two.
A terminal that never answers (netcat, a line-mode client) leaves us with CP437 after a
short timeout.  This module only builds and reads the bytes; the transport does the I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .charset import CHARSETS, Charset

PROBE_CHAR = "é"
PROBE = b"\r\x1b[6n" + PROBE_CHAR.encode("utf-8") + b"\x1b[6n"
PROBE_CLEANUP = b"\r\x1b[K"
PROBE_TIMEOUT = 0.8  # seconds: a modem-speed round trip fits; a silent client waits no more
# A client that did no telnet negotiation at all (netcat, a raw gateway) already waited for
# the negotiation to time out: probe it more briefly (a terminal behind it answers in ms).
RAW_PROBE_TIMEOUT = 0.4
LATE_ANSWER_S = 5.0
"""How long the answer to a probe the door did not wait for is listened for
(:class:`LateAnswer`): a terminal answers within a round trip, before its user can type."""

# Terminal types that are ANSI-BBS clients: CP437 with the glyphs at 0x01–0x1F.
BBS_TERMINALS = ("syncterm", "cterm", "ansi-bbs", "pcansi", "netrunner")
# Terminal types that show 7-bit text only, without colour.
DUMB_TERMINALS = ("dumb", "vt52", "tty", "glasstty", "unknown")

_CPR = re.compile(rb"\x1b\[(\d{1,4});(\d{1,4})R")
_CPR_BEGUN = re.compile(rb"\x1b\[(\d{1,4}(;\d{0,4})?)?\Z")
"""The start of a cursor report at the end of a packet (the rest comes in the next one)."""


@dataclass(frozen=True)
class Choice:
    """A decision: the charset, whether colour is on, and why (for the log)."""

    charset: Charset
    color: bool
    reason: str


def from_hints(saved: str | None = None, bbs_hint: str | None = None, term_type: str = "",
               lang: str = "", charset: str = "") -> Choice | None:
    """The first conclusive hint, in the issue's order; None means "probe"."""
    if saved:
        name, _, glyphs = saved.lower().partition("+")
        if name in CHARSETS:
            return Choice(Charset(name, glyphs == "glyphs"), True, "the caller's saved choice")
    hint = (bbs_hint or "").strip().lower()
    if hint in ("utf8", "utf-8"):
        return Choice(Charset("utf8"), True, "the BBS says UTF-8")
    if hint in ("ascii", "ng", "7e", "0", "none", "tty"):
        return Choice(Charset("ascii"), hint not in ("ng", "7e", "0", "none", "tty"),
                      "the BBS says no graphics")
    if hint in ("ansi", "gr", "1", "2", "3", "4", "avatar", "rip", "cp437"):
        return Choice(Charset("cp437"), True, "the BBS says ANSI graphics")
    kind = term_type.strip().lower()
    if kind.startswith(BBS_TERMINALS):
        return Choice(Charset("cp437", c0_glyphs=True), True, f"terminal type {kind}")
    if kind in DUMB_TERMINALS:
        return Choice(Charset("ascii"), False, f"terminal type {kind}")
    for text, source in ((lang, "LANG"), (charset, "CHARSET")):
        code = text.lower().replace("_", "-")
        if "utf-8" in code or "utf8" in code:
            return Choice(Charset("utf8"), True, f"{source} {text}")
        if "437" in code:
            return Choice(Charset("cp437"), True, f"{source} {text}")
    return None


def read_reports(data: bytes) -> tuple[list[tuple[int, int]], bytes]:
    """Cursor position reports in ``data`` as (row, col), and the bytes that were not one."""
    reports = [(int(m.group(1)), int(m.group(2))) for m in _CPR.finditer(data)]
    return reports, _CPR.sub(b"", data)


def from_probe(reports: list[tuple[int, int]]) -> Choice | None:
    """What two cursor reports around the probe character say; None when they say nothing."""
    if len(reports) < 2:
        return None
    (row1, col1), (row2, col2) = reports[:2]
    width = col2 - col1 if row1 == row2 else -1
    if width == 1:
        return Choice(Charset("utf8"), True, "the cursor probe (UTF-8 terminal)")
    if width == 2:
        return Choice(Charset("cp437"), True, "the cursor probe (8-bit terminal)")
    return None


def default_choice(why: str = "no hint and no probe answer") -> Choice:
    return Choice(Charset("cp437"), True, why)


class LateAnswer:
    """The answer to a probe sent without waiting for it (the login screen goes up at once,
    in the default charset): the cursor reports are picked out of what the caller sends
    next.  Two of them decide, as :func:`from_probe` does; anything else coming first (a
    key: the terminal did not answer, since it answers before its user sees a prompt) or
    the deadline ends the listening."""

    def __init__(self, until: float) -> None:
        self.until = until
        self.reports: list[tuple[int, int]] = []
        self._begun = b""  # a report cut in two by the network: its first part

    def feed(self, data: bytes, now: float) -> tuple[bytes, Choice | None, bool]:
        """``data`` without the reports in it; the choice the reports make once both have
        come (None before, or when they say nothing); whether the listening is over."""
        if now > self.until:
            return self._begun + data, None, True
        reports, rest = read_reports(self._begun + data)
        self._begun = b""
        self.reports += reports
        if len(self.reports) >= 2:
            return rest, from_probe(self.reports), True
        begun = _CPR_BEGUN.search(rest)
        if begun is not None:
            rest, self._begun = rest[:begun.start()], rest[begun.start():]
        if rest.strip(b"\0"):  # (a NUL is the door's own wake-up, not a key)
            return rest + self._begun, None, True
        return rest, None, False
