"""``reussite sysop bulletin daily``: a day's challenges with their best first attempts, the
month's standings and the streaks, as ansi / text / ascii / json (the day given with
--date; the old names ans and asc still work)."""

from __future__ import annotations

import asyncio
import json
import re
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from storehelp import played_game

from door.catalog.registry import daily_deal, daily_games
from door.cli import main
from door.config import load_settings
from door.store.visit import open_store

DAY = date(2031, 5, 17)


def seed(home: Path) -> tuple[int, int]:
    """Ann plays Monte Carlo's challenge on DAY-1 and DAY; Bob on DAY only."""
    async def run() -> tuple[int, int]:
        store = await open_store(load_settings(home))
        try:
            scores = []
            for alias, days, moves in (("Ann", (DAY - timedelta(days=1), DAY), 6),
                                       ("Bob", (DAY,), 2)):
                player = await store.players.player("direct", alias.lower(), alias)
                for day in days:
                    game = played_game("montecarlo", daily_deal(day, "montecarlo").number,
                                       moves)
                    at = datetime.combine(day, datetime.min.time(), UTC) + timedelta(hours=9)
                    await store.scores.finish_game(player.id, game.record(), game.score,
                                                   str(game.status), False, at, at, daily_day=day)
                scores.append(game.score)
            return scores[0], scores[1]
        finally:
            await store.close()
    return asyncio.run(run())


def sysop(home: Path, *args: str) -> int:
    return main(["--home", str(home), "--log-level", "error", "sysop", *args])


@pytest.mark.slow
def test_daily_bulletin_in_three_formats(door_home: Path, tmp_path: Path,
                                         capsysbinary: pytest.CaptureFixture) -> None:
    ann, bob = seed(door_home)
    assert ann > bob
    out = tmp_path / "daily.ans"
    assert sysop(door_home, "bulletin", "daily", "--date", "2031-05-17", "-o", str(out)) == 0
    assert b"daily challenge of 2031-05-17 (ansi) written to" in capsysbinary.readouterr().err
    lines = [re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", line)
             for line in out.read_bytes().decode("cp437").split("\r\n")]
    assert "  Réussite · Daily challenge, Saturday 17 May 2031" in lines
    assert f"  Monte Carlo #{daily_deal(DAY, 'montecarlo').number}: 2 players" in lines
    places = [line.split()[:3] for line in lines if re.match(r"\s+\d\.\s+(Ann|Bob)\s+\d", line)]
    assert places[:2] == [["1.", "Ann", str(ann)], ["2.", "Bob", str(bob)]]
    assert "        May, won/played: Ann 0/2 · Bob 0/1" in lines
    streak = next(line for line in lines if re.match(r"\s+1\.\s+Ann\s+2 \(2\)", line))
    assert streak.endswith("2 (2) / 0 (0)")
    assert max(len(line) for line in lines) <= 79

    assert sysop(door_home, "bulletin", "daily", "--date", "2031-05-17", "--format",
                 "json") == 0
    data = json.loads(capsysbinary.readouterr().out.decode("utf-8"))
    assert data["date"] == "2031-05-17" and data["resets"] == "00:00 UTC"
    assert [g["game"] for g in data["games"]] == list(daily_games())
    mc = next(g for g in data["games"] if g["game"] == "montecarlo")
    assert [(e["rank"], e["player"], e["score"]) for e in mc["today"]] == [
        (1, "Ann", ann), (2, "Bob", bob)]
    assert data["streaks"][0] == {"player": "Ann", "played": 2, "played_best": 2, "won": 0,
                                  "won_best": 0}

    assert sysop(door_home, "bulletin", "daily", "--date", "2031-06-30", "--format",
                 "asc") == 0                           # the old name of ascii
    asc = capsysbinary.readouterr().out
    assert asc.isascii() and b"\x1b" not in asc
    assert b"  Reussite . Daily challenge, Monday 30 June 2031\r\n" in asc
    assert asc.count(b"Not open yet: nobody can play it before that day.") == 4  # the future
    ann_line = next(line for line in asc.decode().splitlines() if "Ann" in line)
    assert ann_line.endswith("0 (2) / 0 (0)")         # broken long before; her best stays

    assert sysop(door_home, "bulletin", "daily", "--date", "2031-05-17", "--format",
                 "text") == 0
    text = capsysbinary.readouterr().out.decode("utf-8")
    assert "\x1b" not in text and "  Réussite · Daily challenge, Saturday 17 May 2031\r\n" in text
    assert "        May, won/played: Ann 0/2 · Bob 0/1\r\n" in text


def test_a_bad_date_is_one_line(door_home: Path, capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit) as caught:
        sysop(door_home, "bulletin", "daily", "--date", "17/05/2031")
    assert caught.value.code == 2
    assert "expected a date such as 2026-12-01" in capsys.readouterr().err


def test_a_past_day_is_not_called_today(door_home: Path,
                                        capsysbinary: pytest.CaptureFixture) -> None:
    """A day gone by that nobody played says so; "today" is for today only (UTC)."""
    assert sysop(door_home, "bulletin", "daily", "--date", "2020-02-29", "--format",
                 "text") == 0
    text = capsysbinary.readouterr().out.decode("utf-8")
    assert text.count("Nobody played it that day.") == 4 and "today" not in text.lower()
    assert sysop(door_home, "bulletin", "daily", "--format", "text") == 0
    text = capsysbinary.readouterr().out.decode("utf-8")
    assert text.count("Nobody has played it yet today.") == 4
