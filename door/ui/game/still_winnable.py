""""Still winnable?": can a win still be reached from the caller's CURRENT position?

The games whose record asks for it offer it (key V, the key map's: door/ui/shared/keymap.py; and,
when switched on, after every move).  The question goes to the solver pool
(``door.solvers.pool``) with the position as it stands -- the full deal, face-down cards and
stock included where the game has them, which is why only yes / no is ever shown, never a
move.  The answer appears on the message line
when it comes, in KPatience's words; keys are answered meanwhile.  An answer about a
position the caller has since left is marked with how many moves ago it was asked (in
automatic mode it is dropped instead: the new position's question is already on its way).

Every question asked is counted with the game (``games.still_asks``, which also counts
the hints: the solver's help, either way): the hall of fame marks games played with this
help, as a reminder that the caller knew more than the cards show.

The screen's hints (``door.ui.game.solver_hint``) go with it: this object hands them the
answers as they come, drops their question when the caller moves on, and gives them the
winning lines its own answers bring (the next hint is then a look-up).
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

from ...games import Game
from ...games.hints import scratch
from ...games.solvers import NOT_WINNABLE, WINNABLE, Verdict
from ...session import Session
from ..shared import theme
from .solver_hint import SolverHint
from .solver_view import ask, has_deal_verdict
from .view import PlayedScreen, alive
from .visit_choice import VisitChoice

STILL_ASKS = "still_asks"
"""Key of the count in a resume slot's state (engines ignore keys they do not know)."""
DAILY_DAY = "daily_day"
"""Key of the challenge's day (ISO date) in a resume slot's state (door/ui/menus/daily.py)."""
CAN = "This game can still be won."
CANNOT = "This game cannot be won any more."
THINKING = "Still winnable? The solver is thinking (keys work meanwhile)..."
HALL_MARK = "v"
"""Shown after the score in a hall of fame for a game played with the solver's help:
"still winnable?" asked, or a search player's hint shown -- both counted in ``games.still_asks``."""
HALL_LEGEND = "v: played with the solver's help (\"still winnable?\" or a hint)"

_auto = VisitChoice("still_winnable_auto")


def auto_on(session: Session, game_name: str) -> bool:
    """Ask after every move?  The caller's choice for this visit, else sysop.ini's
    ``[game] still_winnable_auto``."""
    return _auto.on(session, game_name)


def toggle_auto(session: Session, game_name: str) -> bool:
    return _auto.toggle(session, game_name)


def auto_label(on: bool) -> str:
    return f"A  \"Still winnable?\" after each move: {'ON ' if on else 'off'}"


def answer_words(verdict: Verdict | None, budget: float) -> str:
    """KPatience's three answers (and one for a solver that could not be asked)."""
    if verdict is None:
        return "Still winnable? The solver is not available right now."
    if verdict.verdict == WINNABLE:
        return CAN
    if verdict.verdict == NOT_WINNABLE:
        return CANNOT
    return f"Still winnable? Could not tell in {budget:g} s."


class StillWinnable:
    """The question for one game screen: at most one in the pool at a time."""

    def __init__(self, screen: PlayedScreen, asks: int = 0) -> None:
        self._screen = weakref.ref(screen)  # it holds us: see alive()
        self.asks = asks
        """Questions asked during this game (resumed games bring theirs)."""
        self.task: asyncio.Task[Verdict | None] | None = None
        self.asked_at = -1
        """``len(game.actions)`` when the question in ``task`` was asked."""
        self.asked_game: Game | None = None
        """The position the question in ``task`` is about (a winning line starts there)."""
        self.auto_asked = False
        self.hint = SolverHint(screen)
        """The screen's hints (the hint key asks them; their answers come through here)."""

    @property
    def screen(self) -> PlayedScreen:
        return alive(self._screen)

    @property
    def session(self) -> Session:
        return self.screen.session

    _auto: tuple[int, bool] | None = None  # the choice's toggles when looked up, and it

    @property
    def auto(self) -> bool:
        """Ask after every move?  Asked every key (:meth:`after_key`): looked up again
        only after a toggle (a weak dictionary and sysop.ini's section each key)."""
        known = self._auto
        if known is None or known[0] != _auto.toggles:
            known = self._auto = (_auto.toggles, auto_on(self.session, self.screen.name))
        return known[1]

    def position_mark(self) -> int:
        return len(self.screen.game.actions)   # grows with every move, undo and redo

    def ask(self, auto: bool = False) -> None:
        """Send the current position to the pool (a question already out for it stays)."""
        game = self.screen.game
        if game.status.value in ("won", "lost"):
            return
        mark = self.position_mark()
        if self.task is not None and not self.task.done():
            if self.asked_at == mark:
                if not auto:
                    self.screen.say(THINKING)
                return
            self.task.cancel()               # a question about a position left behind
        # Before any move the question is the deal's own verdict, already asked in the
        # background: the pool answers both with one job (now urgent).
        position: dict[str, Any] | None = (
            None if not game.actions and has_deal_verdict(self.screen) else game.to_json())
        self.task = asyncio.ensure_future(ask(self.session, self.screen.name, game.number,
                                              dict(game.options), position, urgent=True))
        wakeup = self.screen.wakeup  # not the screen: a callback left behind holds no screen
        self.task.add_done_callback(lambda _: wakeup.set())
        self.asked_at, self.auto_asked = mark, auto
        self.asked_game = scratch(game)
        self.asks += 1
        self.screen.still_asked()
        if not auto:
            self.screen.say(THINKING)

    def after_key(self) -> None:
        """In automatic mode, ask about each new position.  A hint asked about a position
        left behind is dropped."""
        self.hint.after_key()
        if self.auto and self.asked_at != self.position_mark() and not self.screen.is_over:
            self.ask(auto=True)

    def collect(self) -> bool:
        """Show an answer that has come, a hint's or this question's (True if the message
        line changed)."""
        advice = self.hint.collect()
        if advice is not None:
            self.screen.tell_hint(advice)
        task = self.task
        if task is None or not task.done():
            return advice is not None
        self.task = None
        if task.cancelled():
            return advice is not None
        verdict = task.result()
        if self.asked_game is not None:
            self.hint.learn(self.asked_game, verdict)   # a winning line: the next hints
        moved = self.position_mark() - self.asked_at
        words = answer_words(verdict, self.session.settings.solver.budget)
        if moved:
            if self.auto_asked:
                return False                  # stale: the new position's answer follows
            words = f"{moves_ago(moved)}: {words}"
        attr = theme.WARNING if verdict is not None and verdict.verdict == NOT_WINNABLE \
            else theme.MESSAGE
        self.screen.say(words)
        self.screen.note_attr = attr
        return True

    def stop(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.hint.stop()


def moves_ago(actions: int) -> str:
    """How an answer about an earlier position is marked."""
    return "Before your last move" if actions == 1 else f"Before your last {actions} moves"
