"""Key decoding: the caller's bytes into named keys.

Understands the forms sent by SyncTERM/ANSI-BBS, VT100/VT220, xterm (with modifiers such as
``CSI 1;5C``), PuTTY, the Linux console and SCO.  The decoder is incremental: bytes that
arrive one at a time decode exactly as when they arrive together.  A lone Esc is told from
the start of a sequence by the caller's reader: when no byte follows within a short time it
calls :meth:`KeyDecoder.flush`.  An unknown sequence is swallowed whole.

We use a table rather than blessed: blessed decodes through terminfo for one terminal kind,
while a door must accept every kind at once from callers who often announce none.
"""

from __future__ import annotations

import codecs
from typing import NamedTuple


class Key(NamedTuple):
    """A named key (``up``, ``f1``, ``enter``, ``ctrl-r``…) or a printable ``char``."""

    name: str
    char: str = ""

    @property
    def is_char(self) -> bool:
        return self.name == "char"

    def __str__(self) -> str:
        return self.char if self.is_char else self.name


def char(c: str) -> Key:
    return Key("char", c)


_TILDE = {1: "home", 2: "ins", 3: "del", 4: "end", 5: "pgup", 6: "pgdn", 7: "home", 8: "end",
          11: "f1", 12: "f2", 13: "f3", 14: "f4", 15: "f5", 17: "f6", 18: "f7", 19: "f8",
          20: "f9", 21: "f10", 23: "f11", 24: "f12"}
_CSI_FINAL = {"A": "up", "B": "down", "C": "right", "D": "left", "H": "home", "F": "end",
              "K": "end", "G": "center", "P": "f1", "Q": "f2", "R": "f3", "S": "f4",
              "Z": "shift-tab", "@": "ins"}
# SCO console function keys: CSI M … CSI X are F1 … F12 (only without parameters).
_SCO = {chr(ord("M") + i): f"f{i + 1}" for i in range(12)}
_SS3 = {"A": "up", "B": "down", "C": "right", "D": "left", "H": "home", "F": "end",
        "P": "f1", "Q": "f2", "R": "f3", "S": "f4", "M": "enter",
        "t": "f5", "u": "f6", "v": "f7", "l": "f8", "w": "f9", "x": "f10"}
_LINUX_F = {"A": "f1", "B": "f2", "C": "f3", "D": "f4", "E": "f5"}  # CSI [ A … CSI [ E
_MODIFIERS = {2: "shift-", 3: "alt-", 4: "alt-shift-", 5: "ctrl-", 6: "ctrl-shift-",
              7: "ctrl-alt-", 8: "ctrl-alt-shift-"}


class KeyDecoder:
    """Incremental decoder.  ``feed(data)`` returns the keys completed by ``data``."""

    MAX_SEQUENCE = 32  # longer "sequences" are garbage: drop them

    def __init__(self, encoding: str = "cp437") -> None:
        self.set_encoding(encoding)
        self._pending = ""      # an unfinished escape sequence
        self._after_cr = False  # swallow the LF or NUL of a CR LF / CR NUL pair

    def set_encoding(self, encoding: str) -> None:
        """``cp437``, ``utf8`` or ``ascii``: how bytes above 127 are read."""
        codec = "utf-8" if encoding in ("utf8", "utf-8") else "cp437"
        self._text = codecs.getincrementaldecoder(codec)(errors="replace")

    @property
    def pending(self) -> bool:
        """True while an Esc or a partial sequence waits for more bytes (or a flush)."""
        return bool(self._pending)

    def flush(self) -> list[Key]:
        """No byte followed: a lone Esc is a real Esc key; a partial sequence is dropped."""
        pending, self._pending = self._pending, ""
        return [Key("esc")] if pending == "\x1b" else []

    def feed(self, data: bytes) -> list[Key]:
        keys: list[Key] = []
        for ch in self._text.decode(data):
            self._feed_char(ch, keys)
        return keys

    def _feed_char(self, ch: str, keys: list[Key]) -> None:
        if self._pending:
            self._pending += ch
            self._continue_sequence(keys)
            return
        after_cr, self._after_cr = self._after_cr, False
        code = ord(ch)
        if ch == "\x1b":
            self._pending = ch
        elif ch == "\r":
            keys.append(Key("enter"))
            self._after_cr = True
        elif ch in "\n\x00":
            if not after_cr and ch == "\n":
                keys.append(Key("enter"))
        elif ch in "\x08\x7f":
            keys.append(Key("backspace"))
        elif ch == "\t":
            keys.append(Key("tab"))
        elif code < 32:
            keys.append(Key(f"ctrl-{chr(code + 96)}"))
        elif ch == "\ufffd":
            pass  # undecodable bytes are dropped, not typed
        elif ch.isprintable():
            keys.append(char(ch))

    def _continue_sequence(self, keys: list[Key]) -> None:
        seq = self._pending
        if len(seq) == 2:
            if seq[1] in "[O":
                return
            self._pending = ""
            if seq[1] == "\x1b":  # Esc Esc: one Esc, the second may start a sequence
                keys.append(Key("esc"))
                self._pending = "\x1b"
            else:  # Alt-x arrives as Esc x
                keys.append(Key("esc"))
                self._feed_char(seq[1], keys)
            return
        if seq[1] == "O":
            self._pending = ""
            name = _SS3.get(seq[2])
            if name:
                keys.append(Key(name))
            return
        # CSI: parameters 0x30–0x3F, intermediates 0x20–0x2F, final 0x40–0x7E.
        last = seq[-1]
        if len(seq) == 3 and last == "[":  # Linux console F1–F5: CSI [ A
            return
        if len(seq) == 4 and seq[2] == "[":
            self._pending = ""
            name = _LINUX_F.get(last)
            if name:
                keys.append(Key(name))
            return
        if "\x40" <= last <= "\x7e":
            self._pending = ""
            key = _decode_csi(seq[2:-1], last)
            if key:
                keys.append(key)
        elif not ("\x20" <= last <= "\x3f") or len(seq) > self.MAX_SEQUENCE:
            self._pending = ""  # not a sequence after all: drop it whole


def _decode_csi(params: str, final: str) -> Key | None:
    fields = params.split(";") if params else []
    try:
        numbers = [int(f) if f else 1 for f in fields]
    except ValueError:
        return None
    modifier = _MODIFIERS.get(numbers[1], "") if len(numbers) > 1 else ""
    if final == "~":
        name = _TILDE.get(numbers[0]) if numbers else None
        return Key(modifier + name) if name else None
    if not numbers and final in _SCO:
        return Key(_SCO[final])
    name = _CSI_FINAL.get(final)
    if name is None or (numbers and numbers[0] != 1 and not modifier):
        return None
    return Key(modifier + name)
