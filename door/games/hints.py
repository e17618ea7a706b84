"""Hints that never mislead: the moves of a solver's line, checked on the engine.

A card game's hint is the first move of a line the solver found from the position: a
winning line when there is one, else the line to the best score it found.  Lines are
followed on a scratch copy of the game, and every position on them gets a key
(:func:`position_key`, the position alone: no score, no history), so that

* a line is cleaned before it is shown (:func:`simplify`): a stretch that comes back to a
  position it passed (a cycle) is cut, and two moves in a row that one move does
  (``6C`` home, then back onto ``7D``: a *detour*) become that one move;
* a hint never undoes the caller's last action (:func:`undoes`): it does not lead back to
  the position before that action, nor move again the cards that action just moved where
  one move from that position would have put them;
* a line is kept (:class:`Line`): the next hint along it is a look-up, and a caller who
  comes back onto it (by undoing, say) finds it again.

Pure: no solver runs here (``door.games.solvers.hint`` does that); this module only follows
lines through the engines.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .base import REDO, UNDO, Game, GameRecord, IllegalMove, apply_actions

WIN = "win"
"""A line that wins."""
BEST = "best"
"""A line to the best score (no win is left from the position)."""
TRY = "try"
"""A line to the best score found (no win found from the position within the budget)."""


# -- positions ----------------------------------------------------------------------------

def position_key(game: Game) -> str:
    """The position as text (:meth:`Game.position_key`): equal for the same cards in the
    same places, whatever the score or the moves that led there."""
    return game.position_key()


def scratch(game: Game) -> Game:
    """An independent copy to play on (undo and redo included)."""
    return game.copy()


def played(game: Game, move: str) -> Game | None:
    """A scratch copy of ``game`` after ``move``; None when the engine refuses the move."""
    after = scratch(game)
    try:
        after.play(move)
    except IllegalMove:
        return None
    return after


def previous_position(game: Game) -> Game | None:
    """The position before the game's last action (a move, an undo or a redo): the last
    action taken back on a copy, else (a game whose undo or redo refuses it) the game
    replayed from its deal without it; None at the start, or when it cannot be known (a
    position not dealt from its number)."""
    if not game.actions:
        return None
    last = game.actions[-1]
    copy = scratch(game)
    try:
        copy.redo() if last == UNDO else copy.undo()
        return copy
    except IllegalMove:
        pass
    record = game.record()
    try:
        before = type(game).replay(GameRecord(record.game, record.number, record.options,
                                              record.actions[:-1]))
        again = scratch(before)
        apply_actions(again, record.actions[-1:])
    except (IllegalMove, ValueError):
        return None
    return before if position_key(again) == position_key(game) else None


def _spots(game: Game, move: str) -> tuple[str, str] | None:
    """Where a move takes cards from and puts them (:meth:`Game.move_spots`)."""
    return game.move_spots(move)


def _move_to(before: Game, target: str) -> str | None:
    """The move that leads from ``before`` to the position ``target``, if one does."""
    for move in before.legal_moves():
        trial = played(before, move)
        if trial is not None and position_key(trial) == target:
            return move
    return None


def is_detour(before: Game, first: str, second: str) -> bool:
    """Do ``first`` then ``second`` (from ``before``) move the same cards twice where no
    move or one move would do: the second one takes back or redirects the first?"""
    spots = _spots(before, first)
    if spots is None:
        return False
    middle = played(before, first)
    if middle is None:
        return False
    then = _spots(middle, second)
    if then is None or then[0] != spots[1]:
        return False
    after = played(middle, second)
    if after is None:
        return False
    target = position_key(after)
    return target == position_key(before) or _move_to(before, target) is not None


def undoes(game: Game, move: str, previous: Game | None = None) -> bool:
    """Would ``move``, played now, undo the game's last action?  It would if it leads back
    to the position before that action, or if that action and ``move`` are a detour
    (:func:`is_detour`).  ``previous``: that position when the caller has it."""
    if previous is None:
        previous = previous_position(game)
        if previous is None:
            return False
    after = played(game, move)
    if after is None:
        return False
    if position_key(after) == position_key(previous):
        return True
    last = game.actions[-1] if game.actions else ""
    if last in (UNDO, REDO):
        return False
    return is_detour(previous, last, move)


# -- lines --------------------------------------------------------------------------------

def follow(game: Game, moves: list[str]) -> tuple[list[Game], list[str]]:
    """Play ``moves`` on scratch copies: the positions (one more than the moves played) and
    the moves played, up to the first one the engine refuses."""
    states = [scratch(game)]
    played: list[str] = []
    for move in moves:
        state = scratch(states[-1])
        try:
            state.play(move)
        except IllegalMove:
            break
        states.append(state)
        played.append(move)
    return states, played


def simplify(game: Game, moves: list[str]) -> list[str]:
    """The line without its cycles and detours (see the module docstring): it reaches the
    same end in no more moves, and no position twice."""
    states, played = follow(game, moves)
    keys = [position_key(s) for s in states]
    changed = True
    while changed:
        changed = False
        seen: dict[str, int] = {}
        for i, key in enumerate(keys):
            if key in seen:                 # a cycle: cut it out
                j = seen[key]
                del keys[j:i], states[j:i], played[j:i]
                changed = True
                break
            seen[key] = i
        if changed:
            continue
        for i in range(len(played) - 1):
            # (no cycle is left, so a detour here ends one move away, not back at the start)
            direct = (_move_to(states[i], keys[i + 2])
                      if is_detour(states[i], played[i], played[i + 1]) else None)
            if direct is not None:
                del keys[i + 1], states[i + 1], played[i + 1]
                played[i] = direct
                changed = True
                break
    return played


@dataclass
class Line:
    """A line from a position: its moves and the key of every position on it (``keys[i]``
    before ``moves[i]``).  ``kind``: WIN, BEST or TRY."""

    kind: str
    moves: list[str]
    keys: list[str]
    _index: dict[str, int] = field(default_factory=dict, repr=False)

    @classmethod
    def through(cls, game: Game, moves: list[str], kind: str) -> Line:
        """The line ``moves`` from ``game``, cut at the first move the engine refuses."""
        states, played = follow(game, moves)
        return cls(kind, played, [position_key(s) for s in states])

    def __post_init__(self) -> None:
        for i, key in enumerate(self.keys[:-1]):
            self._index.setdefault(key, i)

    def step(self, key: str) -> int | None:
        """The index of the move to play from the position ``key``, if it is on the line
        (its end excluded)."""
        return self._index.get(key)



class Lines:
    """The lines a game's hints follow, the newest first: the next hint is the next move of
    the first one the position is on, unless that move would undo the last action."""

    def __init__(self, keep: int = 4) -> None:
        self.keep = keep
        self.lines: list[Line] = []
        self._pending: list[tuple[Game, list[str], str, bool]] = []
        """Lines learnt and not followed through yet (newest last): most are never asked
        for ("still winnable?" after every move brings one a move), so the work of
        following one waits for a hint."""

    def learn(self, start: Game, moves: list[str], kind: str, clean: bool = True) -> None:
        """Keep the line ``moves`` from the position ``start``, cleaned (:func:`simplify`)
        unless it was already."""
        self._pending = [*self._pending, (start, list(moves), kind, clean)][-self.keep:]

    def _follow_pending(self) -> None:
        for start, moves, kind, clean in self._pending:
            line = Line.through(start, simplify(start, moves) if clean else moves, kind)
            if line.moves:
                self.lines = [line, *self.lines[:self.keep - 1]]
        self._pending = []

    def advice(self, game: Game) -> tuple[str, str] | None:
        """(the line's kind, the move) for the position as it stands, or None when no line
        kept goes on from it.  A move found on a line the game did not follow to here is
        checked against the last action (:func:`undoes`)."""
        self._follow_pending()
        key = position_key(game)
        previous: Game | None = None
        for line in self.lines:
            step = line.step(key)
            if step is None:
                continue
            move = line.moves[step]
            if game.actions:
                previous = previous or previous_position(game)
                followed = (previous is not None and step > 0
                            and position_key(previous) == line.keys[step - 1])
                if not followed and undoes(game, move, previous):
                    continue
            return line.kind, move
        return None
