"""A click on what the screen says: the key written there.

Every screen of the door names its keys in its text — ``[M]  Mariant`` in a menu,
``P hint · U undo`` on a key line, ``Enter: random deal`` on a status line, ``(Y/n)`` after
a question, ``W  Winnable deals only`` in a box, ``Press any key`` under a title — so a
click on such a name is that key, on every screen, with nothing to declare per screen.
The game boards, whose cards carry no key names, have their own maps (door/ui/shared/access.py
sends a click there first).

A row is cut into *chunks* at `` · ``, `` -- ``, a frame's line and two spaces or more.  A
chunk's keys are its first words up to the first that names no key, and never past a
colon (``U/R undo/redo``, ``Space/Enter/PgDn: next``; ``Row 3: …`` has none); a chunk of keys
alone (``[H]``, ``U``) lends them to the chunks after it up to the next such (the label
``Hall of Fame`` answers as ``[H]``).  A click on a key's own letters is that key; elsewhere in
its chunk, the chunk's first key.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...term import Key
from ...term.keys import char

NAMED = {"enter": "enter", "esc": "esc", "tab": "tab", "backspace": "backspace",
         "bksp": "backspace", "pgup": "pgup", "pgdn": "pgdn", "home": "home", "end": "end",
         "ins": "ins", "del": "del", **{f"f{n}": f"f{n}" for n in range(1, 13)}}
"""Key names as screens write them (any case), to the decoder's names."""
SINGLE = re.compile(r"[A-Za-z0-9?+\-*=]")
"""A key written as itself: a letter, a digit or one of the few signs keys use."""
RANGE = re.compile(r"^\S-\S$")
"""``1-6``, ``a-e``: keys, but no one key: skipped, not the end of a chunk's keys."""
CUT = re.compile(r" *(?: · | -- |[│║┃|╡╞]) *| {2,}")
YES_NO = re.compile(r"\(([YyOo])/([Nn])\)")
ANY_KEY = re.compile(r"any (other )?key", re.IGNORECASE)


@dataclass(frozen=True)
class Spot:
    """A key and the columns it answers on (``start`` … ``end - 1``)."""

    key: Key
    start: int
    end: int


@dataclass
class Chunk:
    start: int
    end: int
    keys: list[Spot]
    only_keys: bool  # the chunk is its keys and nothing else: it labels what follows
    whole: bool = True  # a click anywhere in it is its first key (not a question's)


def key_named(word: str) -> Key | None:
    """The key a word names (``Enter``, ``Space``, ``F1``, ``H``, ``?``), or None.  A key
    name is written capitalised: ``H home`` is H, then the word "home"."""
    lower = word.lower()
    if len(word) > 1 and not word[0].isupper():
        return None
    if lower == "space":
        return char(" ")
    if lower in NAMED:
        return Key(NAMED[lower])
    if len(word) == 1 and SINGLE.fullmatch(word):
        return char(lower)
    return None


def _word_keys(word: str, at: int) -> tuple[list[Spot], bool]:
    """The keys one word names (``U/R``, ``Arrows+Enter``, ``[M]``), each with its columns;
    and whether the word is a range (``1-6``), which names keys but no one key."""
    if RANGE.match(word):
        return [], True
    bracket = re.fullmatch(r"\[(\S{1,9})\]", word)
    if bracket:
        key = key_named(bracket.group(1))
        return ([Spot(key, at, at + len(word))] if key else []), False
    spots = []
    for part in re.finditer(r"[^/]+", word):  # "U/R": U, R; "-/+": -, +
        text = part.group()
        key = key_named(text)
        if key is None and "+" in text and len(text) > 1:  # "Arrows+Enter"
            for sub in re.finditer(r"[^+]+", text):
                named = key_named(sub.group())
                if named is not None:
                    spots.append(Spot(named, at + part.start() + sub.start(),
                                      at + part.start() + sub.end()))
        elif key is not None:
            spots.append(Spot(key, at + part.start(), at + part.end()))
    return spots, False


def _chunk(text: str, start: int) -> Chunk:
    """One chunk's keys (see the module's docstring)."""
    keys: list[Spot] = []
    for match in YES_NO.finditer(text):  # a question: its Y and N, and nothing around them
        return Chunk(start, start + len(text), [
            Spot(char(match.group(1).lower()), start + match.start(1), start + match.end(1)),
            Spot(char("n"), start + match.start(2), start + match.end(2))], False, False)
    colon = text.find(":")
    head = text[:colon] if colon > 0 else text
    only = colon < 0
    for word in re.finditer(r"\S+", head):
        spots, is_range = _word_keys(word.group(), start + word.start())
        if spots:
            keys += spots
        elif not is_range:
            only = False
            break  # "P hint", "Row 3:": the keys are the words before the first that is none
    if not keys and ANY_KEY.search(text):
        keys.append(Spot(Key("enter"), start, start + len(text)))
    return Chunk(start, start + len(text), keys, only and bool(keys))


def chunks(row: str) -> list[Chunk]:
    """A row of the screen cut into chunks, each with its keys."""
    out, at = [], 0
    for cut in [*CUT.finditer(row), None]:
        end = cut.start() if cut is not None else len(row)
        text = row[at:end]
        if text.strip():
            lead = len(text) - len(text.lstrip())
            out.append(_chunk(text.strip(), at + lead))
        if cut is not None:
            at = cut.end()
    return out


BOX_KEY = re.compile(r"\[(\S{1,9})\]")


def box_key_at(row: str, col: int) -> Key | None:
    """The key of a box's ``[E]`` or a question's ``(y/N)`` under column ``col``, or None.
    Boards never write these: a click on one is the box's, even over a game's board (the
    end offer, a question), whatever the game's own map would make of that cell."""
    for match in YES_NO.finditer(row):
        for group in (1, 2):
            if match.start(group) <= col < match.end(group):
                return char(match.group(group).lower())
    for match in BOX_KEY.finditer(row):
        if match.start() <= col < match.end():
            return key_named(match.group(1))
    return None


def key_at(row: str, col: int) -> Key | None:
    """The key a click at column ``col`` of this row of text means, or None."""
    label: list[Spot] = []
    for chunk in chunks(row):
        if chunk.only_keys:
            label = chunk.keys
        if chunk.start <= col < chunk.end:
            for spot in chunk.keys:
                if spot.start <= col < spot.end:
                    return spot.key
            keys = chunk.keys or label
            return keys[0].key if keys and chunk.whole else None
        if chunk.start > col:
            return None
    return None
