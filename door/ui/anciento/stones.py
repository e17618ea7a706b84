"""How an Anciento stone looks on screen, and why a stone does not fit, in the caller's words.

A stone is two cells: its shape glyph and its pattern digit (``♦4``), drawn in its pattern's
colour.  The glyphs are CP437 characters whose 7-bit stand-ins (``door/term/charset.py``)
are all different — ♠ ♥ ♦ ♣ ☺ ☼ become S H D C o * — and the digit carries the pattern, so a
stone reads the same in CP437, UTF-8 and ASCII, in colour and in monochrome.

Edge squares (they score nothing) are shaded with a blue background: the pattern colours
are bright and none of them is blue, so every stone reads on both backgrounds, and a
monochrome caller sees the edge in reverse video.
"""

from __future__ import annotations

from ...games.anciento import Stone
from ...term.screen import BLACK, BLUE, CYAN, GREEN, MAGENTA, RED, WHITE, YELLOW, Attr

SHAPE_GLYPHS = "♠♥♦♣☺☼"
SHAPE_TEXT = "SHDCo*"
"""What each glyph becomes on a caller whose terminal cannot show it (charset fallbacks)."""
SHAPE_NAMES = ("spade", "heart", "diamond", "club", "face", "sun")
PATTERN_COLOURS = (RED, GREEN, YELLOW, CYAN, MAGENTA, WHITE)
PATTERN_NAMES = ("red", "green", "yellow", "cyan", "magenta", "white")
EDGE_BG = BLUE

INSIDE = Attr(WHITE, BLACK)
EDGE = Attr(WHITE, EDGE_BG)
"""An empty square inside the board, and on the (shaded) edge."""


def stone_label(stone: Stone) -> str:
    """Two cells: shape glyph and pattern digit, e.g. ``♦4``."""
    return SHAPE_GLYPHS[stone.shape] + str(stone.pattern + 1)


def stone_words(stone: Stone) -> str:
    """``diamond 4`` — for the panel, where a glyph alone might not say enough."""
    return f"{SHAPE_NAMES[stone.shape]} {stone.pattern + 1}"


def stone_attr(stone: Stone, edge: bool = False) -> Attr:
    """The pattern's bright colour, on the edge shade or on black."""
    return Attr(PATTERN_COLOURS[stone.pattern], EDGE_BG if edge else BLACK, bright=True)


def misfit_reason(stone: Stone, neighbours: list[Stone], square: str) -> str:
    """Why ``stone`` may not go on the empty ``square`` with these occupied neighbours.

    Says which rule of docs/rules.md fails, naming the stones involved, so the caller
    learns the matching rules from the refusals.
    """
    me = stone_label(stone)
    if not neighbours:
        return f"{me} must touch a stone: {square} has no neighbour (diagonals do not count)."
    for other in neighbours:
        if other.shape != stone.shape and other.pattern != stone.pattern:
            return (f"{me} cannot go on {square}: {stone_label(other)} beside it shares "
                    f"neither its shape nor its pattern.")
    same_shape = sum(other.shape == stone.shape for other in neighbours)
    same_pattern = sum(other.pattern == stone.pattern for other in neighbours)
    n = len(neighbours)
    if n == 4:
        return (f"{me} on {square} would be a Quatro: it needs two neighbours of its shape "
                f"and two of its pattern (here {same_shape} and {same_pattern}).")
    missing = "shape" if same_shape == 0 else "pattern"
    return (f"{me} on {square}: with {n} neighbours, one must share its shape and one its "
            f"pattern; none shares its {missing}.")
