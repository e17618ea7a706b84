"""Text a stranger chose (a handle, a dropfile's name, a terminal type, an HTTP path), made
safe to write where a sysop reads it: the log, an error line on their terminal.

Nothing is removed (the sysop should see what was sent): every character a terminal would
act on or that would hide text (C0 and C1 controls, DEL, bidi overrides, zero-width
characters: whatever ``str.isprintable`` refuses) is written as its Python escape,
``\\x1b``, ``\\n`` or ``\\u202e``.  So an escape sequence cannot recolour or retitle the
sysop's terminal, and a newline cannot forge a log line.
"""

from __future__ import annotations


def printable(text: str, keep: str = "") -> str:
    """``text`` with every non-printable character (but those in ``keep``) escaped."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch in keep else _escaped(ch) for ch in text)


_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escaped(ch: str) -> str:
    if ch in _SHORT:
        return _SHORT[ch]
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
