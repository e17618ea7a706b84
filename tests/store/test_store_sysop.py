"""``reussite sysop …`` on a door home whose sysop.ini points at SQLite or PostgreSQL."""

from __future__ import annotations

import asyncio
import csv
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from storehelp import played_game
from waiting import WAIT

from door.cli import main
from door.store import Store
from door.store.migrate import head

T0 = datetime(2026, 3, 1, tzinfo=UTC)


@pytest.fixture
def home(door_home: Path, db_url: str) -> Path:
    ini = door_home / "sysop.ini"
    text = ini.read_text(encoding="utf-8")
    assert ";url =" in text
    ini.write_text(text.replace(";url =", f"url = {db_url}"), encoding="utf-8")
    return door_home


async def seed(url: str) -> None:
    store = Store(url)
    assert await store.start()
    ann = await store.players.player("Night Owl BBS", "7", "Ann")
    bob = await store.players.player("direct", "bob", "Bob")
    for player, pick in ((ann, 0), (bob, 1)):
        game = played_game("montecarlo", 31, 6, pick)
        await store.scores.finish_game(player.id, game.record(), game.score, str(game.status),
                                       False, T0, T0)
    await store.messages.send(ann.id, "bob", "hello", "hi Bob")
    await store.close()


def sysop(home: Path, *args: str) -> int:
    return main(["--home", str(home), "--log-level", "error", "sysop", *args])


def test_read_only_chores(home: Path, db_url: str, capsys: pytest.CaptureFixture) -> None:
    assert sysop(home, "migrate") == 0
    assert f"upgraded from revision empty to {head()}" in capsys.readouterr().out
    assert sysop(home, "migrate") == 0
    assert f"is up to date (revision {head()})" in capsys.readouterr().out
    asyncio.run(seed(db_url))
    assert sysop(home, "players") == 0
    out = capsys.readouterr().out
    assert "Ann" in out and "Night Owl BBS" in out and "2 players" in out
    assert sysop(home, "scores", "montecarlo") == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if ". " in line]
    assert len(lines) == 2 and lines[0].lstrip().startswith("1.")
    csv_path = home / "scores.csv"
    assert sysop(home, "export-scores", str(csv_path)) == 0
    rows = list(csv.DictReader(csv_path.open(encoding="utf-8")))
    assert [r["alias"] for r in rows] == ["Ann", "Bob"]
    assert rows[0]["game"] == "montecarlo" and rows[0]["number"] == "31"
    assert sysop(home, "backup") == 0
    backup = Path(capsys.readouterr().out.split("Backup written to ")[1].strip())
    assert backup.is_file() and backup.stat().st_size > 0


def test_who_lists_the_callers_in_the_door(home: Path, db_url: str,
                                           capsys: pytest.CaptureFixture) -> None:
    assert sysop(home, "who") == 0
    assert "Nobody is in the door." in capsys.readouterr().out

    async def two_nodes() -> None:
        store = Store(db_url, host="moon:2323")
        assert await store.start()
        ann = await store.players.player("direct", "ann", "Ann")
        await store.online.heartbeat(1, ann.id, "Playing Aunt Mary")
        await store.online.heartbeat(2, None, "logging in")
        await store.close()

    asyncio.run(two_nodes())
    assert sysop(home, "who") == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    assert rows[0][:4] == ["server", "node", "handle", "doing"]
    assert rows[1][:6] == ["moon:2323", "1", "Ann", "Playing", "Aunt", "Mary"]
    assert rows[2][:4] == ["moon:2323", "2", "(logging", "in)"]
    assert rows[3] == ["2", "callers"]


@pytest.mark.slow
def test_destructive_chores_ask_and_back_up(home: Path, db_url: str,
                                            capsys: pytest.CaptureFixture,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    asyncio.run(seed(db_url))
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    assert sysop(home, "reset-scores", "montecarlo") == 2
    assert "add --yes" in capsys.readouterr().err
    assert sysop(home, "delete-player", "nobody", "--yes") == 2
    assert "no player called nobody" in capsys.readouterr().err

    assert sysop(home, "reset-scores", "montecarlo", "--yes") == 0
    out = capsys.readouterr().out
    assert "Backup written to" in out and "2 montecarlo games forgotten" in out
    assert sysop(home, "purge-messages", "--older-than", "0", "--yes") == 0
    assert "1 message deleted" in capsys.readouterr().out
    assert sysop(home, "delete-player", "ANN", "--yes") == 0
    assert "Ann deleted" in capsys.readouterr().out
    assert sysop(home, "players") == 0
    out = capsys.readouterr().out
    assert "Bob" in out and "Ann" not in out
    assert len(list((home / "data" / "backups").iterdir())) == 3


def test_unavailable_database_is_one_line(door_home: Path, capsys) -> None:
    (door_home / "data" / "reussite.db").write_bytes(b"garbage" * 1000)
    assert main(["--home", str(door_home), "sysop", "players"]) == 1
    err = capsys.readouterr().err
    assert err.strip().splitlines()[-1] == ("reussite: scores are unavailable right now: "
                                            "the database file is damaged")
    assert "Traceback" not in err


@pytest.mark.slow
def test_a_chore_says_nothing_on_stderr_at_the_default_log_level(door_home: Path) -> None:
    """Alembic's INFO lines (plugins, "Context impl") are not the sysop's business."""
    done = subprocess.run([sys.executable, "-m", "door", "--home", str(door_home), "sysop",
                           "players"], capture_output=True, text=True, timeout=2 * WAIT)
    assert done.returncode == 0
    assert done.stderr == "" and "No players yet." in done.stdout
