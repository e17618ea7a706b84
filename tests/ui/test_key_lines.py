"""Every screen's key line and status line fit 80 columns with a 30-character handle (a BBS
may send one that long), in CP437, UTF-8 and ASCII: the key line whole, the status line
keeping its help and leave keys, the handle cut with an ellipsis where the keys need room."""

from __future__ import annotations

import pytest
from pyteterm import QueueTerminal

from door.catalog.record import GameInfo
from door.config import Settings
from door.session import Caller, Services, Session
from door.ui.menus import daily, halloffame, history, messages
from door.ui.menus import main as menu
from door.ui.shared.widgets import cut, fit_keys, status_line

HANDLE = "Sir Reginald Fotheringay-Smyth"   # 30 characters
CHARSETS = ("cp437", "utf8", "ascii")
VARIANTS = {"montecarlo": [{"mode": "relaxed"}]}
"""Options whose key line differs from the default game's, by game."""


def session_for(settings: Settings, charset: str) -> tuple[Session, QueueTerminal]:
    assert len(HANDLE) == 30
    terminal = QueueTerminal(charset=charset)
    return Session(terminal, Services(settings), caller=Caller(alias=HANDLE)), terminal


def row_text(session: Session, row: int) -> str:
    return "".join(cell.ch for cell in session.screen.cells[row])


def check_status_row(session: Session, terminal: QueueTerminal) -> str:
    """The status row as drawn, and as the caller's terminal shows it: within 80 columns,
    the bottom-right cell blank, help and leave keys there, the handle's start there."""
    screen = session.screen
    drawn = row_text(session, screen.rows - 1)
    assert len(drawn) == 80 and drawn[79] == " "
    shown = terminal.term.lines[23]
    assert len(shown) == 80 and shown[79] == " "
    assert HANDLE[:10] in shown and "min left" in shown
    return shown


def check_header(terminal: QueueTerminal) -> None:
    assert terminal.term.lines[0].startswith(" R")        # nothing scrolled


@pytest.mark.parametrize("charset", CHARSETS)
async def test_a_game_screens_key_line_fits(settings: Settings, charset: str,
                                            every_game: GameInfo) -> None:
    for options in [{}, *VARIANTS.get(every_game.name, [])]:
        session, terminal = session_for(settings, charset)
        screen = every_game.screen_class()(session, every_game.start(5, options))
        screen.draw()
        await session.show()
        key_line = row_text(session, 21)
        assert key_line.strip() == screen.key_line, "the key line is shown whole"
        assert "X " in screen.key_line                 # resign (or the game's end) is on it
        shown = check_status_row(session, terminal)
        assert "? keys" in shown and "Q quit" in shown
        check_header(terminal)


@pytest.mark.parametrize("charset", CHARSETS)
async def test_the_main_menu_fits(settings: Settings, charset: str) -> None:
    session, terminal = session_for(settings, charset)
    menu.draw_menu(session, session.settings.enabled_menu, 0)
    await session.show()
    assert "Hot key" in check_status_row(session, terminal)
    check_header(terminal)


KEY_TEXTS = [
    messages.LIST_KEYS, messages.READ_KEYS, daily.KEYS, history.KEYS,
    halloffame.keys_line(4),
    "↑↓ ←→ setup · digits: number · W winnable · Enter · ? keys · Esc back",
    "Enter: random deal · W winnable only · A ask after moves · ? keys · Esc: back",
    "C charset · O colour · R rows · W watching · Q/Esc back",
]


@pytest.mark.parametrize("charset", CHARSETS)
@pytest.mark.parametrize("keys", KEY_TEXTS)
async def test_every_status_line_keeps_its_way_out(settings: Settings, charset: str,
                                                   keys: str) -> None:
    session, terminal = session_for(settings, charset)
    status_line(session, keys)
    await session.show()
    shown = check_status_row(session, terminal)
    ways_out = [item for item in keys.split(" · ") if "Esc" in item or item.startswith("?")]
    for item in ways_out:
        assert item.replace("↑↓", "^v").replace("←→", "<>") in shown or item in shown


def test_fit_keys_drops_items_before_the_ways_out() -> None:
    text = "Score 180 · 3 watching · V still winnable? · ? keys · Q quit"
    assert fit_keys(text, 80) == text
    assert fit_keys(text, 40) == "Score 180 · 3 watching · ? keys · Q quit"
    assert fit_keys(text, 30) == "Score 180 · ? keys · Q quit"
    assert fit_keys(text, 10) == "? keys · …"
    assert cut("abcdef", 4) == "abc…" and cut("abc", 4) == "abc" and cut("abc", 0) == ""
