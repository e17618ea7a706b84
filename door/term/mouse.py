"""The mouse: turning its reports on and off, and which terminals send them.

A terminal reports clicks once asked with xterm's private modes: 1000 (a report for each
press and release) and 1006 (the SGR form, ``CSI < b;x;y M``, decimal, any column).  One
that knows 1000 but not 1006 sends the older X10 form (``CSI M`` and three bytes); one that
knows neither ignores both.  The key decoder reads either form (``door/term/keys.py``).

Asking is not free of cost to the caller: while the mouse is reported, a drag no longer
selects text in most terminals (Shift and drag still does, in xterm, PuTTY, Windows
Terminal and the web page).  So the door asks only a terminal whose type says it is one
that reports the mouse, or when the caller turns it on in Terminal Settings; and it
always asks the terminal to stop before the call ends, so a BBS gets its caller's terminal
back as it was.
"""

from __future__ import annotations

MOUSE_ON = b"\x1b[?1000h\x1b[?1006h"
"""Report presses and releases (1000), in the SGR form where the terminal has it (1006)."""
MOUSE_OFF = b"\x1b[?1006l\x1b[?1000l"
"""Stop reporting: sent before the call ends whenever MOUSE_ON was sent."""

REPORTING_TERMINALS = ("xterm", "putty", "rxvt", "urxvt", "mintty", "screen", "tmux",
                       "vte", "gnome", "konsole", "alacritty", "kitty", "foot", "wezterm",
                       "iterm", "st-", "ms-terminal", "syncterm", "cterm", "netrunner")
"""Terminal types (TTYPE, the SSH PTY's, ``$TERM``), as prefixes, of terminals known to
report the mouse when asked: the xterm family and its emulators (PuTTY says ``xterm``,
Windows Terminal ``xterm-256color``), and the BBS clients SyncTERM and NetRunner.
``ansi``, ``vt100`` and the like say nothing either way: an old DOS terminal may print
the request as text, so it is not sent to them unless the caller asks."""


def reports_mouse(term_type: str) -> bool:
    """Whether a terminal of this type reports the mouse (see REPORTING_TERMINALS)."""
    return term_type.strip().lower().startswith(REPORTING_TERMINALS)
