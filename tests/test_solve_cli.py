"""``reussite solve``: one deal as JSON with a replayable line, a range with its interval, a
resumable --out file, and one-line refusals of bad arguments."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from waiting import WAIT

from door.catalog.registry import engine
from door.games import Status
from door.games.solvers import (
    NOT_WINNABLE,
    UNKNOWN,
    WINNABLE,
    SampleEstimate,
    Verdict,
    summarize,
    wilson,
)

pytestmark = pytest.mark.slow  # each test runs `reussite solve` or its worker processes


def _solve(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "door", "solve", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=4 * WAIT)


def test_one_deal_prints_a_verdict_whose_line_wins(tmp_path: Path) -> None:
    result = _solve("montecarlo", "3", "--options", "mode=relaxed", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["game"] == "montecarlo" and out["number"] == 3
    assert out["options"] == {"mode": "relaxed"}
    assert out["verdict"] == "winnable" and out["nodes"] > 0
    game = engine("montecarlo").new(3, mode="relaxed")
    for move in out["line"]:
        game.play(move)
    assert game.status is Status.WON

    lost = json.loads(_solve("auntmary", "2", cwd=tmp_path).stdout)
    assert lost["verdict"] == "not winnable" and "line" not in lost
    unknown = json.loads(_solve("auntmary", "1", "--nodes", "100", cwd=tmp_path).stdout)
    assert unknown["verdict"] == "unknown"


def test_a_range_reports_the_share_and_resumes_from_its_file(tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    first = _solve("montecarlo", "--range", "1-20", "--out", str(out), "--json", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    summary = json.loads(first.stdout)
    assert summary["deals"] == 20 and summary["unknown"] == 0
    assert summary["winnable"] + summary["not_winnable"] == 20
    low, high = summary["ci95"]
    assert low <= summary["winnable_share"] <= high
    assert len(out.read_text().splitlines()) == 20
    again = _solve("montecarlo", "--range", "1-25", "--out", str(out), "--jobs", "2",
                   cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "25 deals:" in again.stdout and "95 % CI" in again.stdout
    assert len(out.read_text().splitlines()) == 25     # the first 20 were not solved again


def test_again_solves_a_sample_of_the_unknown_deals_and_estimates_the_share(
        tmp_path: Path) -> None:
    first, later = tmp_path / "first.jsonl", tmp_path / "later.jsonl"
    ran = _solve("auntmary", "--range", "1-12", "--nodes", "3000", "--out", str(first),
                 cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    before = {v.number: v for v in map(Verdict.from_json,
                                       map(json.loads, first.read_text().splitlines()))}
    unknown = sorted(n for n, v in before.items() if v.verdict == UNKNOWN)
    assert len(unknown) >= 3        # deals the small budget could not decide

    again = _solve("auntmary", "--range", "1-12", "--nodes", "400000", "--again", str(first),
                   "--every", "2", "--out", str(later), "--json", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    solved = [json.loads(line) for line in later.read_text().splitlines()]
    assert [v["number"] for v in solved] == unknown[::2]    # the sample, and only it
    decided = sum(v["verdict"] != UNKNOWN for v in solved)
    assert decided >= 1
    summary = json.loads(again.stdout)
    assert summary["deals"] == 12
    assert summary["unknown"] == len(unknown) - decided     # the first run's verdicts kept
    est = summary["again"]
    assert (est["unknown_before"], est["sampled"], est["decided_in_sample"]) == (
        len(unknown), len(unknown[::2]), decided)
    low, high = est["ci95"]
    assert low <= est["estimated_decided_share"] <= high
    assert est["estimated_decided_share"] == round(
        (12 - len(unknown) + len(unknown) * decided / len(unknown[::2])) / 12, 4)
    resumed = _solve("auntmary", "--range", "1-12", "--nodes", "400000", "--again",
                     str(first), "--every", "2", "--out", str(later), cwd=tmp_path)
    assert "estimated decided share" in resumed.stdout
    assert len(later.read_text().splitlines()) == len(solved)   # nothing solved twice

    short = _solve("auntmary", "--range", "1-14", "--again", str(first), cwd=tmp_path)
    assert short.returncode == 2 and "no verdict for 2 deal(s)" in short.stderr
    same = _solve("auntmary", "--range", "1-12", "--again", str(first), "--out", str(first),
                  cwd=tmp_path)
    assert same.returncode == 2 and "name the same file" in same.stderr


def test_sample_estimate_carries_the_interval_through() -> None:
    est = SampleEstimate(deals=10_000, unknown_before=300, sampled=30, decided=27)
    share, low, high = est.share()
    assert share == (9_700 + 300 * 0.9) / 10_000
    w_low, w_high = wilson(27, 30)
    assert (low, high) == ((9_700 + 300 * w_low) / 10_000, (9_700 + 300 * w_high) / 10_000)
    assert low < share < high
    assert SampleEstimate(100, 0, 0, 0).share()[0] == 1.0   # nothing was unknown


def test_bad_arguments_get_one_line(tmp_path: Path) -> None:
    for args in (["montecarlo"], ["montecarlo", "--range", "5-1"],
                 ["montecarlo", "3", "--options", "mode"],
                 ["montecarlo", "3", "--options", "mode=sideways"],
                 ["montecarlo", "--range", "1-3", "--every", "2"],
                 ["montecarlo", "--range", "1-3", "--again", "nowhere.jsonl"]):
        result = _solve(*args, cwd=tmp_path)
        assert result.returncode == 2, args
        assert result.stderr.startswith("reussite: ") and "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


def test_wilson_interval_and_summary() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(54, 100)
    assert 0.44 < low < 0.54 < high < 0.64
    assert wilson(0, 50)[0] == 0.0 and wilson(50, 50)[1] == 1.0
    verdicts = [Verdict("auntmary", n, {}, word, 10, seconds)
                for n, (word, seconds) in enumerate([(WINNABLE, 1.0), (NOT_WINNABLE, 0.5),
                                                     (UNKNOWN, 9.0), (NOT_WINNABLE, 0.1)])]
    summary = summarize(verdicts)
    assert (summary.winnable, summary.not_winnable, summary.unknown) == (1, 2, 1)
    assert summary.share()[0] == 1 / 3 and summary.bounds() == (0.25, 0.5)
    assert summary.median_seconds == 0.5 and summary.max_seconds == 9.0
