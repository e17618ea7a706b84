"""A game's hint from its solver (its record's ``solver``).

The hint is the next move of a line the solver found (``door.games.solvers.hint_game``, worked
out in the solver pool): a winning line when one is known -- so following the hints wins a
deal the solver can win -- else the line to the best score (the hint then says that no win
is left, or that none was found in the budget).  A hint never undoes the caller's last
action, and no line comes back to a position it passed (``door.games.hints``).

Lines are kept: the next hint along one is a look-up, not a job.  Every winning line the
screen learns feeds them -- the deal's verdict (asked when play starts), a "still
winnable?" answer, a hint's answer -- so the first hint of a deal is usually instant too.
A hint that takes longer than :data:`THINKING_AFTER_S` says so on the message line; keys
work meanwhile, and a move drops the question (its answer would be about a position left
behind).  ``[solver] hint_budget`` in sysop.ini bounds each (CPU seconds).

Every hint shown is counted with the game's solver help (``games.still_asks``): the hall
of fame marks the game, as it does for "still winnable?" (the solver sees the hidden
cards).
"""

from __future__ import annotations

import asyncio
import logging
import weakref

from ...games import Game
from ...games.hints import BEST, TRY, WIN, Lines, scratch
from ...games.solvers import NOT_WINNABLE, WINNABLE, Verdict, hint_line
from ...session import Session
from .view import Advice, PlayedScreen, alive

log = logging.getLogger(__name__)

THINKING_AFTER_S = 0.3
"""A hint that comes within this says nothing in between (fewer bytes than a "thinking")."""
THINKING = "Hint: the solver is thinking...  keys work meanwhile."
KEPT_LINES = 4
"""Lines kept (the newest first)."""
TAKE_BACK = "take back"
"""An advice's kind: the only win found starts by taking the last action back."""
NONE = "none"
"""An advice's kind: no move to suggest."""
UNAVAILABLE = "unavailable"
"""An advice's kind: the solver could not be asked."""
NOT_FOUND = "not found"
"""An advice's kind: the solver found no move within the budget (a very busy machine)."""


def hint_words(advice: Advice, what: str, budget: float) -> str:
    """The message line's words for an advice; ``what`` says the move as the board shows
    it (the screen's own words)."""
    if advice.kind == WIN:
        return f"Hint: {what}"
    if advice.kind == BEST:
        return f"No win is left. Best score: {what}"
    if advice.kind == TRY:
        return f"No win found in {budget:g} s. Best try: {what}"
    if advice.kind == TAKE_BACK:
        return "The only win found starts by taking your last move back: U."
    if advice.kind == UNAVAILABLE:
        return "No hint right now: the solver could not be asked."
    if advice.kind == NOT_FOUND:
        return f"No hint: the solver found none in {budget:g} s. Try again, or play on."
    return "No hint: no move is left."


class SolverHint:
    """The hints of one game screen: the lines it knows, and at most one question out."""

    def __init__(self, screen: PlayedScreen) -> None:
        self._screen = weakref.ref(screen)  # it holds us: see alive()
        self.book = Lines(KEPT_LINES)
        self.task: asyncio.Task[Verdict | None] | None = None
        self._asked: tuple[int, Game] | None = None
        """``len(game.actions)`` when the question out was asked, and the position then."""
        self._thinking: asyncio.TimerHandle | None = None
        self._deal_learned = False

    @property
    def screen(self) -> PlayedScreen:
        return alive(self._screen)

    @property
    def budget(self) -> float:
        return self.screen.session.settings.solver.hint_budget

    # -- lines ----------------------------------------------------------------------------
    def learn(self, start: Game, verdict: Verdict | None, clean: bool = True) -> None:
        """Keep the line a verdict about the position ``start`` brings (a winning line, or
        a hint's line to the best score); ``clean``: not cleaned yet (a verdict's line;
        a hint's answer was, in the pool)."""
        found = hint_line(verdict) if verdict is not None else None
        if found is not None:
            self.book.learn(start, *found, clean=clean)

    def _learn_deal(self) -> None:
        """The deal's verdict, once it has come: its winning line from the start."""
        if self._deal_learned:
            return
        verdict = self.screen.deal_verdict()
        if verdict is None:
            return
        self._deal_learned = True
        if verdict.verdict == WINNABLE and verdict.line:
            game = self.screen.game
            self.learn(self.screen.info.engine_class().new(game.number, **game.options),
                       verdict)

    def _advice_here(self) -> Advice | None:
        found = self.book.advice(self.screen.game)
        return None if found is None else Advice(*found)

    # -- asking ---------------------------------------------------------------------------
    def ask(self) -> Advice | None:
        """The hint for the position as it stands: at once from a line kept, else None and
        a question goes to the pool (:meth:`collect` gives its answer)."""
        self._learn_deal()
        advice = self._advice_here()
        if advice is not None:
            return advice
        game = self.screen.game
        mark = len(game.actions)
        if self.task is not None and not self.task.done():
            if self._asked is not None and self._asked[0] == mark:
                self.screen.say(THINKING)
                return None
            self.stop()
        self._asked = (mark, scratch(game))
        screen = self.screen
        self.task = asyncio.ensure_future(self._ask(screen.session, screen.name, game,
                                                    self.budget))
        wakeup = screen.wakeup  # not the screen: a callback left behind holds no screen
        self.task.add_done_callback(lambda _: wakeup.set())
        self._thinking = asyncio.get_running_loop().call_later(THINKING_AFTER_S,
                                                               self._say_thinking)
        return None

    async def _ask(self, session: Session, name: str, game: Game, seconds: float
                   ) -> Verdict | None:
        try:
            return await session.solvers.hint(
                name, game.number, dict(game.options), position=game.to_json(),
                seconds=seconds)
        except (OSError, ValueError, ConnectionError, RuntimeError) as exc:
            log.warning("hint unavailable: %s", exc)
            return None

    def _say_thinking(self) -> None:
        self._thinking = None
        if self.task is not None and not self.task.done():
            self.screen.say(THINKING)
            self.screen.wakeup.set()

    def collect(self) -> Advice | None:
        """The answer to the question out, once it has come and the position is still the
        one asked about (None otherwise; the line is kept either way)."""
        task = self.task
        if task is None or not task.done():
            return None
        self.task = None
        self._cancel_thinking()
        asked, self._asked = self._asked, None
        if task.cancelled() or asked is None:
            return None
        verdict = task.result()
        if verdict is None:
            return Advice(UNAVAILABLE)
        mark, start = asked
        if mark != len(self.screen.game.actions):
            self.learn(start, verdict, clean=False)
            return None
        if verdict.take_back:
            return Advice(TAKE_BACK)
        self.learn(start, verdict, clean=False)
        return self._advice_here() or Advice(NONE if verdict.verdict == NOT_WINNABLE
                                             else NOT_FOUND)

    def after_key(self) -> None:
        """A move (or undo) since the question went out: it is about a position left
        behind, so it is dropped."""
        if (self.task is not None and not self.task.done() and self._asked is not None
                and self._asked[0] != len(self.screen.game.actions)):
            self.stop()

    def _cancel_thinking(self) -> None:
        if self._thinking is not None:
            self._thinking.cancel()
            self._thinking = None

    def stop(self) -> None:
        """Drop the question out (its pool job with it)."""
        self._cancel_thinking()
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task, self._asked = None, None

