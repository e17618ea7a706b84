"""``reussite replay``: records replay to the same score; positions take moves; bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from waiting import WAIT

from door.catalog.record import GameInfo
from door.catalog.registry import engine

pytestmark = pytest.mark.slow  # each test runs `reussite` as a process


def _replay(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "door", "replay", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=2 * WAIT)


def _played(name: str, number: int, moves: int):
    game = engine(name).new(number)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(legal[len(legal) // 2])
    return game


def test_record_replays_to_the_same_score(every_game: GameInfo, tmp_path: Path) -> None:
    name = every_game.name
    game = _played(name, 4242, 12)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(game.record().to_json()), encoding="utf-8")
    result = _replay(str(path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert (out["game"], out["number"]) == (name, 4242)
    assert out["score"] == game.score and out["status"] == str(game.status)
    assert out["state"] == game.to_json()


def test_position_takes_moves_and_refuses_with_reason(every_game: GameInfo,
                                                      tmp_path: Path) -> None:
    game = _played(every_game.name, 77, 3)
    path = tmp_path / "state.json"
    path.write_text(json.dumps(game.to_json()), encoding="utf-8")
    move = game.legal_moves()[0]
    result = _replay("--position", str(path), "--moves", move, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    game.play(move)
    assert json.loads(result.stdout)["state"] == game.to_json()
    refused = _replay("--position", str(path), "--moves", f"{move} zz9>q", cwd=tmp_path)
    assert refused.returncode == 1
    assert refused.stderr.startswith("reussite replay: action 2 (zz9>q) refused: ")
    assert refused.stdout == ""


@pytest.mark.parametrize(("content", "expected"), [
    ("not json", "not JSON"),
    ("[1, 2]", "expected a JSON object"),
    ('{"game": "chess", "number": 1}', "unknown game 'chess'"),
    ('{"number": 1}', 'no "game" field'),
    ('{"game": "montecarlo", "number": "x", "actions": []}', "not a valid record"),
    ('{"game": "montecarlo", "number": 1}', 'no "actions" list: not a game record'),
])
def test_bad_files_one_line_exit_2(content: str, expected: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    result = _replay(str(path), cwd=tmp_path)
    assert result.returncode == 2
    assert expected in result.stderr and result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr


def test_refused_action_in_record_exits_1(tmp_path: Path) -> None:
    record = {"game": "montecarlo", "number": 5, "options": {}, "actions": ["a1e5"]}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = _replay(str(path), cwd=tmp_path)
    assert result.returncode == 1 and "action 1 (a1e5)" in result.stderr


def test_a_solver_answer_is_not_taken_for_a_record(tmp_path: Path) -> None:
    """`reussite solve`'s JSON names the game and the deal but no actions: replaying it would
    show a fresh deal as if it were the game."""
    solved = subprocess.run([sys.executable, "-m", "door", "solve", "montecarlo", "5",
                             "--nodes", "2000"], cwd=tmp_path, capture_output=True, text=True,
                            timeout=60)
    assert solved.returncode == 0, solved.stderr
    path = tmp_path / "solved.json"
    path.write_text(solved.stdout, encoding="utf-8")
    assert {"game", "number", "verdict"} <= json.loads(solved.stdout).keys()
    result = _replay(str(path), cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (f"reussite replay: {path}: a `reussite solve` answer, not a game "
                             'record (its moves are in "line"; a record lists them as '
                             '"actions")\n')


def test_a_reader_that_goes_away_ends_it_quietly(tmp_path: Path) -> None:
    """`reussite replay RECORD.json | head`: head leaves before the JSON is all written; the
    command ends without a word about a broken pipe.  The pipe here is closed from the start,
    so the first write already finds no reader."""
    path = tmp_path / "record.json"
    path.write_text(json.dumps(_played("mariant", 4242, 30).record().to_json()), "utf-8")
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = subprocess.run([sys.executable, "-m", "door", "replay", str(path)],
                                cwd=tmp_path, stdout=write_end, stderr=subprocess.PIPE,
                                text=True, timeout=60)
    finally:
        os.close(write_end)
    assert result.returncode == 0
    assert result.stderr == ""
