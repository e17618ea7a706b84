"""Games in progress kept as they are played: every move reaches the database within
:data:`SAVE_EVERY_S` seconds, and a finished game the database refused is kept until it
can be stored.

A screen registers its game (:meth:`GameKeeper.start` claims the resume slot in the
background: the board is drawn at once, however busy the database), tells the keeper after
each move (:meth:`GameKeeper.changed`: a set insertion, nothing written), and
the keeper writes every changed game of this process in one transaction every
:data:`SAVE_EVERY_S` seconds, as the who's-online heartbeat does: a thousand callers typing
cost one write every two seconds, and a ``kill -9`` loses at most the moves of the last two
seconds.  Every exit path (quit, hang-up, idle, time up, shutdown) writes at once with
:meth:`GameKeeper.flush`.

When the database cannot take the writes (a full disk, a read-only file, a server down), the
games stay here and their callers are told (:attr:`KeptGame.trouble`: a line that stays on
their screen until the game is written, then cleared).  The keeper tries again at the usual
pace when the sysop can put things right on the spot (space freed: :data:`RETRY_SOON`),
with a growing pause when a database server is away, so everything is written as soon as
it can be; the sysop's log has one line a minute about it (door/store/core.py), not one
per move.  Saves of a slot that another visit has claimed since are refused by the store
and dropped here, with one log line.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import StoreError, StoreUnavailable
from .failures import RETRY_SOON, SHORT_REASONS
from .records import SlotSave
from .saves import Saves

log = logging.getLogger(__name__)

SAVE_EVERY_S = 2.0
"""A changed game is written at most this long after its move: the most a crash loses."""
RETRY_MAX_S = 30.0
"""Longest pause between tries while the database refuses writes."""
TROUBLE = "Not saved yet ({reason}): your moves are kept."
"""What a caller is told (on their status line, until it is over) while their moves cannot
be written; ``reason`` is one of SHORT_REASONS."""


@dataclass(eq=False)
class KeptGame:
    """One game in progress as the keeper follows it."""

    player_id: int
    game: str
    state: Callable[[], dict[str, Any]]
    """The game's state now (its ``to_json``), read when the keeper writes."""
    trouble: Callable[[str | None], None] | None = None
    """Told (once per outage) when the game cannot be written, with a line for the caller
    (:data:`TROUBLE`); told None once it is written again."""
    call: str | None = None
    """The token of the call playing it (its who's-online row): a claim made after the
    call was taken over is refused (:meth:`door.store.saves.Saves.claim_resume`)."""
    owner: int | None = None
    """The resume slot's claim once made (None: not claimed yet, or refused)."""
    version: int = 0
    """Changes seen so far; the slot keeps the highest version written."""
    written: int = -1
    refused: bool = False
    """Another visit owns the slot now: nothing more is written for this game."""
    told: bool = field(default=False, repr=False)

    @property
    def dirty(self) -> bool:
        return not self.refused and self.written < self.version


@dataclass(eq=False)
class PendingFinish:
    """A finished game the database has not taken yet."""

    describe: str
    store_it: Callable[[], Awaitable[Any]]


class GameKeeper:
    """This process's games in progress and finished games waiting for the database."""

    def __init__(self, saves: Saves, every_s: float = SAVE_EVERY_S) -> None:
        self._saves = saves
        self.every_s = every_s
        self._dirty: set[KeptGame] = set()
        self._finishes: list[PendingFinish] = []
        self._writer: asyncio.Task[None] | None = None
        self._claims: dict[KeptGame, asyncio.Task[None]] = {}
        """Claims under way (:meth:`start`): a write or finish of their game waits for them."""
        self._failures = 0
        self._reason = ""
        """Why the last write failed (a key of REASONS): it sets the pace of the next try."""
        self._closed = False

    # -- what screens call -------------------------------------------------------------------
    def start(self, kept: KeptGame) -> KeptGame:
        """Claim the resume slot for ``kept`` (a new game, or one resumed or loaded): once the
        claim is in, saves of any other visit to that slot are refused.

        The claim is made in the background, at once: a caller opening a game never waits
        for the database (under a flood of other callers' writes a claim took seconds).  The
        game's saves, :meth:`flush` and :meth:`claim_of` wait for it.  Never raises: when
        the database cannot take the claim, the keeper makes it later."""
        key = (kept.player_id, kept.game)
        olders = [g for g in (*self._dirty, *self._claims) if g is not kept and
                  (g.player_id, g.game) == key]
        before = [self._claims[g] for g in olders if g in self._claims]
        for older in olders:
            self.forget(older)  # an ended visit's game: its claim must not come after this
        kept.version = max(kept.version, 1)
        self._claims[kept] = asyncio.get_running_loop().create_task(
            self._claim_soon(kept, before))
        return kept

    async def claim_of(self, kept: KeptGame) -> int | None:
        """The owner id of ``kept``'s claim, once made (None: the database has not taken it
        yet, or another visit's claim came after it)."""
        await self._claimed([kept])
        return kept.owner

    def changed(self, kept: KeptGame) -> None:
        """The game moved: it is written within :data:`SAVE_EVERY_S` seconds."""
        kept.version += 1
        self._mark(kept)

    async def flush(self, kept: KeptGame | None = None) -> bool:
        """Write now (one game, or every changed one); True when nothing is left unwritten."""
        games = [kept] if kept is not None else list(self._dirty)
        await self._write([g for g in games if g.dirty], background=False)
        if kept is not None:
            return not kept.dirty
        return not any(g.dirty for g in self._dirty)

    def unwritten(self, player_id: int, game: str) -> dict[str, Any] | None:
        """The newest state of a game of this player that an ended visit left here unwritten
        (the database was slow or away): a new visit resumes it, not the slot's older one."""
        for kept in self._dirty:
            if (kept.player_id, kept.game) == (player_id, game) and kept.dirty:
                return kept.state()
        return None

    def forget(self, kept: KeptGame) -> None:
        """Stop following a game (it finished: its slot is emptied with its result)."""
        kept.refused = True
        self._dirty.discard(kept)

    async def finish(self, describe: str, store_it: Callable[[], Awaitable[Any]]) -> Any:
        """Store a finished game now; if the database cannot take it, keep it and try again
        with the games in progress (StoreUnavailable is raised so the caller can be told)."""
        try:
            return await store_it()
        except StoreUnavailable:
            self._finishes.append(PendingFinish(describe, store_it))
            self._wake_writer()
            raise

    @property
    def waiting(self) -> int:
        """Games (in progress or finished) not in the database yet."""
        return sum(1 for g in self._dirty if g.dirty) + len(self._finishes)

    async def close(self, timeout: float = 3.0) -> int:
        """Write everything once more (within ``timeout``); returns how many games could
        not be written, each logged."""
        self._closed = True
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._writer
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await self._claimed(list(self._claims))
                await self._write(list(self._dirty))
                await self._store_finishes()
        lost = [g for g in self._dirty if g.dirty]
        for game in lost:
            log.error("player %s: %s in progress could not be saved before exit (%d moves "
                      "not written)", game.player_id, game.game, game.version - game.written)
        for pending in self._finishes:
            log.error("%s could not be stored before exit", pending.describe)
        return len(lost) + len(self._finishes)

    # -- writing -----------------------------------------------------------------------------
    def _mark(self, kept: KeptGame) -> None:
        if kept.refused:
            return
        self._dirty.add(kept)
        self._wake_writer()

    def _wake_writer(self) -> None:
        if self._closed:
            return
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_later())

    async def _write_later(self) -> None:
        """Every :data:`SAVE_EVERY_S` seconds while something waits; longer while the
        database refuses."""
        while self._dirty or self._finishes:
            pause = self.every_s
            if self._failures and self._reason not in RETRY_SOON:
                pause = min(RETRY_MAX_S, self.every_s * 2 ** min(self._failures, 5))
            await asyncio.sleep(pause)
            try:
                await self._write([g for g in self._dirty if g.dirty])
                await self._store_finishes()
            except Exception:  # a task of its own: nobody else would see this
                log.exception("the game keeper failed; it tries again")
                self._failures += 1
            self._dirty = {g for g in self._dirty if g.dirty}

    async def _claimed(self, games: list[KeptGame]) -> None:
        """Wait for the claims of ``games`` still under way (never cancelling them)."""
        pending = [self._claims[g] for g in games if g in self._claims]
        if pending:
            await asyncio.wait(pending)  # never cancels them, even when this wait is

    async def _claim_soon(self, kept: KeptGame, after: list[asyncio.Task[None]]) -> None:
        """:meth:`start`'s claim, after those of the visits it replaces; a claim the database
        did not take is left to the writer, which tries again."""
        try:
            if after:
                await asyncio.wait(after)
            if not kept.refused:
                await self._claim(kept)
        except Exception:  # a task of its own: nobody else would see this
            log.exception("player %s: %s slot not claimed; the keeper tries again",
                          kept.player_id, kept.game)
        finally:
            self._claims.pop(kept, None)
        if kept.owner is None:
            self._mark(kept)

    async def _write(self, games: list[KeptGame], background: bool = True) -> None:
        """Claim what is not claimed yet, then save; ``background``: nobody waits for it on
        a screen (a caller leaving a game waits for :meth:`flush`)."""
        await self._claimed(games)
        for game in [g for g in games if g.owner is None and not g.refused]:
            await self._claim(game, background)
        saves = {id(g): (g, SlotSave(g.player_id, g.game, g.owner, g.version, g.state()))
                 for g in games if g.owner is not None and g.dirty}
        if not saves:
            return
        try:
            refused = await self._saves.keep_resumes([s for _, s in saves.values()],
                                                          background=background)
        except StoreUnavailable as exc:
            self._failed(exc, [g for g, _ in saves.values()])
            return
        self._succeeded([g for g, _ in saves.values()])
        refused_ids = {(s.player_id, s.game, s.owner) for s in refused}
        for game, save in saves.values():
            if (save.player_id, save.game, save.owner) in refused_ids:
                game.refused = True
                self._dirty.discard(game)
                log.warning("player %s: %s slot belongs to a newer visit now: this visit's "
                            "save (%d moves) refused", game.player_id, game.game,
                            len(save.state.get("actions", ())))
            else:
                game.written = max(game.written, save.version)

    async def _claim(self, kept: KeptGame, background: bool = True) -> None:
        version = kept.version
        try:
            owner = await self._saves.claim_resume(kept.player_id, kept.game, kept.state(),
                                                        version, background=background,
                                                        call=kept.call)
        except StoreUnavailable as exc:
            self._failed(exc, [kept])
            return
        except StoreError as exc:  # e.g. the player was deleted meanwhile
            log.warning("player %s: %s slot not claimed: %s", kept.player_id, kept.game, exc)
            kept.refused = True
            return
        if owner is None:
            log.warning("player %s: %s slot not claimed: this call was taken over by a newer "
                        "one", kept.player_id, kept.game)
            self.forget(kept)
            return
        kept.owner, kept.written = owner, version
        self._succeeded([kept])

    async def _store_finishes(self) -> None:
        while self._finishes:
            pending = self._finishes[0]
            try:
                await pending.store_it()
            except StoreUnavailable as exc:
                self._failures += 1
                self._reason = exc.reason
                return
            except StoreError as exc:
                log.error("%s refused by the store: %s", pending.describe, exc)
            else:
                log.info("%s stored after a wait", pending.describe)
            self._finishes.pop(0)

    def _failed(self, exc: StoreUnavailable, games: list[KeptGame]) -> None:
        self._failures += 1
        self._reason = exc.reason
        text = TROUBLE.format(reason=SHORT_REASONS.get(exc.reason, SHORT_REASONS["other"]))
        for game in games:
            if not game.told and game.trouble is not None:
                game.told = True
                with contextlib.suppress(Exception):
                    game.trouble(text)

    def _succeeded(self, games: list[KeptGame]) -> None:
        if self._failures:
            log.info("the database takes writes again")
        self._failures, self._reason = 0, ""
        for game in games:
            if game.told and game.trouble is not None:
                with contextlib.suppress(Exception):
                    game.trouble(None)
            game.told = False
