"""The packet-file path, as boards linked by mail use it: ``reussite league export`` on each
board, the files moved by hand (here: by the test), ``reussite league import`` on the
others — the same ladders everywhere, a packet imported twice or out of order changes
nothing, and a forged or broken packet is refused with one line."""

from __future__ import annotations

import gzip
import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from leaguehelp import daily_game, league_home, signed

from door import cli
from door.catalog.registry import daily_games
from door.league.keys import BoardKey
from door.store import Store

REPO = Path(__file__).resolve().parents[2]


def new_home(root: Path, name: str) -> Path:
    home = root / name
    (home / "ansi").mkdir(parents=True)
    (home / "data").mkdir()
    shutil.copy(REPO / "sysop.ini", home / "sysop.ini")
    return league_home(home, name)


def reussite(*argv: str) -> int:
    return cli.main(list(argv))


async def play_the_day(home: Path, handle: str, pick: int) -> None:
    from door.config import load_settings

    day = datetime.now(UTC).date()
    store = Store.from_settings(load_settings(home))
    await store.start()
    try:
        player = await store.players.player("direct", handle.lower(), handle)
        for i, game in enumerate(daily_games()):
            played = daily_game(game, day, moves=10 + 7 * pick + i, pick=pick)
            now = datetime.now(UTC)
            await store.scores.finish_game(player.id, played.record(), played.score,
                                           str(played.status), False, now, now, daily_day=day)
    finally:
        await store.close()


def ladder_bulletin(home: Path) -> dict:
    out = home / "league.json"
    assert reussite("sysop", "bulletin", "league", "--format", "json", "-o", str(out),
                    "--home", str(home)) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    return {g["game"]: [(e["board"], e["player"], e["score"]) for e in g["entries"]]
            for g in data["games"]}


def key_of(home: Path) -> str:
    return BoardKey.load_or_create(home / "data").public


@pytest.mark.slow
def test_boards_that_only_exchange_files(tmp_path: Path, capsys) -> None:
    import asyncio

    homes = {name: new_home(tmp_path, name) for name in ("North", "South", "East")}
    for name, home in homes.items():
        for other, other_home in homes.items():
            if other != name:
                assert reussite("league", "add", other, key_of(other_home),
                                "--home", str(home)) == 0
    for pick, home in enumerate(homes.values()):
        asyncio.run(play_the_day(home, f"Mailer{pick}", pick))
    mail = tmp_path / "outbound"
    mail.mkdir()
    for name, home in homes.items():
        suffix = ".json.gz" if name == "South" else ".json"
        assert reussite("league", "export", str(mail / f"{name}{suffix}"),
                        "--home", str(home)) == 0
    capsys.readouterr()
    for name, home in homes.items():
        packets = sorted(str(p) for p in mail.iterdir() if not p.name.startswith(name))
        assert reussite("league", "import", *packets, "--home", str(home)) == 0
        lines = capsys.readouterr().out.splitlines()
        assert all(", 0 refused" not in line and "4 new" in line for line in lines), lines
    ladders = [ladder_bulletin(home) for home in homes.values()]
    assert all(len(ladders[0][g]) == 3 for g in daily_games())
    assert ladders[0] == ladders[1] == ladders[2]
    # The same packets again, in another order: nothing new.
    packets = sorted((str(p) for p in mail.iterdir()), reverse=True)
    assert reussite("league", "import", *packets, "--home", str(homes["North"])) == 0
    out = capsys.readouterr().out
    assert "0 new" in out and " new" in out
    assert ladder_bulletin(homes["North"]) == ladders[0]


def test_forged_and_broken_packets_are_refused(tmp_path: Path, capsys) -> None:
    north, south = new_home(tmp_path, "North"), new_home(tmp_path, "South")
    assert reussite("league", "add", "South", key_of(south), "--home", str(north)) == 0
    day = datetime.now(UTC).date()
    played = daily_game("montecarlo", day, moves=9)
    south_key = BoardKey.load_or_create(south / "data")
    now = datetime.now(UTC).replace(microsecond=0)
    honest = signed(south_key, "South", "Sam", played, day=day, finished=now).to_json()
    lie = dict(honest, score=honest["score"] + 100)
    stranger = signed(BoardKey.generate(), "Nowhere", "X", played, day=day,
                      finished=now).to_json()
    packet = tmp_path / "mixed.json"
    packet.write_text(json.dumps({"format": "reussite-league-packet/1", "from": "South",
                                  "results": [honest, lie, stranger, {"junk": 1}]}))
    assert reussite("league", "import", str(packet), "--home", str(north)) == 0
    out = capsys.readouterr().out
    assert "1 new, 0 already here, 3 refused" in out
    broken = tmp_path / "broken.json.gz"
    broken.write_bytes(gzip.compress(b"{not json")[:-4])
    (tmp_path / "other.json").write_text('{"format": "something else", "results": []}')
    (tmp_path / "huge.json").write_text('{"results": [' + "9" * 5000 + "]}")
    for name in ("broken.json.gz", "other.json", "huge.json", "missing.json"):
        assert reussite("league", "import", str(tmp_path / name), "--home", str(north)) == 1
        err = capsys.readouterr().err
        assert err.startswith("reussite: ") and err.count("\n") == 1, err
        assert "Traceback" not in err


@pytest.mark.parametrize("argv,message", [
    (["add", "Bad\x1bName", "AAAA"], "board name"),
    (["add", "Fine", "not-a-key"], "public key"),
    (["add", "Fine", "%KEY%", "--url", "ftp://x"], "http"),
    (["drop", "Nobody"], "no board named"),
    (["join", "http://127.0.0.1:1", "--code", "whatever1"], "could not join"),
])
def test_the_sysop_commands_refuse_in_one_line(tmp_path: Path, capsys, argv: list[str],
                                               message: str) -> None:
    home = new_home(tmp_path, "Home")
    argv = [a.replace("%KEY%", BoardKey.generate().public) for a in argv]
    assert reussite("league", *argv, "--home", str(home)) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_show_prints_what_to_give_another_sysop(tmp_path: Path, capsys) -> None:
    home = new_home(tmp_path, "Home")
    assert reussite("league", "show", "--home", str(home)) == 0
    out = capsys.readouterr().out
    assert key_of(home) in out and "reussite league add 'Home'" in out
