"""The public pages' new columns and links, their styled 404 and 500, and the web's read-only
sessions: a finished game replayed from its hall-of-fame row, a game watched live."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from homehelp import configure
from serverhelp import open_game, running, signup, to_menu
from waiting import WAIT
from webhelp import WebCaller, get

from door.config import load_settings
from door.games.montecarlo import MonteCarlo
from door.store import Store
from door.store.visit import open_store

NUMBER = 11982


def finished(number: int) -> MonteCarlo:
    """Monte Carlo ``number`` played to its end by the first legal move each time (won on
    deals 2, 4 and 11982, lost on deal 1)."""
    game = MonteCarlo.new(number)
    while game.legal_moves():
        game.play(game.legal_moves()[0])
    return game


async def store_games(store: Store, alias: str, games: list[MonteCarlo],
                      source: str = "direct") -> None:
    player = await store.players.player(source, alias.lower(), alias)
    ended = datetime.now(UTC) - timedelta(hours=len(games))
    for game in games:
        ended += timedelta(minutes=30)
        await store.scores.finish_game(player.id, game.record(), game.score, game.status.value,
                                       False, ended - timedelta(minutes=3), ended)


async def test_halls_show_won_lost_streak_and_a_replay_link(door_home: Path) -> None:
    configure(door_home, XA="change-this-secret | 127.0.0.1 | Xanadu")
    store = await open_store(load_settings(door_home))
    try:
        games = [finished(2), finished(1), finished(NUMBER), finished(4)]
        assert [g.status.value for g in games] == ["won", "lost", "won", "won"]
        await store_games(store, "Ann", games)  # in this order
        await store_games(store, "Pat@XA", [games[1]], source="board:XA")
        tops = await store.scores.top("montecarlo", 10)
    finally:
        await store.close()
    ann = next(e for e in tops if e.alias == "Ann")
    async with running(door_home, ssh=False, web=True) as ports:
        status, _, html = await get(ports.web, "/halloffame/montecarlo")
        assert status == 200
        assert ">Won</abbr>" in html and ">Lost</abbr>" in html and ">Streak</abbr>" in html
        row = html[html.index(">Ann<"):].split("</tr>")[0]
        cells = [c.split(">")[-1] for c in row.split("</td>")]
        assert cells[2:5] == ["3", "1", "2"], cells  # won 3, lost 1, streak 2
        assert f'href="/replay/{ann.game_id}"' in row
        assert 'href="/halloffame/montecarlo?board=XA">Xanadu</a>' in html  # board linked
        _, _, index = await get(ports.web, "/halloffame")
        assert index.count("?board=XA") == 4  # one per game
        _, _, api = await get(ports.web, "/api/halloffame/montecarlo")
        assert '"lost": 1' in api and f'"replay": "/replay/{ann.game_id}"' in api

        status, _, page = await get(ports.web, f"/replay/{ann.game_id}")
        assert status == 200 and f"Replay: Ann · Monte Carlo #{ann.number}" in page
        assert f'data-socket="/replay/{ann.game_id}/socket"' in page
        viewer = await WebCaller.connect(ports.web, path=f"/replay/{ann.game_id}/socket")
        try:
            await viewer.wait_for("Replay: Ann's Monte Carlo", WAIT)
            await viewer.wait_for("The deal, before move 1", WAIT)
            viewer.send("\x1b[F")  # End
            await viewer.wait_for(f"Final score {ann.score}", WAIT)
            viewer.send("q")
            await viewer.wait_closed()  # the door ended it: the page offers it again
        finally:
            await viewer.close()


@pytest.mark.parametrize("path", ["/nothing-here", "/replay/424242", "/replay/x",
                                  "/halloffame/chess"])
async def test_what_is_not_here_is_a_styled_404(door_home: Path, path: str) -> None:
    async with running(door_home, ssh=False, web=True) as ports:
        status, headers, html = await get(ports.web, path)
        assert status == 404 and headers["Content-Type"].startswith("text/html")
        assert "<style>" in html and "<h1>Not here" in html and 'href="/halloffame"' in html
        status, headers, body = await get(ports.web, "/api" + path)
        assert status == 404 and '"error"' in body


async def test_a_failing_page_is_a_styled_500_and_one_log_line(door_home: Path, monkeypatch,
                                                               caplog) -> None:
    from door.web import public

    async def broken(self, game, board=None):
        raise RuntimeError("a bug")
    monkeypatch.setattr(public.PublicData, "hall", broken)
    async with running(door_home, ssh=False, web=True) as ports:
        status, _, html = await get(ports.web, "/halloffame/montecarlo")
        assert status == 500 and "Something went wrong" in html and "a bug" not in html
    assert "web /halloffame/montecarlo: the page failed" in caplog.text


async def test_a_game_is_watched_live_from_the_web(door_home: Path) -> None:
    async with running(door_home, ssh=False, web=True) as ports:
        player = await WebCaller.connect(ports.web)
        viewer = None
        try:
            await player.wait_for("Handle:", WAIT)
            await signup(player, "Vera", "vera-pw", WAIT)
            await to_menu(player, WAIT)
            await open_game(player, "c", NUMBER)
            _, _, online = await get(ports.web, "/online")
            assert 'href="/watch?player=Vera"' in online
            status, _, page = await get(ports.web, "/watch?player=Vera")
            assert status == 200 and 'data-socket="/watch/socket?player=Vera"' in page
            viewer = await WebCaller.connect(ports.web, path="/watch/socket",
                                             query="&player=Vera")
            await viewer.wait_for("Watching Vera", WAIT)
            game = MonteCarlo.new(NUMBER)
            move = game.legal_moves()[0]
            player.send(move)
            game.play(move)
            await viewer.wait_for(f"Score {game.score}", WAIT)
            viewer.send("q")  # back to the list of games, then away
            await viewer.wait_for("Games being played now", WAIT)
            viewer.send("\x1b")
            await viewer.wait_closed()
        finally:
            await player.close()
            if viewer is not None:
                await viewer.close()
