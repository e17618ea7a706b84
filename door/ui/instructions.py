"""Instructions for each game: ``ansi/<game>.ins`` in our own words, with BBS colour codes."""

from __future__ import annotations

from ..session import Session
from .number_input import choice_number
from .widgets import box_text, header, status_line

TITLES = {"mariant": "Mariant", "montecarlo": "Monte Carlo", "auntmary": "Aunt Mary",
          "anciento": "Anciento"}


async def show_instructions(session: Session, game: str) -> None:
    """Page the game's instruction file; say so plainly when the sysop removed it."""
    path = session.settings.ansi_dir / f"{game}.ins"
    try:
        text = path.read_text(encoding="cp437")
    except OSError:
        session.screen.clear()
        header(session, "Instructions")
        box_text(session, [f"No instructions for {TITLES.get(game, game)}: {path.name} is "
                           "missing from the ansi folder.", "", "Press any key."])
        await session.show()
        await session.key()
        return
    from .pager import page_text
    await page_text(session, text, title=f"{TITLES.get(game, game)}: how to play")


async def instructions_menu(session: Session) -> None:
    """The main menu's Instructions: pick a game, read its rules."""
    games = list(TITLES.items())
    while True:
        session.screen.clear()
        header(session, "Instructions")
        box_text(session, [f"[{i}] {title}" for i, (_, title) in enumerate(games, 1)]
                 + ["", "Esc or Q: back to the main menu"], title="Which game?")
        status_line(session, "1-4 choose · Esc back")
        await session.show()
        key = await session.key()
        if key.name == "esc" or (key.is_char and key.char in "qQ"):
            return
        chosen = choice_number(key.char, len(games)) if key.is_char else None
        if chosen is not None:
            await show_instructions(session, games[chosen - 1][0])
        elif key.name != "resize":
            session.bell()
