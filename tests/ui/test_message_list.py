"""The message centre in-process with a real SQLite store: a subject too long for its column
ends with an ellipsis, and deleting a message asks first, No unless Y, saying it cannot be
brought back."""

from __future__ import annotations

import asyncio
from pathlib import Path

from pyteterm import QueueTerminal
from waiting import WAIT, until

from door.config import Settings
from door.session import Caller, Services, Session
from door.store import Store
from door.ui.menus.messages import message_centre

SUBJECT = "A subject far too long for the column of thirty-six cells"


async def test_a_long_subject_is_cut_with_an_ellipsis_and_delete_asks_no(
        settings: Settings, tmp_path: Path) -> None:
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'door.db'}")
    assert await store.start()
    ann = await store.players.player("direct", "ann", "Ann")
    bob = await store.players.player("direct", "bob", "Bob")
    await store.messages.send(ann.id, "Bob", SUBJECT, "Hello Bob.")
    terminal = QueueTerminal(charset="utf8")
    session = Session(terminal, Services(settings, store=store), caller=Caller(alias="Bob"),
                      player=bob)
    task = asyncio.create_task(message_centre(session))
    try:
        await until(lambda: "A subject far too long" in terminal.term.text, "the list")
        row = next(line for line in terminal.term.lines if "A subject far too long" in line)
        assert SUBJECT[:35] + "…" in row and SUBJECT not in row
        terminal.inbox.put_nowait(b"d")
        await until(lambda: "It cannot be brought back. (y/N)" in terminal.term.text,
                    "the question")
        terminal.inbox.put_nowait(b"\r")               # Enter: No
        await until(lambda: "(y/N)" not in terminal.term.text, "the question answered")
        assert len(await store.messages.inbox(bob.id)) == 1
        terminal.inbox.put_nowait(b"\x1b")
        await asyncio.wait_for(task, WAIT)
    finally:
        if not task.done():
            task.cancel()
        await store.close()
