"""Perfect-information solver for Aunt Mary: can this deal (or this position) still be won?

The solver sees everything (face-down cards and the stock order), so "winnable" is an upper
bound on what a player can do; "unwinnable" means that no sequence of legal moves wins,
whatever the player knew.  It powers the end-of-game verdict, "winnable deals only" and
"Still winnable?"; ``docs/solvability.md`` has the method, the proofs and the figures.

The search is depth-first over the legal moves with a table of the positions explored
(keyed by an incremental 128-bit hash that ignores the order of the columns).  What makes
it fast enough in Python, each step exact (never a guess):

* **The talon is one list** in turning order (waste bottom … top, then the stock), a mask of
  the cards still in it, a pointer (how far this pass has turned) and the redeals used.
  Turning is not a move of its own: "play talon card k" turns to it (or redeals and turns
  to it) and plays it.  A position that used fewer redeals, or as many with the pointer no
  further on, can do all that another can, so the latter is skipped.
* **Some moves are made at once**: a card that is *safe* to send home (an Ace or a 2, or a
  rank r card whose two foundations of the other colour hold r−1 and the other one of its
  colour r−2: nothing could ever need it on the tableau again), and a column top that lies
  in sequence on its host, or a King alone in its column, whose foundation is ready (it can
  come straight back, so both positions are worth the same).
* **Foundation cards come back down in blocks**: the cards brought down (digging a suit,
  building on each other) and then a card from the tableau or the talon put onto one of
  them, as one move.  A card brought down and left alone would go straight back home.
* **A move that only frees something is tried when the next move can use it**: a run moved
  off one of its two hosts onto the other (the freed host can go home, or its other guest
  is within reach), a whole column moved away (a King could fill it), a stock card played
  (something can go on it, or follow it home, or a card further on in the pass plays
  next).  Any of these can wait until just before its gain is used without harm.

* **Lost deals are often proved before any search** (``auntmary_deadlock``: a fixpoint over
  what may ever happen in a relaxed game; about 45 % of deals, in well under a millisecond).
* **Talon plays that cost a redeal are tried last**, after every tableau move: a position
  reached first with a redeal used is explored again when reached without one, so those
  come later (13-16 % fewer nodes).  Some wins need the early redeal, so a short probe
  (``PROBE_NODES``) in the old order, talon plays together, runs first.

**Cheap nodes** (node for node the same search): the table keeps one number a position
(:func:`talon_state`); a column's top run is worked out once per column met (a search
meets a few hundred) and the talon cards within reach once per talon state; a block
carries the hash it leads to (worked out when the block is found), so that a block
leading to a position explored already costs a table look-up like any other move; after
a tableau move only the columns it touched are looked at for moves made at once; the
cycle collector is paused.

The search is deterministic for a given node limit.  A seconds limit stops it by the clock
(CPU time of this process), so an ``unknown`` near that limit may depend on the machine.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .auntmary import AuntMary, Position
from .auntmary_cards import (
    _HOME,
    _OTHER_COLOUR,
    _SAME_COLOUR,
    DOWN,
    FIT,
    GUESTS,
    HOSTS,
    KING_ID,
    TWIN,
    card_id,
)
from .auntmary_deadlock import cannot_win
from .cards import SUITS

WINNABLE = "winnable"
UNWINNABLE = "unwinnable"
UNKNOWN = "unknown"

# -- position hashing ---------------------------------------------------------------------
# The tableau's hash is the XOR of one random number per pair of neighbouring cards in a
# column (the bottom card pairs with the floor): a set of pairs, so the order of the
# columns does not count, and moving a run changes two pairs whatever its length.
# Face-down cards have codes of their own.  The numbers come from splitmix64, fixed forever.

_MASK = (1 << 128) - 1
_FLOOR = 104


def _splitmix64(seed: int) -> Iterator[int]:
    while True:
        seed = (seed + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = seed
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        yield z ^ (z >> 31)


def _randoms(count: int, seed: int) -> list[int]:
    gen = _splitmix64(seed)
    return [next(gen) << 64 | next(gen) for _ in range(count)]


_CODE = [v if v < 52 else v - DOWN + 52 if DOWN <= v < DOWN + 52 else -1 for v in range(DOWN + 52)]
"""A column entry (card id, or card id + DOWN when face down) -> its hash code 0 … 103."""
_ZPAIR = [_randoms(104, 1000 + p) for p in range(105)]
"""``_ZPAIR[below][card]``: one pair of neighbours in a column (below = _FLOOR at the bottom)."""
_ZFOUND = [_randoms(14, 2000 + su) for su in range(4)]
_ZTALON = _randoms(52, 3000)


_HOST_BITS = [sum(1 << h for h in HOSTS[x]) for x in range(52)]
"""A card's two hosts as a bit mask (none for a King)."""
_GUEST_BITS = [sum(1 << g for g in GUESTS[x]) for x in range(52)]
"""The two cards that may lie on a card, as a bit mask (none on an Ace)."""
_NEXT_HOME = [[1 << (top * 4 + su) if top < 13 else 0 for top in range(14)] for su in range(4)]
"""``_NEXT_HOME[suit][top]``: the bit of the card that goes on a foundation next."""
_KINGS = sum(1 << x for x in range(KING_ID, 52))


def _column_hash(col: list[int]) -> int:
    """XOR of the column's pairs (see above)."""
    h = 0
    below = _FLOOR
    for v in col:
        code = _CODE[v]
        h ^= _ZPAIR[below][code]
        below = code
    return h


def talon_state(q: int, redeals: int) -> int:
    """The talon's progress as one number, ordered as positions dominate one another: a
    position that used fewer redeals, or as many with the pointer no further on, can do all
    that one with a higher number can (the same cards everywhere else).  So the table keeps
    one number a position, the least explored, and skips one reached again with no less."""
    return redeals << 6 | q     # the pointer q is at most 52


_ALL_COLUMNS = range(6)

PROBE_NODES = 5000
"""Nodes of the first, short search in the other move order (see :func:`solve`)."""


_Run = tuple[int, int, tuple[tuple[int, int, int, bool], ...], int]
"""A column's top run: the mask of its cards, the mask of their hosts, each card top down as
(index, card, the entry under it or -1, whether it lies on its host), the run's first index."""


class _OutOfBudget(Exception):
    pass


@dataclass(frozen=True)
class SolveResult:
    """``verdict``: winnable, unwinnable or unknown (budget spent).  ``moves``: a winning line
    from the position in engine notation, when winnable."""

    verdict: str
    nodes: int
    seconds: float
    moves: list[str] | None = field(default=None)

    @property
    def winnable(self) -> bool | None:
        return {WINNABLE: True, UNWINNABLE: False}.get(self.verdict)


Move = tuple[Any, ...]
"""``("H", a)`` column a's top home; ``("T", a, i, b)`` column a's cards from index i onto
column b; ``("W", k, b)`` talon card k onto column b (``b = -1``: home); ``("D", s, b)`` the
top of suit s's foundation onto column b; ``("B", steps, child)`` a block of such moves,
with the hash and talon state it leads to (:meth:`_Search.child_key`), worked out when
the block is found (its steps are made then), so that a block leading to a position
explored already costs no more than another move."""


class _Search:
    """One depth-first search from one position; the state is changed and restored."""

    def __init__(self, pos: Position, node_limit: int | None, deadline: float | None) -> None:
        self.cols: list[list[int]] = []
        for col, down in zip(pos.columns, pos.down, strict=True):
            ids = [card_id(c) for c in col]
            for i in range(down):
                ids[i] += DOWN
            self.cols.append(ids)
        self.found = list(pos.foundations)
        self.talon = [card_id(c) for c in pos.waste] + [card_id(c) for c in reversed(pos.stock)]
        self.present = (1 << len(self.talon)) - 1
        self.q = len(pos.waste)
        self.redeals = pos.redeals
        self.tab = 0
        for ids in self.cols:
            self.tab ^= _column_hash(ids)
        self.fh = 0
        for su, top in enumerate(self.found):
            self.fh ^= _ZFOUND[su][top]
        self.th = 0
        for k in range(len(self.talon)):
            self.th ^= _ZTALON[k]
        self._reach_cache: dict[int, tuple[tuple[int, ...], int, int]] = {}
        self._runs: dict[tuple[int, ...], _Run] = {}
        self.seen: dict[int, int] = {}
        """Position hash -> the least talon state (:func:`talon_state`) explored there."""
        self.nodes = 0
        self.node_limit = node_limit
        self.deadline = deadline
        self.path: list[Move] = []
        self.exhaustive = False
        """Tests only: nothing made at once, every legal move tried, one at a time."""
        self.redeal_last = True
        """Talon plays that cost a redeal are tried after every other move (fewer positions
        seen again with a better talon); False: with the other talon plays (the probe)."""

    def key(self) -> int:
        """The position's hash, without the talon pointer and redeals (see talon_state)."""
        return self.tab ^ self.fh ^ self.th

    # -- the search ----------------------------------------------------------------------
    def run(self) -> bool:
        """Search; True with ``path`` holding a winning line, False if none exists."""
        path = self.path
        entered = self._enter(self.key(), talon_state(self.q, self.redeals))
        if entered is True:
            return True
        if entered is None:
            return False
        frames: list[list[Any]] = [[self.moves(), 0, entered, 0, None, None]]
        seen = self.seen
        while frames:
            frame = frames[-1]
            moves, index = frame[0], frame[1]
            if index < len(moves):
                frame[1] = index + 1
                move = moves[index]
                child = self.child_key(move)
                best = seen.get(child[0])
                if best is not None and best <= child[1]:
                    self.nodes += 1
                    continue
                undo = self.apply(move)
                mark = len(path)
                path.append(move)
                entered = self._enter(self.key(), self.redeals << 6 | self.q, move)
                if entered is True:
                    return True
                if entered is None:
                    path.pop()
                    self.revert(move, undo)
                else:
                    frames.append([self.moves(), 0, entered, mark, move, undo])
            else:
                frames.pop()
                self._unplay(frame[2])
                if frame[4] is not None:
                    del path[frame[3]:]
                    self.revert(frame[4], frame[5])
        return False

    def _enter(self, pre: int, pre_state: int,
               after: Move | None = None) -> list[tuple[Move, Any]] | bool | None:
        """Count a node, make the moves made at once, check for a win and the table.

        ``pre`` and ``pre_state``: the position's hash and talon state before those
        moves; ``after``: the move that led here (see :meth:`_autoplay`).  Returns True
        when won, None when the position was explored already (the moves made at once are
        undone), else the moves made at once (undone when leaving)."""
        self.nodes += 1
        if self.nodes & 1023 == 0:
            self._check_budget()
        auto = self._autoplay(after)
        found = self.found
        if found[0] + found[1] + found[2] + found[3] == 52:
            return True
        seen = self.seen
        key = self.key() if auto else pre
        state = self.redeals << 6 | self.q
        best = seen.get(key)
        if best is not None and best <= state:
            self._unplay(auto)
            del self.path[len(self.path) - len(auto):]
            return None
        seen[key] = state
        if auto:
            best = seen.get(pre)
            if best is None or best > pre_state:
                seen[pre] = pre_state
        return auto

    def _check_budget(self) -> None:
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise _OutOfBudget
        if self.deadline is not None and time.process_time() > self.deadline:
            raise _OutOfBudget

    def _autoplay(self, after: Move | None = None) -> list[tuple[Move, Any]]:
        """Make the moves made at once (see the module docstring).

        ``after``: the move just made from a position where none was left to make.  A
        tableau move or a talon card put on a column leaves the foundations as they were,
        so only the columns it touched (and the waste) can offer one; the first look is
        at those alone.  Once a card goes home every column is looked at, as many times
        as needed.  Those moves only ever become possible, never impossible, as others are
        made, so the position reached is the same whatever the order."""
        done: list[tuple[Move, Any]] = []
        if self.exhaustive:
            return done   # tests compare the search with and without them
        found, cols, path = self.found, self.cols, self.path
        columns: tuple[int, ...] | range = _ALL_COLUMNS
        if after is not None:
            kind = after[0]
            if kind == "T":
                columns = (after[1], after[3])
            elif kind == "W" and after[2] >= 0:
                columns = (after[2],)
        moved = True
        while moved:
            moved = False
            for a in columns:
                col = cols[a]
                while col:
                    x = col[-1]
                    s = x & 3
                    r = x >> 2          # rank - 1
                    if found[s] != r:
                        break
                    n = len(col)
                    if not ((n == 1 and x >= KING_ID) or (n > 1 and col[-2] < DOWN
                            and FIT[x][col[-2]])) and r > 1 and (
                            found[_OTHER_COLOUR[s][0]] < r or found[_OTHER_COLOUR[s][1]] < r
                            or found[_SAME_COLOUR[s]] < r - 1):
                        break
                    move: Move = ("H", a)
                    done.append((move, self.apply(move)))
                    path.append(move)
                    moved = True
            top = self.q - 1
            if top >= 0:
                x = self.talon[top]
                s = x & 3
                r = x >> 2
                if found[s] == r and (r <= 1 or (
                        found[_OTHER_COLOUR[s][0]] >= r and found[_OTHER_COLOUR[s][1]] >= r
                        and found[_SAME_COLOUR[s]] >= r - 1)):
                    move = ("W", top, -1)
                    done.append((move, self.apply(move)))
                    path.append(move)
                    moved = True
            columns = _ALL_COLUMNS
        return done

    def _unplay(self, auto: list[tuple[Move, Any]]) -> None:
        for move, undo in reversed(auto):
            self.revert(move, undo)

    def waste_top(self) -> int:
        """Talon index of the waste's top card, -1 if the waste is empty: always ``q - 1``,
        the pointer being set just past the waste's top card (tests check it)."""
        return self.q - 1

    # -- moves ---------------------------------------------------------------------------
    def moves(self) -> list[Move]:
        """The moves to try from here, most promising first: cards home, runs that turn a
        face-down card (deepest first), talon plays (this pass first), the other runs,
        foundation cards back down.  A King run that is a whole column stays put, and one
        empty column stands for all; a run leaving its host for the other host, or a
        whole column, only when the very next move can use what it frees (see the module
        docstring)."""
        cols, found, talon = self.cols, self.found, self.talon
        exhaustive = self.exhaustive
        top_of: dict[int, int] = {}
        top_mask = top_guests = 0
        empty = -1
        for b in range(6):
            col = cols[b]
            if col:
                x = col[-1]
                top_of[x] = b
                top_mask |= 1 << x
                top_guests |= _GUEST_BITS[x]
            elif empty < 0:
                empty = b
        home: list[Move] = []
        expose: list[tuple[int, Move]] = []
        plays: list[Move] = []
        other: list[Move] = []
        downs: list[Move] = []
        twin_moves: list[tuple[int, int, int, int]] = []
        clearing: list[Move] = []
        later: list[Move] = []   # talon plays that cost a redeal
        # cards that could be put onto a card brought back from a foundation:
        # (card, column or -1, index in the column or talon index, that card)
        wanting: list[tuple[int, int, int, int]] = []
        home_mask = 0
        next_home = 0       # the cards that could go home right now
        for su in range(4):
            home_mask |= _HOME[su][found[su]]
            next_home |= _NEXT_HOME[su][found[su]]
        ready = home_mask   # cards that could be put onto another card right now (those on
        # the foundations through a block)
        king_ready = found[0] == 13 or found[1] == 13 or found[2] == 13 or found[3] == 13
        # a King that could go into an empty column right now
        # talon: this pass first (the waste top, then the stock in turning order), then
        # the cards behind the waste top, which cost a redeal
        reach: tuple[int, ...] = ()
        if self.present:
            reach, cards, hosts = self._reach()
            ready |= cards
            if cards >> KING_ID:
                king_ready = True
            if hosts & home_mask:
                for k in reach:
                    x = talon[k]
                    for h in HOSTS[x]:
                        if home_mask >> h & 1:
                            wanting.append((x, -1, k, h))
        look = top_mask | home_mask     # hosts worth a closer look: a top, or home
        runs = self._runs
        for b in range(6):
            col = cols[b]
            if not col:
                continue
            x = col[-1]
            if found[x & 3] == x >> 2:
                home.append(("H", b))
            run = runs.get(tuple(col))
            if run is None:
                run = self._top_run(col)
            run_bits, run_hosts, run_cards, i = run
            ready |= run_bits
            if run_hosts & look:
                for j, c, below, on_host in run_cards:
                    if not _HOST_BITS[c] & look:
                        continue
                    for h in HOSTS[c]:
                        d = top_of.get(h)
                        if d is None:
                            if home_mask >> h & 1:
                                wanting.append((c, b, j, h))
                        elif below >= DOWN:
                            expose.append((-j, ("T", b, j, d)))
                        elif exhaustive:
                            other.append(("T", b, j, d))
                        elif on_host:
                            twin_moves.append((b, j, d, below))
                        elif below < 0:
                            clearing.append(("T", b, j, d))
                        else:
                            other.append(("T", b, j, d))
            if i and col[i] >= KING_ID:
                king_ready = True
                if empty >= 0:
                    if col[i - 1] >= DOWN:
                        expose.append((-i, ("T", b, i, empty)))
                    else:
                        other.append(("T", b, i, empty))
        if clearing and (king_ready or exhaustive):
            other += clearing     # an emptied column only takes a King
        for b, i, d, host in twin_moves:
            # the run's old host is freed: for itself going home, or for the other card
            # that fits on it
            if found[host & 3] == host >> 2 or ready >> TWIN[cols[b][i]] & 1:
                other.append(("T", b, i, d))
        if reach:
            playable = next_home | top_guests | (_KINGS if empty >= 0 else 0)
            self._talon_moves(reach, top_of, empty, ready, playable, home, plays, later)
        if exhaustive:
            for su in range(4):
                r = found[su]
                if not r:
                    continue
                x = (r - 1) * 4 + su
                for h in HOSTS[x]:
                    d = top_of.get(h)
                    if d is not None:
                        downs.append(("D", su, d))
                if x >= KING_ID and empty >= 0:
                    downs.append(("D", su, empty))
        elif wanting:
            downs = self._blocks(wanting)
        if len(expose) > 1:
            expose.sort(key=_first)
        return home + [m for _, m in expose] + plays + other + downs + later

    def _top_run(self, col: list[int]) -> _Run:
        """The face-up run at the top of a column (see :data:`_Run`), kept by the column's
        cards: a column changes only where a move touches it, so most are met again."""
        cards = []
        bits = hosts = 0
        i = len(col) - 1
        while True:
            c = col[i]
            bits |= 1 << c
            hosts |= _HOST_BITS[c]
            below = col[i - 1] if i else -1
            on_host = 0 <= below < DOWN and FIT[c][below]
            cards.append((i, c, below, on_host))
            if not on_host:
                break
            i -= 1
        run = self._runs[tuple(col)] = (bits, hosts, tuple(cards), i)
        return run

    def _reach(self) -> tuple[tuple[int, ...], int, int]:
        """The talon cards within reach (indexes: this pass first, from the waste top on,
        then those behind it if a redeal is left), their card mask and the mask of their
        hosts; kept by talon state, of which a search meets few."""
        q, redeals = self.q, self.redeals
        key = self.present << 8 | q << 1 | (redeals < 2)
        known = self._reach_cache.get(key)
        if known is None:
            present, talon = self.present, self.talon
            start = max(q - 1, 0)
            reach = [k for k in range(start, len(talon)) if present >> k & 1]
            if redeals < 2:
                reach += [k for k in range(start) if present >> k & 1]
            cards = hosts = 0
            for k in reach:
                cards |= 1 << talon[k]
                hosts |= _HOST_BITS[talon[k]]
            known = self._reach_cache[key] = (tuple(reach), cards, hosts)
        return known

    def _talon_moves(self, reach: tuple[int, ...], top_of: dict[int, int], empty: int, ready: int,
                     can_play: int, home: list[Move], plays: list[Move],
                     later: list[Move]) -> None:
        """Talon plays.  A card turned up from the stock (not the waste top) is played only
        if the very next move can use it -- a card to put on it, the next card of its suit
        to follow it home -- or a card further on in this pass can be played next: until
        then it can wait in the stock, still within reach (see the module docstring).

        ``can_play``: the mask of the cards that could be played right now (home, onto a
        column top, a King into an empty column)."""
        talon, found = self.talon, self.found
        top = self.q - 1
        exhaustive = self.exhaustive
        playable = [k for k in reach if can_play >> talon[k] & 1]
        if not playable:
            return
        last = max(playable)
        for k in playable:
            x = talon[k]
            waiting = not exhaustive and k > top and last <= k   # nothing further on plays
            guests = GUESTS[x]
            used_on = bool(guests) and bool(ready >> guests[0] & 1 or ready >> guests[1] & 1)
            if found[x & 3] == x >> 2:
                nxt = x + 4
                if not waiting or used_on or (nxt < 52 and (
                        nxt in top_of or any(talon[j] == nxt for j in reach if j != k))):
                    (later if k < top and self.redeal_last else home).append(("W", k, -1))
            if waiting and not used_on:
                continue
            out = later if k < top and self.redeal_last else plays
            for h in HOSTS[x]:
                d = top_of.get(h)
                if d is not None:
                    out.append(("W", k, d))
            if x >= KING_ID and empty >= 0:
                out.append(("W", k, empty))

    def _blocks(self, wanting: list[tuple[int, int, int, int]]) -> list[Move]:
        """Foundation cards brought back down, each block ending with a card from the
        tableau or the talon put onto one of them (see the module docstring).

        ``wanting``: (card, column, index in the column, host) for cards of the columns'
        top runs, (card, -1, talon index, host) for talon cards within reach, whose host is
        on a foundation."""
        out: list[Move] = []
        for _g, b, i, x in wanting:
            for plan in self._plans(x, b):
                dest = plan[-1][2]
                place = ("T", b, i, dest) if b >= 0 else ("W", i, dest)
                out.append(("B", (*plan, place), self.child_key(place)))
        return out

    def _plans(self, x: int, avoid: int) -> Iterator[list[Move]]:
        """Ways to bring card ``x`` from its foundation onto a column top (not onto column
        ``avoid``): the cards above it in its suit come down first, each onto a column
        top or onto a card brought down for it.  While a plan is yielded its moves are made
        (the caller only reads it); they are taken back afterwards."""
        s = x & 3
        if self.found[s] - 1 > x >> 2:
            t = (self.found[s] - 1) * 4 + s     # the top of the suit comes down first
            for first in self._down(t, avoid):
                for rest in self._plans(x, avoid):
                    yield first + rest
        else:
            yield from self._down(x, avoid)

    def _down(self, f: int, avoid: int) -> Iterator[list[Move]]:
        """Ways to bring the foundation top ``f`` onto a column (see :meth:`_plans`)."""
        cols = self.cols
        su = f & 3
        empty_done = False
        for b in range(6):
            if b == avoid:
                continue
            col = cols[b]
            if col:
                if not FIT[f][col[-1]]:
                    continue
            elif f < KING_ID or empty_done:
                continue
            else:
                empty_done = True
            move = ("D", su, b)
            undo = self.apply(move)
            yield [move]
            self.revert(move, undo)
        found = self.found
        for h in HOSTS[f]:
            if found[h & 3] > h >> 2:
                for plan in self._plans(h, avoid):
                    move = ("D", su, plan[-1][2])
                    undo = self.apply(move)
                    yield [*plan, move]
                    self.revert(move, undo)

    # -- making and taking back moves ----------------------------------------------------
    def _talon_after(self, k: int) -> tuple[int, int, int]:
        """(present, pointer, redeals) after playing talon card k."""
        redeals = self.redeals
        if k < self.q - 1:
            redeals += 1
            q = k + 1
        else:
            q = max(self.q, k + 1)
        present = self.present & ~(1 << k)
        return present, (present & ((1 << q) - 1)).bit_length(), redeals

    def child_key(self, move: Move) -> tuple[int, int]:
        """The hash and talon state (:func:`talon_state`) the move leads to, before the
        moves made at once (a block carries its own)."""
        kind = move[0]
        cols = self.cols
        tab, fh, th = self.tab, self.fh, self.th
        q, r = self.q, self.redeals
        if kind == "T":
            _, a, i, b = move
            src, dst = cols[a], cols[b]
            x = src[i]
            tab ^= (_ZPAIR[_CODE[src[i - 1]] if i else _FLOOR][x]
                    ^ _ZPAIR[_CODE[dst[-1]] if dst else _FLOOR][x])
            if i and src[i - 1] >= DOWN:
                u = src[i - 1]
                below = _CODE[src[i - 2]] if i > 1 else _FLOOR
                tab ^= _ZPAIR[below][_CODE[u]] ^ _ZPAIR[below][u - DOWN]
        elif kind == "H":
            col = cols[move[1]]
            n = len(col)
            x = col[-1]
            tab ^= _ZPAIR[_CODE[col[-2]] if n > 1 else _FLOOR][x]
            if n > 1 and col[-2] >= DOWN:
                u = col[-2]
                below = _CODE[col[-3]] if n > 2 else _FLOOR
                tab ^= _ZPAIR[below][_CODE[u]] ^ _ZPAIR[below][u - DOWN]
            su, top = x & 3, self.found[x & 3]
            fh ^= _ZFOUND[su][top] ^ _ZFOUND[su][top + 1]
        elif kind == "W":
            _, k, b = move
            x = self.talon[k]
            th ^= _ZTALON[k]
            if b < 0:
                su, top = x & 3, self.found[x & 3]
                fh ^= _ZFOUND[su][top] ^ _ZFOUND[su][top + 1]
            else:
                dst = cols[b]
                tab ^= _ZPAIR[_CODE[dst[-1]] if dst else _FLOOR][x]
            _, q, r = self._talon_after(k)
        elif kind == "D":
            _, su, b = move
            top = self.found[su]
            fh ^= _ZFOUND[su][top] ^ _ZFOUND[su][top - 1]
            dst = cols[b]
            tab ^= _ZPAIR[_CODE[dst[-1]] if dst else _FLOOR][(top - 1) * 4 + su]
        else:
            carried: tuple[int, int] = move[2]  # a block's own key (see the docstring)
            return carried
        return tab ^ fh ^ th, r << 6 | q

    def _flip(self, a: int) -> bool:
        """Turn column a's top card face up if it is face down (hash kept); True if so."""
        col = self.cols[a]
        if col and col[-1] >= DOWN:
            u = col[-1]
            below = _CODE[col[-2]] if len(col) > 1 else _FLOOR
            self.tab ^= _ZPAIR[below][_CODE[u]] ^ _ZPAIR[below][u - DOWN]
            col[-1] = u - DOWN
            return True
        return False

    def _unflip(self, a: int) -> None:
        col = self.cols[a]
        u = col[-1]
        below = _CODE[col[-2]] if len(col) > 1 else _FLOOR
        self.tab ^= _ZPAIR[below][u] ^ _ZPAIR[below][u + 52]
        col[-1] = u + DOWN

    def _push(self, b: int, x: int) -> None:
        """Put face-up card x on column b (hash kept)."""
        dst = self.cols[b]
        self.tab ^= _ZPAIR[_CODE[dst[-1]] if dst else _FLOOR][x]
        dst.append(x)

    def _pop(self, b: int) -> int:
        dst = self.cols[b]
        x = dst.pop()
        self.tab ^= _ZPAIR[_CODE[dst[-1]] if dst else _FLOOR][x]
        return x

    def _found(self, su: int, step: int) -> None:
        top = self.found[su]
        self.fh ^= _ZFOUND[su][top] ^ _ZFOUND[su][top + step]
        self.found[su] = top + step

    def apply(self, move: Move) -> Any:
        """Make ``move``; return what :meth:`revert` needs."""
        kind = move[0]
        if kind == "T":
            _, a, i, b = move
            src, dst = self.cols[a], self.cols[b]
            x = src[i]
            self.tab ^= _ZPAIR[_CODE[src[i - 1]] if i else _FLOOR][x]
            self.tab ^= _ZPAIR[_CODE[dst[-1]] if dst else _FLOOR][x]
            count = len(src) - i
            dst.extend(src[i:])
            del src[i:]
            return count, self._flip(a)
        if kind == "H":
            a = move[1]
            x = self._pop(a)
            self._found(x & 3, 1)
            return x, self._flip(a)
        if kind == "W":
            _, k, b = move
            old = (self.present, self.q, self.redeals)
            x = self.talon[k]
            self.present, self.q, self.redeals = self._talon_after(k)
            self.th ^= _ZTALON[k]
            if b < 0:
                self._found(x & 3, 1)
            else:
                self._push(b, x)
            return old
        if kind == "D":
            _, su, b = move
            self._found(su, -1)
            self._push(b, self.found[su] * 4 + su)
            return None
        return [self.apply(step) for step in move[1]]

    def revert(self, move: Move, undo: Any) -> None:
        """Take back ``move`` made by :meth:`apply`, which returned ``undo``."""
        kind = move[0]
        if kind == "T":
            _, a, _i, b = move
            count, flipped = undo
            if flipped:
                self._unflip(a)
            src, dst = self.cols[a], self.cols[b]
            start = len(dst) - count
            x = dst[start]
            self.tab ^= _ZPAIR[_CODE[dst[start - 1]] if start else _FLOOR][x]
            self.tab ^= _ZPAIR[_CODE[src[-1]] if src else _FLOOR][x]
            src.extend(dst[start:])
            del dst[start:]
        elif kind == "H":
            a = move[1]
            x, flipped = undo
            if flipped:
                self._unflip(a)
            self._found(x & 3, -1)
            self._push(a, x)
        elif kind == "W":
            _, k, b = move
            if b < 0:
                self._found(self.talon[k] & 3, -1)
            else:
                self._pop(b)
            self.th ^= _ZTALON[k]
            self.present, self.q, self.redeals = undo
        elif kind == "D":
            _, su, b = move
            self._pop(b)
            self._found(su, 1)
        else:
            for step, step_undo in zip(reversed(move[1]), reversed(undo), strict=True):
                self.revert(step, step_undo)

    def notation(self, move: Move) -> list[str]:
        """The engine moves that make ``move`` from the current state (talon plays expand
        into the ``s`` turns and the ``r`` redeal they stand for)."""
        kind = move[0]
        if kind == "B":
            out = []
            undos = []
            for step in move[1]:
                out += self.notation(step)
                undos.append(self.apply(step))
            for step, undo in zip(reversed(move[1]), reversed(undos), strict=True):
                self.revert(step, undo)
            return out
        if kind == "H":
            return [f"{move[1] + 1}>f"]
        if kind == "T":
            _, a, i, b = move
            return [f"{a + 1}:{len(self.cols[a]) - i}>{b + 1}"]
        if kind == "D":
            _, su, b = move
            return [f"f{SUITS[su]}>{b + 1}"]
        _, k, b = move
        present, q = self.present, self.q
        top = self.waste_top()
        turns: list[str] = []
        if k < top:
            turns = ["s"] * (present >> q).bit_count() + ["r"]
            turns += ["s"] * (present & ((2 << k) - 1)).bit_count()
        elif k > top:
            turns = ["s"] * (present & ((2 << k) - 1) & ~((1 << q) - 1)).bit_count()
        return [*turns, "w>f" if b < 0 else f"w>{b + 1}"]


def _first(item: tuple[int, Move]) -> int:
    return item[0]


def _position(game_or_position: AuntMary | Position | dict[str, Any] | int) -> Position:
    if isinstance(game_or_position, AuntMary):
        return game_or_position.position
    if isinstance(game_or_position, Position):
        return game_or_position
    if isinstance(game_or_position, dict):
        return AuntMary.from_json(game_or_position).position
    return AuntMary.new(game_or_position).position


def solve(game_or_position: AuntMary | Position | dict[str, Any] | int, *,
          node_limit: int | None = None, seconds: float | None = None,
          clock: Callable[[], float] = time.process_time) -> SolveResult:
    """Decide whether the position (a game, a Position, its JSON, or a game number) can be
    won.  ``node_limit`` and ``seconds`` (CPU time) bound the search: past either, the
    verdict is ``unknown``.  The game passed in is not modified.

    Python's cycle collector is paused meanwhile (as in the Mariant solver): the search
    makes no cycles, only short-lived move tuples, which the collector would walk again and
    again (about 10 % of the CPU of deals 25 and 34)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _solve(_position(game_or_position), node_limit, seconds, clock)
    finally:
        if collecting:
            gc.enable()


def _solve(pos: Position, node_limit: int | None, seconds: float | None,
           clock: Callable[[], float]) -> SolveResult:
    start = clock()
    if pos.resigned:
        return SolveResult(UNWINNABLE, 0, 0.0)
    deadline = None if seconds is None else start + seconds
    search = _Search(pos, node_limit, deadline)
    if cannot_win(search.cols, search.found, search.talon, search.present):
        return SolveResult(UNWINNABLE, 1, clock() - start)
    # A short probe with the talon plays in their own order first: some wins need an early
    # redeal, which the main order tries last.  A probe that ends is a whole search.
    probe_limit = PROBE_NODES if node_limit is None else min(PROBE_NODES, node_limit)
    probe = _Search(pos, probe_limit, deadline)
    probe.redeal_last = False
    spent = 0
    try:
        won = probe.run()
        search = probe
    except _OutOfBudget:
        spent = probe.nodes
        search.node_limit = None if node_limit is None else node_limit - spent
        try:
            won = search.run()
        except _OutOfBudget:
            return SolveResult(UNKNOWN, spent + search.nodes, clock() - start)
    elapsed = clock() - start
    if not won:
        return SolveResult(UNWINNABLE, spent + search.nodes, elapsed)
    replay = _Search(pos, None, None)
    line: list[str] = []
    for move in search.path:
        line += replay.notation(move)
        replay.apply(move)
    return SolveResult(WINNABLE, spent + search.nodes, elapsed, line)


# -- the best score when no win is known (hints) --------------------------------------------

class _BestSearch(_Search):
    """The same search, noting the line to the most cards home it meets (the score).  It
    stops only at a win or at its budget: the best found is then the hint's line."""

    def __init__(self, pos: Position, node_limit: int | None, deadline: float | None) -> None:
        super().__init__(pos, node_limit, deadline)
        self.best_home = sum(self.found)
        self.best_path: list[Move] = []

    def _enter(self, pre: int, pre_state: int,
               after: Move | None = None) -> list[tuple[Move, Any]] | bool | None:
        entered = super()._enter(pre, pre_state, after)
        if entered is not None:
            found = self.found
            home = found[0] + found[1] + found[2] + found[3]
            if home > self.best_home:
                self.best_home, self.best_path = home, list(self.path)
        return entered


@dataclass(frozen=True)
class BestLine:
    """The most cards home found from a position and a line that gets them there (empty
    when no move sends one more card home); ``complete``: every position was explored
    (the best there is), else the best found within the budget."""

    home: int
    moves: list[str]
    complete: bool


def best_line(game_or_position: AuntMary | Position | dict[str, Any] | int, *,
              node_limit: int | None = None, seconds: float | None = None) -> BestLine:
    """The line to the most cards home found within the budget (the hint when no win is
    known from the position)."""
    pos = _position(game_or_position)
    collecting = gc.isenabled()
    gc.disable()
    try:
        deadline = None if seconds is None else time.process_time() + seconds
        search = _BestSearch(pos, node_limit, deadline)
        complete = True
        try:
            search.run()
        except _OutOfBudget:
            complete = False
        replay = _Search(pos, None, None)
        line: list[str] = []
        for move in search.best_path:
            line += replay.notation(move)
            replay.apply(move)
        return BestLine(search.best_home, line, complete)
    finally:
        if collecting:
            gc.enable()
