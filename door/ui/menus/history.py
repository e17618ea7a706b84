"""Your games: the caller's finished games, newest first, a page at a time; R replays one.

Reached from the hall of fame (Y), where the other replays are: a caller looking at scores
is the one who wants theirs, and the main menu (which sysops arrange in sysop.ini) stays
as it is.  Each line gives the game, its number, the date, the score, the result and its
marks: ``U3`` for three undos in the record, ``C`` for a game flagged by its own rules
(an undo its rules call cheating), ``v`` where "still winnable?" was asked (as in the
hall of fame).  Hints leave no trace in a record, so none is shown.
"""

from __future__ import annotations

import logging

from ...catalog import registry as gamelist
from ...session import Session
from ...store import StoreError
from ...store.records import PastGame
from ...term import Key
from ..game.replay import Replay
from ..game.still_winnable import HALL_MARK
from ..shared import theme
from ..shared.key_overlay import entries_from_line, is_help, show_menu_keys
from ..shared.widgets import header, message, plural, status_line

log = logging.getLogger(__name__)

TOP = 4  # the column heads' row
KEYS = "↑↓ choose · R replay · PgUp/PgDn page · ? keys · Esc back"
UNAVAILABLE = "Your games are unavailable right now. Please try again later."


def marks(entry: PastGame) -> str:
    """``U3 C v``: undos in the record, the game's own cheat flag, the solver's help asked
    ("still winnable?", a search player's hint)."""
    parts = [f"U{entry.undos}"] if entry.undos else []
    if entry.cheater:
        parts.append("C")
    if entry.still_asks:
        parts.append(HALL_MARK)
    return " ".join(parts)


def line_of(entry: PastGame) -> str:
    title = gamelist.title(entry.record.game)
    return (f"{entry.ended:%Y-%m-%d %H:%M}  {title[:12]:<12} #{entry.record.number:<11}"
            f"{entry.score:>7}  {entry.status[:8]:<8}  {marks(entry)}")


class YourGames:
    """The screen; :meth:`run` until the caller leaves."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.first = 0
        """Index of the page's first game (0: the newest)."""
        self.selected = 0
        """The line R replays, on this page."""
        self.entries: list[PastGame] = []
        self.total = 0

    @property
    def page_size(self) -> int:
        return max(1, self.session.screen.rows - TOP - 5)

    async def load(self) -> bool:
        """Read the page at :attr:`first`; False (and the reason shown) when it cannot."""
        store, player = self.session.store, self.session.player
        if store is None or player is None:
            return False
        try:
            self.entries, self.total = await store.scores.player_games(player.id, self.first,
                                                                       self.page_size)
        except StoreError as exc:
            log.warning("your games: %s", exc)
            return False
        self.selected = min(self.selected, max(0, len(self.entries) - 1))
        return True

    def draw(self, loaded: bool, note: str) -> None:
        session, screen = self.session, self.session.screen
        screen.clear()
        screen.cursor = None
        header(session, "Your Games")
        if not loaded:
            message(session, UNAVAILABLE, theme.WARNING)
            status_line(session, "Esc back")
            return
        last = self.first + len(self.entries)
        screen.put(2, 2, f"Your finished games, newest first: {self.first + 1}-{last} of "
                         f"{self.total}" if self.entries else "Your finished games",
                   theme.TITLE)
        screen.put(TOP, 2, f"{'Date':<16}  {'Game':<12} {'Number':<12}{'Score':>7}  "
                           f"{'Result':<6}  Marks", theme.BRIGHT)
        if not self.entries:
            screen.put(TOP + 2, 6, "You have not finished a game yet.", theme.LABEL)
        for i, entry in enumerate(self.entries):
            screen.put(TOP + 1 + i, 2, line_of(entry),
                       theme.SELECTED if i == self.selected else theme.LABEL)
        if note:
            message(session, note, theme.WARNING)
        else:
            message(session, "Marks: U undos · C flagged by the game's rules · v \"still "
                    "winnable?\" asked", theme.LABEL)
        status_line(session, KEYS)

    def turn_page(self, key: Key) -> bool:
        """PgDn/PgUp (and → ←): the next or previous page; False at either end."""
        forward = key.name in ("pgdn", "right")
        first = self.first + (self.page_size if forward else -self.page_size)
        if first < 0 or first >= self.total:
            return False
        self.first, self.selected = first, 0
        return True

    async def run(self) -> None:
        loaded, note = await self.load(), ""
        while True:
            self.draw(loaded, note)
            await self.session.show()
            key = await self.session.key()
            note = ""
            char = key.char.lower() if key.is_char else ""
            if is_help(key):
                await show_menu_keys(self.session, "Your games", entries_from_line(KEYS))
                continue
            if key.name == "esc" or char == "q":
                return
            if not loaded or key.name == "resize":
                loaded = await self.load()
            elif key.name in ("up", "down") and self.entries:
                step = 1 if key.name == "down" else -1
                self.selected = (self.selected + step) % len(self.entries)
            elif key.name in ("pgdn", "pgup", "right", "left"):
                if self.turn_page(key):
                    loaded = await self.load()
                else:
                    self.session.bell()
                    note = ("That is the last page." if key.name in ("pgdn", "right")
                            else "That is the first page.") + f" ({plural(self.total, 'game')})"
            elif (char == "r" or key.name == "enter") and self.entries:
                entry = self.entries[self.selected]
                await Replay(self.session, entry.record, self.session.caller.alias,
                             entry.score).run()
            else:
                self.session.bell()


async def your_games(session: Session) -> None:
    """From the hall of fame: the caller's own games until Esc."""
    await YourGames(session).run()
