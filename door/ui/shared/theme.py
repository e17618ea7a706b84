"""The door's colours, in one place.  Every pairing also reads in monochrome."""

from ...term.screen import BLACK, BLUE, CYAN, GREEN, RED, WHITE, YELLOW, Attr

NORMAL = Attr(WHITE, BLACK)
DIM = Attr(WHITE, BLACK)
BRIGHT = Attr(WHITE, BLACK, bright=True)
TITLE = Attr(YELLOW, BLACK, bright=True)
FRAME = Attr(CYAN, BLACK)
FRAME_BRIGHT = Attr(CYAN, BLACK, bright=True)
HOTKEY = Attr(YELLOW, BLACK, bright=True)
LABEL = Attr(WHITE, BLACK)
SELECTED = Attr(BLACK, CYAN)
HEADER = Attr(WHITE, BLUE, bright=True)
STATUS = Attr(BLACK, WHITE)
MESSAGE = Attr(GREEN, BLACK, bright=True)
WARNING = Attr(WHITE, RED, bright=True)
GREYED = Attr(BLACK, BLACK, bright=True)
"""Dark grey: a key that does nothing now.  Monochrome cannot grey (bright would show
brighter), so a greyed key's words must say it too."""
HINTED = Attr(BLACK, GREEN)
"""What a hint points at (a pair of cards, a square); its text marks it too."""
