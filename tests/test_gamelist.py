"""One record per game: a toy game registered here (engine, screen, settings, hall rule,
instructions, menu entry all defined in this file; no solver, no daily challenge) shows up
everywhere the door lists games, with no other change to the door: sysop.ini, the main
menu, play, the hall of fame, the instructions.  The built-in records agree with the
engines and the shipped files; and outside the games' own modules, door/ names no game but
in the registry.  (tests/server/test_every_game.py runs every game, the toy fifth game of
tests/toygame/ among them, through the rest of the door.)"""

from __future__ import annotations

import ast
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar, Self

import pytest
from pyteterm import TelnetCaller

from door.catalog import registry as gamelist
from door.catalog.record import GameInfo, HallRule, OptionError
from door.config import ConfigError, default_menu, load_settings, parse_settings
from door.games import Game, IllegalMove, Status
from door.ini.values import int_between, on_off
from door.store.queries import counts_for_hall, rank_key
from door.term import Key
from door.ui.game.screen import GameScreen

REPO = Path(__file__).resolve().parent.parent


class Pebbles(Game):
    """Take pebbles from a pile of ``number % 5 + 3``, one at a time; each take costs a
    point; the game is won when the pile is empty (fewest points wins)."""

    name = "pebbles"

    def __init__(self, number: int, pile: int) -> None:
        super().__init__()
        self.number, self.options, self.pile = number, {}, pile
        self.taken = 0

    @classmethod
    def new(cls, number: int, **options: Any) -> Self:
        return cls(number, number % 5 + 3)

    def legal_moves(self) -> list[str]:
        return ["t"] if self.pile else []

    def _apply(self, move: str) -> None:
        if move.strip() != "t" or not self.pile:
            raise IllegalMove(f"cannot play {move!r}")
        self.pile, self.taken = self.pile - 1, self.taken + 1

    def _undo(self) -> None:
        raise IllegalMove("no undo in Pebbles")

    @property
    def score(self) -> int:
        return self.taken

    @property
    def status(self) -> Status:
        return Status.PLAYING if self.pile else Status.WON

    def hints(self) -> list[str]:
        return self.legal_moves()

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "pile": self.pile, "taken": self.taken,
                "actions": list(self.actions)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        game = cls(int(data["number"]), int(data["pile"]))
        game.taken, game.actions = int(data["taken"]), list(data["actions"])
        return game


@dataclass(frozen=True)
class PebblesSettings:
    heap: int = 5
    quick: bool = False


def _quick_needs_small_heap(settings: PebblesSettings) -> None:
    if settings.quick and settings.heap > 3:
        raise OptionError("quick", "expected heap ≤ 3 with quick on")


PEBBLES = GameInfo(
    name="pebbles", title="Pebbles", menu_key="P", menu_label="Pebbles (a toy)",
    engine=f"{__name__}:Pebbles", screen=f"{__name__}:PebblesScreen",
    settings=PebblesSettings, options={"heap": int_between(1, 9), "quick": on_off},
    validate=_quick_needs_small_heap,
    hall=HallRule(lowest_wins=True, won_only=True, name="Pebble Parade"))


class PebblesScreen(GameScreen):
    info = PEBBLES
    key_line: ClassVar[str] = "T take a pebble · Q leave"
    help_lines: ClassVar[list[str]] = ["T   take a pebble"]

    def draw_board(self) -> None:
        game = self.game
        assert isinstance(game, Pebbles)
        self.session.screen.put(5, 10, f"Pebbles left: {game.pile}  taken: {game.taken}  ")

    async def on_key(self, key: Key) -> bool:
        if not (key.is_char and key.char.lower() == "t"):
            return False
        self.game.play("t")
        return True


@pytest.fixture
def pebbles() -> Any:
    with gamelist.registered(PEBBLES) as info:
        yield info


def test_the_record_names_everything(pebbles: GameInfo) -> None:
    assert gamelist.names()[-1] == "pebbles" and gamelist.title("pebbles") == "Pebbles"
    assert gamelist.engine("pebbles") is Pebbles
    assert pebbles.screen_class() is PebblesScreen
    assert (PebblesScreen.name, PebblesScreen.title) == ("pebbles", "Pebbles")
    assert not PebblesScreen.solvable
    assert pebbles.instructions_file == "pebbles.ins"
    assert default_menu()[len(gamelist.names()) - 1].label == "Pebbles (a toy)"
    assert counts_for_hall("pebbles", "won", False) and not counts_for_hall("pebbles", "lost",
                                                                          False)
    assert rank_key("pebbles", 3) < rank_key("pebbles", 4)  # fewest points first
    with pytest.raises(ValueError, match="registered already"):
        gamelist.register(PEBBLES)


def test_a_record_that_contradicts_itself_is_refused() -> None:
    with pytest.raises(ValueError, match="still_winnable wants a solver"):
        replace(PEBBLES, still_winnable=True)
    with pytest.raises(ValueError, match=r"options \['heap'\] are not the settings' fields"):
        replace(PEBBLES, options={"heap": int_between(1, 9)})


def test_unregistered_game_is_unknown_everywhere(tmp_path: Path) -> None:
    assert "pebbles" not in gamelist.names()
    with pytest.raises(ConfigError, match=r":1: \[pebbles\]: unknown section"):
        parse_settings("[pebbles]\nheap = 3\n", tmp_path)
    with pytest.raises(ConfigError, match=r"\[menu\] pebbles: unknown action"):
        parse_settings("[menu]\npebbles = P | Pebbles | on\nquit = Q | Quit | on\n", tmp_path)
    with pytest.raises(ValueError, match="unknown game 'pebbles'"):
        gamelist.game("pebbles")


def test_sysop_ini_reads_and_checks_its_section(pebbles: GameInfo, tmp_path: Path) -> None:
    assert parse_settings("", tmp_path).games["pebbles"] == PebblesSettings()
    settings = parse_settings("[pebbles]\nheap = 2\nquick = on\n", tmp_path)
    assert settings.game_settings("pebbles", PebblesSettings) == PebblesSettings(heap=2,
                                                                                  quick=True)
    with pytest.raises(TypeError, match=r"\[pebbles\] is read as PebblesSettings"):
        settings.game_settings("pebbles", gamelist.MariantSettings)
    # the built-in games keep their sections
    assert settings.game_settings("mariant", gamelist.MariantSettings).face_down == 2
    cases = [("[pebbles]\nheap = 12\n", ":2: [pebbles] heap: expected a whole number 1–9, "
                                         "got '12'"),
             ("[pebbles]\nheep = 2\n", ":2: [pebbles] heep: unknown key (expected one of heap, "
                                        "quick)"),
             ("[pebbles]\nquick = on\n\nheap = 7\n", ":2: [pebbles] quick: expected heap ≤ 3 "
                                                     "with quick on")]
    for text, expected in cases:
        with pytest.raises(ConfigError) as error:
            parse_settings(text, tmp_path)
        assert str(error.value) == f"sysop.ini{expected}"
    menu = parse_settings("[menu]\npebbles = 7 | Stones | on\nquit = Q | Quit | on\n", tmp_path)
    entry = menu.menu[0]
    assert (entry.action, entry.key, entry.label) == ("pebbles", "7", "Stones")


@pytest.fixture
async def door_with_pebbles(pebbles: GameInfo, door_home: Path) -> AsyncIterator[int]:
    """A telnet door with a store, on the repository's sysop.ini left as it is (its [menu]
    lists the four games: the sysop adds the new one's line, as docs/adding-a-game.md says)."""
    from door.net.telnet import start_telnet
    from door.serve.server import NodeTable, session_runner
    from door.store.visit import open_store

    ini = door_home / "sysop.ini"
    ini.write_text(ini.read_text(encoding="utf-8").replace(
        "quit = Q |", "pebbles = P | Pebbles (a toy) | on\nquit = Q |"), encoding="utf-8")
    (door_home / "ansi" / "pebbles.ins").write_text(
        "@E@Pebbles@N@\r\n\r\n@B@Take them all, one by one.@N@\r\n", encoding="cp437")
    settings = load_settings(door_home)
    store = await open_store(settings)
    assert store is not None
    server = await start_telnet("127.0.0.1", 0, session_runner(
        settings, NodeTable(settings.server.max_nodes), store))
    assert server.sockets
    yield server.sockets[0].getsockname()[1]
    server.close()
    await server.wait_closed()
    await store.close()


async def test_menu_play_hall_of_fame_and_instructions(door_with_pebbles: int) -> None:
    caller = await TelnetCaller.at_menu(door_with_pebbles)
    assert caller.term.find("[P]  Pebbles (a toy)")
    caller.send("p")
    await caller.wait_for("Game number:")
    caller.send("4\r")                      # deal 4: a pile of 4 % 5 + 3 = 7
    await caller.wait_for("Pebbles left: 7")
    caller.send("t" * 7)
    await caller.wait_for("Final score: 7")
    caller.send("m")
    await caller.wait_for("Your choice")

    caller.send("h")
    await caller.wait_for("5 Pebbles")
    assert "1-5 game · # deal" in caller.term.text
    caller.send("5")
    await caller.wait_for("Pebble Parade")
    assert "won games only, fewest points first" in caller.term.text
    await caller.wait_for("Guest")
    assert "#4" in caller.term.text
    caller.send("\x1b")
    await caller.wait_for("Your choice")

    caller.send("i")
    await caller.wait_for("Read about")
    assert caller.term.find("[5]  Pebbles")
    caller.send("5")
    await caller.wait_for("Take them all, one by one.")
    assert "Pebbles: how to play" in caller.term.text
    caller.close()


# -- the built-in records --------------------------------------------------------------------

@pytest.mark.parametrize("info", gamelist.games(), ids=gamelist.names())
def test_builtin_record_agrees_with_the_door(info: GameInfo) -> None:
    engine = info.engine_class()
    assert engine.name == info.name and engine.__module__.startswith("door.games.")
    assert info.screen.startswith("door.ui.") and info.engine.startswith("door.games.")
    screen = info.screen_class()
    assert issubclass(screen, GameScreen) and screen.info is info
    assert (REPO / "ansi" / info.instructions_file).is_file()
    assert (REPO / "door" / "defaults" / "ansi" / info.instructions_file).is_file()
    if info.solver is not None:                       # its solver module answers both
        module = info.solver.load()
        assert callable(module.solve) and callable(module.best_line)
    ini = (REPO / "door" / "defaults" / "sysop.ini").read_text(encoding="utf-8")
    assert f"\n{info.name} = {info.menu_key} | {info.label} | on\n" in ini
    assert info.settings is type(parse_settings("", REPO).games[info.name])
    if info.options:
        assert f"\n[{info.name}]\n" in ini


GAME_MODULE = re.compile(
    r"door/(games/(?P<game>[a-z]+)(_[a-z_]+)?|ui/(?P<screens>[a-z]+)/\w+)\.py$")


def test_outside_its_own_modules_only_the_registry_names_a_game() -> None:
    """The code of door/ (comments and docstrings aside: its names and its strings) names a
    game -- its registry name or its title -- only in door/catalog/registry.py and in the
    game's own modules (door/games/<name>*.py, door/ui/<name>/); and door/compiled.py, the
    build's list of the modules mypyc compiles (setup.py reads it before anything of the
    door can be imported, so it cannot ask the registry)."""
    words = {w for info in gamelist.games() for w in (info.name, info.title)}
    pattern = re.compile("|".join(re.escape(w) for w in sorted(words)), re.IGNORECASE)
    found = []
    for path in sorted((REPO / "door").rglob("*.py")):
        rel = path.relative_to(REPO).as_posix()
        own = GAME_MODULE.match(rel)
        if rel in ("door/catalog/registry.py", "door/compiled.py") or (
                own and (own["game"] or own["screens"]) in gamelist.names()):
            continue
        found += [f"{rel}:{line}: {word}" for line, word in
                  _code_words(path.read_text(encoding="utf-8")) if pattern.search(word)]
    assert found == []


def _code_words(source: str) -> list[tuple[int, str]]:
    """The source's names and string constants, with their lines: all but its comments and
    docstrings (a string standing alone as a statement)."""
    tree = ast.parse(source)
    docs = {id(node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}
    words: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in docs:
            words.append((line, node.value))
        elif isinstance(node, ast.Name):
            words.append((line, node.id))
        elif isinstance(node, ast.Attribute):
            words.append((line, node.attr))
        elif isinstance(node, ast.ImportFrom):
            words += [(line, node.module or ""), *((line, a.name) for a in node.names)]
        elif isinstance(node, ast.Import):
            words += [(line, a.name) for a in node.names]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            words.append((line, node.name))
        elif isinstance(node, ast.arg):
            words.append((line, node.arg))
    return words


def test_a_process_registers_the_games_reussite_game_modules_names() -> None:
    """A process the door starts knows a game kept elsewhere (the toy game), and one told
    of a module that is not there says so in one line and offers the others."""
    import os
    import subprocess
    import sys

    from waiting import WAIT

    def names(modules: str) -> subprocess.CompletedProcess[str]:
        env = dict(os.environ, PYTHONPATH=str(REPO / "tests"))
        env[gamelist.PLUGINS] = modules
        return subprocess.run([sys.executable, "-c",
                               "from door.catalog import registry as gamelist; "
                               "print(' '.join(gamelist.names()))"], env=env, cwd=REPO,
                              capture_output=True, text=True, timeout=2 * WAIT)

    found = names("toygame.plugin")
    assert found.stdout.split() == [*gamelist.names(), "toy"] and found.stderr == ""
    missing = names("toygame.nothing_here")
    assert missing.stdout.split() == list(gamelist.names())
    assert missing.stderr == (f"{gamelist.PLUGINS}: cannot import 'toygame.nothing_here' "
                              "(No module named 'toygame.nothing_here'): its games are not "
                              "offered\n")
