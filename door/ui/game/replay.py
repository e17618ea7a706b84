"""Replaying a finished game on its own game screen, read-only.

A stored game is its record (game, number, options, actions: ``door/store``); the viewer
deals the record's game and applies its actions through the pure engine, keeping the
position after every action, so stepping back is as cheap as stepping forward and an
``undo`` in the record is one step like any move.  Each position is drawn by the game's
own screen class (a fresh one, never played on), so the replay looks like the game did
and shows exactly what the player saw: face-down cards stay face down.

Keys: ← → step, Home/End jump, P plays (and pauses), + − change the speed, Q or Esc
leaves.  The key line lists the moves around the current one; the message line says the
move, the score, and at the end the final score (and the recorded one if it differs).

The same viewer shows a solver's winning line (:meth:`Replay.winning_line`): the end of a
game offers it (W) when the deal could have been won, and a replay of a card game offers
it too (W) once the solver pool says the deal is winnable: asked in the background when
the replay opens (the pool answers from its cache or the shipped lists when it can).

Entry points: ``Replay(session, record, who, recorded_score).run()`` for a stored game
(the hall of fame, a deal's board, the caller's own games, the daily challenge), and
``Replay.winning_line(session, verdict).run()`` for a solver's line.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from ...catalog import registry as gamelist
from ...games import Game, GameRecord, IllegalMove
from ...games.base import apply_actions
from ...games.solvers import WINNABLE, Verdict
from ...session import Session
from ...store import StoreError
from ...term import Key
from ...term.width import clip
from ..shared import theme
from ..shared.key_overlay import is_help, show_menu_keys
from ..shared.key_waiter import KeyWaiter
from ..shared.widgets import message
from .solver_view import ask
from .view import ScreenClass

REPLAY_KEYS = [("→ Enter Space", "the next move"), ("← Backspace", "the move before"),
               ("Home End", "the deal, the last move"), ("P", "play by itself, or pause"),
               ("+ -", "faster, slower"), ("W", "a winning line, when the solver has one"),
               ("Q Esc", "back")]
"""The replay viewer's keys, as ``?`` shows them (its status line names the same)."""
log = logging.getLogger(__name__)

SPEEDS = (2.0, 1.0, 0.5, 0.25, 0.1)
"""Seconds per move while P plays, slowest first; + and − step through them."""
START_SPEED = 2  # index into SPEEDS
VERDICT_LOOK_S = 0.5
"""While the solver is asked, the viewer looks this often whether it answered."""


class Positions:
    """Every position of a record, from the deal (0) to after its last action (n)."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.cls = gamelist.engine(record.game)
        game = self.cls.new(record.number, **record.options)
        self.states: list[dict[str, Any]] = [game.to_json()]
        self.scores = [game.score]
        self.error = ""
        """Why the record stops short of its end (a refused action), "" when it does not."""
        for action in record.actions:
            try:
                apply_actions(game, [action])
            except IllegalMove as exc:
                self.error = f"move {len(self.states)} ({action}) refused: {exc}"
                break
            self.states.append(game.to_json())
            self.scores.append(game.score)

    @property
    def last(self) -> int:
        return len(self.states) - 1

    def game(self, step: int) -> Game:
        return self.cls.from_json(self.states[step])


class Replay:
    """The replay screen of one record; :meth:`run` until the caller leaves."""

    def __init__(self, session: Session, record: GameRecord, who: str = "",
                 recorded_score: int | None = None, *, is_line: bool = False) -> None:
        self.session = session
        self.positions = Positions(record)
        drawer: Any = gamelist.game(record.game).screen_class()  # a GameScreen subclass
        self.screen_cls: ScreenClass = drawer
        self.who = who
        self.recorded_score = recorded_score
        self.is_line = is_line
        """This record is a solver's winning line, not a game someone played."""
        self.step = 0
        self.speed = START_SPEED
        self.playing = False
        self.verdict: asyncio.Task[Verdict | None] | None = None
        """The solver's answer on the deal (a replay of a card game with a number)."""

    @classmethod
    def winning_line(cls, session: Session, verdict: Verdict) -> Replay:
        """The viewer on a solver's winning line from the deal (``verdict.line``)."""
        record = GameRecord(verdict.game, verdict.number, dict(verdict.options),
                            list(verdict.line or []))
        return cls(session, record, is_line=True)

    def ask_solver(self) -> None:
        """Ask the solver pool about the deal, in the background (card games with a
        shareable number only; a line needs nothing more)."""
        record = self.positions.record
        if self.is_line or not self.screen_cls.solvable or record.options.get("random"):
            return
        self.verdict = asyncio.ensure_future(ask(self.session, record.game, record.number,
                                                 dict(record.options)))

    @property
    def line(self) -> Verdict | None:
        """The solver's verdict when it holds a winning line to show (W)."""
        task = self.verdict
        if task is None or not task.done() or task.cancelled() or task.exception():
            return None
        verdict = task.result()
        if verdict is None or verdict.verdict != WINNABLE or not verdict.line:
            return None
        return verdict

    # -- drawing --------------------------------------------------------------------------
    def draw(self) -> None:
        view = self.screen_cls(self.session, self.positions.game(self.step))
        view.watching = True
        view.draw()
        screen = self.session.screen
        screen.cursor = None
        self.draw_moves()
        note = self.step_note()
        if self.line is not None:
            note += "  W: the solver's winning line."
        message(self.session, note, theme.MESSAGE)
        row = screen.rows - 1
        screen.put(row, 0, " " * (screen.cols - 1), theme.STATUS)
        screen.put(row, 1, clip(self.status_text(), screen.cols - 3), theme.STATUS)

    def status_text(self) -> str:
        whose = f"{self.who}'s " if self.who else ""
        what = "Winning line" if self.is_line else f"Replay: {whose}{self.screen_cls.title}"
        play = "P pause" if self.playing else "P play"
        return f"{what} · ←→ step · {play} · +− {SPEEDS[self.speed]:g}s · Home/End · Q back"

    def draw_moves(self) -> None:
        """The key line: the moves around the current one, the current one lit."""
        screen = self.session.screen
        row, actions = screen.rows - 3, self.positions.record.actions
        screen.put(row, 0, " " * screen.cols)
        col = screen.put(row, 1, "Moves: ", theme.LABEL)
        first = max(1, self.step - 4)
        for n in range(first, self.positions.last + 1):
            label = f"{n}.{actions[n - 1]}"
            if col + len(label) + 1 >= screen.cols:
                break
            col = screen.put(row, col, label, theme.SELECTED if n == self.step
                             else theme.DIM) + 1

    def step_note(self) -> str:
        positions = self.positions
        score = positions.scores[self.step]
        if self.is_line:
            return self.line_note()
        if self.step == 0:
            note = f"The deal, before move 1 of {positions.last}. Score {score}."
        else:
            action = positions.record.actions[self.step - 1]
            note = f"Move {self.step} of {positions.last}: {action}. Score {score}."
        if self.step == positions.last:
            if positions.error:
                return f"{note} The record stops here: {positions.error}"
            note = f"{note} Final score {score}."
            if self.recorded_score is not None and self.recorded_score != score:
                note += f" (recorded: {self.recorded_score})"
        return note

    def line_note(self) -> str:
        positions, step = self.positions, self.step
        if step == 0:
            return f"Winning line: the deal, before move 1 of {positions.last}."
        if step == positions.last:
            return (f"Winning line, move {step} of {positions.last}: "
                    f"{positions.record.actions[step - 1]}.  Won in {positions.last} moves.  "
                    f"Score {positions.scores[step]}.")
        return (f"Winning line, move {step} of {positions.last}: "
                f"{positions.record.actions[step - 1]}.  Score {positions.scores[step]}.")

    # -- keys -----------------------------------------------------------------------------
    def on_key(self, key: Key) -> bool | None:
        """Act on a key: False if it means nothing here, None if it leaves the replay."""
        char = key.char.lower() if key.is_char else ""
        last = self.positions.last
        if key.name == "esc" or char == "q":
            return None
        if key.name in ("right", "down", "enter") or char in (" ", "n"):
            self.step, self.playing = min(last, self.step + 1), False
        elif key.name in ("left", "up", "backspace") or char == "b":
            self.step, self.playing = max(0, self.step - 1), False
        elif key.name == "home":
            self.step, self.playing = 0, False
        elif key.name == "end":
            self.step, self.playing = last, False
        elif char == "p":
            self.playing = not self.playing
            if self.playing and self.step == last:
                self.step = 0  # playing a finished replay starts it again
        elif char in ("+", "="):
            self.speed = min(len(SPEEDS) - 1, self.speed + 1)
        elif char in ("-", "_"):
            self.speed = max(0, self.speed - 1)
        elif key.name != "resize":
            return False
        return True

    def timeout(self) -> float | None:
        """How long to wait for a key: the next move's time while playing, a look at the
        solver's answer while it is awaited, else for ever."""
        if self.playing:
            return SPEEDS[self.speed]
        if self.verdict is not None and not self.verdict.done():
            return VERDICT_LOOK_S
        return None

    async def run(self) -> None:
        self.ask_solver()
        waiter = KeyWaiter(self.session)
        try:
            while True:
                self.draw()
                await self.session.show()
                key = await waiter.get(self.timeout())
                if key is None:
                    if self.playing:  # the next move's time has come
                        self.step = min(self.positions.last, self.step + 1)
                        self.playing = self.step < self.positions.last
                    continue
                if is_help(key):
                    await waiter.close()
                    await show_menu_keys(self.session, "Replay", REPLAY_KEYS)
                    continue
                if key.is_char and key.char.lower() == "w" and (line := self.line):
                    await waiter.close()
                    await Replay.winning_line(self.session, line).run()
                    continue
                done = self.on_key(key)
                if done is None:
                    return
                if not done:
                    self.session.bell()
        finally:
            await waiter.close()
            if self.verdict is not None and not self.verdict.done():
                self.verdict.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await self.verdict


async def replay_stored(session: Session, game_id: int, who: str, score: int) -> None:
    """Replay a finished game from the store (a hall of fame's or a daily board's line);
    a record that cannot be read, or has no moves, is said so."""
    store = session.store  # the line came from it: None only if the door has none
    try:
        record = await store.scores.game_record(game_id) if store is not None else None
    except StoreError as exc:
        log.warning("replay: %s", exc)
        record = None
    await replay_record(session, record, who, score)


async def replay_record(session: Session, record: GameRecord | None, who: str,
                        score: int) -> None:
    """Replay a game record (a league result's moves travelled with it); a record that is
    missing or has no moves is said so."""
    if record is None or not record.actions:
        session.bell()
        message(session, "That game's moves are not on record.", theme.WARNING)
        await session.show()
        await session.key()
        return
    await Replay(session, record, who, score).run()
