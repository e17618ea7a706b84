"""Member boards in the store and the sysop's tools: players of each board apart, the hall
of fame showing handle@TAG, ``reussite sysop boards`` and ``reussite sysop bulletin``."""

from __future__ import annotations

import asyncio
import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from homehelp import configure
from storehelp import insert_game

from door.cli import main
from door.store import Store

DAY = datetime(2026, 3, 1, tzinfo=UTC)


async def board_players(store: Store) -> dict[str, int]:
    """Pat of two boards, a direct Pat, and a BBS dropfile caller: four players."""
    ids = {}
    for source, user, alias in (("board:XA", "pat", "Pat@XA"), ("board:YB", "pat", "Pat@YB"),
                                ("direct", "pat", "Pat"), ("bbs", "12", "Dexter")):
        ids[alias] = (await store.players.player(source, user, alias)).id
    return ids


async def test_each_boards_players_and_their_hall_of_fame(store: Store) -> None:
    ids = await board_players(store)
    assert len(set(ids.values())) == 4
    await insert_game(store, ids["Pat@XA"], "montecarlo", 30, number=7, ended=DAY)
    await insert_game(store, ids["Pat@YB"], "montecarlo", 50, number=8, ended=DAY)
    await insert_game(store, ids["Pat"], "montecarlo", 40, number=9,
                      ended=DAY - timedelta(days=1))
    top = await store.scores.top("montecarlo")
    assert [(e.rank, e.alias, e.source) for e in top] == [
        (1, "Pat@YB", "board:YB"), (2, "Pat", "direct"), (3, "Pat@XA", "board:XA")]
    only_xa = await store.scores.top("montecarlo", source="board:XA")
    assert [(e.rank, e.alias, e.score) for e in only_xa] == [(1, "Pat@XA", 30)]
    await store.online.heartbeat(3, ids["Pat@XA"], "Monte Carlo")
    seen = await store.online.activity_by_source(DAY - timedelta(hours=1))
    assert (seen["board:XA"].players, seen["board:XA"].games, seen["board:XA"].online) == \
        (1, 1, 1)
    assert (seen["board:YB"].players, seen["board:YB"].games, seen["board:YB"].online) == \
        (1, 1, 0)
    assert seen["direct"].games == 0 and seen["bbs"].players == 1


async def test_a_message_to_handle_at_tag_reaches_that_boards_player(store: Store) -> None:
    ids = await board_players(store)
    await store.messages.send(ids["Dexter"], "pat@yb", "hi", "hello Pat of YB")
    assert [m.subject for m in await store.messages.inbox(ids["Pat@YB"])] == ["hi"]
    assert await store.messages.inbox(ids["Pat@XA"]) == []
    assert await store.messages.inbox(ids["Pat"]) == []


@pytest.fixture
def hub_home(door_home: Path) -> Path:
    configure(door_home, rlogin_port=2513)
    path = door_home / "sysop.ini"
    text = path.read_text(encoding="utf-8")
    example = next(line for line in text.splitlines() if line.startswith(";XA = "))
    path.write_text(text.replace(example, "XA = s3cret-xa | 203.0.113.7 | Xanadu BBS\n"
                                          "YB = s3cret-yb | 198.51.100.0/24"),
                    encoding="utf-8")
    return door_home


def seed_home(home: Path) -> None:
    async def seed() -> None:
        from door.config import load_settings

        store = Store.from_settings(load_settings(home))
        assert await store.start()
        ids = await board_players(store)
        now = datetime.now(UTC)
        await insert_game(store, ids["Pat@XA"], "montecarlo", 30, number=7, ended=now)
        await insert_game(store, ids["Pat@YB"], "montecarlo", 50, number=8, ended=now)
        await insert_game(store, ids["Pat@YB"], "montecarlo", 20, number=9,
                          ended=now - timedelta(days=3))
        await store.players.player("board:ZZ", "old", "Old@ZZ")  # a board since removed
        await store.close()
    asyncio.run(seed())


def sysop(home: Path, *args: str) -> int:
    return main(["--home", str(home), "--log-level", "error", "sysop", *args])


def test_sysop_boards(hub_home: Path, capsys: pytest.CaptureFixture) -> None:
    seed_home(hub_home)
    assert sysop(hub_home, "boards") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "RLogin: port 2513 ([server] rlogin_port)"
    rows = {line.split()[0]: line.split() for line in out[2:-1]}
    assert rows["XA"][1:6] == ["Xanadu", "BBS", "1", "0", "1"] and rows["XA"][-1] == \
        "203.0.113.7"
    assert rows["YB"][1:4] == ["1", "0", "1"] and rows["YB"][-1] == "198.51.100.0/24"
    assert "(no longer in [boards])" in " ".join(rows["ZZ"])
    assert out[-1].startswith("3 boards; games today: since ")


def test_sysop_boards_without_any(door_home: Path, capsys: pytest.CaptureFixture) -> None:
    assert sysop(door_home, "boards") == 0
    assert capsys.readouterr().out.splitlines() == [
        "RLogin: off ([server] rlogin_port)",
        "No member boards: add them to [boards] in sysop.ini."]


def test_bulletin_ans_asc_json(hub_home: Path, tmp_path: Path,
                               capsysbinary: pytest.CaptureFixture) -> None:
    seed_home(hub_home)
    ans = tmp_path / "mc.ans"
    assert sysop(hub_home, "bulletin", "montecarlo", "--output", str(ans)) == 0
    assert f"written to {ans}".encode() in capsysbinary.readouterr().err
    data = ans.read_bytes()
    assert data.startswith(b"\x1b[0m\x1b[2J\x1b[H") and data.endswith(b"\x1b[0m\r\n")
    lines = [re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", line)
             for line in data.decode("cp437").split("\r\n")]
    assert "  Réussite · Monte Carlo: Hall of Fame" in lines
    places = [line.split()[:3] for line in lines if "#" in line and "Pat" in line]
    assert places == [["1.", "Pat@YB", "50"], ["2.", "Pat@XA", "30"], ["3.", "Pat@YB", "20"]]
    assert max(len(line) for line in lines) <= 79

    assert sysop(hub_home, "bulletin", "montecarlo", "--format", "asc", "--board", "yb") == 0
    asc = capsysbinary.readouterr().out.decode("ascii")   # the old name of ascii
    assert "\x1b" not in asc and "  Reussite . Monte Carlo: Hall of Fame (YB)\r\n" in asc
    assert "Pat@XA" not in asc and asc.count("Pat@YB") == 2

    assert sysop(hub_home, "bulletin", "montecarlo", "--format", "text") == 0
    text = capsysbinary.readouterr().out.decode("utf-8")
    assert "\x1b" not in text and "  Réussite · Monte Carlo: Hall of Fame\r\n" in text
    assert "  " + "─" * 70 + "\r\n" in text and text.count("Pat@") == 3

    assert sysop(hub_home, "bulletin", "montecarlo", "--format", "ans", "-o",
                 str(tmp_path / "old.ans")) == 0          # the old name of ansi
    def undated(data: bytes) -> bytes:  # the "Updated" minute may turn between the two
        return re.sub(rb"Updated [0-9: -]+ UTC", b"", data)
    assert undated((tmp_path / "old.ans").read_bytes()) == undated(ans.read_bytes())

    assert sysop(hub_home, "bulletin", "montecarlo", "--format", "json", "--limit", "2") == 0
    data = json.loads(capsysbinary.readouterr().out.decode("utf-8"))
    assert [(e["rank"], e["player"], e["board"], e["score"]) for e in data["entries"]] == [
        (1, "Pat@YB", "YB", 50), (2, "Pat@XA", "XA", 30)]
    assert data["game"] == "montecarlo" and data["door"] == "Réussite"


def test_bulletin_mistakes_are_one_line(hub_home: Path, tmp_path: Path,
                                         capsys: pytest.CaptureFixture) -> None:
    assert sysop(hub_home, "bulletin", "montecarlo", "--board", "QQ") == 2
    assert "--board QQ: no such board in [boards]" in capsys.readouterr().err
    assert sysop(hub_home, "bulletin", "montecarlo", "-o",
                 str(tmp_path / "nowhere" / "x.ans")) == 2
    assert "cannot write" in capsys.readouterr().err
