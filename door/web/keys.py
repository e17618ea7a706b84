"""The keys the play page's key bar offers (phones and tablets have no Esc, arrows or
letters at hand): always Esc, the arrows, Enter and Space (play.js has those), and the
keys of the screen the caller is on, as the door names it in its ``{"doing": …}`` side
message (who's online's words: "main menu", "Playing <title>").

Each game's keys are those its key line shows, read from the key map that builds the
key line (door/ui/shared/keymap.py, the screen's ``keys``), plus ``?`` (the map) and Y and N,
which answer the game's questions (resign?).
"""

from __future__ import annotations

import re

from ..catalog import registry as gamelist
from ..catalog.record import GameInfo
from ..config import Settings
from ..ui.shared.keymap import HELP
from ..ui.shared.pointer import chunks

Key = tuple[str, str]
"""(what the button says, what it sends)."""


def _letters(text: str) -> tuple[Key, ...]:
    return tuple((c, c.lower()) for c in text)


def line_keys(line: str) -> tuple[Key, ...]:
    """The character keys a key line names, in its order: each chunk's keys as a click
    reads them (door/ui/shared/pointer.py), and the digits of a range (``1-6``, ``1-0``)."""
    out: list[str] = []
    for chunk in chunks(line):
        for spot in chunk.keys:
            if spot.key.is_char and spot.key.char.strip():
                out.append(spot.key.char.upper())
    for first, last in re.findall(r"(?<![\w-])(\d)-(\d)(?![\w-])", line):
        stop = 10 if last == "0" else int(last)
        out += [str(d % 10) for d in range(int(first), stop + 1)]
    seen = dict.fromkeys(out)
    return tuple((label, label.lower()) for label in seen)


def game_keys(info: GameInfo) -> tuple[Key, ...]:
    """A game's bar: the keys of its key line (every form of it), ``?``, Y and N."""
    named = [key for line in info.screen_class().keys.key_lines() for key in line_keys(line)]
    return tuple(dict.fromkeys([*named, (HELP.label, HELP.key), *_letters("YN")]))

REPLAY_KEYS: tuple[Key, ...] = (("Home", "\x1b[H"), ("End", "\x1b[F"), ("P", "p"),
                                ("+", "+"), ("−", "-"), ("Q", "q"))
WATCH_KEYS: tuple[Key, ...] = (*_letters("123456789"), ("Q", "q"))


def keymap(settings: Settings) -> dict[str, list[Key]]:
    """Activity → its keys, for the page (sent inside it as JSON)."""
    out: dict[str, list[Key]] = {
        "main menu": [(e.key.upper(), e.key.lower()) for e in settings.enabled_menu
                      if len(e.key) == 1],
        "replay": list(REPLAY_KEYS), "Watch a Game": list(WATCH_KEYS)}
    for info in gamelist.games():
        out[f"Playing {info.title}"] = list(game_keys(info))
    return out
