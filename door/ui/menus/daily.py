"""The daily challenge board: today's deal of each game (``door.games.daily``), who played
it and the best score, the leaderboards of today and of the month, the streaks, a replay of
any counted attempt, and the key that plays a challenge.

A caller's FIRST finished attempt at a day's challenge counts (``daily_entries``); they may
play it again, and are told beforehand and at the end that it does not count.  Days are UTC
days: the screen says so, with the time left until 00:00 UTC.  The time is read from
``daily_status.CLOCK`` (tests set it).
"""

from __future__ import annotations

import calendar
import logging
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from ...catalog import registry as gamelist
from ...games import GameRecord
from ...games.daily import DailyDeal
from ...session import Session
from ...store import DailyEntry, DailyStanding, Player, Store, StoreError
from ...store.league import LadderEntry
from ...store.streaks import Streak, streaks
from ...store.visit import node_doing
from ...term.screen import Attr
from ..game import daily_status
from ..game.daily_status import daily_attempt
from ..game.replay import replay_record, replay_stored
from ..game.screen import Opening, ordinal, play_game, screen_class, unfinished
from ..shared import theme
from ..shared.key_overlay import entries_from_line, is_help, show_menu_keys
from ..shared.number_input import choice_number
from ..shared.widgets import confirm, header, message, status_line

log = logging.getLogger(__name__)

STREAK_DAYS = 400
"""How far back streaks are counted."""
TODAY, MONTH, STREAKS, LEAGUE, BOARDS = "today", "month", "streaks", "league", "boards"
KEYS = "1-4 ←→ game · P play · R replay · ? keys · Esc back"
VIEW_KEYS = "T today's board · M this month · S streaks · ↑↓ pick a game to replay (R)"
LEAGUE_VIEW_KEYS = "T today · M month · S streaks · L league · B boards · ↑↓ R replay"
"""With [league] on: the league ladder (L) and board against board (B) too."""
UNAVAILABLE = "The daily boards are unavailable right now. Please try again later."
TOP = 3          # first row of the challenges table
LIST_TOP = 11    # first row of the leaderboard
LIST_ROWS = 9


def resets_in(now: datetime) -> str:
    """``resets at 00:00 UTC, in 5 h 12 min``."""
    now = now.astimezone(UTC)
    midnight = datetime.combine(now.date() + timedelta(days=1), datetime.min.time(), UTC)
    minutes = max(1, int((midnight - now).total_seconds() // 60))
    return f"resets at 00:00 UTC, in {minutes // 60} h {minutes % 60:02d} min"


def month_range(day: date) -> tuple[date, date]:
    last = calendar.monthrange(day.year, day.month)[1]
    return day.replace(day=1), day.replace(day=last)


def title_of(game: str) -> str:
    return gamelist.title(game)


async def play_challenge(session: Session, deal: DailyDeal) -> None:
    """Play the day's challenge of one game on its own screen.  The caller's unfinished
    game of that title is taken up if it is this very challenge, else replaced (as by a new
    deal), after asking."""
    screen_cls = screen_class(deal.game)
    found = await unfinished(session, screen_cls)
    opening = Opening(gamelist.engine(deal.game).new(deal.number, **deal.options),
                      daily_day=deal.day)
    if found is not None:
        game, state = found
        kept = Opening.from_state(game, state)
        if kept.daily_day == deal.day:
            opening = kept                   # this challenge, left unfinished: go on with it
        elif not await confirm(session, f"Your unfinished {screen_cls.title} game "
                                        f"#{game.number} will be replaced. Go on?", default=False):
            return
    await play_game(session, screen_cls, opening, back_to="the daily board")


@dataclass(frozen=True)
class GameDay:
    """One game's challenge of a day, with its boards (for bulletins and the web)."""

    game: str
    title: str
    number: int
    players: int
    today: list[DailyEntry]
    month: list[DailyStanding]


MONTH_LINES = 3
"""Players per game in the month's line of a bulletin or a web page."""


def standing_json(standing: DailyStanding) -> dict[str, Any]:
    """One player's month of a game's challenges as JSON (bulletin and web alike)."""
    return {"rank": standing.rank, "player": standing.alias, "won": standing.won,
            "played": standing.played, "best": standing.best}


async def gather(store: Store, day: date, limit: int, month_limit: int = MONTH_LINES,
                 ) -> tuple[list[GameDay], list[Streak]]:
    """Each game's challenge of ``day`` with its ``limit`` best first attempts and the
    month's ``month_limit`` leaders, and every player's streaks: what bulletins and the
    web show."""
    first, last = month_range(day)
    players = await store.daily.players(day)
    games = []
    for deal in gamelist.daily_deals(day):
        games.append(GameDay(deal.game, title_of(deal.game), deal.number,
                             players.get(deal.game, 0),
                             await store.daily.board(deal.game, day, limit),
                             await store.daily.month(deal.game, first, last, month_limit)))
    days = await store.daily.days(day - timedelta(days=STREAK_DAYS))
    return games, streaks(days, day)


class DailyBoard:
    def __init__(self, session: Session) -> None:
        self.session = session
        self.games = gamelist.daily_games()
        self.game = self.games[0]
        self.view = TODAY
        self.selected = 0
        self.entries: list[DailyEntry] = []
        self.league_entries: list[LadderEntry] = []
        self.league = session.settings.league.enabled and session.store is not None

    async def draw(self) -> None:
        session, screen = self.session, self.session.screen
        now = daily_status.CLOCK()
        day = now.astimezone(UTC).date()
        deals = {game: gamelist.daily_deal(day, game) for game in self.games}
        screen.clear()
        header(session, "Daily Challenge")
        screen.put(1, 2, f"{day:%A} {day.day} {day:%B %Y} (UTC) · {resets_in(now)}",
                   theme.TITLE)
        status_line(session, KEYS)
        view_keys = LEAGUE_VIEW_KEYS if self.league else VIEW_KEYS
        screen.put(LIST_TOP + LIST_ROWS, 2, view_keys[:screen.cols - 3], theme.DIM)
        screen.put(TOP, 2, f"   {'Game':<13}{'Deal':<10}{'Players':>7}  {'Best today':<24}"
                           "You", theme.BRIGHT)
        store, player = session.store, session.player
        if store is None:
            for i, game in enumerate(self.games):
                screen.put(TOP + 1 + i, 2, f"{i + 1}. {title_of(game):<13}"
                                           f"#{deals[game].number:<9}", theme.LABEL)
            message(session, "This door keeps no scores: the challenges can still be played.")
            return
        try:
            players = await store.daily.players(day)
            bests = {game: await store.daily.board(game, day, 1) for game in self.games}
            mine = {game: await store.daily.entry(player.id, game, day) if player else None
                    for game in self.games}
        except StoreError as exc:
            log.warning("daily board: %s", exc)
            message(session, UNAVAILABLE, theme.WARNING)
            return
        for i, game in enumerate(self.games):
            best = bests[game][0] if bests[game] else None
            best_text = f"{best.score:>6}  {best.alias[:16]}" if best else "     -"
            players_text = players.get(game, 0)
            you = mine[game]
            you_text = f"{you.score} ({ordinal(you.rank)})" if you else "not yet"
            attr = theme.SELECTED if game == self.game else theme.LABEL
            screen.put(TOP + 1 + i, 1, ">" if game == self.game else " ", theme.HOTKEY)
            screen.put(TOP + 1 + i, 2, f"{i + 1}. {title_of(game):<13}#{deals[game].number:<9}"
                                       f"{players_text:>7}  {best_text:<24}{you_text}",
                       attr)
        try:
            await self.draw_view(day, deals[self.game])
        except StoreError as exc:
            log.warning("daily board: %s", exc)
            message(session, UNAVAILABLE, theme.WARNING)

    async def draw_view(self, day: date, deal: DailyDeal) -> None:
        screen, store = self.session.screen, self.session.store
        assert store is not None
        player = self.session.player
        title = title_of(self.game)
        if self.view == TODAY:
            self.entries = await store.daily.board(self.game, day, LIST_ROWS)
            self.selected = min(self.selected, max(0, len(self.entries) - 1))
            screen.put(LIST_TOP - 2, 2, f"Today: {title} #{deal.number}, first attempts "
                                        "only, best first", theme.TITLE)
            screen.put(LIST_TOP - 1, 2, f"{'Rank':>4}  {'Player':<24} {'Score':>7}  Result",
                       theme.BRIGHT)
            if not self.entries:
                screen.put(LIST_TOP + 1, 8, "Nobody has played it yet today: be the first!",
                           theme.LABEL)
            for i, entry in enumerate(self.entries):
                attr = theme.SELECTED if i == self.selected else (
                    theme.HOTKEY if player and entry.player_id == player.id else theme.LABEL)
                screen.put(LIST_TOP + i, 2, f"{entry.rank:>4}. {entry.alias[:24]:<24} "
                                            f"{entry.score:>7}  "
                                            f"{'won' if entry.won else 'not won'}", attr)
        elif self.view == MONTH:
            first, last = month_range(day)
            standings = await store.daily.month(self.game, first, last, LIST_ROWS)
            screen.put(LIST_TOP - 2, 2, f"{day:%B %Y}: {title} challenges, most won first",
                       theme.TITLE)
            screen.put(LIST_TOP - 1, 2, f"{'Rank':>4}  {'Player':<24} {'Won':>5} {'Played':>7}"
                                        f"  {'Best':>6}", theme.BRIGHT)
            if not standings:
                screen.put(LIST_TOP + 1, 8, "No challenge played this month yet.", theme.LABEL)
            for i, s in enumerate(standings):
                screen.put(LIST_TOP + i, 2, _standing_line(s), _mine(player, s.player_id))
        elif self.view == LEAGUE:
            await self.draw_league(day, deal)
        elif self.view == BOARDS:
            await self.draw_boards(day)
        else:
            lines = streaks(await store.daily.days(day - timedelta(days=STREAK_DAYS)), day)
            screen.put(LIST_TOP - 2, 2, "Streaks: days in a row with a challenge played / won "
                                        "(any game)", theme.TITLE)
            screen.put(LIST_TOP - 1, 2, f"{'':>4}  {'Player':<24} {'Played':>7} {'(best)':>7}"
                                        f" {'Won':>5} {'(best)':>7}", theme.BRIGHT)
            if not lines:
                screen.put(LIST_TOP + 1, 8, "No streaks yet.", theme.LABEL)
            for i, line in enumerate(lines[:LIST_ROWS]):
                screen.put(LIST_TOP + i, 2, f"{i + 1:>4}. " + streak_line(line),
                           _mine(player, line.player_id))

    async def draw_league(self, day: date, deal: DailyDeal) -> None:
        """Today's ladder of the chosen game across every board of the league."""
        screen, store = self.session.screen, self.session.store
        assert store is not None
        me = self.session.settings.league_name
        self.league_entries = await store.league.ladder(self.game, day, LIST_ROWS)
        self.selected = min(self.selected, max(0, len(self.league_entries) - 1))
        screen.put(LIST_TOP - 2, 2, f"League: {title_of(self.game)} #{deal.number}, every "
                                    "board, best first", theme.TITLE)
        screen.put(LIST_TOP - 1, 2, f"{'Rank':>4}  {'Player':<20} {'Board':<18} {'Score':>7}"
                                    "  Result", theme.BRIGHT)
        if not self.league_entries:
            screen.put(LIST_TOP + 1, 8, "No board of the league has a result yet today.",
                       theme.LABEL)
        for i, e in enumerate(self.league_entries):
            attr = theme.SELECTED if i == self.selected else (
                theme.HOTKEY if e.board == me else theme.LABEL)
            screen.put(LIST_TOP + i, 2, f"{e.rank:>4}. {e.handle[:20]:<20} {e.board[:18]:<18} "
                                        f"{e.score:>7}  {'won' if e.won else 'not won'}", attr)

    async def draw_boards(self, day: date) -> None:
        """Board against board today: ladder points, wins, callers; the league's streaks."""
        screen, store = self.session.screen, self.session.store
        assert store is not None
        me = self.session.settings.league_name
        totals = await store.league.totals(day)
        screen.put(LIST_TOP - 2, 2, "League: board against board today (points: 10 for a "
                                    "1st place … 1 for a 10th)", theme.TITLE)
        screen.put(LIST_TOP - 1, 2, f"{'Rank':>4}  {'Board':<30} {'Points':>6} {'Wins':>5} "
                                    f"{'Played':>7} {'Callers':>8}", theme.BRIGHT)
        if not totals:
            screen.put(LIST_TOP + 1, 8, "No board of the league has a result yet today.",
                       theme.LABEL)
        for i, t in enumerate(totals[:LIST_ROWS]):
            screen.put(LIST_TOP + i, 2, f"{t.rank:>4}. {t.board[:30]:<30} {t.points:>6} "
                                        f"{t.wins:>5} {t.attempts:>7} {t.players:>8}",
                       theme.HOTKEY if t.board == me else theme.LABEL)

    async def replay(self) -> None:
        """Replay the chosen attempt of today (the T board or the league's) move by move."""
        if self.view == LEAGUE and self.league_entries:
            await self.replay_league(self.league_entries[self.selected])
            return
        if self.view != TODAY or not self.entries:
            self.session.bell()
            return
        entry = self.entries[self.selected]
        await replay_stored(self.session, entry.game_id, entry.alias, entry.score)

    async def replay_league(self, entry: LadderEntry) -> None:
        """A league result's moves travelled with it: any board's game replays here."""
        store = self.session.store
        assert store is not None
        result = await store.league.result(entry.seq)
        if result is None:
            self.session.bell()
            return
        record = GameRecord(result.game, result.number, dict(result.options),
                            list(result.moves))
        await replay_record(self.session, record, f"{result.handle}@{result.board}",
                            result.score)

    async def play(self) -> None:
        day = daily_status.today()
        deal = gamelist.daily_deal(day, self.game)
        before = await daily_attempt(self.session, self.game, day)
        if before is not None and not await confirm(
                self.session, f"Your first attempt today counted ({before.score}). "
                              "Play again, not counted?", default=False):
            return
        await play_challenge(self.session, deal)

    async def run(self) -> None:
        while True:
            await self.draw()
            await self.session.show()
            key = await self.session.key()
            char = key.char.lower() if key.is_char else ""
            index = self.games.index(self.game)
            if is_help(key):
                view_keys = LEAGUE_VIEW_KEYS if self.league else VIEW_KEYS
                await show_menu_keys(self.session, "The daily challenge",
                                     entries_from_line(f"{KEYS} · {view_keys}"))
                continue
            if key.name == "esc" or char == "q":
                return
            if key.name in ("right", "left"):
                step = 1 if key.name == "right" else -1
                self.game, self.selected = self.games[(index + step) % len(self.games)], 0
            elif char and (picked := choice_number(char, len(self.games))):
                self.game, self.selected = self.games[picked - 1], 0
            elif char == "p" or key.name == "enter":
                await self.play()
            elif char in ("t", "m", "s") or (self.league and char in ("l", "b")):
                self.view = {"t": TODAY, "m": MONTH, "s": STREAKS, "l": LEAGUE,
                             "b": BOARDS}[char]
                self.selected = 0
            elif key.name in ("up", "down") and self._pickable():
                step = 1 if key.name == "down" else -1
                self.selected = (self.selected + step) % self._pickable()
            elif char == "r":
                await self.replay()
            elif key.name != "resize":
                self.session.bell()


    def _pickable(self) -> int:
        """How many lines ↑↓ pick from in the view shown (0: none)."""
        if self.view == TODAY:
            return len(self.entries)
        return len(self.league_entries) if self.view == LEAGUE else 0


def _mine(player: Player | None, player_id: int) -> Attr:
    """The caller's own line stands out."""
    return theme.HOTKEY if player is not None and player.id == player_id else theme.LABEL


def _standing_line(s: DailyStanding) -> str:
    return f"{s.rank:>4}. {s.alias[:24]:<24} {s.won:>5} {s.played:>7}  {s.best:>6}"


def streak_line(s: Streak) -> str:
    return (f"{s.alias[:24]:<24} {s.played_now:>7} {f'({s.played_best})':>7} "
            f"{s.won_now:>5} {f'({s.won_best})':>7}")


async def daily_challenge(session: Session) -> None:
    """The menu action: the daily board until Esc."""
    node_doing(session.store, session.caller, session.player, "Daily Challenge")
    await DailyBoard(session).run()
    node_doing(session.store, session.caller, session.player, "main menu")

