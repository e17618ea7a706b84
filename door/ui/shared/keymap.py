"""One key map for the four games and the menus: the actions every game shares, one key each.

A caller who learns that ``P`` asks for a hint in one game finds it on ``P`` in the three
others, and ``?`` shows the map on every game screen and menu (door/ui/shared/key_overlay.py).
Each game adds only its own moves (:class:`GameKeys`, door/ui/<name>_keys.py); a shared key
that a game has no use for is never one of its moves: it says so instead ("Mariant has no
redo").  Every key line, the map itself, the web page's key bar and the help texts are
built from these records, so that no key is written down twice.

Why these keys (docs/keys.md says it for callers):

* ``P`` hint: ``H`` cannot be, because ``h`` names a column of Anciento's board (squares
  are typed the chess way, ``h4``) and sends a card home in Aunt Mary; ``P`` was
  Anciento's hint already.  Mariant's original calls its hint button HELP: ``H`` stays
  there as the seed's alias.
* ``V`` still winnable?, in the three card games; Anciento has none (its demo, once on
  ``V``, is ``M``: "watch the master play", as the seed's sample game puts it).
* ``R`` redo: Mariant's "remove a complete suit" moved to ``E`` (eliminate, the seed's
  word), since a key that means redo in two games must not remove cards in a third.
* ``X`` resign (Anciento's End, the seed's F10), ``U`` undo, ``Q``/Esc leave, ``?``/F1
  this map, F9 the screen in words: as they were.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ...term import Key
from ...term.width import text_width
from .widgets import KEYS_APART, cut


@dataclass(frozen=True)
class Action:
    """A shared action: the key that does it in every game (and menu that has it)."""

    name: str
    key: str
    """The key as the decoder names it: a character (lower case), or a key's name."""
    label: str
    """The key as screens write it (``P``, ``?``, ``F9``)."""
    word: str
    """What a key line says after the label (``P hint``)."""
    about: str
    """What the map says it does."""
    also: tuple[str, ...] = ()
    """Other keys that mean the same everywhere (F1 for ``?``, Esc for ``Q``)."""


HELP = Action("help", "?", "?", "keys", "this map of the keys (F1 too)", ("f1",))
HINT = Action("hint", "p", "P", "hint", "hint: the solver's next move")
UNDO = Action("undo", "u", "U", "undo", "undo the last move")
REDO = Action("redo", "r", "R", "redo", "redo what was undone (Ctrl-Y too)", ("ctrl-y",))
STILL = Action("still", "v", "V", "still winnable?", "still winnable? (the hall marks it)")
RESIGN = Action("resign", "x", "X", "resign", "resign: asks first, Enter is No")
QUIT = Action("quit", "q", "Q", "quit", "leave (Esc too): the game is kept", ("esc",))
DESCRIBE = Action("describe", "f9", "F9", "words", "the screen in words")

SHARED: tuple[Action, ...] = (HELP, HINT, UNDO, REDO, STILL, RESIGN, QUIT, DESCRIBE)
"""Every game's shared actions, in the order the map lists them."""
BY_NAME = {action.name: action for action in SHARED}
MENU_SHARED: tuple[Action, ...] = (HELP, DESCRIBE)
"""What every menu shares with the games (each menu says its own way back)."""
ON_KEY_LINE = ("hint", "undo", "redo", "resign")
"""The shared actions a game's key line shows (the status line has ``V``, ``?`` and ``Q``)."""
ON_STATUS_LINE = ("still", "help", "quit")


def key_of(key: Key) -> str:
    """A key as the map names keys: a character in lower case, else its name."""
    return key.char.lower() if key.is_char else key.name


@dataclass(frozen=True)
class Move:
    """One of a game's own keys: what the map says of it, and the key line (if shown)."""

    keys: str
    """As written: ``1-0``, ``D``, ``E + 1-0``."""
    about: str
    line: str = ""
    """The key line's item for it (``D deal``); "" keeps it off the key line."""


@dataclass(frozen=True)
class GameKeys:
    """A game's part of the map: its own moves, and how it does the shared actions."""

    title: str
    moves: tuple[Move, ...]
    lacks: dict[str, str] = field(default_factory=dict)
    """Shared actions the game has not, with why (said when their key is pressed)."""
    words: dict[str, str] = field(default_factory=dict)
    """A shared action's key-line word where the game says more (Anciento's ``X end``)."""
    about: dict[str, str] = field(default_factory=dict)
    """A shared action's line in the map where the game's differs (Mariant's undo costs)."""
    aliases: dict[str, str] = field(default_factory=dict)
    """Another key (as :func:`key_of` names it) for a shared action: the seeds' own keys."""
    moved: dict[str, str] = field(default_factory=dict)
    """A key the game's screen once used, and what a caller pressing it is told now."""
    variants: tuple[tuple[str, ...], ...] = ()
    """The key line's own items where they depend on the game (Monte Carlo's rule): one
    tuple per form, for :meth:`key_lines`."""

    def has(self, name: str) -> bool:
        return name not in self.lacks

    def action(self, key: Key) -> Action | None:
        """The shared action ``key`` stands for in this game (its own key, an everywhere
        twin such as F1, or the game's alias), or None."""
        name = key_of(key)
        for action in SHARED:
            if name == action.key or name in action.also:
                return action
        alias = self.aliases.get(name)
        return BY_NAME[alias] if alias is not None else None

    def alias_labels(self, name: str) -> list[str]:
        return [label(key) for key, action in self.aliases.items() if action == name]

    def key_line(self, own: Sequence[str] | None = None) -> str:
        """The key line: the game's own moves (``own``, else those its record shows), then
        hint, undo, redo and resign as every game writes them (``U/R undo/redo`` when the
        game has both)."""
        items = list(own) if own is not None else [m.line for m in self.moves if m.line]
        shared = [BY_NAME[name] for name in ON_KEY_LINE if self.has(name)]
        names = [a.name for a in shared]
        if "undo" in names and "redo" in names:
            at = names.index("undo")
            shared = [a for a in shared if a.name != "redo"]
            items += [self.item(a) for a in shared[:at]]
            items.append(f"{UNDO.label}/{REDO.label} {self.word(UNDO)}/{self.word(REDO)}")
            items += [self.item(a) for a in shared[at + 1:]]
        else:
            items += [self.item(a) for a in shared]
        return KEYS_APART.join(items)

    def key_lines(self) -> list[str]:
        """Every form the game's key line takes (the web page's key bar offers them all)."""
        return [self.key_line(v) for v in self.variants] if self.variants else [self.key_line()]

    def status_keys(self, prefix: str = "") -> str:
        """The status line's keys: still winnable? (where the game has it), help, quit."""
        items = [self.item(BY_NAME[n]) for n in ON_STATUS_LINE if self.has(n)]
        return prefix + KEYS_APART.join(items)

    def word(self, action: Action) -> str:
        return self.words.get(action.name, action.word)

    def item(self, action: Action) -> str:
        return f"{action.label} {self.word(action)}"

    def map_entries(self) -> list[tuple[str, str]]:
        """The shared keys as the map shows them in this game: what each does here, its
        aliases, or why the game has none."""
        out = []
        for action in SHARED:
            if action is DESCRIBE:          # every map's footer names it
                continue
            if not self.has(action.name):
                out.append((action.label, self.lacks[action.name]))
                continue
            about = self.about.get(action.name, action.about)
            aliases = self.alias_labels(action.name)
            if aliases:
                about += f" ({' '.join(aliases)} too)"
            out.append((action.label, about))
        return out


def label(key: str) -> str:
    """A key as screens write it: ``H``, ``-``, ``F10``, ``Esc``, ``Ctrl-Y``."""
    if len(key) == 1:
        return key.upper()
    if re.fullmatch(r"f\d+", key):
        return key.upper()
    return "-".join(part.capitalize() for part in key.split("-"))


def columns(entries: Sequence[tuple[str, str]], width: int, rows: int) -> list[str]:
    """Entries (keys, what they do) as lines of ``width`` cells: one column when ``rows``
    allow it, else two side by side, each entry cut with ``…`` to its column."""
    if not entries:
        return []
    keys_width = max(text_width(keys) for keys, _ in entries)
    texts = [f"{keys}{' ' * (keys_width - text_width(keys))}  {about}" for keys, about in entries]
    if len(texts) <= rows:
        return [cut(text, width) for text in texts]
    half = (len(texts) + 1) // 2
    col = (width - 2) // 2
    left, right = texts[:half], texts[half:]
    out = []
    for i, text in enumerate(left):
        shown = cut(text, col)
        line = shown + " " * (col - text_width(shown))
        if i < len(right):
            line += "  " + cut(right[i], col)
        out.append(line.rstrip())
    return out


def map_lines(sections: Sequence[tuple[str, Sequence[tuple[str, str]]]], width: int,
              rows: int, footer: str) -> list[str]:
    """The map's lines: each section's heading and entries, a blank between sections, the
    footer last (after a blank where there is room); every section in two columns when one
    column would not fit ``rows`` (a window shorter than 24 rows)."""
    needed = sum(len(entries) + 1 for _, entries in sections) + len(sections)
    two = needed > rows
    out: list[str] = []
    for heading, entries in sections:
        if out:
            out.append("")
        out += [heading, *columns(entries, width, 0 if two else len(entries))]
    if len(out) + 2 <= rows:
        out.append("")
    out.append(footer)
    return out
