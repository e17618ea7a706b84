"""A telnet door that runs one screen of our choosing, so terminal tests do not depend on
the rest of the visit (login, menus) changing around them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from door.config import load_settings
from door.session import Services, Session
from door.ui.menus.settings import terminal_settings
from door.ui.visits.title import title

Screen = Callable[[Session], Awaitable[None]]


async def title_then_settings(session: Session) -> None:
    await title(session)
    await terminal_settings(session)


@pytest.fixture
def screen_door(door_home: Path, telnet_server):
    """``start(screen)`` → port of a telnet door on 127.0.0.1 whose callers each get
    ``screen(session)`` (default: the title, then the terminal settings)."""

    async def start(screen: Screen = title_then_settings) -> int:
        settings = load_settings(door_home)

        async def run(terminal) -> None:
            await screen(Session(terminal, Services(settings)))

        return await telnet_server(run)

    return start
