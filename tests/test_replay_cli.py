"""``reussite replay``: records replay to the same score; positions take moves; bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from waiting import WAIT

from door.games import engine

GAMES = ["mariant", "montecarlo", "auntmary", "anciento"]


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


@pytest.mark.parametrize("name", GAMES)
def test_record_replays_to_the_same_score(name: str, tmp_path: Path) -> None:
    game = _played(name, 4242, 12)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(game.record().to_json()), encoding="utf-8")
    result = _replay(str(path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert (out["game"], out["number"]) == (name, 4242)
    assert out["score"] == game.score and out["status"] == str(game.status)
    assert out["state"] == game.to_json()


@pytest.mark.parametrize("name", GAMES)
def test_position_takes_moves_and_refuses_with_reason(name: str, tmp_path: Path) -> None:
    game = _played(name, 77, 3)
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
    ('{"game": "montecarlo", "number": "x"}', "not a valid record"),
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
