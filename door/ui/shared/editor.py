"""The message editor: text wraps as it is typed or pasted, the length is counted, and
nothing is thrown away by one stray key.

The caller types at the end of the text, as in a BBS line editor, but never presses Enter
to end a row: a word that does not fit moves to the next row by itself, and Enter starts a
new paragraph.  The text is kept as paragraphs, so the reader's screen wraps it again at
its own width.  Ctrl-Z, or ``/s`` on a line by itself, sends; ``/a`` abandons; Esc and
Ctrl-C ask first when anything is written.  An Esc that arrives with other keys (inside
pasted text, or the Esc some terminals send before an Alt key) is not the caller pressing
Esc and is ignored.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...session import Session
from ...term import Key
from ...term.width import clip, for_display, wrap
from . import theme
from .widgets import confirm, message, status_line

SEND, ABANDON = "/s", "/a"
TAB = "    "
ABANDON_QUESTION = "Abandon this message?"


@dataclass
class Draft:
    """The text being written, at most ``limit`` characters (newlines count one each)."""

    limit: int
    text: str = ""
    full_said: bool = field(default=False, repr=False)

    @property
    def used(self) -> int:
        return len(self.text)

    @property
    def last_line(self) -> str:
        return self.text.rsplit("\n", 1)[-1]

    def add(self, chars: str) -> bool:
        """Type ``chars`` at the end; False (nothing added) when they do not fit."""
        if self.used + len(chars) > self.limit:
            return False
        self.text += chars
        return True

    def backspace(self) -> None:
        self.text = self.text[:-1]

    def drop_last_line(self) -> None:
        """Remove the last line (a ``/s`` or ``/a`` typed on it), and the break before it."""
        self.text = self.text[: -len(self.last_line) or None].removesuffix("\n")

    def rows(self, width: int, wide: bool = True) -> list[str]:
        """The text as the screen shows it: each paragraph wrapped at ``width`` cells."""
        return [row for paragraph in self.text.split("\n")
                for row in wrap(for_display(paragraph, wide), width)]


def count(used: int, limit: int) -> str:
    """``1,234 of 2,000``."""
    return f"{used:,} of {limit:,}"


async def edit_message(session: Session, top: int, limit: int, text: str = "",
                       ask_first: bool = False) -> str | None:
    """Let the caller write a message in rows ``top`` … rows−4; the text, or None when
    abandoned.  ``text`` starts the draft (a quoted message); ``ask_first``: something was
    typed before the text (a subject), so abandoning asks even before any text is typed."""
    draft = Draft(limit, text[:limit])
    start = draft.text
    note = ""
    while True:
        draw(session, draft, top, note)
        await session.show()
        note = ""
        while True:  # take every key that is already here (pasted text) before drawing
            key = await session.key()
            outcome = await _edit(session, draft, key, ask_first or draft.text != start)
            if outcome is not None:
                if outcome == SEND:
                    return draft.text
                if outcome == ABANDON:
                    return None
                note = outcome
            if note or not session.typed_ahead:
                break


async def _edit(session: Session, draft: Draft, key: Key, written: bool) -> str | None:
    """Act on one key: SEND, ABANDON, a note to show, or None.  ``written``: the caller has
    typed something (Esc then asks before abandoning)."""
    if key.is_char or key.name == "tab":
        if draft.add(key.char if key.is_char else TAB):
            draft.full_said = False
            return None
        return _full(session, draft)
    if key.name == "enter":
        command = draft.last_line.strip().lower()
        if command in (SEND, ABANDON):
            draft.drop_last_line()
            return SEND if command == SEND else ABANDON
        return None if draft.add("\n") else _full(session, draft)
    if key.name == "backspace":
        draft.backspace()
        return None
    if key.name == "ctrl-z":
        return SEND
    if key.name in ("esc", "ctrl-c"):
        if session.typed_ahead:
            return None  # an Esc inside pasted text, or an Alt key's: not the caller's Esc
        if not written:
            return ABANDON
        if await confirm(session, ABANDON_QUESTION, default=False):
            return ABANDON
        return "Not abandoned: go on writing."
    if key.name != "resize":
        session.bell()
        return "The editor types at the end: Backspace erases, Enter starts a new line."
    return None


def _full(session: Session, draft: Draft) -> str:
    """Say that the message is full, with one bell however many keys follow."""
    if not draft.full_said:
        draft.full_said = True
        session.bell()
    return f"The message is full ({draft.limit:,} characters): Ctrl-Z or /s sends it."


def draw(session: Session, draft: Draft, top: int, note: str) -> None:
    """The editing area (the last rows of the text, the cursor at its end) and the count."""
    screen = session.screen
    width = screen.cols - 4
    height = max(1, screen.rows - 3 - top - 1)
    screen.put(top, 2, clip("Type your message: lines wrap by themselves.  Ctrl-Z or /s"
                            " sends.", screen.cols - 4), theme.LABEL)
    rows = draft.rows(width, session.terminal.charset.name == "utf8")
    shown = rows[-height:]
    for i in range(height):
        screen.put(top + 1 + i, 0, " " * screen.cols)
        if i < len(shown):
            screen.put(top + 1 + i, 2, shown[i], theme.NORMAL)
    end = screen.put(top + len(shown), 2, shown[-1], theme.NORMAL) if shown else 2
    screen.cursor = (top + len(shown), end)
    message(session, note, theme.WARNING if note else theme.MESSAGE)
    status_line(session, f"Ctrl-Z or /s sends · Esc abandons · {count(draft.used, draft.limit)}")
