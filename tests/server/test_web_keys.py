"""The key bar's keys (door/web/keys.py) against the door's own screens: each game's keys
are those its key line shows, so a key changed on a screen shows here."""

from __future__ import annotations

import re

from door.catalog import registry as gamelist
from door.catalog.record import GameInfo
from door.config import Settings
from door.web.keys import keymap

ASKS = {"Y", "N", "?"}  # answers to a screen's question (resign?), and the key map (?)


def key_lines(game: str) -> str:
    """Every form of the game's key line, as its screen draws it (the key map's forms)."""
    return " ".join(gamelist.game(game).screen_class().keys.key_lines())


def shown(line: str) -> set[str]:
    """The keys a key line names: letters and signs standing alone, and digit ranges."""
    keys = set(re.findall(r"(?<![\w])([A-Z?+\-])(?![a-z])", line))
    for first, last in re.findall(r"\b(\d)-(\d)\b", line):
        stop = 10 if last == "0" else int(last)
        keys |= {str(d % 10) for d in range(int(first), stop + 1)}
    return keys


def test_each_games_keys_are_on_its_key_line(every_game: GameInfo, settings: Settings) -> None:
    game = every_game.name
    keys = keymap(settings)[f"Playing {gamelist.title(game)}"]
    offered = {label for label, _ in keys}
    named = shown(key_lines(game))
    assert offered - ASKS <= named, sorted(offered - ASKS - named)
    for label, sent in keys:
        assert sent == label.lower() and len(sent) == 1
    assert {"Y", "N", "?"} <= offered


def test_every_game_and_the_main_menu_have_keys(settings: Settings) -> None:
    keys = keymap(settings)
    for info in gamelist.games():
        assert keys[f"Playing {info.title}"], info.name
    menu = dict(keys["main menu"])
    assert menu["C"] == "c" and menu["Q"] == "q"
