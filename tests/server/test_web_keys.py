"""The key bar's keys (door/web/keys.py) against the door's own screens: each game's keys
are those its key line shows, so a key changed on a screen shows here."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from door import gamelist
from door.config import Settings
from door.ui.anciento_screen import AncientoScreen
from door.ui.montecarlo_screen import RELAXED_KEY_LINE, STRICT_KEY_LINE
from door.web.keys import GAME_KEYS, keymap

ASKS = {"Y", "N", "?"}  # answers to a screen's question (resign?), and the key map (?)


def key_lines(game: str) -> str:
    """Every form of the game's key line, as its screen draws it."""
    info = gamelist.game(game)
    if game == "montecarlo":
        return STRICT_KEY_LINE + " " + RELAXED_KEY_LINE
    if game == "anciento":
        return AncientoScreen.key_line.fget(SimpleNamespace(demo=False))  # not the demo's
    return str(info.screen_class().keys.key_line())


def shown(line: str) -> set[str]:
    """The keys a key line names: letters and signs standing alone, and digit ranges."""
    keys = set(re.findall(r"(?<![\w])([A-Z?+\-])(?![a-z])", line))
    for first, last in re.findall(r"\b(\d)-(\d)\b", line):
        stop = 10 if last == "0" else int(last)
        keys |= {str(d % 10) for d in range(int(first), stop + 1)}
    return keys


@pytest.mark.parametrize("game", sorted(GAME_KEYS))
def test_each_games_keys_are_on_its_key_line(game: str) -> None:
    offered = {label for label, _ in GAME_KEYS[game]}
    named = shown(key_lines(game))
    assert offered - ASKS <= named, sorted(offered - ASKS - named)
    for label, sent in GAME_KEYS[game]:
        assert sent == label.lower() and len(sent) == 1
    assert {"Y", "N", "?"} <= offered


def test_every_game_and_the_main_menu_have_keys(settings: Settings) -> None:
    keys = keymap(settings)
    assert set(GAME_KEYS) == set(gamelist.names())
    for info in gamelist.games():
        assert keys[f"Playing {info.title}"], info.name
    menu = dict(keys["main menu"])
    assert menu["C"] == "c" and menu["Q"] == "q"
