"""Text one caller typed that another caller will see: stripped of anything a terminal acts on.

Escape sequences (CSI, OSC, DCS and two-byte ESC forms), C0/C1 control characters, DEL and
the invisible Unicode format characters (bidi overrides, zero-width joiners) are removed
before the text is stored, so no message or name can move a reader's cursor, recolour or
retitle their terminal, or hide text.  Newlines survive only where asked for.
"""

from __future__ import annotations

import re
import unicodedata

_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]?"          # CSI … final byte (an unfinished one too)
    r"|\x1b[\]PX^_].*?(?:\x07|\x1b\\|$)"  # OSC / DCS / SOS / PM / APC … BEL or ST
    r"|\x9b[0-?]*[ -/]*[@-~]?"           # 8-bit CSI
    r"|[\x90\x9d\x98\x9e\x9f].*?(?:\x07|\x9c|$)"  # 8-bit OSC / DCS / SOS / PM / APC
    r"|\x1b[ -/]*[0-~]?",                # ESC c, ESC 7, ESC ( B …
    re.DOTALL)


def clean_line(text: str, limit: int) -> str:
    """One line of caller text: no controls, spaces collapsed, at most ``limit`` characters."""
    text = _strip(text.replace("\r", " ").replace("\n", " ").replace("\t", " "))
    return " ".join(text.split())[:limit]


def clean_text(text: str, limit: int) -> str:
    """Several lines of caller text: newlines kept (CR LF and CR become LF), tabs become
    spaces, trailing blanks trimmed, at most ``limit`` characters."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", "    ")
    lines = [_strip(line).rstrip() for line in text.split("\n")]
    return "\n".join(lines).strip("\n")[:limit]


def _strip(text: str) -> str:
    text = _ESCAPES.sub("", text)
    return "".join(ch for ch in text if unicodedata.category(ch) not in ("Cc", "Cf", "Co",
                                                                         "Cs", "Cn"))
