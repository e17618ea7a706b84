"""One way to ask any game's solver about a deal or a position.

A game's record (:mod:`door.catalog.registry`) names its solver as a :class:`Solver`; with it,
``solve_game(solver, game)`` returns a :class:`Verdict`: winnable / not winnable / unknown
(the budget ran out), the work done, and a winning line in the game's own notation
(replayable through its engine).  ``hint_game(...)`` is what a hint asks: the line it
follows (docs/solvability.md, "Hints"), and ``follow_hints`` plays a game by its hints as
the door gives them (tests, bench/hints.py).  The record's ``solve``/``hint`` take a game's
name, number and options.  Also here: the confidence interval and percentiles used to
report a run of deals (``reussite solve --range``, ``bench/solvers.py``,
docs/solvability.md), and the estimate made from a sample of a run's unknown deals solved
again with a larger budget (``--again``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from importlib import import_module
from typing import Any, Protocol, cast

from .base import UNDO, Game, IllegalMove, Status
from .hints import (
    BEST,
    TRY,
    WIN,
    Lines,
    position_key,
    previous_position,
    scratch,
    simplify,
    undoes,
)

WINNABLE = "winnable"
NOT_WINNABLE = "not winnable"
UNKNOWN = "unknown"


class Found(Protocol):
    """What a solver module's ``solve`` and ``best_line`` return (``penalty`` and
    ``seconds`` too where the solver keeps them)."""

    @property
    def verdict(self) -> str: ...
    @property
    def nodes(self) -> int: ...
    @property
    def moves(self) -> list[str] | None: ...


class SolverModule(Protocol):
    """A game's solver module: a search for a win, and for the line to the best score."""

    def solve(self, game: Any, *, node_limit: int | None = None,
              seconds: float | None = None) -> Found: ...
    def best_line(self, game: Any, *, seconds: float | None = None) -> Found: ...


@dataclass(frozen=True)
class Solver:
    """A game's solver, as its record names it: the module is imported on first use (the
    door reads the records at start; only the solver workers import the solvers)."""

    module: str
    """``door.games.<x>_solver``: its ``solve(game, node_limit=, seconds=)`` and
    ``best_line(game, seconds=)`` (:class:`SolverModule`)."""
    budget: float
    """``reussite solve``'s default CPU seconds a deal."""
    best_first: bool = False
    """A hint searches ``best_line`` from the start, which answers a win when it finds one,
    else the furthest line it reached; and an unknown verdict reads "no win found (it may
    exist)" rather than "could not tell" (a search that does not prove a loss)."""

    def load(self) -> SolverModule:
        return cast(SolverModule, import_module(self.module))


@dataclass(frozen=True)
class Verdict:
    """What a solver found.  ``line``: a winning line from the position, in the game's
    notation, when winnable.  ``penalty``: the line's penalty points, for a solver that
    counts them (lower is better)."""

    game: str
    number: int
    options: dict[str, Any]
    verdict: str
    nodes: int
    seconds: float
    line: list[str] | None = field(default=None)
    penalty: int | None = None
    best: list[str] | None = None
    """A hint's line when no win is known: to the best score found (:func:`hint`)."""
    take_back: bool = False
    """A hint's: the only winning line found starts by taking the last action back."""

    @property
    def winnable(self) -> bool | None:
        return {WINNABLE: True, NOT_WINNABLE: False}.get(self.verdict)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": self.game, "number": self.number,
                                "options": dict(self.options), "verdict": self.verdict,
                                "nodes": self.nodes, "seconds": round(self.seconds, 3)}
        if self.penalty is not None:
            data["penalty"] = self.penalty
        if self.line is not None:
            data["line"] = list(self.line)
        if self.best is not None:
            data["best"] = list(self.best)
        if self.take_back:
            data["take_back"] = True
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Verdict:
        return cls(str(data["game"]), int(data["number"]), dict(data.get("options") or {}),
                   str(data["verdict"]), int(data["nodes"]), float(data["seconds"]),
                   data.get("line"), data.get("penalty"), data.get("best"),
                   bool(data.get("take_back")))


def _verdict_word(word: str) -> str:
    return {"winnable": WINNABLE, "unwinnable": NOT_WINNABLE}.get(word, UNKNOWN)


def _found_verdict(subject: Game, found: Found, started: float) -> Verdict:
    seconds = getattr(found, "seconds", None)
    return Verdict(subject.name, subject.number, dict(subject.options),
                   _verdict_word(found.verdict), found.nodes,
                   time.process_time() - started if seconds is None else float(seconds),
                   found.moves, getattr(found, "penalty", None))


def solve_game(solver: Solver, subject: Game, seconds: float | None = None,
               node_limit: int | None = None) -> Verdict:
    """The verdict on a game's position as it stands, within ``seconds`` of CPU time
    and/or ``node_limit``."""
    start = time.process_time()
    found = solver.load().solve(subject, node_limit=node_limit, seconds=seconds)
    return _found_verdict(subject, found, start)


# -- hints ------------------------------------------------------------------------------------

SOLVE_SHARE = 0.7
"""Of a hint's budget, the share the search for a win may take; the rest goes to the line
to the best score when no win is found (and to a first move that does not undo the last)."""


def hint_game(solver: Solver, subject: Game, seconds: float = 5.0) -> Verdict:
    """What a hint shows for the game's position, within ``seconds`` of CPU time.

    Winnable: ``line`` is a winning line, cleaned of cycles and detours
    (:func:`door.games.hints.simplify`), whose first move does not undo the game's last
    action (:func:`door.games.hints.undoes`) -- another first move is searched for when the
    solver's does; ``take_back`` when none was found within the budget (the only win
    found starts by taking the caller's last action back).  Otherwise ``best`` is the line
    to the best score found (the solver's ``best_line``; with ``best_first``, when no win
    is found: the furthest position reached), its first move not undoing the last
    action."""
    deadline = time.process_time() + seconds
    previous = previous_position(subject)
    verdict = (_best_first(solver, subject, seconds * SOLVE_SHARE) if solver.best_first
               else solve_game(solver, subject, seconds * SOLVE_SHARE))
    if verdict.verdict == WINNABLE and verdict.line is not None:
        line = simplify(subject, verdict.line)
        if line and previous is not None and undoes(subject, line[0], previous):
            other = _other_first_move(solver, subject, previous, deadline)
            if other is None:
                return replace(verdict, line=line, take_back=True)
            line = other
        return replace(verdict, line=line)
    best = _best(solver, subject, verdict, deadline)
    if best and previous is not None and undoes(subject, best[0], previous):
        best = _first_not_undoing(subject, previous)
    return replace(verdict, line=None, best=best or None)


def hint_line(verdict: Verdict) -> tuple[list[str], str] | None:
    """The line a verdict brings for hints, and its kind (``door.games.hints``: WIN, BEST
    when no win is left, TRY when none was found in the budget); None if it brings none."""
    if verdict.verdict == WINNABLE and verdict.line:
        return list(verdict.line), WIN
    if verdict.best:
        return list(verdict.best), BEST if verdict.verdict == NOT_WINNABLE else TRY
    return None


def _left(deadline: float) -> float:
    return max(0.0, deadline - time.process_time())


def _best_first(solver: Solver, subject: Game, seconds: float) -> Verdict:
    """A ``best_first`` solver's hint search: a win, else the furthest line reached."""
    start = time.process_time()
    found = solver.load().best_line(subject, seconds=seconds)
    verdict = _verdict_word(found.verdict)
    line = found.moves if verdict == WINNABLE else None
    return Verdict(subject.name, subject.number, dict(subject.options), verdict, found.nodes,
                   time.process_time() - start, line, getattr(found, "penalty", None),
                   found.moves if verdict != WINNABLE else None)


def _best(solver: Solver, subject: Game, verdict: Verdict, deadline: float) -> list[str]:
    """The line to the best score found (see :func:`hint_game`), cleaned."""
    if solver.best_first:
        moves = verdict.best or []
    else:
        moves = solver.load().best_line(subject, seconds=max(0.1, _left(deadline))).moves or []
    return simplify(subject, moves)


def _candidates(subject: Game, previous: Game) -> list[str]:
    """The first moves that do not undo the last action, the engine's hints first."""
    moves = list(dict.fromkeys([*subject.hints(), *subject.legal_moves()]))
    return [m for m in moves if not undoes(subject, m, previous)]


def _other_first_move(solver: Solver, subject: Game, previous: Game,
                      deadline: float) -> list[str] | None:
    """A winning line from the position whose first move does not undo the last action
    (each other first move tried in turn, the engine's hints first), or None when none is
    found within the budget."""
    for move in _candidates(subject, previous):
        if _left(deadline) <= 0:
            return None
        after = scratch(subject)
        after.play(move)
        verdict = solve_game(solver, after, max(0.05, _left(deadline) / 2))
        if verdict.verdict == WINNABLE and verdict.line is not None:
            line = simplify(subject, [move, *verdict.line])
            if line and not undoes(subject, line[0], previous):
                return line
    return None


def _first_not_undoing(subject: Game, previous: Game) -> list[str]:
    """No win is known and the best line starts by undoing the last action: the engine's
    first hint (or legal move) that does not."""
    moves = _candidates(subject, previous)
    return moves[:1]


@dataclass
class HintRun:
    """A game played by following its hints (:func:`follow_hints`): the moves, whether it
    was won, and the seconds each hint took -- asked of the solver (a job in the door's
    pool) or looked up on a line kept."""

    moves: list[str] = field(default_factory=list)
    won: bool = False
    asked: list[float] = field(default_factory=list)
    looked_up: list[float] = field(default_factory=list)
    repeated: str | None = None
    """A position reached twice (never, unless a hint is wrong): its key."""
    take_back: bool = False
    """A hint said to take the last action back (then done: ``undo`` in ``moves``); never
    while following the hints, only after a move of the caller's own."""


def follow_hints(game: Game, seconds: float = 5.0, *, solver: Solver | None = None,
                 lines: Lines | None = None, limit: int = 3000,
                 ask: Callable[[Game], Verdict] | None = None) -> HintRun:
    """Play a copy of ``game`` by its hints, as the door gives them: the next move of a
    line kept (``lines``: e.g. the deal's winning line, as the door has it from the
    deal's verdict), else the solver's answer for the position (``ask``; by default
    :func:`hint_game` with ``solver`` in this process, ``seconds`` of CPU) -- until the
    game is over, no hint is left, or ``limit`` moves."""
    if ask is None and solver is None:
        raise ValueError("follow_hints wants the game's solver, or ask")
    game = scratch(game)
    book = lines if lines is not None else Lines()
    run = HintRun()
    seen = {position_key(game)}
    while game.status is Status.PLAYING and len(run.moves) < limit:
        started = time.perf_counter()
        found = book.advice(game)
        if found is None:
            if ask is not None:
                verdict = ask(game)
            else:
                assert solver is not None
                verdict = hint_game(solver, game, seconds)
            if verdict.take_back:             # the caller is told to take it back: U
                run.asked.append(time.perf_counter() - started)
                run.take_back = True
                try:
                    game.undo()
                except IllegalMove:
                    break
                run.moves.append(UNDO)
                continue
            line = hint_line(verdict)
            if line is not None:
                book.learn(game, *line, clean=False)     # hint() cleaned it
                found = book.advice(game)
            run.asked.append(time.perf_counter() - started)
        else:
            run.looked_up.append(time.perf_counter() - started)
        if found is None:
            break
        game.play(found[1])
        run.moves.append(found[1])
        key = position_key(game)
        if key in seen:
            run.repeated = key
            break
        seen.add(key)
    run.won = game.status is Status.WON
    return run


# -- reporting a run of deals ----------------------------------------------------------------

def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion (sound near 0 and 1, unlike p ± 1.96σ)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (
        1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


@dataclass(frozen=True)
class Summary:
    """A run of verdicts: counts, the winnable share (bounds included, see below), times."""

    deals: int
    winnable: int
    not_winnable: int
    unknown: int
    median_seconds: float
    p95_seconds: float
    max_seconds: float

    @property
    def decided(self) -> int:
        return self.winnable + self.not_winnable

    def share(self) -> tuple[float, float, float]:
        """(winnable share among the decided deals, its 95 % interval low, high)."""
        low, high = wilson(self.winnable, self.decided)
        return (self.winnable / self.decided if self.decided else 0.0), low, high

    def bounds(self) -> tuple[float, float]:
        """The winnable share of all deals if every unknown were lost / were won."""
        if not self.deals:
            return 0.0, 0.0
        return self.winnable / self.deals, (self.winnable + self.unknown) / self.deals

    def to_json(self) -> dict[str, Any]:
        share, low, high = self.share()
        lower, upper = self.bounds()
        return {"deals": self.deals, "winnable": self.winnable,
                "not_winnable": self.not_winnable, "unknown": self.unknown,
                "decided_share": round(self.decided / self.deals, 4) if self.deals else 0,
                "winnable_share": round(share, 4), "ci95": [round(low, 4), round(high, 4)],
                "bounds_all_deals": [round(lower, 4), round(upper, 4)],
                "seconds": {"median": round(self.median_seconds, 3),
                            "p95": round(self.p95_seconds, 3),
                            "max": round(self.max_seconds, 3)}}

    def text(self) -> str:
        share, low, high = self.share()
        lower, upper = self.bounds()
        return (f"{self.deals} deals: {self.winnable} winnable, {self.not_winnable} not "
                f"winnable, {self.unknown} unknown ({self.decided / max(self.deals, 1):.1%} "
                f"decided)\nwinnable share of decided deals {share:.2%} "
                f"(95 % CI {low:.2%} – {high:.2%}); of all deals {lower:.2%} – {upper:.2%}\n"
                f"seconds per deal: median {self.median_seconds:.3f}, "
                f"p95 {self.p95_seconds:.3f}, max {self.max_seconds:.3f}")


def summarize(verdicts: list[Verdict]) -> Summary:
    times = [v.seconds for v in verdicts]
    return Summary(len(verdicts), sum(v.verdict == WINNABLE for v in verdicts),
                   sum(v.verdict == NOT_WINNABLE for v in verdicts),
                   sum(v.verdict == UNKNOWN for v in verdicts),
                   percentile(times, 0.5), percentile(times, 0.95), max(times, default=0.0))


@dataclass(frozen=True)
class SampleEstimate:
    """The decided share of a run of deals once a sample of the deals it left unknown was
    solved again with a larger budget (``reussite solve --again FILE --every K``).

    The deals the first run decided stay decided; of its ``unknown_before`` deals a sample of
    ``sampled`` was solved again and ``decided`` of those were decided.  The share decided
    with the larger budget is then ``(deals - unknown_before + unknown_before * p) / deals``,
    ``p`` the sample's share, and its 95 % interval is the sample's Wilson interval carried
    through the same sum (a sample drawn from a finite list: the interval is, if anything,
    too wide)."""

    deals: int
    unknown_before: int
    sampled: int
    decided: int

    def share(self) -> tuple[float, float, float]:
        """(estimated decided share, its 95 % interval low, high)."""
        if not self.deals:
            return 0.0, 0.0, 0.0
        low, high = wilson(self.decided, self.sampled)
        p = self.decided / self.sampled if self.sampled else 0.0
        known = self.deals - self.unknown_before

        def decided_share(sample_share: float) -> float:
            return (known + self.unknown_before * sample_share) / self.deals

        return decided_share(p), decided_share(low), decided_share(high)

    def to_json(self) -> dict[str, Any]:
        share, low, high = self.share()
        return {"unknown_before": self.unknown_before, "sampled": self.sampled,
                "decided_in_sample": self.decided, "estimated_decided_share": round(share, 4),
                "ci95": [round(low, 4), round(high, 4)]}

    def text(self) -> str:
        share, low, high = self.share()
        return (f"estimated decided share {share:.2%} (95 % CI {low:.2%} – {high:.2%}): "
                f"{self.decided} of {self.sampled} decided in the sample of the "
                f"{self.unknown_before} deals left unknown before")
