"""A quick proof that an Aunt Mary position cannot be won, before any search.

Many lost deals are lost for a plain reason: a King lies on the card its suit needs next and
no column can ever be emptied for it, or a card's only hosts lie under it.  The search would
still walk every shuffle of the tableau and the talon before saying so (seconds, sometimes
minutes).  :func:`cannot_win` finds these in well under a millisecond.

It computes, by a fixpoint, what *may* ever happen in a relaxed game where the talon is open
at all times (no passes, no order) and a card may lie on a host that holds another card:

* ``moved``: a card of the tableau may leave its place -- home, onto a host that may be a
  column top, a King into a column that may be emptied -- once every card above it may have
  left; or with a run that it lies in (the run as dealt: face-up cards in sequence),
  once every card above that run may have left;
* ``top``: a card may lie on top of a column -- a tableau card once the cards above it may
  have left (or once it may have moved), a talon card once a host of it may be a top (a
  King: once a column may be empty), a foundation card the same way but only once every
  card above it on its foundation may be a top (they come down first);
* ``home``: a card may reach its foundation -- every lower card of its suit may, and it may
  be reached (the talon, or the tableau as above);
* a column may be emptied once every card in it may have moved.

Then, if every card may still reach home, the **twin rule** adds what the shared hosts hide
(host capacity): two cards of the same rank and colour have the same two hosts, and a host
holds one of them at a time.  When one twin lies under the other in a column, each heading
its run as dealt, and one of their hosts cannot be a top before the lower twin leaves
(it lies under that twin, or it is never a top in the fixpoint above), the upper twin must
leave first -- home, or onto the other host, where it stays until it goes home -- so the
lower one may leave onto a host only once the upper one may be home (home directly it
may go).  The fixpoint is computed again with that condition (deal 33's two red Jacks
over the Queen of spades are such a pair; two deals of 1-660 more are proved lost).

Every fact of the real game has these as necessary conditions (each event needs earlier
events that the rules derive in turn), so the relaxed sets hold everything that can really
happen.  If some card may never reach home, no line wins: the verdict is exact.  The tests
check it against an exhaustive search and the engine on constructed positions.
"""

from __future__ import annotations

from .auntmary_cards import DOWN, FIT, HOSTS, KING_ID, TWIN, home_mask

ALL = (1 << 52) - 1
_EMPTY = 1 << 52
"""A pseudo-card in the "may be a top" mask: an empty column (where a King may go)."""
_LOWER = [sum(1 << (r * 4 + (x & 3)) for r in range(x >> 2)) for x in range(52)]
"""The lower cards of a card's suit, which must be home before it."""
_HIGHER = [sum(1 << (r * 4 + (x & 3)) for r in range((x >> 2) + 1, 13)) for x in range(52)]
"""The higher cards of a card's suit, which leave its foundation before it can come down."""
_WANTS = [sum(1 << h for h in HOSTS[x]) if x < KING_ID else _EMPTY for x in range(52)]
"""Where a card may be put on the tableau: its two hosts, or an empty column for a King."""


def cannot_win(cols: list[list[int]], found: list[int], talon: list[int], present: int) -> bool:
    """True when the position is proved lost (see the module docstring); False says nothing.

    Arguments in the solver's form: column card ids bottom to top (+ ``DOWN`` face down),
    foundation tops per suit, the talon's card ids and the mask of those still in it."""
    home = 0
    for su in range(4):
        home |= home_mask(su, found[su])
    dealt_home = home
    loose = home            # cards out of the tableau: home, or in the talon
    for k, x in enumerate(talon):
        if present >> k & 1:
            loose |= 1 << x
    empty = False
    tableau: list[tuple[int, int, int, int, int, int]] = []
    # (card, its bit, cards above it, cards above its dealt run, where the run's cards at
    # or below it may go, and the twin that must be home before it may take a host: none
    # until the twin rule below gives one)
    columns: list[int] = []
    low_twins: list[tuple[int, int, int]] = []
    # (index in ``tableau`` of a card that lies under its twin in its column and heads its
    # dealt run, the twin above it, the cards under it)
    for col in cols:
        n = len(col)
        if not n:
            empty = True
            continue
        ids = [v - DOWN if v >= DOWN else v for v in col]
        above = [0] * n
        mask = 0
        for i in range(n - 1, -1, -1):
            above[i] = mask
            mask |= 1 << ids[i]
        columns.append(mask)
        heads: dict[int, int] = {}      # card heading its dealt run -> its index in tableau
        i = 0
        while i < n:            # split the column into its runs as they lie
            j = i
            if col[i] < DOWN:
                while j + 1 < n and FIT[col[j + 1]][col[j]]:
                    j += 1
            wants = 0
            heads[ids[i]] = len(tableau)
            for p in range(i, j + 1):
                x = ids[p]
                wants |= _WANTS[x]
                tableau.append((x, 1 << x, above[p], above[j], wants, 0))
            i = j + 1
        for x, at in heads.items():
            twin = TWIN[x]
            if x < KING_ID and twin in heads and above[ids.index(x)] >> twin & 1:
                low_twins.append((at, twin, mask & ~above[ids.index(x)] & ~(1 << x)))
    home, top = _fixpoint(tableau, columns, empty, loose, home, dealt_home, False)
    if home != ALL:
        return True
    # The twin rule (host capacity).  Twins (same rank and colour) have the same two hosts,
    # and a host holds one of them at a time.  Let L head its dealt run under its twin U,
    # which heads its own, and let one host H' be unable to be a top before L leaves (H'
    # under L, or never a top at all).  U leaves first, home or onto the other host H
    # (not carried: it heads its run), and stays on H until it goes home (H' is not free
    # yet).  So L leaves onto a host only once U may be home; home directly it may go.
    tied = False
    for at, twin, under in low_twins:
        x = tableau[at][0]
        if any(under >> h & 1 or not top >> h & 1 for h in HOSTS[x]):
            tableau[at] = (*tableau[at][:5], 1 << twin)
            tied = True
    if not tied:
        return False
    home, _ = _fixpoint(tableau, columns, empty, loose, dealt_home, dealt_home, True)
    return home != ALL


def _fixpoint(tableau: list[tuple[int, int, int, int, int, int]], columns: list[int],
              empty: bool, loose: int, home: int, dealt_home: int,
              stop_when_won: bool) -> tuple[int, int]:
    """The relaxed game's fixpoint (see the module docstring): the cards that may reach
    home, and the cards that may lie on top of a column.  ``stop_when_won``: stop as soon as
    every card may reach home (the tops are then not all found)."""
    moved = top = 0
    changed = True
    while changed:
        changed = False
        tops = top | _EMPTY if empty else top
        for x in range(52):     # talon and foundation cards: home, and onto the tableau
            bit = 1 << x
            if not loose & bit:
                continue
            if not home & bit and not _LOWER[x] & ~home:
                home |= bit
                changed = True
            if not top & bit and _WANTS[x] & tops and not _HIGHER[x] & dealt_home & ~top:
                top |= bit
                changed = True
        tops = top | _EMPTY if empty else top
        for x, bit, above_it, above_run, wants, after in tableau:
            ready = not _LOWER[x] & ~home
            if moved & bit:
                if ready and not home & bit:
                    home |= bit
                    changed = True
                continue
            reached = not above_it & ~moved
            if reached and not top & bit:
                top |= bit
                changed = True
            if (reached and ready) or (not after & ~home and (
                    (reached and _WANTS[x] & tops) or (not above_run & ~moved
                                                       and wants & tops))):
                moved |= bit
                top |= bit
                changed = True
                if ready and not home & bit:
                    home |= bit
        if not empty and any(not mask & ~moved for mask in columns):
            empty = True
            changed = True
        if stop_when_won and home == ALL:
            break
    return home, top
