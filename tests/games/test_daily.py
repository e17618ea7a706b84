"""The daily challenge's deals: the documented rule, pinned; card games only on deals the
solver proved winnable; nothing but the date and the game chooses them."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import replace
from datetime import date, timedelta
from importlib import resources
from pathlib import Path

import pytest

from door.catalog import registry as gamelist
from door.catalog.registry import daily_deal, daily_deals, daily_games, engine, is_daily
from door.games import daily as daily_module
from door.games.daily import DailyRule


def h(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode("ascii")).digest()[:8], "big")


def rule(game: str) -> DailyRule:
    found = gamelist.game(game).daily
    assert found is not None
    return found


RANGES = {game: rule(game).draw for game in daily_games() if rule(game).draw}
"""The games whose challenge is drawn from a range checked against a winnable list."""


def test_the_rule_as_docs_daily_md_writes_it() -> None:
    day = date(2026, 12, 1)
    listed = set(gamelist.game("montecarlo").winnable_numbers({"mode": "strict"}))
    seed = "reussite-daily-2026-12-01-montecarlo"
    candidates = [1 + h(seed if k == 0 else f"{seed}#{k}") % 10_000 for k in range(50)]
    assert daily_deal(day, "montecarlo").number == next(n for n in candidates if n in listed)
    assert daily_deal(day, "anciento").number == 1 + h("reussite-daily-2026-12-01-anciento") % 32000


@pytest.mark.parametrize(("day", "numbers"), [
    (date(2026, 12, 1), {"mariant": 300, "montecarlo": 4886, "auntmary": 370, "anciento": 21804}),
    (date(2031, 5, 17), {"mariant": 167, "montecarlo": 188, "auntmary": 475, "anciento": 17051}),
])
def test_pinned_values_of_docs_daily_md(day: date, numbers: dict[str, int]) -> None:
    """docs/daily.md's worked values: another implementation checks itself against them."""
    assert {d.game: d.number for d in daily_deals(day)} == numbers


def test_the_undecided_deals_are_the_frozen_ones() -> None:
    """The records keep the deals the solver of 2026-12-01 left undecided, unchanged."""
    assert {game: set(rule(game).undecided) for game in UNDECIDED_2026_12_01} \
        == UNDECIDED_2026_12_01


def test_a_game_without_a_list_draws_from_its_numbered_deals() -> None:
    """Anciento's numbers in its record are its engine's numbered games."""
    from door.games.anciento import SELECT_NUMBERS

    assert rule("anciento").numbers == SELECT_NUMBERS and not rule("anciento").draw


@pytest.mark.parametrize("game", sorted(RANGES))
def test_the_lists_cover_the_ranges(game: str) -> None:
    """Every deal in a challenge range was put to the solver when the list was made (the
    list's header says which deals were solved): the rule never needs a deal nobody tried."""
    name = rule(game).winnable
    assert name == gamelist.game(game).winnable_list(rule(game).options)
    header = (resources.files("door.games") / "winnable" / f"{name}.txt").read_text("ascii")
    solved = re.search(r"Solved: deals 1-(\d+)", header)
    assert solved and int(solved.group(1)) >= RANGES[game]


@pytest.mark.slow
def test_a_longer_list_deals_the_same_challenges(monkeypatch: pytest.MonkeyPatch) -> None:
    """A release whose lists reach further (more deals solved past the ranges) keeps every
    day's challenges: only membership inside the fixed range counts."""
    first = date(2027, 3, 1)
    before = [daily_deals(first + timedelta(days=n)) for n in range(40)]
    real = daily_module.winnable_numbers

    def longer(stem: str) -> tuple[int, ...]:
        return (*real(stem), *range(max(RANGES.values()) + 1, 50_000))

    monkeypatch.setattr(daily_module, "winnable_numbers", longer)
    assert [daily_deals(first + timedelta(days=n)) for n in range(40)] == before


def test_card_game_challenges_are_proven_winnable_and_deal() -> None:
    first = date(2030, 1, 1)
    seen: dict[str, set[int]] = {game: set() for game in daily_games()}
    for offset in range(60):
        for deal in daily_deals(first + timedelta(days=offset)):
            if deal.game in RANGES:
                assert deal.number in gamelist.game(deal.game).winnable_numbers(deal.options)
            game = engine(deal.game).new(deal.number, **deal.options)
            assert game.options == rule(deal.game).options
            assert is_daily(deal.game, deal.number, game.options, deal.day)
            seen[deal.game].add(deal.number)
    assert all(len(numbers) > 20 for numbers in seen.values())   # it changes by the day
    assert daily_deal(first, "mariant") == daily_deal(first, "mariant")   # and only by it


def test_other_options_are_not_the_challenge() -> None:
    deal = daily_deal(date(2030, 2, 2), "montecarlo")
    assert not is_daily("montecarlo", deal.number, {"mode": "relaxed"}, deal.day)
    assert not is_daily("solitaire", deal.number, {}, deal.day)
    with pytest.raises(ValueError, match="no daily challenge"):
        daily_deal(deal.day, "solitaire")


PICKS = Path(__file__).with_name("daily_picks_2026-12-01_2027-12-31.json")
"""Each card game's challenge from 2026-12-01 to 2027-12-31 as the rule picked them on the
day the lists were first shipped (written by the release of 2026-12-01, never rewritten)."""


def _picks(first: date, days: int) -> dict[str, list[int]]:
    return {game: [daily_deal(first + timedelta(days=n), game).number for n in range(days)]
            for game in RANGES}


def test_every_date_keeps_its_challenge_across_releases() -> None:
    """Boards on two releases agree: a later list (a stronger solver) deals the same days."""
    pinned = json.loads(PICKS.read_text("ascii"))
    assert _picks(date(2026, 12, 1), len(pinned["auntmary"])) == pinned


UNDECIDED_2026_12_01 = {
    "mariant": {49, 90, 99, 102, 110, 127, 130, 158, 179, 194, 210, 220, 222, 253, 269, 274,
                286, 288},
    "auntmary": {33, 55, 67, 99, 100, 142, 143, 146, 158, 165, 202, 223, 238, 242, 247, 261,
                 270, 271, 354, 360, 400, 437, 440, 501, 523},
}
"""The deals of the ranges that the solver of 2026-12-01 left "unknown" (its lists' JSONL)."""


@pytest.mark.slow
def test_a_deal_proved_winnable_later_never_becomes_a_challenge(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Were every deal left undecided in the ranges proved winnable and listed, no day's
    challenge would move: the rule keeps them out (and without that, days would move)."""
    first = date(2026, 12, 1)
    before = _picks(first, 200)
    real = daily_module.winnable_numbers

    def stronger(stem: str) -> tuple[int, ...]:
        game = next(g for g in RANGES if rule(g).winnable == stem)
        return tuple(sorted({*real(stem), *UNDECIDED_2026_12_01.get(game, ())}))

    monkeypatch.setattr(daily_module, "winnable_numbers", stronger)
    assert _picks(first, 200) == before
    for game in RANGES:
        info = gamelist.game(game)
        monkeypatch.setitem(gamelist._GAMES, game, replace(
            info, daily=replace(rule(game), undecided=frozenset())))
    moved = _picks(first, 200)
    assert moved["auntmary"] != before["auntmary"] and moved["mariant"] != before["mariant"]
