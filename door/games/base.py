"""The contract every game engine keeps, and the pieces they share.

Engines are pure: no terminal, socket, database, clock or asyncio.  A game is created from
a game number and options; moves travel as short text notation (``docs/notation.md``);
the whole state round-trips through JSON; a :class:`GameRecord` (game, number, options,
actions) replays to the same state and score, which is how a stored score is trusted.

An *action* in a record is a move's notation, or one of the words ``undo`` / ``redo``.

Every engine says when a game is over, in the same words (docs/rules.md, "The end of a
game"): :attr:`Game.finished` (won, resigned, or ended by its own rules: nothing more is
accepted), :attr:`Game.no_moves_left` (nothing can be played, but a move may still be taken
back), :attr:`Game.cannot_win` (moves remain, none can ever lead to a win: proven by the
engine itself), and :attr:`Game.outcome` (what an ended game is stored as).  ``resign``
(:data:`RESIGN`) is a move in every card game: it ends the game as RESIGNED, which no hall
of fame counts.
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

UNDO = "undo"
REDO = "redo"
RESIGN = "resign"
"""The move that gives a game up (a game with an end move of its own plays that instead)."""


class IllegalMove(ValueError):
    """A refused move or action.  ``str(exc)`` is a reason a caller can read."""


class Status(enum.StrEnum):
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"      # the rules say the game cannot go on
    STUCK = "stuck"    # information only: no useful move is left, the caller may still act
    RESIGNED = "resigned"  # the player gave up (``resign``): final, in no hall of fame


@dataclass(frozen=True)
class GameRecord:
    """Everything needed to replay a game: which game, which deal, which options, what was done."""

    game: str
    number: int
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "number": self.number, "options": dict(self.options),
                "actions": list(self.actions)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRecord:
        try:
            return cls(game=str(data["game"]), number=int(data["number"]),
                       options=dict(data.get("options") or {}),
                       actions=[str(a) for a in data.get("actions") or []])
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a game record: {exc}") from None


class Game(ABC):
    """Base of the engines.  Subclasses implement the abstract methods; the record is kept here."""

    name: ClassVar[str]
    """Registry key: the ``name`` of the game's record (door/catalog/registry.py)."""

    number: int
    options: dict[str, Any]

    def __init__(self) -> None:
        self.actions: list[str] = []
        self.cheater = False
        """The player did what the game's rules call cheating (say, an undo taking back
        a card already seen); such a game never enters a hall of fame, and its
        replay must say so too (door/store/scores.py checks the record against it)."""

    # -- creation -------------------------------------------------------------------------
    @classmethod
    @abstractmethod
    def new(cls, number: int, **options: Any) -> Self:
        """Deal game ``number`` with ``options``; ValueError for a bad number or option."""

    # -- moves ----------------------------------------------------------------------------
    @abstractmethod
    def legal_moves(self) -> list[str]:
        """Every move playable now, in notation, in a stable documented order."""

    @abstractmethod
    def _apply(self, move: str) -> None:
        """Play one move given in notation; raise IllegalMove (changing nothing) if refused."""

    @abstractmethod
    def _undo(self) -> None:
        """Take back the last action by the game's own undo rules, or raise IllegalMove."""

    def _redo(self) -> None:
        raise IllegalMove(f"{self.name} has no redo")

    def play(self, move: str) -> None:
        """Play a move in notation.  An illegal move raises IllegalMove and changes nothing."""
        self._apply(move)
        self.actions.append(self.canonical(move))

    def undo(self) -> None:
        self._undo()
        self.actions.append(UNDO)

    def redo(self) -> None:
        self._redo()
        self.actions.append(REDO)

    def canonical(self, move: str) -> str:
        """The move's canonical notation, as stored in records (override to normalise)."""
        return move.strip()

    # -- state ----------------------------------------------------------------------------
    @property
    @abstractmethod
    def score(self) -> int:
        """The score as it stands (the final score once the game is over)."""

    @property
    @abstractmethod
    def status(self) -> Status: ...

    # -- the end of a game ----------------------------------------------------------------
    @property
    def finished(self) -> bool:
        """Over for good: won, resigned, or ended by the game's own rules.  Nothing more is
        accepted, not even an undo (a game whose end move is final overrides it)."""
        return self.status in (Status.WON, Status.RESIGNED)

    @property
    def no_moves_left(self) -> bool:
        """Not finished, yet nothing can be played: the caller may only take a move back
        (where :attr:`can_undo`) or end the game here.  Engines with a cheaper test than
        listing every move override it."""
        return not self.finished and not self.legal_moves()

    @property
    def cannot_win(self) -> bool:
        """Moves remain, but the engine has proven by itself (a complete search, no time
        limit) that none can ever lead to a win: the game may as well end.  Never a guess:
        engines without such a proof leave it False (the solver's "still winnable?" answers
        the question where one exists)."""
        return False

    @property
    def can_undo(self) -> bool:
        """Whether :meth:`undo` would be accepted now."""
        return False

    @property
    def outcome(self) -> Status:
        """What the game is stored as once it has ended: WON, RESIGNED, else LOST (ended
        with no move left, with no win possible, or by the game's own end)."""
        status = self.status
        return status if status in (Status.WON, Status.RESIGNED) else Status.LOST

    @abstractmethod
    def hints(self) -> list[str]:
        """Suggested moves, best first, in notation (may be empty)."""

    # -- what the solvers' hints need (door/games/hints.py) -------------------------------
    def copy(self) -> Self:
        """An independent copy to play on, undo and redo included (engines override it
        with a cheaper one than this JSON round trip)."""
        return type(self).from_json(self.to_json())

    def position_key(self) -> str:
        """The position as text, equal for the same position whatever the score or the
        moves that led there: hints cut cycles and find detours by it.  A game whose
        record has a solver must give one; the others never need it."""
        raise NotImplementedError(f"{self.name} has no position key")

    def move_spots(self, move: str) -> tuple[str, str] | None:
        """Where ``move`` takes cards from and puts them, for the hints' detours; None for
        a move that puts nothing down where another move could take it from (the
        default: no detour is ever seen)."""
        return None

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The full state, enough to continue the game (includes number, options, actions)."""

    @classmethod
    @abstractmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        """Rebuild any position written by :meth:`to_json`; ValueError if it is inconsistent."""

    # -- records --------------------------------------------------------------------------
    def record(self) -> GameRecord:
        return GameRecord(self.name, self.number, dict(self.options), list(self.actions))

    @classmethod
    def replay(cls, record: GameRecord) -> Self:
        """Deal the record's game and apply its actions; IllegalMove names the first bad one."""
        game = cls.new(record.number, **record.options)
        apply_actions(game, record.actions)
        return game


def apply_actions(game: Game, actions: list[str]) -> None:
    """Apply moves and the words ``undo``/``redo`` in order; IllegalMove names the first
    refused one (``action 3 (b2c3) refused: …``) and the actions before it stay applied."""
    for index, action in enumerate(actions, 1):
        try:
            if action == UNDO:
                game.undo()
            elif action == REDO:
                game.redo()
            else:
                game.play(action)
        except IllegalMove as exc:
            raise IllegalMove(f"action {index} ({action}) refused: {exc}") from None
