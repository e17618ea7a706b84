"""A league result: its canonical signed form, bounded parsing, and what a receiving board
checks — the signature, the day, the deal, and the replay of the moves."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import timedelta

import pytest
from leaguehelp import DAY, NOON, daily_game, signed

from door.catalog.registry import daily_deal, daily_games
from door.league.keys import BoardKey, parse_public_key, signature_valid
from door.league.results import MAX_MOVES, Refused, parse_result
from door.league.roster import parse_roster, signed_roster
from door.league.verify import verify_result

ALPHA, BETA = BoardKey.generate(), BoardKey.generate()
KEYS = {"Alpha BBS": ALPHA.public, "Beta": BETA.public}


def check(result, now=NOON, days=14):
    return verify_result(result, KEYS.get, now, days)


@pytest.mark.parametrize("game", daily_games())
def test_a_real_game_signed_by_its_board_verifies_after_a_round_trip(game: str) -> None:
    played = daily_game(game)
    result = signed(ALPHA, "Alpha BBS", "Pat", played)
    wire = json.loads(json.dumps(result.to_json()))  # what a peer receives
    again = parse_result(wire)
    assert again == result and again.rid == result.rid
    assert check(again) is False  # no cheating flagged by the replay


def test_the_signed_bytes_are_canonical_whatever_the_key_order() -> None:
    result = signed(ALPHA, "Alpha BBS", "Pat", daily_game("montecarlo"))
    shuffled = dict(reversed(list(result.to_json().items())))
    assert parse_result(shuffled).signed_bytes() == result.signed_bytes()
    assert result.signed_bytes().startswith(b"reussite-league-result/1\n{")


@pytest.mark.parametrize("forge", ["score", "move removed", "other key", "handle", "won"])
def test_a_forged_result_is_refused(forge: str) -> None:
    result = signed(ALPHA, "Alpha BBS", "Pat", daily_game("mariant", moves=30))
    if forge == "score":  # changed after signing
        forged = replace(result, score=result.score - 5)
    elif forge == "move removed":
        forged = replace(result, moves=result.moves[:-1])
    elif forge == "other key":  # signed by Beta, claimed as Alpha's
        forged = replace(result, signature=BETA.sign(result.signed_bytes()))
    elif forge == "handle":
        forged = replace(result, handle="Mallory")
    else:
        forged = replace(result, won=not result.won)
    with pytest.raises(Refused, match="signature"):
        check(forged)


def test_a_board_that_signs_a_lie_is_caught_by_the_replay() -> None:
    """The board's own key, the right deal, but a score the moves do not give."""
    played = daily_game("auntmary", moves=25)
    with pytest.raises(Refused, match="replays to a score"):
        check(signed(ALPHA, "Alpha BBS", "Pat", played, score=played.score + 10))
    with pytest.raises(Refused, match="reported won"):
        check(signed(ALPHA, "Alpha BBS", "Pat", played, won=True))
    with pytest.raises(Refused, match="does not replay"):
        check(signed(ALPHA, "Alpha BBS", "Pat", played, moves=[*played.actions, "zz9"]))


def test_the_day_and_the_deal_must_be_the_challenge() -> None:
    played = daily_game("montecarlo")
    future = DAY + timedelta(days=1)
    with pytest.raises(Refused, match="in the future"):
        check(signed(ALPHA, "Alpha BBS", "Pat", played, day=future))
    with pytest.raises(Refused, match="in the future"):
        check(signed(ALPHA, "Alpha BBS", "Pat", played, finished=NOON + timedelta(hours=1)))
    with pytest.raises(Refused, match="older than 14 days"):
        check(signed(ALPHA, "Alpha BBS", "Pat", played), now=NOON + timedelta(days=15))
    other = daily_deal(DAY - timedelta(days=1), "montecarlo").number
    assert other != played.number
    with pytest.raises(Refused, match="is not the challenge"):
        check(signed(ALPHA, "Alpha BBS", "Pat", played, number=other))
    with pytest.raises(Refused, match="is not the challenge"):
        check(signed(ALPHA, "Alpha BBS", "Pat", played, options={"mode": "relaxed"}))
    with pytest.raises(Refused, match="before its day began"):
        check(signed(ALPHA, "Alpha BBS", "Pat", played, finished=NOON - timedelta(days=1)))


def test_an_unknown_board_is_refused() -> None:
    result = signed(BoardKey.generate(), "Gamma", "Pat", daily_game("anciento"))
    with pytest.raises(Refused, match="not in this league"):
        check(result)


@pytest.mark.parametrize("field,value,reason", [
    ("number", 10 ** 400, "number"), ("number", "12", "number"), ("number", True, "number"),
    ("score", -(10 ** 40), "score"), ("handle", "x" * 41, "handle"),
    ("handle", "Pat\x1b[2J", "handle"), ("handle", " Pat", "handle"), ("handle", "", "handle"),
    ("board", "Evil\nBoard", "board name"), ("board", "b" * 31, "board name"),
    ("moves", ["a1"] * (MAX_MOVES + 1), "moves"), ("moves", ["\x1b[31m"], "moves"),
    ("moves", "a1 b2", "moves"), ("options", {"k" * 40: 1}, "options"),
    ("options", {"deep": {"x": [1] * 100}}, "options"), ("won", "yes", "won"),
    ("day", "yesterday", "date"), ("finished", 5, "date"), ("game", "chess", "game"),
    ("v", 2, "version"), ("signature", "s" * 500, "signature"),
])
def test_every_field_is_bounded_before_any_work(field: str, value: object,
                                                reason: str) -> None:
    data = signed(ALPHA, "Alpha BBS", "Pat", daily_game("montecarlo")).to_json()
    data[field] = value
    with pytest.raises(Refused, match=reason):
        parse_result(data)
    with pytest.raises(Refused):
        parse_result([data])


def test_keys_round_trip_and_refuse_garbage(tmp_path) -> None:
    key = BoardKey.load_or_create(tmp_path)
    assert BoardKey.load_or_create(tmp_path).public == key.public  # made once, then read
    assert (tmp_path / "league.key").stat().st_mode & 0o077 == 0
    assert parse_public_key(key.public) == key.public
    for bad in ("", "not base64!", "AAAA", key.public[:-4]):
        with pytest.raises(ValueError):
            parse_public_key(bad)
    assert signature_valid(key.public, b"x", key.sign(b"x"))
    assert not signature_valid(key.public, b"y", key.sign(b"x"))
    assert not signature_valid("garbage", b"x", key.sign(b"x"))
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "league.key").write_text("not a key")
    with pytest.raises(ValueError, match="cannot read the league key"):
        BoardKey.load_or_create(tmp_path / "other")


def test_a_roster_is_believed_only_with_the_hubs_signature() -> None:
    roster = signed_roster("Hub", ALPHA, {"Beta": BETA.public}, NOON).to_json()
    assert parse_roster(roster, "Hub", ALPHA.public).boards == {"Beta": BETA.public}
    with pytest.raises(Refused, match="not signed"):
        parse_roster(roster, "Hub", BETA.public)
    tampered = dict(roster, boards=[{"name": "Beta", "key": ALPHA.public}])
    with pytest.raises(Refused, match="not signed"):
        parse_roster(tampered, "Hub", ALPHA.public)
    with pytest.raises(Refused, match="not a roster"):
        parse_roster(roster, "Other hub", ALPHA.public)
    with pytest.raises(Refused, match="malformed"):
        parse_roster(dict(roster, boards=[{"name": "Beta", "key": "junk"}]), "Hub",
                     ALPHA.public)
