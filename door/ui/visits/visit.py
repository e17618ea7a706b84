"""One caller's whole visit: the title, the main menu (or the one screen an RLogin caller
was sent to), the goodbye, and how each way of leaving ends (Quit, time up, idle, a window
too small, carrier loss).

It lives in ``door.ui`` and not beside :class:`~door.session.Session`: the session is what
the screens draw on and read keys from, and knows nothing of them; the visit is the
outermost screen.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from ...session import (
    NOTICE_PAUSE,
    CarrierLost,
    IdleTimeout,
    Session,
    TimeUp,
    WindowTooSmall,
)
from ..menus.main import QuitDoor, main_menu, straight_to
from ..shared import access
from ..shared.widgets import message
from .title import goodbye, title

log = logging.getLogger("door.session")
"""The visit's lines ("connected", "left", "carrier lost") keep the logger they always had."""


async def run_visit(session: Session) -> None:
    """A whole visit: title, main menu, goodbye.  Ends quietly on carrier loss."""
    log.info("node %s: %s connected from %s", session.caller.node, session.caller.alias,
             session.terminal.peer or "local")
    access.start(session)  # the mouse and the describe key, on every screen from here
    try:
        if session.start_action is None and session.first_action is None:
            await title(session)
        # The game screens (and the store some import) load while the title is up: a BBS
        # caller sees the first screen sooner.  (A late import for start-up time, not to
        # hide a cycle: the actions module does not import this one.)
        from .actions import (  # local: the menus and game screens load after the title
            actions,
            game_alone,
        )
        if session.preparing is not None:
            with contextlib.suppress(Exception):
                await session.preparing
        if session.admission is not None and not await session.admission():
            return
        if session.start_action is not None:
            await straight_to(session, game_alone(session.start_action))
        if session.first_action is not None:  # a web call back after a dropped line
            from ..menus.settings import (
                apply_saved_choice,  # local: the menus and game screens load after the title
            )

            apply_saved_choice(session)
            await actions()[session.first_action](session)
        await main_menu(session, actions())
    except QuitDoor:
        session.leaving = True
        session.drop_typeahead()
        with contextlib.suppress(CarrierLost):  # gone during the goodbye: nothing to save
            await goodbye(session)
    except WindowTooSmall:
        session.leaving = True
        await session.save_game_in_progress()
        with contextlib.suppress(ConnectionError, OSError):
            session.sign_off(f"Farewell, {session.caller.alias}: see you in a bigger window.",
                             clear=True)
            await session.flush()
    except (IdleTimeout, TimeUp) as exc:
        session.leaving = True
        await session.save_game_in_progress()
        text = ("Your time is up." if isinstance(exc, TimeUp)
                else "No key for too long: see you next time.")
        message(session, text)
        session.drop_typeahead()
        with contextlib.suppress(CarrierLost):
            await session.show()
            await asyncio.sleep(NOTICE_PAUSE)
            await goodbye(session)
    except CarrierLost:
        log.info("node %s: carrier lost", session.caller.node)
        await session.save_game_in_progress()
    except asyncio.CancelledError:
        await asyncio.shield(session.save_game_in_progress())
        raise
    finally:
        access.finish(session)  # the terminal as it was: a BBS gets its caller back
        log.info("node %s: %s left", session.caller.node, session.caller.alias)
