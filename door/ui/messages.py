"""The message centre: list new or all messages, read them (paged), write, reply, delete.

Everything a caller types for another is cleaned by the store before it is kept, so a
message can never move another reader's cursor or recolour their screen.  The main menu and
the game screens can show :func:`new_messages_note` ("You have 2 new messages").
"""

from __future__ import annotations

import logging
import textwrap

from ..session import Session
from ..store import Message, MessageRefused, StoreError, StoreUnavailable, UnknownPlayer
from ..store.visit import node_seen
from . import theme
from .widgets import (
    confirm,
    header,
    message,
    plural,
    press_any_key,
    read_line,
    status_line,
)

log = logging.getLogger(__name__)

UNAVAILABLE = "Messages are unavailable right now. Please try again later."
LIST_KEYS = "↑↓ Enter read · W write · A all/new · D delete · Esc"
READ_KEYS = "Space more · PgUp back · R reply · D delete · Esc"
TOP = 4
BODY_WIDTH = 76


async def new_messages_note(session: Session) -> str | None:
    """"You have N new messages." for the menu and between games; None if there are none
    or the store cannot say."""
    if session.store is None or session.player is None:
        return None
    try:
        count = await session.store.unread_count(session.player.id)
    except StoreError:
        return None
    if not count:
        return None
    return f"You have {plural(count, 'new message')}."


def wrap_body(body: str, width: int = BODY_WIDTH) -> list[str]:
    lines: list[str] = []
    for paragraph in body.split("\n"):
        lines.extend(textwrap.wrap(paragraph, width) or [""])
    return lines


class MessageCentre:
    def __init__(self, session: Session) -> None:
        self.session = session
        self.store = session.store
        self.player = session.player
        self.unread_only = True
        self.selected = 0
        self.note = ""
        self.note_attr = theme.MESSAGE

    def say(self, text: str, attr=theme.MESSAGE) -> None:
        self.note, self.note_attr = text, attr

    async def run(self) -> None:
        if self.store is None or self.player is None:
            await self.unavailable()
            return
        while True:
            try:
                messages = await self.store.inbox(self.player.id, self.unread_only)
            except StoreError as exc:
                log.warning("message centre: %s", exc)
                await self.unavailable()
                return
            self.selected = max(0, min(self.selected, len(messages) - 1))
            self.draw_list(messages)
            await self.session.show()
            key = await self.session.key()
            self.note = ""
            char = key.char.lower() if key.is_char else ""
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

    async def unavailable(self) -> None:
        self.session.screen.clear()
        header(self.session, "Message Centre")
        message(self.session, UNAVAILABLE, theme.WARNING)
        await press_any_key(self.session)

    def draw_list(self, messages: list[Message]) -> None:
        session, screen = self.session, self.session.screen
        screen.clear()
        header(session, "Message Centre")
        which = "New messages" if self.unread_only else "All messages"
        screen.put(2, 2, f"{which} for {self.player.alias}", theme.TITLE)
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
            line = f" {flag} {msg.sender[:20]:<20} {msg.subject[:36]:<36} {msg.sent:%Y-%m-%d}"
            screen.put(TOP + 1 + i, 2, line.ljust(screen.cols - 4), attr)
        if self.note:
            message(session, self.note, self.note_attr)
        status_line(session, LIST_KEYS)

    async def read(self, msg: Message) -> None:
        if msg.unread:
            try:
                await self.store.mark_read(self.player.id, msg.id)
            except StoreError as exc:
                log.warning("message centre: %s", exc)
        lines = wrap_body(msg.body)
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
        screen.put(2, 11, msg.sender, theme.HOTKEY)
        screen.put(3, 2, "Subject: ", theme.BRIGHT)
        screen.put(3, 11, msg.subject, theme.LABEL)
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
        if not await confirm(self.session, f"Delete the message from {msg.sender}?"):
            return False
        try:
            await self.store.delete_message(self.player.id, msg.id)
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
        await self.write(to=msg.sender, subject=subject)

    async def write(self, to: str | None = None, subject: str | None = None) -> None:
        """Ask for recipient, subject and text, then send.  Esc at any prompt abandons."""
        session, screen = self.session, self.session.screen
        screen.clear()
        header(session, "Message Centre")
        screen.put(2, 2, "Write a message", theme.TITLE)
        status_line(session, "Enter accepts · Esc abandons")
        limits = self.store.limits
        while to is None:
            name = await read_line(session, 4, 2, "To:      ", limits.alias)
            if name is None:
                return
            if not name.strip():
                continue
            try:
                await self.store.recipient(name)
            except UnknownPlayer as exc:
                message(session, f"{str(exc)[:1].upper()}{str(exc)[1:]}", theme.WARNING)
                continue
            except StoreUnavailable:
                self.say(UNAVAILABLE, theme.WARNING)
                return
            to = name
        message(session, "")
        screen.put(4, 2, f"To:      {to}", theme.BRIGHT)
        if subject is None:
            subject = await read_line(session, 5, 2, "Subject: ", limits.subject)
            if subject is None:
                return
        screen.put(5, 2, f"Subject: {subject}".ljust(screen.cols - 4), theme.BRIGHT)
        body = await self._read_body(7)
        if body is None:
            self.say("Message abandoned.")
            return
        try:
            await self.store.send_message(self.player.id, to, subject, body)
        except (UnknownPlayer, MessageRefused) as exc:
            self.say(f"Not sent: {exc}.", theme.WARNING)
            return
        except StoreError as exc:
            log.warning("message centre: %s", exc)
            self.say(UNAVAILABLE, theme.WARNING)
            return
        self.say(f"Message sent to {to}.")

    async def _read_body(self, top: int) -> str | None:
        """Lines of text, one per Enter; a line holding only /s sends, /a abandons."""
        session, screen = self.session, self.session.screen
        screen.put(top, 2, "Type your message. On a line by itself: /s sends, /a abandons.",
                   theme.LABEL)
        limit = self.store.limits.body
        lines: list[str] = []
        max_rows = screen.rows - top - 5
        while True:
            shown = lines[-(max_rows - 1):] if max_rows > 1 else []
            for i in range(max_rows):
                screen.put(top + 1 + i, 2, " " * (screen.cols - 4))
            for i, line in enumerate(shown):
                screen.put(top + 1 + i, 2, line, theme.NORMAL)
            used = sum(len(line) + 1 for line in lines)
            status_line(session, f"/s sends · /a abandons · {used}/{limit} characters")
            row = top + 1 + len(shown)
            line = await read_line(session, row, 2, "", BODY_WIDTH - 2)
            if line is None or line.strip().lower() == "/a":
                return None
            if line.strip().lower() == "/s":
                return "\n".join(lines)
            if used + len(line) + 1 > limit:
                session.bell()
                message(session, f"The message is full ({limit} characters): /s sends it.",
                        theme.WARNING)
                continue
            lines.append(line)


async def message_centre(session: Session) -> None:
    """The menu action: the caller's messages until Esc."""
    await node_seen(session.store, session.caller, session.player, "Message Centre")
    await MessageCentre(session).run()
    await node_seen(session.store, session.caller, session.player, "main menu")
