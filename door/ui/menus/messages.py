"""The message centre: list new or all messages, read them (paged), write, reply, delete.

Everything a caller types for another is cleaned by the store before it is kept, so a
message can never move another reader's cursor or recolour their screen.  The main menu and
the game screens show the count of new ones (door/ui/shared/news.py).
"""

from __future__ import annotations

import logging

from ...session import Session
from ...store import Message, MessageRefused, Player, Store, StoreError, UnknownPlayer
from ...store.visit import node_doing
from ...term import Attr
from ...term.width import for_display, pad, wrap
from ..shared import theme
from ..shared.editor import ABANDON_QUESTION, edit_message
from ..shared.key_overlay import entries_from_line, is_help, show_menu_keys
from ..shared.widgets import (
    confirm,
    cut,
    header,
    message,
    press_any_key,
    read_line,
    status_line,
)

log = logging.getLogger(__name__)

UNAVAILABLE = "Messages are unavailable right now. Please try again later."
LIST_KEYS = "↑↓ Enter read · W write · A all/new · D delete · ? keys · Esc"
READ_KEYS = "Space more · PgUp back · R reply · D delete · Esc"
TOP = 4
BODY_WIDTH = 76
QUOTE_MARK = "> "
QUOTE_LINES = 8
"""Lines of the original a reply quotes; past them, ``[...]`` says there was more."""


def wrap_body(body: str, width: int = BODY_WIDTH, wide: bool = True) -> list[str]:
    """The body as rows of the reading screen: each paragraph wrapped at ``width`` cells
    (``wide`` False: for a CP437 or ASCII caller, wide characters as ``?``)."""
    return [row for paragraph in body.split("\n")
            for row in wrap(for_display(paragraph, wide), width)]


def quote(msg: Message, width: int = BODY_WIDTH - len(QUOTE_MARK)) -> str:
    """The start of a reply: the original's own lines (not its quotes of earlier messages),
    wrapped and marked ``> ``, at most QUOTE_LINES of them, then a blank line."""
    lines = [line for line in msg.body.split("\n") if not line.startswith(">")]
    rows = [row for line in lines for row in wrap(line.rstrip(), width)]
    while rows and not rows[0].strip():
        rows.pop(0)
    while rows and not rows[-1].strip():
        rows.pop()
    if len(rows) > QUOTE_LINES:
        rows = [*rows[:QUOTE_LINES], "[...]"]
    if not rows:
        return ""
    head = f"{msg.sender} wrote:"
    return "\n".join([head, *(f"{QUOTE_MARK}{row}".rstrip() for row in rows), "", ""])


class MessageCentre:
    """The caller's messages, read and written through the store (only a known player with
    a working store gets here: :func:`message_centre` tells the others why not)."""

    def __init__(self, session: Session, store: Store, player: Player) -> None:
        self.session = session
        self.store = store
        self.player = player
        self.unread_only = True
        self.selected = 0
        self.note = ""
        self.note_attr = theme.MESSAGE

    def say(self, text: str, attr: Attr = theme.MESSAGE) -> None:
        self.note, self.note_attr = text, attr

    async def run(self) -> None:
        while True:
            try:
                messages = await self.store.messages.inbox(self.player.id, self.unread_only)
            except StoreError as exc:
                log.warning("message centre: %s", exc)
                await unavailable(self.session)
                return
            self.selected = max(0, min(self.selected, len(messages) - 1))
            self.draw_list(messages)
            await self.session.show()
            key = await self.session.key()
            self.note = ""
            char = key.char.lower() if key.is_char else ""
            if is_help(key):
                await show_menu_keys(self.session, "The message centre",
                                     entries_from_line(LIST_KEYS))
                continue
            if key.name == "esc" or char == "q":
                return
            if key.name == "up":
                self.selected = max(0, self.selected - 1)
            elif key.name == "down":
                self.selected = min(len(messages) - 1, self.selected + 1)
            elif (key.name == "enter" or char == "r") and messages:
                await self.read(messages[self.selected])
            elif char == "w":
                await self.write()
            elif char == "a":
                self.unread_only = not self.unread_only
                self.selected = 0
            elif char == "d" and messages:
                await self.delete(messages[self.selected])
            elif key.name != "resize":
                self.session.bell()

    def draw_list(self, messages: list[Message]) -> None:
        session, screen = self.session, self.session.screen
        screen.clear()
        header(session, "Message Centre")
        which = "New messages" if self.unread_only else "All messages"
        screen.put(2, 2, f"{which} for {self._shown(self.player.alias)}", theme.TITLE)
        screen.put(TOP, 2, f"   {'From':<20} {'Subject':<36} Sent", theme.BRIGHT)
        if not messages:
            empty = "No new messages. A shows them all, W writes one." if self.unread_only \
                else "No messages. W writes one."
            screen.put(TOP + 2, 5, empty, theme.LABEL)
        visible = screen.rows - TOP - 5
        first = max(0, self.selected - visible + 1)
        for i, msg in enumerate(messages[first:first + visible]):
            index = first + i
            attr = theme.SELECTED if index == self.selected else theme.LABEL
            flag = "*" if msg.unread else " "
            line = (f" {flag} {pad(cut(self._shown(msg.sender), 20), 20)} "
                    f"{pad(cut(self._shown(msg.subject), 36), 36)} {msg.sent:%Y-%m-%d}")
            screen.put(TOP + 1 + i, 2, pad(line, screen.cols - 4), attr)
        if self.note:
            message(session, self.note, self.note_attr)
        status_line(session, LIST_KEYS)

    async def read(self, msg: Message) -> None:
        if msg.unread:
            try:
                await self.store.messages.mark_read(self.player.id, msg.id)
            except StoreError as exc:
                log.warning("message centre: %s", exc)
        lines = wrap_body(msg.body, wide=self.session.terminal.charset.name == "utf8")
        page_size = self.session.screen.rows - 10
        page = 0
        while True:
            pages = max(1, -(-len(lines) // page_size))
            self.draw_message(msg, lines[page * page_size:(page + 1) * page_size], page, pages)
            await self.session.show()
            key = await self.session.key()
            self.note = ""
            char = key.char.lower() if key.is_char else ""
            if key.name == "esc" or char == "q":
                return
            if key.name in ("pgdn", "down", "enter") or char == " ":
                if page + 1 < pages:
                    page += 1
                elif key.name == "enter" or char == " ":
                    return
            elif key.name in ("pgup", "up"):
                page = max(0, page - 1)
            elif char == "r":
                await self.reply(msg)
                return
            elif char == "d":
                if await self.delete(msg):
                    return
            elif key.name != "resize":
                self.session.bell()

    def draw_message(self, msg: Message, lines: list[str], page: int, pages: int) -> None:
        session, screen = self.session, self.session.screen
        screen.clear()
        header(session, "Message Centre")
        screen.put(2, 2, "From:    ", theme.BRIGHT)
        screen.put(2, 11, self._shown(msg.sender), theme.HOTKEY)
        screen.put(3, 2, "Subject: ", theme.BRIGHT)
        screen.put(3, 11, cut(self._shown(msg.subject), screen.cols - 13), theme.LABEL)
        screen.put(4, 2, "Sent:    ", theme.BRIGHT)
        screen.put(4, 11, f"{msg.sent:%Y-%m-%d %H:%M} UTC", theme.LABEL)
        screen.put(5, 2, "─" * BODY_WIDTH, theme.FRAME)
        for i, line in enumerate(lines):
            screen.put(6 + i, 2, line, theme.NORMAL)
        if pages > 1:
            screen.put(screen.rows - 3, 2, f"Page {page + 1} of {pages}", theme.LABEL)
        if self.note:
            message(session, self.note, self.note_attr)
        status_line(session, READ_KEYS)

    async def delete(self, msg: Message) -> bool:
        if not await confirm(self.session, f"Delete the message from {self._shown(msg.sender)}? "
                             "It cannot be brought back.", default=False):
            return False
        try:
            await self.store.messages.delete(self.player.id, msg.id)
        except StoreError as exc:
            log.warning("message centre: %s", exc)
            self.say(UNAVAILABLE, theme.WARNING)
            return False
        self.say("Message deleted.")
        return True

    async def reply(self, msg: Message) -> None:
        if msg.sender_id is None:
            self.say(f"{msg.sender} is no longer a player here: no reply possible.",
                     theme.WARNING)
            return
        subject = msg.subject if msg.subject.lower().startswith("re:") else f"Re: {msg.subject}"
        await self.write(to=msg.sender, subject=subject, text=quote(msg))

    async def write(self, to: str | None = None, subject: str | None = None,
                    text: str = "") -> None:
        """Ask for recipient, subject and text, then send.  Esc abandons, asking first
        once anything is typed."""
        session, screen = self.session, self.session.screen
        screen.clear()
        header(session, "Message Centre")
        screen.put(2, 2, "Write a message", theme.TITLE)
        status_line(session, "Enter accepts · Esc abandons")
        limits = self.store.core.limits
        while to is None:
            name = await read_line(session, 4, 2, "To:      ", limits.alias,
                                   ask_to_cancel=ABANDON_QUESTION)
            if name is None:
                return
            if not name.strip():
                continue
            problem, to = await self._recipient(name)
            if problem == UNAVAILABLE:
                self.say(UNAVAILABLE, theme.WARNING)
                return
            if problem:
                message(session, problem, theme.WARNING)
        message(session, "")
        screen.put(4, 2, f"To:      {self._shown(to)}", theme.BRIGHT)
        typed_subject = subject is None
        if subject is None:
            subject = await read_line(session, 5, 2, "Subject: ", limits.subject,
                                      ask_to_cancel=ABANDON_QUESTION)
            if subject is None:
                return
        screen.put(5, 2, pad(cut(f"Subject: {self._shown(subject)}", screen.cols - 4),
                             screen.cols - 4), theme.BRIGHT)
        body = await edit_message(session, 7, limits.body, text,
                                  ask_first=typed_subject and bool(subject.strip()))
        if body is None:
            self.say("Message abandoned.")
            return
        try:
            await self.store.messages.send(self.player.id, to, subject, body)
        except (UnknownPlayer, MessageRefused) as exc:
            self.say(f"Not sent: {exc}.", theme.WARNING)
            return
        except StoreError as exc:
            log.warning("message centre: %s", exc)
            self.say(UNAVAILABLE, theme.WARNING)
            return
        self.say(f"Message sent to {self._shown(to)}.")

    async def _recipient(self, name: str) -> tuple[str, str | None]:
        """(why not, None) or ("", the player's alias as they spell it) for a typed name."""
        try:
            player_id = await self.store.messages.recipient(name)
            player = await self.store.players.by_id(player_id)
        except UnknownPlayer as exc:
            return f"{str(exc)[:1].upper()}{str(exc)[1:]}", None
        except StoreError:
            return UNAVAILABLE, None
        if player_id == self.player.id:
            return "That is you: write to another player.", None
        if player is None:
            return f"No player called {name}.", None
        return "", player.alias

    def _shown(self, text: str) -> str:
        """Caller text as this caller's charset shows it (wide characters as ``?`` in CP437)."""
        return for_display(text, self.session.terminal.charset.name == "utf8")


async def unavailable(session: Session) -> None:
    session.screen.clear()
    header(session, "Message Centre")
    message(session, UNAVAILABLE, theme.WARNING)
    await press_any_key(session)


async def message_centre(session: Session) -> None:
    """The menu action: the caller's messages until Esc."""
    node_doing(session.store, session.caller, session.player, "Message Centre")
    if session.store is None or session.player is None:
        await unavailable(session)
    else:
        await MessageCentre(session, session.store, session.player).run()
    node_doing(session.store, session.caller, session.player, "main menu")
