"""Mariant solver: find a winning line with full knowledge of the deal, and its penalty.

104 cards leave far too many positions to explore them all, so this solver searches for a
win and says ``winnable`` (with the line, replayed through the engine before it is given)
or, when the budget runs out first, ``unknown`` -- never a guess.  It says ``unwinnable``
for a position with no legal action left that is not won, and for one the prover
(``mariant_proof``: every line tried) shows lost -- asked after the first quick searches
when at most PROOF_STOCK cards are left to deal, where the whole game graph is often small.

Method (figures in ``docs/solvability.md``): the game is a string of *phases*, each ending
with a DEAL that puts one card on every non-empty column.  Within a phase a best-first
search (no deals) ranks positions by a weighted count of face-down cards, *breaks* (a card
not on the card it could continue), empty columns, same-suit pairs, cards dealt and the
face-up cards lying on face-down ones; the best few positions it reached are dealt and
their phases searched in turn, the deepest phase first (a depth-first search over phases
with a small beam).  After the last deal the goal is a win, or Auto Ending: every column
one K..A group of 13.  Complete suits are removed as soon as they form (free, and never a
loss: nothing can go on an Ace).

Searches are tried in rounds: first quick ones (few positions per phase, so the last deal
comes soon; most deals are won there, in a fraction of a second), one per weight set,
then, while the budget lasts, batches of quick ones with jittered weights (drawn from a
seeded generator: a run stays deterministic), each batch followed by one wide search.  A
search that stalls is given up for the next one rather than searched longer: different
weights find different wins.  A *locked* deal -- one whose first phases hold only a few
hundred positions, as every deal the searches leave undecided does -- also gets quick
searches from each of its openings (every position after its first tight phases) in
every round after the first two: the searches from the start walk the same few lines
through those phases whatever their weights.  And every search after the first round
adds a little seeded noise to the scores of the children it queues (``NOISE``): a
randomized restart, so that no two of them walk the same line -- the cure for the heavy
tail those deals make (most of them are then won within seconds).  Within a phase, of
two moves on four different columns only one order is searched (``COMMUTE``).

The line found is then replayed on the solver's own states without each of its moves in
turn (cheap: the steps before the dropped one are unchanged), keeping a shorter line when
it still wins with no more points; the result is replayed through the engine before it is
given.  A run is deterministic for a given node limit; a seconds limit (CPU time) may stop
it earlier on a busy machine.

An install that asks for it (``REUSSITE_COMPILE=1``) has mypyc compile this module and
``mariant_ids`` (``door/compiled.py`` ``SOLVER``): the very same search, twice as fast.
"""

from __future__ import annotations

import gc
import heapq
import itertools
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from .base import IllegalMove, Status
from .cards import SUITS, Card
from .mariant import COLUMNS, SUIT_LENGTH, Mariant, auto_ending_plan, column_key
from .mariant_ids import COMPAT, DOWN, KING_IDS, encode, ends_with_suit, flip, group_length
from .mariant_proof import NO_WIN, exhaust

WINNABLE = "winnable"
UNWINNABLE = "unwinnable"
UNKNOWN = "unknown"

ATTEMPTS = ((10.0, 2.0, 4.0, 1.0, 2.0, 0.0, 0.0), (10.0, 2.0, 4.0, 1.0, 2.0, 1.0, 0.0),
            (10.0, 3.0, 4.0, 1.0, 1.0, 0.0, 0.0), (10.0, 3.0, 4.0, 1.0, 1.0, 1.0, 0.0),
            (10.0, 3.0, 6.0, 1.0, 1.0, 0.0, 0.0), (10.0, 3.0, 6.0, 1.0, 1.0, 0.5, 0.0),
            (15.0, 2.0, 4.0, 1.0, 2.0, 2.0, 0.0), (10.0, 2.0, 8.0, 1.0, 2.0, 1.0, 0.0))
"""Weights of the position score -- face-down cards, breaks, empty columns (minus), cards
dealt (minus), same-suit pairs (minus), face-up cards lying on face-down ones, Kings lying
on a card -- for the successive attempts: a search that stalls is started again with the
next set (each finds wins the others miss).  Chosen on deals 10001 … 10200, away from the
figures' deals."""
KING_WEIGHT = 8.0
"""A King lying on any card, face up or down: it moves only to an empty column, so every
card under it waits for one (the positions the searches failed from had Kings dealt onto
face-down cards and no empty column left)."""
KING_ATTEMPTS = tuple((*weights[:6], KING_WEIGHT) for weights in ATTEMPTS)
"""The same sets with the King weight: they win other deals than those (4 of 12 that 10 s
left unknown at 2 down 2 up), and lose some those win at once (deal 15): so they come after
them, never instead (docs/solvability.md)."""
ATTEMPT_NODES = 15_000
"""Positions expanded per attempt; the cap doubles after each round of ATTEMPTS."""
PHASE_NODES = 1500
"""Positions expanded in one phase before its best ones are dealt."""
BEAM = 4
"""Positions of a phase that are dealt and searched further."""
QUICK_PHASE_NODES = (200, 500)
"""Positions expanded per phase in the quick attempts, the narrow ones tried first and the
wider ones later (each with every weight set): most deals are won with far fewer positions
per phase than PHASE_NODES, and a narrow search reaches the last deal sooner."""
FINAL_PHASE_NODES = 1500
"""Positions expanded in the last phase (stock empty), where every card must end in K..A
groups: the narrow quick phases too often miss such an ending that a wider one finds."""
QUICK_NODES = 3500
"""Positions expanded per quick attempt: about one descent to the last deal and its last
phase.  A quick search that fails there seldom wins by searching the phases above again;
a fresh one with other weights often does (deals 10001 … 10030 at 3 down 2 up)."""
JITTER = (0.6, 1.6)
"""The range of the random factor on each weight of a jittered quick search."""
JITTER_PHASE_NODES = (150, 200, 300, 500)
"""The widths per phase a jittered quick search picks from."""
JITTERED = 8
"""Jittered quick searches before each wide one, once the fixed rounds are done."""
PROOF_STOCK = 10
"""With at most this many cards left to deal the prover (``mariant_proof``) is tried after
the first quick searches: late in a game the whole game graph is often small enough to
try, so "still winnable?" gets a proved "no" rather than "unknown"."""
PROOF_POSITIONS = 5000
"""The prover's cap: 0.2-0.8 CPU s on late positions of won deals (20,000 took 0.7-3 s
there and decided none: so few, and only after the quick searches found no win)."""
OPENING_POSITIONS = 3000
"""Openings (``_openings``): the most positions one phase of the opening may hold for its
dealt ends to be taken as starts of the next.  The deals the searches leave undecided are
those whose first phases are tiny (2-300 positions, where a deal won at once has tens of
thousands): the few lines through them decide the game, and a search from each one's end
finds wins the searches from the deal's start never reach (deal 17 at 2+2: unknown at
180 s, won from the 23rd of its 132 openings)."""
OPENING_BATCH = 16
"""Searches from openings in each round after the fixed quick ones."""
JITTER_SEED = 38
"""The jittered searches are the same from run to run (a solve is deterministic)."""
NOISE = 8.0
"""Each child a search queues in a phase gets a random amount between 0 and NOISE (or twice
that, see NOISE_SCALES) added to its score (about one face-down card), in every search
after the first quick round; drawn from a generator seeded by the positions expanded
before the search, so a solve stays deterministic for a given node limit.  The searches of
a locked deal otherwise walk the same few lines whatever their weights; randomized restarts
are the classic cure for such heavy tails.  Of the 23 deals 1-600 (2+1 and 2+2) that 10 s
left unknown before, 2 are won in 10 s without noise, 12-16 with NOISE 4, 8, 12 or 16
after both fixed quick rounds; of 24 (one more), 16 with noise after the first one, 19
with the scales below too (docs/solvability.md)."""
NOISE_FROM = 1
"""The first round with noise: the first quick round before it, which wins most deals at
once, stays as it was."""
NOISE_SCALES = (1.0, 2.0)
"""Each noisy search draws its noise's scale from these: a portfolio of two."""
COMMUTE = True
"""Partial-order reduction in the phase search: after a move from column a0 onto a card of
column b0, a move from a column below a0 onto a card, on two columns other than a0 and
b0, is not queued -- the two moves commute (neither touches the other's columns), so the
same position is reached by that move first and a0's after it.  Only one order of such
pairs is searched: of the children a position queued, 43 % were positions reached
already (2+2 deal 634); with the rule a third fewer are queued, and the same positions
are reached in fewer steps (2+2 at 10 s: deals 601-1300 693 decided instead of 691, a
fifth less CPU; fresh deals 1301-2000 695 instead of 692; docs/solvability.md).  Moves
into an empty column are left alone (which empty column is first depends on the other
move); leaving out those too, where sound, decided no more."""


@dataclass(frozen=True)
class SolveResult:
    """``moves``: a winning line from the position in engine notation (when winnable;
    from :func:`best_line`, otherwise the line to the furthest position reached);
    ``penalty``: the game's score once a winning line is played (lower is better)."""

    verdict: str
    nodes: int
    seconds: float
    moves: list[str] | None = field(default=None)
    penalty: int | None = None

    @property
    def winnable(self) -> bool | None:
        return {WINNABLE: True, UNWINNABLE: False}.get(self.verdict)


class _OutOfBudget(Exception):
    pass


State = tuple[tuple[bytes, ...], int]
"""(columns bottom first, cards dealt from the stock so far)."""
Action = tuple[Any, ...]
"""``("m", src, count, dst)``, ``("r", col)`` (remove a suit), ``("d",)`` (deal)."""
_first = itemgetter(0)
Facts = tuple[int, int, bool, float, bool, list[float], list[int], bool]
"""A column's facts for the phase search (``_Search._facts``)."""


def _remove_suits(cols: list[bytes], touched: tuple[int, ...] | range,
                  done: list[Action]) -> None:
    """Remove the complete suits ending the ``touched`` columns (free, and nothing can go
    on an Ace, so never a loss), noting each removal in ``done``."""
    for i in touched:
        while ends_with_suit(cols[i]):
            cols[i] = flip(cols[i][:-SUIT_LENGTH])
            done.append(("r", i))


class _Search:
    def __init__(self, game: Mariant, node_limit: int | None, deadline: float | None,
                 weights: tuple[float, ...] = ATTEMPTS[0],
                 phase_nodes: int = PHASE_NODES) -> None:
        self.start, self.stock = encode(game)
        self.node_limit = node_limit
        self.deadline = deadline
        self.weights = weights
        self.phase_nodes = phase_nodes
        self.final_nodes = FINAL_PHASE_NODES
        self.opening: tuple[State, list[Action]] | None = None
        self.noise = 0.0
        self.rng = random.Random(0)
        self.commute = COMMUTE
        self.nodes = 0
        self.seen: set[int] = set()
        self._costs: dict[bytes, float] = {}
        self._known: dict[bytes, Facts] = {}
        # expanded positions: (state, parent index, actions from the parent)
        self.tree: list[tuple[State, int, list[Action]]] = []

    # -- rules on states -------------------------------------------------------------------
    def apply(self, state: State, action: Action) -> tuple[State, list[Action]]:
        """The state after ``action`` and the complete suits removed, with the actions
        (the action, then the removals) that lead there."""
        cols, dealt = list(state[0]), state[1]
        if action[0] == "m":
            _, a, k, b = action
            src = cols[a]
            cols[b] += src[-k:]
            cols[a] = flip(src[:-k])
            if src[-1] >= 4:            # not an Ace: no suit can be complete
                return (tuple(cols), dealt), [action]
            touched: tuple[int, ...] = (b,)
        else:
            filled = [i for i in range(COLUMNS) if cols[i]] or [0]
            targets = filled[:len(self.stock) - dealt]
            for i in targets:
                cols[i] += self.stock[dealt:dealt + 1]
                dealt += 1
            touched = tuple(targets)
        done = [action]
        _remove_suits(cols, touched, done)
        return (tuple(cols), dealt), done

    def moves(self, state: State) -> list[Action]:
        """Group and subgroup moves onto a card they continue; subgroups into the first
        empty column (not a whole column, which would change nothing)."""
        cols = state[0]
        tops = [c[-1] if c else -1 for c in cols]
        first_empty = tops.index(-1) if -1 in tops else -1
        out: list[Action] = []
        for a, col in enumerate(cols):
            g = group_length(col)
            if not g:
                continue
            low = col[-1] >> 2
            for b, top in enumerate(tops):
                if b == a:
                    continue
                if top < 0:
                    if b == first_empty:
                        out.extend(("m", a, k, b) for k in range(g, 0, -1) if k < len(col))
                    continue
                k = (top >> 2) - low
                if 1 <= k <= g and COMPAT[col[-k]][top]:
                    out.append(("m", a, k, b))
        return out

    def finished(self, state: State) -> bool:
        """Stock empty and every column empty or one K..A group of 13 (Auto Ending sorts
        those into suits; complete suits were removed already)."""
        return state[1] >= len(self.stock) and all(_done(col) for col in state[0])

    # -- evaluation --------------------------------------------------------------------------
    def score(self, state: State) -> float:
        """Lower is better: see ATTEMPTS."""
        cost = self.cost
        return sum(cost(col) for col in state[0]) - self.weights[3] * state[1]

    def cost(self, col: bytes) -> float:
        """One column's part of the score (cached: most columns recur in many positions)."""
        value = self._costs.get(col)
        if value is None:
            w = self.weights
            if col:
                down, breaks, same, cover, kings = _column_features(col)
                value = (w[0] * down + w[1] * breaks - w[4] * same + w[5] * cover
                         + w[6] * kings)
            else:
                value = -w[2]
            if len(self._costs) > 200_000:
                self._costs.clear()
            self._costs[col] = value
        return value

    def score_dealt(self, state: State) -> float:
        if state[1] < len(self.stock):
            state = self.apply(state, ("d",))[0]
        return self.score(state)

    def _new(self, state: State) -> bool:
        key = hash(state)
        if key in self.seen:
            return False
        self.seen.add(key)
        return True

    # -- the search --------------------------------------------------------------------------
    def run(self) -> int | None:
        """Search; the index in ``tree`` of a finished position, or None if the search ran
        dry (possible only because it does not try everything)."""
        cols = list(self.start)
        removals: list[Action] = []
        _remove_suits(cols, range(COLUMNS), removals)
        start = (tuple(cols), 0)
        self.tree.append((start, -1, removals))
        self._new(start)
        if self.finished(start):
            return 0
        root = 0
        if self.opening is not None:
            state, actions = self.opening
            self.tree.append((state, 0, actions))
            self._new(state)
            root = 1
        outer = [(0, 0.0, 0, root)]    # (-dealt, score, order, tree index)
        order = 0
        while outer:
            _, _, _, root = heapq.heappop(outer)
            found, best = self._phase(root)
            if found is not None:
                return found
            root_state = self.tree[root][0]
            if root_state[1] >= len(self.stock):
                continue
            ranked = sorted(best, key=lambda item: item[0])[:BEAM * 8]
            dealt = sorted(((self.score_dealt(self.tree[i][0]), i) for _, i in ranked),
                           key=lambda item: item[0])
            for value, i in dealt[:BEAM]:
                child, actions = self.apply(self.tree[i][0], ("d",))
                if not self._new(child):
                    continue
                self.tree.append((child, i, actions))
                index = len(self.tree) - 1
                if self.finished(child):
                    return index
                order += 1
                heapq.heappush(outer, (-child[1], value, order, index))
        return None

    def _phase(self, root: int) -> tuple[int | None, list[tuple[float, int]]]:
        """Best-first over the moves of one phase (no deal) from ``tree[root]``: a finished
        position's index if one turns up, and the (score, index) of the positions expanded.

        A child waits in the queue as its parent and move: most are never expanded, so
        the position is rebuilt and checked against those seen only when it is (a third
        less work a position than keeping each child whole).  Its score comes from the
        two columns' cached facts (``_facts``) without building either: the cost of what
        a move leaves behind is the source column's, by count; the cost of the column it
        lands on is the destination's plus the same-suit pairs and the cover it brings.
        The move that undoes the one that made a position (nothing turned, nothing
        removed) is not queued: it leads back to a position already expanded; nor is the
        other order of two moves on four columns (COMMUTE)."""
        tree = self.tree
        # (score, order, parent, move's source, count, destination); source -1: the root
        local: list[tuple[float, int, int, int, int, int]] = [
            (self.score(tree[root][0]), 0, root, -1, 0, 0)]
        expanded: list[tuple[float, int]] = []
        order = 0
        cost = self.cost
        facts = self._facts
        known = self._known.get
        apply = self.apply
        new = self._new
        seen = self.seen
        seen_add = seen.add
        pop, push = heapq.heappop, heapq.heappush
        noise, rand = self.noise, self.rng.random
        same_weight, cover_weight = self.weights[4], self.weights[5]
        limit = self.phase_nodes
        final = tree[root][0][1] >= len(self.stock)
        if final:
            limit = max(limit, self.final_nodes)
        commute = self.commute
        while local and len(expanded) < limit:
            value, _, parent, a0, k0, b0 = pop(local)
            # the move that undoes this one (source, count, destination), if any
            undo_a = undo_k = undo_b = -1
            # moves from a source column below ``first_free`` on columns this one left
            # alone are not queued (see COMMUTE)
            first_free = -1
            busy = 0
            if a0 < 0:
                index = parent
            else:
                # the move as ``apply`` makes it, inline (a call less per position)
                before = tree[parent][0]
                pcols = before[0]
                src = pcols[a0]
                rest = src[:-k0]
                turned = bool(rest) and rest[-1] >= DOWN
                moved = list(pcols)
                moved[a0] = rest[:-1] + bytes((rest[-1] - DOWN,)) if turned else rest
                moved[b0] = pcols[b0] + src[-k0:]
                actions: list[Action] = [("m", a0, k0, b0)]
                if src[-1] < 4:         # an Ace: a complete suit may go
                    _remove_suits(moved, (b0,), actions)
                child = (tuple(moved), before[1])
                key = hash(child)
                if key in seen:
                    continue
                seen_add(key)
                tree.append((child, parent, actions))
                index = len(tree) - 1
                if len(actions) == 1 and not turned:
                    undo_a, undo_k, undo_b = b0, k0, a0     # nothing turned
                if commute and before[0][b0]:
                    first_free = a0
                    busy = 1 << a0 | 1 << b0
            expanded.append((value, index))
            self.nodes += 1
            if not self.nodes & 255:
                self._check_budget()
            state = tree[index][0]
            cols = state[0]
            info = [known(c) or facts(c) for c in cols]
            tops = [c[-1] if c else -1 for c in cols]
            first_empty = tops.index(-1) if -1 in tops else -1
            # in the last phase a move can finish the game only if at most its two columns
            # are not yet done
            undone = [i for i, f in enumerate(info) if not f[7]] if final else []
            may_finish = final and len(undone) <= 2
            # the moves of ``moves``, in its order (but those COMMUTE leaves out): for each
            # source, the columns whose top card has a rank its group continues, then the
            # first empty column
            by_rank: dict[int, list[int]] = {}
            ranks = 0       # the ranks of the top cards, as bits
            for b, top in enumerate(tops):
                if top >= 0:
                    by_rank.setdefault(top >> 2, []).append(b)
                    ranks |= 1 << (top >> 2)
            for a, col in enumerate(cols):
                g, low, ace, here, _, rests, sames, _ = info[a]
                if not g:
                    continue
                targets: list[tuple[int, range | tuple[int, ...]]]
                hits = ranks >> (low + 1) & ((1 << g) - 1)     # bit k-1: count k
                if hits:
                    targets = []
                    # the destinations allowed, as bits (COMMUTE): all, or the last move's
                    allowed = busy if a < first_free and not busy >> a & 1 else -1
                    while hits:
                        bit = hits & -hits
                        hits ^= bit
                        k = bit.bit_length()
                        fits = COMPAT[col[-k]]
                        for b in by_rank[low + k]:
                            if fits[tops[b]] and allowed >> b & 1:
                                targets.append((b, (k,)))
                    if first_empty >= 0:
                        targets.append(
                            (first_empty, range(g if g < len(col) else g - 1, 0, -1)))
                    if len(targets) > 1:
                        targets.sort(key=_first)
                elif first_empty >= 0:
                    targets = [(first_empty, range(g if g < len(col) else g - 1, 0, -1))]
                else:
                    continue
                for b, counts in targets:
                    top = tops[b]
                    dst_facts = info[b]
                    there = dst_facts[3]
                    dst_group = dst_facts[0]
                    for k in counts:
                        if may_finish and all(i in (a, b) for i in undone):
                            child, actions = apply(state, ("m", a, k, b))
                            if self.finished(child) and new(child):
                                tree.append((child, index, actions))
                                return len(tree) - 1, expanded
                        if a == undo_a and k == undo_k and b == undo_b:
                            continue
                        if ace and dst_group + k >= SUIT_LENGTH and sames[k] == k - 1:
                            # a complete suit may form (and go): score the column left
                            onto = cols[b] + col[-k:]
                            while ends_with_suit(onto):
                                onto = flip(onto[:-SUIT_LENGTH])
                            landed = cost(onto)
                        elif top < 0:
                            landed = -same_weight * sames[k]
                        else:
                            landed = there - same_weight * (
                                sames[k] + (col[-k] & 3 == top & 3))
                            if dst_facts[4]:
                                landed += cover_weight * k
                        order += 1
                        if noise:
                            landed += noise * rand()
                        push(local, (value + rests[k] + landed - here - there,
                                     order, index, a, k, b))
        return None, expanded

    def _facts(self, col: bytes) -> Facts:
        """What a phase needs to know of a column, cached: its group's length, the rank of
        its last card, whether that is an Ace, its cost, whether it holds face-down cards,
        by count k (1 … group length) the cost of what is left when the last k cards
        move away and the same-suit pairs among them, and whether it is done (``_done``)."""
        g = group_length(col)
        rests: list[float] = [0.0]
        sames: list[int] = [0]
        for k in range(1, g + 1):
            rests.append(self.cost(flip(col[:-k])))
            sames.append(sames[-1] + (k > 1 and col[-k] & 3 == col[-k + 1] & 3))
        value = (g, col[-1] >> 2 if col else -1, bool(col) and col[-1] < 4, self.cost(col),
                 bool(col) and col[0] >= DOWN, rests, sames, _done(col))
        if len(self._known) > 200_000:
            self._known.clear()
        self._known[col] = value
        return value

    def _check_budget(self) -> None:
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise _OutOfBudget
        if self.deadline is not None and time.process_time() > self.deadline:
            raise _OutOfBudget

    def line(self, index: int) -> list[Action]:
        actions: list[list[Action]] = []
        while index >= 0:
            _, parent, done = self.tree[index]
            actions.append(done)
            index = parent
        return [a for step in reversed(actions) for a in step]


def _done(col: bytes) -> bool:
    """Empty, or one K..A group of 13 (as the end of a game wants every column)."""
    return not col or (len(col) == SUIT_LENGTH and group_length(col) == SUIT_LENGTH)


def _column_features(col: bytes) -> tuple[int, int, int, int, int]:
    """(face-down cards, breaks, same-suit pairs, face-up cards on face-down ones, Kings on
    a card) of one column."""
    down = breaks = same = kings = 0
    below = -1
    for c in col:
        if below >= 0 and c & (DOWN - 1) >= KING_IDS:
            kings += 1
        if c >= DOWN:
            down += 1
        elif 0 <= below < DOWN:
            if not COMPAT[c][below]:
                breaks += 1
            elif c & 3 == below & 3:
                same += 1
        below = c
    return down, breaks, same, len(col) - down if down else 0, kings


def _notation(action: Action) -> str:
    if action[0] == "m":
        _, a, k, b = action
        return f"{column_key(a)}:{k}>{column_key(b)}"
    if action[0] == "r":
        return f"r{column_key(action[1])}"
    return "d"


def _play(game: Mariant, actions: list[str]) -> Mariant | None:
    """A copy of ``game`` after ``actions`` (and Auto Ending when it is on), or None if an
    action is refused or the game is not won at the end."""
    copy = game.copy()
    try:
        for action in actions:
            copy.play(action)
        if not copy.won and copy.auto_ending_available:
            copy.play("auto")
    except IllegalMove:
        return None
    return copy if copy.won else None


def _single_group(col: bytes) -> bool:
    return col[0] < DOWN and group_length(col) == len(col)


def _deal_points(cols: tuple[bytes, ...]) -> int:
    """The engine's DEAL penalty: 5 per empty column unless every other one is one group."""
    filled = [col for col in cols if col]
    empty = COLUMNS - len(filled)
    return 5 * empty if empty and not all(_single_group(col) for col in filled) else 0


def _auto_points(cols: tuple[bytes, ...]) -> int:
    """Auto Ending's moves from a finished position (0 when nothing is left to sort)."""
    cards = [[Card((c >> 2) + 1, SUITS[c & 3]) for c in col] for col in cols]
    return len(auto_ending_plan(cards)) if any(cards) else 0


class _Line:
    """A winning line of moves and deals replayed on the solver's states (removals redone as
    they fall due), cheap enough to try the line without each of its moves in turn."""

    def __init__(self, search: _Search, steps: list[Action]) -> None:
        self.search = search
        self.steps = [a for a in steps if a[0] != "r"]
        self.start = search.tree[0]
        self.before = [(self.start[0], 0)]     # (state, raw points) before each step, and last
        for step in self.steps:
            self.before.append(self._step(*self.before[-1], step))

    def _step(self, state: State, points: int, step: Action) -> tuple[State, int]:
        if step[0] == "d":
            return self.search.apply(state, step)[0], points + _deal_points(state[0])
        return self.search.apply(state, step)[0], points + 1

    @staticmethod
    def legal(state: State, step: Action) -> bool:
        if step[0] == "d":
            return True
        _, a, k, b = step
        col, dst = state[0][a], state[0][b]
        return k <= group_length(col) and (not dst or COMPAT[col[-k]][dst[-1]])

    def points(self, start: int, steps: list[Action]) -> int | None:
        """Raw points of the line played from step ``start`` with ``steps`` (None if a step is
        refused or the end is not finished)."""
        state, points = self.before[start]
        for step in steps:
            if not self.legal(state, step):
                return None
            state, points = self._step(state, points, step)
        if not self.search.finished(state):
            return None
        return points + _auto_points(state[0])

    def shortened(self, deadline: float | None) -> list[Action]:
        """Drop the moves the line can do without, last first, while the points do not grow
        (the steps before a dropped one are unchanged, so each trial replays only the rest)."""
        best = self.steps
        best_points = self.points(0, best)
        if best_points is None:
            return self.actions(best)
        for i in range(len(best) - 1, -1, -1):
            if deadline is not None and time.process_time() > deadline:
                break
            if best[i][0] != "m":
                continue
            points = self.points(i, best[i + 1:])
            if points is not None and points <= best_points:
                best, best_points = best[:i] + best[i + 1:], points
        return self.actions(best)

    def actions(self, steps: list[Action]) -> list[Action]:
        """The steps with the removals they allow, as the search writes them."""
        done = list(self.start[2])
        state = self.start[0]
        for step in steps:
            state, actions = self.search.apply(state, step)
            done.extend(actions)
        return done


def _game(game_or_position: Mariant | dict[str, Any] | int, fd: int, fu: int) -> Mariant:
    if isinstance(game_or_position, Mariant):
        return game_or_position
    if isinstance(game_or_position, dict):
        return Mariant.from_json(game_or_position)
    return Mariant.new(game_or_position, fd=fd, fu=fu)


Opening = tuple[State, list[Action]]
"""A position after some deals and the actions from the deal's start (the solver's)."""
Attempt = tuple[int, int, tuple[float, ...], Opening | None]
"""(positions per phase, positions in all, weights, the opening it starts from) of one
search."""


def _openings(game: Mariant) -> tuple[list[Opening], int]:
    """Every position the searches' moves reach after the most deals while each phase
    before holds at most OPENING_POSITIONS positions, best score first; none when even
    the first phase holds more (the deal is not locked: its searches need no help); and
    the number of positions looked at."""
    search = _Search(game, None, None)
    cols = list(search.start)
    removals: list[Action] = []
    _remove_suits(cols, range(COLUMNS), removals)
    level: dict[State, list[Action]] = {(tuple(cols), 0): removals}
    starts: dict[State, list[Action]] = {}
    deals = positions = 0
    while level:
        if deals:
            starts = level
        reached = dict(level)
        stack = list(level)
        while stack and len(reached) <= OPENING_POSITIONS:
            state = stack.pop()
            for move in search.moves(state):
                child, actions = search.apply(state, move)
                if child not in reached:
                    reached[child] = reached[state] + actions
                    stack.append(child)
        positions += len(reached)
        if len(reached) > OPENING_POSITIONS:
            break
        level = {}
        for state, line in reached.items():
            if state[1] < len(search.stock):
                child, actions = search.apply(state, ("d",))
                level.setdefault(child, line + actions)
        deals += 1
    return sorted(starts.items(), key=lambda item: search.score(item[0])), positions


def _jittered(rng: random.Random, stock: int) -> tuple[int, int, tuple[float, ...]]:
    """A quick search with every weight of one of the sets scaled by a random factor in
    JITTER (and the King weight on or off at random), a random width per phase, and a cap
    that lets it reach the last phase: one more descent through a different landscape."""
    base = ATTEMPTS[rng.randrange(len(ATTEMPTS))]
    low, high = JITTER
    weights = [w * rng.uniform(low, high) for w in base[:6]]
    weights.append(KING_WEIGHT * rng.uniform(low, high) if rng.random() < 0.5 else 0.0)
    phase_nodes = rng.choice(JITTER_PHASE_NODES)
    phases = -(-stock // COLUMNS) + 1
    return phase_nodes, phase_nodes * phases + FINAL_PHASE_NODES + 500, tuple(weights)


def _opening_attempts(openings: list[Opening], stock: int) -> Iterator[Attempt]:
    """Quick searches from each opening in turn: first with the weight sets in turn, then
    with jittered weights (seeded), for as long as they are asked for."""
    narrow = QUICK_PHASE_NODES[0]
    sets = ATTEMPTS + KING_ATTEMPTS
    for i, opening in enumerate(openings):
        yield narrow, QUICK_NODES, sets[i % len(sets)], opening
    rng = random.Random(JITTER_SEED + 1)
    while openings:
        for opening in openings:
            yield (*_jittered(rng, stock), opening)


def _attempts(stock: int, openings: Callable[[], list[Opening]]) -> Iterator[list[Attempt]]:
    """Rounds of searches: quick narrow ones first, then the same with the King weight;
    then the first wide one (it wins some deals that no quick one does); quick ones a
    little wider, both kinds.  Then, for as long as the budget lasts, JITTERED quick
    searches with jittered weights followed by one wide search (the wide searches take
    the weight sets in turn, their cap doubling once all were tried).  From the third
    round on, OPENING_BATCH searches from the deal's openings come first in each round
    (when it has some: ``openings`` is asked once, then).

    Why jitter: a quick search that fails seldom wins by searching longer, and a fresh one
    through other weights often does (the wide rounds that came next won 1 of the 17 deals
    unknown after the fixed quick ones, deals 1-300 at 2+1 and 2+2)."""
    narrow, wider = QUICK_PHASE_NODES
    yield [(narrow, QUICK_NODES, weights, None) for weights in ATTEMPTS]
    yield [(narrow, QUICK_NODES, weights, None) for weights in KING_ATTEMPTS]
    more = _opening_attempts(openings(), stock)

    def batch() -> list[Attempt]:
        return list(itertools.islice(more, OPENING_BATCH))

    yield [*batch(), (PHASE_NODES, ATTEMPT_NODES, ATTEMPTS[0], None)]
    yield [*batch(), *((wider, QUICK_NODES, weights, None)
                       for weights in ATTEMPTS + KING_ATTEMPTS)]
    rng = random.Random(JITTER_SEED)
    cap = ATTEMPT_NODES
    while True:
        for weights in ATTEMPTS + KING_ATTEMPTS:
            yield [*batch(), *((*_jittered(rng, stock), None) for _ in range(JITTERED)),
                   (PHASE_NODES, cap, weights, None)]
        cap *= 2


def solve(game_or_position: Mariant | dict[str, Any] | int, *, fd: int = 2, fu: int = 1,
          node_limit: int | None = None, seconds: float | None = None,
          clock: Callable[[], float] = time.process_time) -> SolveResult:
    """Look for a winning line from the position (a game, its JSON, or a game number dealt
    with ``fd``/``fu``).  ``node_limit`` (positions expanded) and ``seconds`` (CPU time)
    bound the search; past either the verdict is ``unknown``.  The game is not modified.

    Python's cycle collector is paused meanwhile: the search makes no cycles, only
    millions of tuples, which the collector would walk again and again (a quarter of the
    CPU of a long search, deal 119)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _solve(_game(game_or_position, fd, fu), node_limit, seconds, clock)
    finally:
        if collecting:
            gc.enable()


def _solve(game: Mariant, node_limit: int | None, seconds: float | None,
           clock: Callable[[], float],
           watch: Callable[[_Search], None] | None = None, prove: bool = True) -> SolveResult:
    begin = clock()
    deadline = None if seconds is None else begin + seconds
    if game.won:
        return SolveResult(WINNABLE, 0, 0.0, [], game.score)
    if game.status is Status.STUCK:
        return SolveResult(UNWINNABLE, 0, clock() - begin)
    nodes = 0
    proved: list[Action] | None = None     # a win the prover found, kept as a last resort
    dry = 0     # wide searches in a row that ran dry (rather than hitting their cap)
    def openings() -> list[Opening]:
        nonlocal nodes
        found, positions = _openings(game)
        nodes += positions
        return found

    for number, round_ in enumerate(_attempts(len(game.stock), openings)):
        if number == 1 and prove and len(game.stock) <= PROOF_STOCK:
            # after the first quick searches, which win most late positions at once
            proof = exhaust(*encode(game), PROOF_POSITIONS, deadline, clock)
            nodes += proof.positions
            if proof.outcome == NO_WIN:
                return SolveResult(UNWINNABLE, nodes, clock() - begin)
            proved = proof.line
        for phase_nodes, cap, weights, opening in round_:
            limit = nodes + cap if node_limit is None else min(nodes + cap, node_limit)
            search = _Search(game, limit, deadline, weights, phase_nodes)
            search.opening = opening
            if number >= NOISE_FROM:
                search.rng = random.Random(nodes)   # the same draws every run
                search.noise = NOISE * search.rng.choice(NOISE_SCALES)
            search.nodes = nodes
            found = None
            stopped = False     # the attempt hit its cap (rather than running dry)
            try:
                found = search.run()
            except _OutOfBudget:
                stopped = True
            nodes = search.nodes
            if found is None and watch is not None:
                watch(search)
            if found is not None:
                return _result(game, search, found, deadline, lambda: clock() - begin)
            if (node_limit is not None and nodes >= node_limit) or (
                    deadline is not None and clock() > deadline):
                return _last_resort(game, proved, nodes, clock() - begin)
            if phase_nodes == PHASE_NODES and len(round_) > 1:
                dry = 0 if stopped else dry + 1
        # every wide search of a full cycle ran dry: a higher cap would change nothing
        if dry >= len(ATTEMPTS) + len(KING_ATTEMPTS):
            return _last_resort(game, proved, nodes, clock() - begin)
    raise AssertionError("unreachable: the rounds never end")


def _last_resort(game: Mariant, proved: list[Action] | None, nodes: int,
                 seconds: float) -> SolveResult:
    """Unknown, unless the prover found a win the searches did not (its line is the first
    it met, not a good one: so it is given only when nothing better was found)."""
    if proved is not None:
        notation = [_notation(a) for a in proved]
        played = _play(game, notation)
        if played is not None:
            if played.actions[-1:] == ["auto"]:
                notation.append("auto")
            return SolveResult(WINNABLE, nodes, seconds, notation, played.score)
    return SolveResult(UNKNOWN, nodes, seconds)


def _result(game: Mariant, search: _Search, found: int, deadline: float | None,
            spent: Callable[[], float]) -> SolveResult:
    """The verdict for a finished position the search found: its line shortened, and
    replayed through the engine (never a line the engine does not accept)."""
    line = _Line(search, search.line(found))
    for actions in (line.shortened(deadline), line.actions(line.steps)):
        notation = [_notation(a) for a in actions]
        played = _play(game, notation)
        if played is not None:
            if played.actions[-1:] == ["auto"]:
                notation.append("auto")
            return SolveResult(WINNABLE, search.nodes, spent(),
                               notation, played.score)
    return SolveResult(UNKNOWN, search.nodes, spent())


# -- the furthest line when no win is found (hints) -------------------------------------------

def _progress(search: _Search, state: State) -> tuple[int, int, int]:
    """How far a position has gone: cards dealt, cards off the board (complete suits), and
    face-down cards turned (each more is better)."""
    cols, dealt = state
    on_board = sum(len(col) for col in cols)
    down = sum(c >= DOWN for col in cols for c in col)
    return dealt, -on_board, -down


def best_line(game_or_position: Mariant | dict[str, Any] | int, *, fd: int = 2, fu: int = 1,
              node_limit: int | None = None, seconds: float | None = None) -> SolveResult:
    """A winning line when one is found within the budget, as :func:`solve`; else (verdict
    unknown, or unwinnable with actions left) the line to the furthest position the
    searches reached: the most cards dealt, then the most suits off the board, then the
    fewest cards face down."""
    game = _game(game_or_position, fd, fu)
    best: list[tuple[tuple[int, int, int], list[str]]] = []

    def watch(search: _Search) -> None:
        if len(search.tree) < 2:
            return
        index = max(range(len(search.tree)),
                    key=lambda i: _progress(search, search.tree[i][0]))
        progress = _progress(search, search.tree[index][0])
        if not best or progress > best[0][0]:
            best[:] = [(progress, [_notation(a) for a in search.line(index)])]

    collecting = gc.isenabled()
    gc.disable()
    try:
        result = _solve(game, node_limit, seconds, time.process_time, watch)
        if result.verdict == UNWINNABLE and game.status is not Status.STUCK:
            # proved: the searches, run without the prover, still find the furthest line
            left = None if seconds is None else max(0.0, seconds - result.seconds)
            limit = None if node_limit is None else max(1, node_limit - result.nodes)
            _solve(game, limit, left, time.process_time, watch, prove=False)
    finally:
        if collecting:
            gc.enable()
    if result.verdict == WINNABLE or not best:
        return result
    return SolveResult(result.verdict, result.nodes, result.seconds, best[0][1])


__all__ = ["UNKNOWN", "UNWINNABLE", "WINNABLE", "SolveResult", "auto_ending_plan", "best_line",
           "solve"]
