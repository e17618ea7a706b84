"""The hall of fame: each game's top ten, the caller's best and rank, and the best on one deal.

Each game's record (:mod:`door.catalog.registry`) says how its list ranks (won games only or every
game played to its end; fewest points or the highest score first), its name and the heading
of its score column.  Ties go to
the earlier game.  When the database is unavailable the
screen says so and the caller goes back to the menu as usual.
"""

from __future__ import annotations

import logging

from ...catalog import registry as gamelist
from ...session import Session
from ...store import ScoreEntry, StoreError
from ...store.visit import node_doing
from ...term.digits import parse_number
from ..game.replay import replay_stored
from ..game.still_winnable import HALL_LEGEND, HALL_MARK
from ..shared import theme
from ..shared.key_overlay import entries_from_line, is_help, show_menu_keys
from ..shared.number_input import choice_number, read_digits
from ..shared.widgets import header, message, status_line
from .daily import DailyBoard
from .history import your_games

log = logging.getLogger(__name__)

UNAVAILABLE = "Scores are unavailable right now. Please try again later."
TOP = 4  # first row of the list


def keys_line(count: int) -> str:
    return f"1-{count} game · # deal · T top · R replay · D daily · Y yours · ? keys"


def game_title(game: str) -> str:
    return gamelist.title(game)


def list_title(game: str, number: int | None) -> str:
    if number is not None:
        return f"Best on {game_title(game)} #{number}"
    return gamelist.game(game).hall_name


def rule(game: str) -> str:
    hall = gamelist.game(game).hall
    won = "won games only, " if hall.won_only else ""
    return f"{won}{hall.order}; ties go to the earlier game"


class HallOfFame:
    def __init__(self, session: Session, game: str | None = None) -> None:
        self.session = session
        self.games = gamelist.names()
        self.game = game or self.games[0]
        self.number: int | None = None
        self.entries: list[ScoreEntry] = []
        self.selected = 0
        """The line R replays (lit), an index into ``entries``."""

    async def draw(self) -> None:
        session, screen = self.session, self.session.screen
        screen.clear()
        header(session, "Hall of Fame")
        col = 2
        for i, game in enumerate(self.games, 1):
            label = f" {i} {game_title(game)} "
            col = screen.put(2, col, label, theme.SELECTED if game == self.game
                             else theme.LABEL) + 2
        screen.put(TOP, 2, list_title(self.game, self.number), theme.TITLE)
        screen.put(TOP + 1, 2, rule(self.game), theme.LABEL)
        status_line(session, keys_line(len(self.games)))
        store, player = session.store, session.player
        if store is None:
            message(session, UNAVAILABLE, theme.WARNING)
            return
        try:
            if self.number is None:
                entries = await store.scores.top(self.game)
            else:
                entries = await store.scores.number_board(self.game, self.number)
            best = await store.scores.player_best(self.game, player.id) if player else None
        except StoreError as exc:
            log.warning("hall of fame: %s", exc)
            message(session, UNAVAILABLE, theme.WARNING)
            return
        self.entries = entries
        self.selected = min(self.selected, max(0, len(entries) - 1))
        row = TOP + 3
        score = gamelist.game(self.game).hall.score_column[:7]
        screen.put(row, 2, f"{'Rank':>4}  {'Player':<24} {score:>7}  {'Game #':<12}Date",
                   theme.BRIGHT)
        if not entries:
            screen.put(row + 2, 8, "No scores yet: be the first!", theme.LABEL)
        for i, entry in enumerate(entries, 1):
            mine = player is not None and entry.player_id == player.id
            attr = theme.HOTKEY if mine else theme.LABEL
            if i - 1 == self.selected:
                attr = theme.SELECTED
            mark = HALL_MARK if entry.still_asks else " "
            screen.put(row + i, 2, f"{entry.rank:>4}. {entry.alias[:24]:<24} {entry.score:>7}"
                                   f"{mark} #{entry.number:<11}{entry.ended:%Y-%m-%d}", attr)
        footer = row + 12
        if any(entry.still_asks for entry in entries):
            screen.put(footer - 1, 2, HALL_LEGEND, theme.LABEL)
        if best is None:
            screen.put(footer, 2, "You have no score in this hall yet.", theme.LABEL)
        else:
            screen.put(footer, 2, f"Your best: {best.score} on #{best.number}, "
                                  f"rank {best.rank}.", theme.BRIGHT)
        if player is not None:
            screen.put(footer + 1, 2, "Y: all your games, to replay.", theme.LABEL)

    async def ask_number(self) -> None:
        screen = self.session.screen
        text = await read_digits(self.session, screen.rows - 2, 1, "Game number: ", 10)
        number = parse_number(text or "")
        if number is not None:
            self.number = number

    async def replay(self, entry: ScoreEntry) -> None:
        """Replay the chosen game on its game screen (its record from the store)."""
        await replay_stored(self.session, entry.game_id, entry.alias, entry.score)

    async def run(self) -> None:
        while True:
            await self.draw()
            await self.session.show()
            key = await self.session.key()
            games = self.games
            index = games.index(self.game)
            picked = choice_number(key.char, len(games)) if key.is_char else None
            if is_help(key):
                await show_menu_keys(self.session, "The hall of fame", [
                    *entries_from_line(keys_line(len(games))), ("↑↓", "choose a game"),
                    ("Esc Enter Q", "back")])
                continue
            if key.name in ("esc", "enter") or (key.is_char and key.char.lower() == "q"):
                return
            if key.name in ("right", "left") or picked or (key.is_char and key.char in "tT#gG"):
                self.selected = 0
            if key.name == "right":
                self.game, self.number = games[(index + 1) % len(games)], None
            elif key.name == "left":
                self.game, self.number = games[index - 1], None
            elif picked:
                self.game, self.number = games[picked - 1], None
            elif key.is_char and key.char in "#gG":
                await self.ask_number()
            elif key.is_char and key.char.lower() == "t":
                self.number = None
            elif key.name in ("up", "down") and self.entries:
                step = 1 if key.name == "down" else -1
                self.selected = (self.selected + step) % len(self.entries)
            elif key.is_char and key.char.lower() == "r" and self.entries:
                await self.replay(self.entries[self.selected])
            elif key.is_char and key.char.lower() == "d":
                await DailyBoard(self.session).run()
            elif key.is_char and key.char.lower() == "y" and self.session.player is not None:

                await your_games(self.session)
            elif key.name != "resize":
                self.session.bell()


async def hall_of_fame(session: Session) -> None:
    """The menu action: browse every game's hall of fame until Esc."""
    node_doing(session.store, session.caller, session.player, "Hall of Fame")
    await HallOfFame(session).run()
    node_doing(session.store, session.caller, session.player, "main menu")
