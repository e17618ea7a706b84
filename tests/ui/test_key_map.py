"""One key map (door/ui/shared/keymap.py): the same key for each shared action in the four games and
the menus, no game's own move on a shared key, the seeds' aliases working, and every key line
built from the map.  The keys are read from the map, never written here a second time."""

from __future__ import annotations

import pytest
from pyteterm import QueueTerminal

from door.catalog import registry as gamelist
from door.config import Settings
from door.session import Caller, Services, Session
from door.term import Key
from door.ui.anciento import menu as anciento_menu
from door.ui.game.screen import GameScreen
from door.ui.menus import main as menu
from door.ui.shared.keymap import (
    DESCRIBE,
    HELP,
    MENU_SHARED,
    ON_KEY_LINE,
    SHARED,
    Action,
    GameKeys,
    key_of,
)

BY_GAME = {info.name: info.screen_class().keys for info in gamelist.games()}
"""Each game's part of the map, as its screen holds it (``keys``), by registry name."""
NAMES = sorted(BY_GAME)


def press(name: str) -> Key:
    """The key a map name stands for (``p``, ``f10``, ``esc``)."""
    return Key("char", name) if len(name) == 1 else Key(name)


def screen_for(settings: Settings, name: str) -> GameScreen:
    info = gamelist.game(name)
    session = Session(QueueTerminal(charset="utf8"), Services(settings),
                      caller=Caller(alias="Keys"))
    return info.screen_class()(session, info.engine_class().new(5))


def test_every_game_has_its_own_part_of_the_map() -> None:
    """Each game's screen sets its own ``keys`` (its moves, titled as the record), rather
    than falling back on the shared keys alone."""
    for info in gamelist.games():
        screen = info.screen_class()
        assert "keys" in vars(screen), info.name
        assert screen.keys.title == info.title and screen.keys.moves, info.name


@pytest.mark.parametrize("action", SHARED, ids=lambda a: a.name)
def test_each_shared_action_has_one_key_in_every_game(action: Action) -> None:
    """The action's key (and its everywhere twins) means that action in all four games;
    the menus that share it (help) read the same record."""
    for name in NAMES:
        keys = BY_GAME[name]
        for key in (action.key, *action.also):
            assert keys.action(press(key)) is action, (name, key)
    if action in MENU_SHARED:
        assert action.key == HELP.key or action is DESCRIBE


@pytest.mark.parametrize("name", NAMES)
def test_no_game_puts_its_own_move_or_an_alias_on_a_shared_key(name: str) -> None:
    keys = BY_GAME[name]
    shared = {k for action in SHARED for k in (action.key, *action.also)}
    assert not set(keys.aliases) & shared                 # an alias is another key
    for move in keys.moves:
        letters = {word.lower() for word in move.keys.split() if len(word) == 1}
        assert not letters & shared, (name, move.keys)
    for lacking in keys.lacks:                             # only shared actions are lacked
        assert any(a.name == lacking for a in SHARED)


def noting_shared_actions(settings: Settings, name: str, monkeypatch
                          ) -> tuple[GameScreen, list[str]]:
    """Game ``name``'s screen, drawn, and the list its shared actions are noted in by name
    (the frame's shared_key records the action instead of doing it)."""
    screen = screen_for(settings, name)
    reached: list[str] = []

    async def record(self: GameScreen, action: Action, key: Key) -> None:
        reached.append(action.name)

    monkeypatch.setattr(GameScreen, "shared_key", record)
    screen.draw()
    return screen, reached


@pytest.mark.parametrize("name", NAMES)
async def test_shared_keys_reach_the_shared_actions_on_each_screen(
        settings: Settings, name: str, monkeypatch) -> None:
    """On a live screen, no game claims a shared key for itself: each goes to the frame's
    shared action (a lacking one is refused there, saying why)."""
    screen, reached = noting_shared_actions(settings, name, monkeypatch)
    for action in SHARED:
        if action is DESCRIBE:          # the session's access layer takes F9 first
            continue
        key = press(action.key)
        assert not await screen.on_key(key), (name, action.name)
        assert await screen.common_key(key)
        assert reached[-1] == action.name


@pytest.mark.parametrize("name", NAMES)
async def test_the_seeds_aliases_reach_their_actions(settings: Settings, name: str,
                                                     monkeypatch) -> None:
    screen, reached = noting_shared_actions(settings, name, monkeypatch)
    for alias, action in BY_GAME[name].aliases.items():
        key = press(alias)
        assert not await screen.on_key(key), (name, alias)
        assert await screen.common_key(key)
        assert reached[-1] == action, (name, alias)


@pytest.mark.parametrize("name", NAMES)
async def test_a_lacking_action_says_why_and_a_moved_key_where_it_went(
        settings: Settings, name: str) -> None:
    screen = screen_for(settings, name)
    keys = BY_GAME[name]
    for lacking, why in keys.lacks.items():
        action = next(a for a in SHARED if a.name == lacking)
        await screen.common_key(press(action.key))
        assert screen.note.startswith(why[:1].upper() + why[1:]), screen.note
    for old, words in keys.moved.items():
        if keys.action(press(old)) is None:
            await screen.common_key(press(old))
            assert screen.note == words


@pytest.mark.parametrize("name", NAMES)
def test_every_key_line_is_built_from_the_map(name: str) -> None:
    keys = BY_GAME[name]
    for line in keys.key_lines():
        for action_name in ON_KEY_LINE:
            action = next(a for a in SHARED if a.name == action_name)
            if keys.has(action_name):
                assert action.label in line.replace("/", " ").split(), (name, action_name)
    assert HELP.label in keys.status_keys()


def test_key_of_names_keys_as_the_map_does() -> None:
    assert key_of(Key("char", "P")) == "p" and key_of(Key("f10")) == "f10"
    game = GameKeys("Toy", (), aliases={"h": "hint"})
    assert game.action(Key("char", "H")) is not None
    assert game.alias_labels("hint") == ["H"]


def test_the_menus_offer_the_map_on_the_shared_help_key() -> None:
    """The main menu and the Anciento menu name ``?`` from the map on their status lines."""
    assert f"{HELP.label} keys" in menu.MENU_KEYS_LINE
    assert HELP.label in anciento_menu.STATUS_KEYS


def test_docs_keys_table_says_what_the_map_says() -> None:
    """docs/keys.md's table of shared keys, row by row, against the map: each action's key,
    each game's "none" where it lacks one, and the seeds' aliases it keeps."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "keys.md").read_text()
    rows = [line.split("|")[1:-1] for line in text.splitlines()
            if line.startswith("| ") and line.count("|") == 7]
    header, body = rows[0], rows[1:]
    games = [next(n for n in NAMES if BY_GAME[n].title == cell.strip()) for cell in header[2:]]
    assert len(body) == len(SHARED)
    for action, row in zip(SHARED, body, strict=True):
        label = f"`{action.label}`" if len(action.label) == 1 else action.label
        assert row[1].strip() == label, action.name
        for name, cell in zip(games, row[2:], strict=True):
            keys = BY_GAME[name]
            if not keys.has(action.name):
                assert cell.strip() == "none", (action.name, name)
                continue
            assert cell.strip().startswith(label), (action.name, name)
            for alias in keys.alias_labels(action.name):
                assert alias in cell, (action.name, name, alias)
