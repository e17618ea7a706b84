""""You have N new messages.": the note the main menu and the end of a game both show.

Here, below the menus and the game screens, so that a game screen need not import the
main menu for it.  It loads the store (SQLAlchemy): the main menu, which loads before the
title, imports it when first asked.
"""

from __future__ import annotations

from ...session import Session
from ...store import StoreError
from .widgets import plural


async def new_messages_note(session: Session) -> str | None:
    """"You have N new messages." for the menu and between games; None if there are none
    or the store cannot say."""
    if session.store is None or session.player is None:
        return None
    try:
        count = await session.store.messages.unread_count(session.player.id)
    except StoreError:
        return None
    if not count:
        return None
    return f"You have {plural(count, 'new message')}."


async def messages_news(session: Session) -> str:
    """The note when there is one and the message centre is on the menu, else ""."""
    if not any(e.action == "messages" for e in session.settings.enabled_menu):
        return ""
    return await new_messages_note(session) or ""
