"""The keys the play page's key bar offers (phones and tablets have no Esc, arrows or
letters at hand): always Esc, the arrows, Enter and Space (play.js has those), and the
keys of the screen the caller is on, as the door names it in its ``{"doing": …}`` side
message (who's online's words: "main menu", "Playing <title>").

Each game's keys are its record's ``web_keys`` (door/gamelist.py): those its key line shows
(a test holds each game's list to its screen's ``key_line``), plus Y and N where the game
asks a question (resign?).
"""

from __future__ import annotations

from .. import gamelist
from ..config import Settings

Key = tuple[str, str]
"""(what the button says, what it sends)."""


def _letters(text: str) -> tuple[Key, ...]:
    return tuple((c, c.lower()) for c in text)


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
        out[f"Playing {info.title}"] = list(_letters(info.web_keys))
    return out
