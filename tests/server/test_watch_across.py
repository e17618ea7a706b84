"""Watching across processes: ``reussite serve --workers 2`` on SQLite and on PostgreSQL, a
player in one worker and a watcher in the other.  The watcher's list shows the game, the
player's move appears on the watcher's screen, the player's status line counts the watcher,
a refusing player's would-be watcher is told why, and the end of the game reaches them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pghelp import BACKENDS, drop_database, new_database_url
from serverhelp import configure, open_game, signup, to_menu
from test_watch import score_shown, wait_score
from waiting import WAIT
from workerhelp import one_per_worker, serving

from door.games.montecarlo import MonteCarlo


@pytest.fixture(params=BACKENDS)
def shared_home(request: pytest.FixtureRequest, door_home: Path, tmp_path: Path
                ) -> Iterator[Path]:
    """A door home whose database is the data/ SQLite file, or a fresh PostgreSQL one."""
    url, pg_name = new_database_url(request.param, tmp_path)
    if pg_name:
        configure(door_home, url=url)
    yield door_home
    drop_database(pg_name)


async def test_a_watcher_in_one_worker_follows_a_game_in_the_other(shared_home: Path
                                                                   ) -> None:
    async with serving(shared_home) as (_, port):
        callers = await one_per_worker(shared_home, port)
        ann, ben = callers[1], callers[2]
        for caller, handle in ((ann, "Ann"), (ben, "Ben")):
            await signup(caller, handle, f"{handle.lower()}-pass", timeout=WAIT)
            await to_menu(caller, timeout=WAIT)
        await open_game(ann, "c", 42)

        ben.send("v")
        await ben.wait_for("Monte Carlo #42", timeout=WAIT)  # listed from the other worker
        assert "Ann" in ben.term.text
        ben.send("1")
        await ben.wait_for("Watching Ann · Monte Carlo #42 · Score 0 · 1 watching · Q leaves",
                           timeout=WAIT)
        assert ben.term.lines[0].rstrip().endswith("Monte Carlo #42")
        assert score_shown(ben.term.text) == 0

        game = MonteCarlo.new(42)
        move = game.legal_moves()[0]
        game.play(move)
        ann.send(move)
        await ann.wait_for(f"Score {game.score}", timeout=WAIT)
        assert "1 watching" in ann.term.lines[23]  # counted through the store
        await wait_score(ben, game.score, timeout=WAIT)  # the move, drawn for Ben

        ann.send("q")
        await ann.wait_for("Leave this game?", timeout=WAIT)
        ann.send("y")
        await ben.wait_for("Ann has left this game", timeout=WAIT)
        ben.send(" ")
        await ben.wait_for("Nobody is playing right now", timeout=WAIT)

        ann.send("s")  # Ann refuses to be watched: Ben is told why, from the other worker
        await ann.wait_for("Others may watch my games: yes", timeout=WAIT)
        ann.send("w")
        await ann.wait_for("Others may watch my games: no", timeout=WAIT)
        ann.send("q")
        await ann.wait_for("Your choice", timeout=WAIT)
        ann.send("c")
        await ann.wait_for("Resume your Monte Carlo game #42?", timeout=WAIT)
        ann.send("n")
        await ann.wait_for("Game number:", timeout=WAIT)
        ann.send("7\r")
        await ann.wait_for("Monte Carlo #7", timeout=WAIT)
        await ben.wait_for("(not watchable)", timeout=WAIT)
        ben.send("1")
        await ben.wait_for("Ann prefers not to be watched", timeout=WAIT)
        for caller in (ann, ben):
            caller.close()
