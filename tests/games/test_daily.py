"""The daily challenge's deals: the documented rule, pinned; card games only on deals the
solver proved winnable; nothing but the date and the game chooses them."""

from __future__ import annotations

import hashlib
from datetime import date, timedelta

import pytest

from door.games import engine
from door.games.daily import GAMES, OPTIONS, daily_deal, daily_deals, is_daily
from door.games.winnable import winnable_numbers


def test_the_rule_as_docs_daily_md_writes_it() -> None:
    day = date(2026, 12, 1)
    seed = b"reussite-daily-2026-12-01-montecarlo"
    h = int.from_bytes(hashlib.sha256(seed).digest()[:8], "big")
    listed = winnable_numbers("montecarlo", {"mode": "strict"})
    assert daily_deal(day, "montecarlo").number == listed[h % len(listed)]
    h = int.from_bytes(hashlib.sha256(b"reussite-daily-2026-12-01-anciento").digest()[:8], "big")
    assert daily_deal(day, "anciento").number == 1 + h % 32000


@pytest.mark.parametrize(("day", "numbers"), [
    (date(2026, 12, 1), {"mariant": 66, "montecarlo": 1494, "auntmary": 167, "anciento": 21804}),
    (date(2031, 5, 17), {"mariant": 39, "montecarlo": 900, "auntmary": 408, "anciento": 17051}),
])
def test_pinned_values_of_docs_daily_md(day: date, numbers: dict[str, int]) -> None:
    """A changed winnable list changes the challenges: on purpose, and docs/daily.md's
    table with it."""
    assert {d.game: d.number for d in daily_deals(day)} == numbers


def test_card_game_challenges_are_proven_winnable_and_deal() -> None:
    first = date(2030, 1, 1)
    seen: dict[str, set[int]] = {game: set() for game in GAMES}
    for offset in range(60):
        for deal in daily_deals(first + timedelta(days=offset)):
            if deal.game != "anciento":
                assert deal.number in winnable_numbers(deal.game, deal.options)
            game = engine(deal.game).new(deal.number, **deal.options)
            assert game.options == OPTIONS[deal.game]
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
