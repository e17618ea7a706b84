"""Key decoding: the caller's bytes into named keys.

Understands the forms sent by SyncTERM/ANSI-BBS, VT100/VT220, xterm (with modifiers such as
``CSI 1;5C``), PuTTY (all its function-key modes), rxvt, the Linux console and SCO, all at
once: callers often announce no terminal type, or the wrong one.  docs/terminal.md has the
table.

- Incremental: bytes that arrive one at a time decode exactly as when they arrive together
  (the CR of a CR LF pair, a half-received escape sequence and a half-received UTF-8
  character all wait for the next byte).
- A lone Esc is told from the start of a sequence by the caller's reader: when no byte
  follows within a short time it calls :meth:`KeyDecoder.flush`.
- An unknown or malformed sequence is swallowed whole, never leaked as letters; terminal
  reports (cursor position, device attributes) are swallowed too.
- Any bytes are accepted; nothing raises.
- Mouse reports (a click, a tap on the web page, a wheel turn) become keys too, named
  ``click``, ``right-click``, ``middle-click``, ``wheel-up`` and ``wheel-down``, with the
  cell under the pointer in ``x`` and ``y`` (0-based): the SGR form (``CSI < b;x;y M``,
  xterm's mode 1006) always, and the older X10 form (``CSI M`` and three bytes) once the
  session has turned the mouse on (:attr:`KeyDecoder.mouse`), since SCO's F1 is ``CSI M``
  too.  Releases and motion are swallowed: a press is the whole click.  docs/terminal.md.

Why a table and not blessed (research/stack.md §3.5): blessed decodes through the terminfo
entry of one terminal kind, so a SyncTERM caller's End (``CSI K``) or PgUp (``CSI V``), or a
Linux console F1 (``CSI [ A``), is unknown to an ``xterm`` decoder, and the kind a caller
announces is often missing or wrong.  A door must accept every family at once.  The table is
faster (about 10 µs a sequence against blessed's ~490 µs) and has no terminfo dependency;
docs/terminal.md has the comparison.  Where two families disagree on one sequence, the
table says which wins and why.
"""

from __future__ import annotations

import codecs
from typing import NamedTuple


class Key(NamedTuple):
    """A named key (``up``, ``f1``, ``enter``, ``ctrl-r``…) or a printable ``char``; a
    mouse key (``click``…) has the cell it was on in ``x`` (column) and ``y`` (row)."""

    name: str
    char: str = ""
    x: int = 0
    y: int = 0

    @property
    def is_char(self) -> bool:
        return self.name == "char"

    @property
    def is_mouse(self) -> bool:
        return self.name in MOUSE_KEYS

    def __str__(self) -> str:
        return self.char if self.is_char else self.name


def char(c: str) -> Key:
    return Key("char", c)


MOUSE_KEYS = frozenset(("click", "middle-click", "right-click", "wheel-up", "wheel-down"))
"""The names of mouse keys (:attr:`Key.is_mouse`)."""
_BUTTONS = ("click", "middle-click", "right-click")
"""A press's button (the report's low two bits; 3 is a release in the X10 form)."""
_WHEEL = ("wheel-up", "wheel-down")
X10_START = "\x1b[M"
"""An X10 mouse report: this, then three bytes (button, column, row, each plus 32)."""
_CP437_BYTES = {c: i + 128 for i, c in enumerate(bytes(range(128, 256)).decode("cp437"))}
"""An X10 report's bytes above 127 (a column past 95) as the CP437 decoder reads them."""


def mouse_key(button: int, col: int, row: int) -> Key | None:
    """A mouse report's key: ``button`` as xterm encodes it (bits 0-1 the button, 32
    motion, 64 the wheel; 4, 8, 16 modifiers, which are ignored), ``col`` and ``row``
    1-based.  None for what is no click: motion, a release, a cell off the screen."""
    if button < 0 or col < 1 or row < 1 or button & 32:
        return None
    low = button & 3
    if button & 64:
        return Key(_WHEEL[low], "", col - 1, row - 1) if low < 2 else None
    return Key(_BUTTONS[low], "", col - 1, row - 1) if low < 3 else None


# CSI <n> ~  (VT220, xterm, PuTTY, Linux console, rxvt)
_TILDE = {1: "home", 2: "ins", 3: "del", 4: "end", 5: "pgup", 6: "pgdn", 7: "home", 8: "end",
          11: "f1", 12: "f2", 13: "f3", 14: "f4", 15: "f5", 17: "f6", 18: "f7", 19: "f8",
          20: "f9", 21: "f10", 23: "f11", 24: "f12"}
# CSI <final> without parameters.  Conflicts, and who wins:
#   CSI G  Linux-console keypad 5 / SCO PgDn        -> pgdn (keypad 5 is of no use here)
#   CSI U  SyncTERM PgDn / SCO F9                    -> pgdn (SyncTERM is the BBS client)
#   CSI V  SyncTERM PgUp / SCO F10                   -> pgup
#   CSI K  SyncTERM End (ANSI-BBS)                   -> end
#   CSI P..S  SCO F4..F7 (xterm sends them only with modifiers, CSI 1;5P, which wins below)
_CSI_PLAIN = {"A": "up", "B": "down", "C": "right", "D": "left", "H": "home", "F": "end",
              "K": "end", "G": "pgdn", "I": "pgup", "L": "ins", "U": "pgdn", "V": "pgup",
              "@": "ins", "Z": "shift-tab",
              "M": "f1", "N": "f2", "O": "f3", "P": "f4", "Q": "f5", "R": "f6", "S": "f7",
              "T": "f8", "W": "f11", "X": "f12"}
# CSI 1;<mod> <final> (xterm): the same keys with a modifier.
_CSI_MODIFIED = {"A": "up", "B": "down", "C": "right", "D": "left", "H": "home", "F": "end",
                 "P": "f1", "Q": "f2", "R": "f3", "S": "f4"}
# SS3 <final>: application cursor keys, xterm F1-F4, PuTTY VT100+ F1-F12, SyncTERM F5-F10.
_SS3 = {"A": "up", "B": "down", "C": "right", "D": "left", "H": "home", "F": "end",
        "M": "enter", "P": "f1", "Q": "f2", "R": "f3", "S": "f4",
        "T": "f5", "U": "f6", "V": "f7", "W": "f8", "X": "f9", "Y": "f10", "Z": "f11",
        "[": "f12", "t": "f5", "u": "f6", "v": "f7", "l": "f8", "w": "f9", "x": "f10",
        "a": "ctrl-up", "b": "ctrl-down", "c": "ctrl-right", "d": "ctrl-left"}
_LINUX_F = {"A": "f1", "B": "f2", "C": "f3", "D": "f4", "E": "f5"}  # CSI [ A … CSI [ E
_RXVT_SHIFT = {"a": "shift-up", "b": "shift-down", "c": "shift-right", "d": "shift-left"}
# rxvt marks modified tilde keys by the final byte: CSI 5^ is Ctrl-PgUp.
_RXVT_FINAL = {"~": "", "^": "ctrl-", "$": "shift-", "@": "ctrl-shift-"}
_MODIFIERS = {2: "shift-", 3: "alt-", 4: "alt-shift-", 5: "ctrl-", 6: "ctrl-shift-",
              7: "ctrl-alt-", 8: "ctrl-alt-shift-"}


_SHARED: dict[str, Key] = {c: char(c) for c in (
    [chr(b) for b in range(0x20, 0x7F)] + list(bytes(range(0x80, 0x100)).decode("cp437")))}
"""One key object per character of ASCII and CP437, shared by every caller: a paste of
4,096 characters waiting to be played is a queue of references, not 4,096 new keys."""
_SHARED.update({c: Key(f"ctrl-{chr(ord(c) + 64).lower()}") for c in map(chr, range(32))})
_SHARED.update({"\r": Key("enter"), "\n": Key("enter"), "\x08": Key("backspace"),
                "\x7f": Key("backspace"), "\t": Key("tab"), "\x1b": Key("esc")})
ESC = _SHARED["\x1b"]
_WHOLE: dict[bytes, Key] = {bytes([b]): _SHARED[chr(b)] for b in range(0x20, 0x7F)}
_WHOLE.update({b"\x1b" + intro + final: Key(name) for intro in (b"[", b"O")
               for final, name in ((b"A", "up"), (b"B", "down"), (b"C", "right"),
                                   (b"D", "left"), (b"H", "home"), (b"F", "end"))})
"""Reads that are one whole common key (a letter, an arrow, Home, End: the bulk of what
callers send), as the tables above decode them: looked up at once when the decoder waits
for nothing, instead of walked through a character at a time."""
ENTER = _SHARED["\r"]
_ENTERS = {b"\r": True, b"\r\n": False, b"\r\0": False}
"""Reads that are one Enter, the same way: whether a LF or NUL may still follow (to be
swallowed), as after a lone CR."""


class KeyDecoder:
    """Incremental decoder.  ``feed(data)`` returns the keys completed by ``data``."""

    MAX_SEQUENCE = 24  # longer "sequences" are garbage: drop them

    def __init__(self, encoding: str = "cp437") -> None:
        self.set_encoding(encoding)
        self._pending = ""      # an unfinished escape sequence
        self._after_cr = False  # swallow the LF or NUL of a CR LF / CR NUL pair
        self.last_report: tuple[int, int] | None = None  # the last cursor position report
        self.mouse = False
        """The session turned the mouse on: ``CSI M`` starts an X10 mouse report (three
        bytes follow); else it is SCO's F1, as it is when nothing follows it."""

    def set_encoding(self, encoding: str) -> None:
        """``cp437``, ``utf8`` or ``ascii``: how bytes above 127 are read."""
        codec = "utf-8" if encoding in ("utf8", "utf-8") else "cp437"
        self._text = codecs.getincrementaldecoder(codec)(errors="replace")
        self._buffered = isinstance(self._text, codecs.BufferedIncrementalDecoder)
        """The text decoder may hold part of a character (UTF-8)."""

    @property
    def pending(self) -> bool:
        """True while an Esc or a partial sequence waits for more bytes (or a flush)."""
        return bool(self._pending)

    def flush(self) -> list[Key]:
        """No byte followed: a lone Esc is a real Esc key, a lone ``CSI M`` SCO's F1 (with
        the mouse on, it waited for a report's bytes); a partial sequence is dropped."""
        pending, self._pending = self._pending, ""
        if pending == "\x1b":
            return [ESC]
        return [Key("f1")] if pending == X10_START else []

    def feed(self, data: bytes) -> list[Key]:
        if not self._pending and data and not (
                self._buffered and self._text.buffer):  # type: ignore[attr-defined]
            if self._after_cr and data[:1] not in b"\n\0":
                self._after_cr = False  # nothing of the CR's pair here: as _feed_char does
            if not self._after_cr:
                key = _WHOLE.get(data)
                if key is not None:  # one whole common key, and nothing half-read before it
                    return [key]
                after_cr = _ENTERS.get(data)
                if after_cr is not None:
                    self._after_cr = after_cr
                    return [ENTER]
        keys: list[Key] = []
        for ch in self._text.decode(data):
            self._feed_char(ch, keys)
        return keys

    def _feed_char(self, ch: str, keys: list[Key]) -> None:
        if self.mouse and self._pending[:3] == X10_START:  # its three bytes may be any
            self._x10_byte(ch, keys)
            return
        if self._pending:
            if not " " <= ch <= "~":  # a control or non-ASCII byte ends any sequence
                if self._pending == "\x1b" and ch == "\x1b":
                    keys.append(ESC)  # Esc Esc: one Esc key, the second may start more
                    return
                if self._pending == "\x1b":
                    keys.append(ESC)
                self._pending = ""
            else:
                self._pending += ch
                self._continue_sequence(keys)
                return
        after_cr, self._after_cr = self._after_cr, False
        code = ord(ch)
        if ch == "\x1b":
            self._pending = ch
        elif ch == "\r":
            keys.append(ENTER)
            self._after_cr = True
        elif ch == "\n":
            if not after_cr:
                keys.append(ENTER)
        elif ch == "\x00":
            pass  # the NUL of CR NUL, or a stray NUL: never a key
        elif code < 32 or ch == "\x7f":
            keys.append(_SHARED[ch])  # backspace, tab, ctrl-a …
        elif ch == "\ufffd" or not ch.isprintable():
            pass  # undecodable bytes and C1 controls are dropped, not typed
        else:
            keys.append(_SHARED.get(ch) or char(ch))

    def _x10_byte(self, ch: str, keys: list[Key]) -> None:
        """One of an X10 mouse report's three bytes (button, column, row, each plus 32)."""
        self._pending += ch
        if len(self._pending) < 6:
            return
        values = [ord(c) if c < "\x80" else _CP437_BYTES.get(c, -1) for c in self._pending[3:]]
        self._pending = ""
        if min(values) >= 32:
            key = mouse_key(values[0] - 32, values[1] - 32, values[2] - 32)
            if key is not None:
                keys.append(key)

    def _continue_sequence(self, keys: list[Key]) -> None:
        seq = self._pending
        if len(seq) == 2:
            if seq[1] in "[O":
                return
            self._pending = ""  # Alt-x arrives as Esc x: an Esc, then the x
            keys.append(ESC)
            self._feed_char(seq[1], keys)
            return
        last = seq[-1]
        if seq[1] == "O":  # SS3, possibly with a modifier digit: ESC O 5 C
            if "0" <= last <= "9" or last == ";":
                if len(seq) > 6:
                    self._pending = ""
                return
            self._pending = ""
            name = _SS3.get(last)
            digits = seq[2:-1].split(";")[-1]
            modifier = _MODIFIERS.get(int(digits), "") if digits.isdigit() else ""
            if name:
                keys.append(Key(modifier + name if not name.startswith("ctrl-") else name))
            return
        # CSI: parameters 0x30–0x3F, intermediates 0x20–0x2F, final 0x40–0x7E.
        if len(seq) == 3 and last == "[":  # Linux console F1–F5: CSI [ A
            return
        if len(seq) == 4 and seq[2] == "[":
            self._pending = ""
            name = _LINUX_F.get(last)
            if name:
                keys.append(Key(name))
            return
        if last == "$" and seq[2:-1].isdigit():  # rxvt Shift-PgUp: CSI 5 $
            self._pending = ""
            key = self._decode_csi(seq[2:-1], last)
            if key:
                keys.append(key)
            return
        if seq == X10_START and self.mouse:
            return  # an X10 mouse report: its three bytes come next (_x10_byte)
        if "@" <= last <= "~":
            self._pending = ""
            key = self._decode_csi(seq[2:-1], last)
            if key:
                keys.append(key)
        elif len(seq) > self.MAX_SEQUENCE:
            self._pending = ""  # not a sequence after all: drop it whole

    def _decode_csi(self, params: str, final: str) -> Key | None:
        if params[:1] == "<" and final == "M":  # an SGR mouse press: CSI < b ; x ; y M
            fields = params[1:].split(";")
            if len(fields) == 3 and all(f.isdigit() and len(f) < 6 for f in fields):
                return mouse_key(int(fields[0]), int(fields[1]), int(fields[2]))
            return None
        if params[:1] in ("?", "<", "=", ">"):
            return None  # a private report (device attributes, a mouse release…): swallowed
        fields = params.split(";") if params else []
        if not all(f.isdigit() or not f for f in fields) or len(fields) > 4:
            return None
        numbers = [int(f[:6]) if f else 1 for f in fields]
        if final in _RXVT_FINAL:
            name = _TILDE.get(numbers[0]) if numbers else None
            modifier = _RXVT_FINAL[final]
            if final == "~" and len(numbers) > 1:
                modifier = _MODIFIERS.get(numbers[1], "")
            if final == "@" and not numbers:
                return Key("ins")  # SyncTERM Insert: CSI @
            return Key(modifier + name) if name else None
        if not numbers:
            name = _CSI_PLAIN.get(final) or _RXVT_SHIFT.get(final)
            return Key(name) if name else None
        if final == "R" and not (len(numbers) == 2 and numbers[0] == 1 and
                                 numbers[1] in _MODIFIERS):
            if len(numbers) == 2:  # a cursor position report, not a key
                self.last_report = (numbers[0], numbers[1])
            return None
        name = _CSI_MODIFIED.get(final)
        if name is None or numbers[0] != 1:
            return None
        modifier = _MODIFIERS.get(numbers[1], "") if len(numbers) > 1 else ""
        return Key(modifier + name)
