"""Shared fixtures: a door home in a temporary folder, a telnet door on an ephemeral port,
and the games: ``every_game`` runs a test once per game -- each record of the registry, and
the toy fifth game kept in the test tree (tests/toygame/), registered for that run."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from toygame.record import TOY

from door.catalog import registry as gamelist
from door.catalog.record import GameInfo
from door.config import Settings, load_settings
from door.store import Store

REPO = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent

EVERY_GAME = (*gamelist.names(), TOY.name)
"""Every game a per-game test runs for: the registry's records and the toy game."""
SLOW_FOLDERS = {Path(__file__).parent / "server"}
"""Folders whose every test is ``slow`` (a whole door server each): the marker says so once
here; elsewhere a module or test carries ``pytest.mark.slow`` itself."""


@pytest.fixture
def door_home(tmp_path: Path) -> Path:
    """A fresh door home: the repository's sysop.ini, an empty ansi/ and data/."""
    shutil.copy(REPO / "sysop.ini", tmp_path / "sysop.ini")
    (tmp_path / "ansi").mkdir()
    (tmp_path / "data").mkdir()
    return tmp_path


@pytest.fixture
def settings(door_home: Path) -> Settings:
    return load_settings(door_home)


@pytest.fixture
async def sqlite_store(tmp_path: Path) -> AsyncIterator[Store]:
    """A started store on a SQLite file in tmp_path, closed after the test (the store's own
    tests run on PostgreSQL too: tests/store/conftest.py)."""
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'scores.db'}")
    assert await store.start()
    yield store
    await store.close()


@pytest.fixture
def toy_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[GameInfo]:
    """Toy Patience registered for the test: in this process, and (through
    ``REUSSITE_GAME_MODULES`` and ``PYTHONPATH``) in every process the door starts."""
    monkeypatch.setenv(gamelist.PLUGINS, "toygame.plugin")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(TESTS), *filter(None, [os.environ.get("PYTHONPATH")])]))
    with gamelist.registered(TOY) as info:
        yield info


@pytest.fixture(params=EVERY_GAME)
def every_game(request: pytest.FixtureRequest) -> GameInfo:
    """Each game in turn (the toy one registered for its run)."""
    if request.param == TOY.name:
        request.getfixturevalue("toy_game")
    return gamelist.game(request.param)


@pytest.fixture
async def telnet_server():
    """``start(run)`` → port of a telnet server on 127.0.0.1 (port chosen by the OS) that
    hands each caller's terminal to ``run``; every one started is closed after the test."""
    from door.net.telnet import start_telnet

    servers = []

    async def start(run) -> int:
        server = await start_telnet("127.0.0.1", 0, run)
        servers.append(server)
        return server.sockets[0].getsockname()[1]

    yield start
    for server in servers:
        server.close()
        await server.wait_closed()


@pytest.fixture
def telnet_door(door_home: Path, telnet_server):
    """Start a telnet door for ``door_home`` on 127.0.0.1, port chosen by the OS.

    A function ``start()`` → port that (re)reads sysop.ini, so a test can edit the file and
    start another door on it.
    """
    from door.serve.server import NodeTable, session_runner

    async def start() -> int:
        settings = load_settings(door_home)
        return await telnet_server(session_runner(settings,
                                                  NodeTable(settings.server.max_nodes)))

    return start


@pytest.fixture(autouse=True)
async def _solver_workers_stopped():
    """Each test's event loop has its own solver pool (door.solvers.pool): kill its workers
    before the loop closes."""
    yield
    from door.solvers.pool import close_solver_pool

    await close_solver_pool()


TEST_TIMEOUT_S = 120
"""setup.cfg's pytest-timeout for one test on a quiet machine: scaled here like the tests'
own waits (tests/waiting.py), so a loaded machine does not end a test that is only slow."""


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by the markers added here
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    from waiting import SCALE

    for item in items:
        if SLOW_FOLDERS & set(item.path.parents):
            item.add_marker(pytest.mark.slow)
        marker = item.get_closest_marker("timeout")
        seconds = marker.args[0] if marker is not None and marker.args else TEST_TIMEOUT_S
        item.add_marker(pytest.mark.timeout(seconds * SCALE), append=False)
