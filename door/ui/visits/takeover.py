"""The question a caller meets when their handle is already in the door on another line."""

from __future__ import annotations

from ...session import Session
from ..shared import theme
from ..shared.widgets import confirm, header, message

DECLINED = "One call at a time, please. Goodbye."


async def ask_to_take_over(session: Session, where: str) -> bool:
    """True when the caller wants the other call (``where``: "node 3") hung up, its game
    saved, and to carry on here."""
    screen = session.screen
    screen.clear()
    header(session, "Already here")
    alias = session.caller.alias
    screen.put(3, 2, f"{alias} is already in the door on {where}."[: screen.cols - 4],
               theme.BRIGHT)
    screen.put(5, 2, "Y  hangs that call up (a game in progress is saved) and carries on "
                     "here", theme.LABEL)
    screen.put(6, 2, "N  ends this call instead", theme.LABEL)
    return await confirm(session, f"Hang up the call on {where}?")


async def say_declined(session: Session) -> None:
    """The caller chose to end this call: say so, and leave it up as the goodbye is (``[door]
    goodbye_pause`` seconds, or until a key), since a BBS clears the screen, and a telnet
    client its window, the moment the door is gone."""
    message(session, DECLINED, theme.WARNING)
    session.screen.cursor = (session.screen.rows - 2, 0)
    await session.show()
    session.sign_off()
    await session.linger(session.settings.door.goodbye_pause)
