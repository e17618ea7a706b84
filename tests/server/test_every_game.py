"""Every game, from its record alone: each test here runs once per game (``every_game``:
each record of the registry, and the toy fifth game kept in tests/toygame/), and names none.
The record is whole; a deal plays, undoes, round-trips and replays; the solver wins what it
says it wins and its hints are legal moves; the solver pool answers for it in a worker (a
separate process, which registers the toy game from REUSSITE_GAME_MODULES); the store keeps
and verifies its games and the hall and the web page rank them; the replay viewer and the
watch viewer draw it; the main menu offers it and the daily board deals its challenge."""

from __future__ import annotations

import asyncio
import contextlib
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from homehelp import offer_game
from pyteterm import QueueTerminal
from waiting import WAIT

from door.catalog import registry as gamelist
from door.catalog.record import GameInfo
from door.config import Settings
from door.games import Game, Status
from door.games.hints import position_key
from door.games.solvers import NOT_WINNABLE, WINNABLE
from door.ui.game.screen import GameScreen
from door.ui.game.still_winnable import CAN, CANNOT

REPO = Path(__file__).resolve().parent.parent
NOON = datetime(2031, 5, 17, 12, 30, tzinfo=UTC)
DAY = NOON.date()


def challenge(info: GameInfo) -> Game:
    """The game's daily challenge of DAY (every game here has one), dealt."""
    deal = info.daily_deal(DAY)
    return info.start(deal.number, deal.options)


def played(info: GameInfo, moves: int = 12) -> Game:
    """The challenge played by its engine's hints (legal moves where it has none), one move
    taken back on the way where the game allows it."""
    game = challenge(info)
    while not game.finished and len(game.actions) < moves:
        options = game.hints() or game.legal_moves()
        if not options:
            break
        game.play(options[0])
        if len(game.actions) == 3 and game.can_undo:
            game.undo()
    return game


# -- the record --------------------------------------------------------------------------------

def test_the_record_is_whole(every_game: GameInfo) -> None:
    info = every_game
    engine = info.engine_class()
    assert issubclass(engine, Game) and engine.name == info.name
    screen = info.screen_class()
    assert issubclass(screen, GameScreen) and screen.info is info
    assert (screen.name, screen.title) == (info.name, info.title)
    assert screen.solvable == (info.solver is not None)
    assert screen.still_winnable == info.still_winnable
    assert info.name in gamelist.names() and gamelist.title(info.name) == info.title
    assert info.daily is not None and info.name in gamelist.daily_games()
    deal = info.daily_deal(DAY)
    assert deal == gamelist.daily_deal(DAY, info.name)     # by name: the same record
    assert gamelist.is_daily(info.name, deal.number, deal.options, DAY)
    assert not gamelist.is_daily(info.name, deal.number, deal.options, DAY + timedelta(1))
    if info.daily.draw:                                     # drawn from its winnable list
        assert deal.number in info.winnable_numbers(deal.options)


def test_a_deal_plays_undoes_round_trips_and_replays(every_game: GameInfo) -> None:
    game = played(every_game)
    assert game.actions, "the challenge offers a move"
    again = type(game).from_json(game.to_json())
    assert again.to_json() == game.to_json() and again.score == game.score
    replayed = type(game).replay(game.record())
    assert replayed.score == game.score and replayed.status == game.status
    if every_game.solver is not None:               # what the solvers' hints need
        assert position_key(game.copy()) == position_key(game)


# -- the solver, its hints, the pool ----------------------------------------------------------

def test_the_solver_wins_what_it_says_and_hints_legal_moves(every_game: GameInfo) -> None:
    info = every_game
    if info.solver is None:
        assert info.player or not info.still_winnable  # a hint from elsewhere, or none
        return
    deal = info.daily_deal(DAY)
    verdict = info.solve(deal.number, deal.options, seconds=60)
    assert verdict.game == info.name and verdict.number == deal.number
    if info.daily is not None and info.daily.draw:    # a listed deal: proven winnable
        assert verdict.verdict == WINNABLE
    if verdict.verdict == WINNABLE:
        game = challenge(info)
        for move in verdict.line or []:
            game.play(move)
        assert game.status is Status.WON
    game = played(info, 3)
    if game.finished:
        return
    hint = info.hint(game.number, game.options, position=game.to_json(), seconds=5)
    first = (hint.line or hint.best or [None])[0]
    if first is not None and not hint.take_back:
        game.copy().play(first)                     # a legal move (IllegalMove otherwise)


async def test_the_solver_pool_answers_from_a_worker(every_game: GameInfo) -> None:
    from door.solvers.pool import SolverPool

    info = every_game
    pool = SolverPool(1, 10)
    try:
        game = played(info, 3)
        if info.solver is not None:
            verdict = await pool.solve(info.name, game.number, game.options,
                                       position=game.to_json(), seconds=5)
            assert verdict.verdict in (WINNABLE, NOT_WINNABLE, "unknown")
            assert verdict.game == info.name
            hint = await pool.hint(info.name, game.number, game.options,
                                   position=game.to_json(), seconds=2)
            assert hint.game == info.name
        if info.player:
            move = await pool.player_move(info.name, game.to_json())
            assert move is not None
            game.play(move)
        if info.solver is None and not info.player:
            with pytest.raises(ValueError, match=info.name):
                await pool.solve(info.name, game.number, game.options)
    finally:
        await pool.close()


# -- the store, the hall of fame, the web ------------------------------------------------------

async def test_the_store_keeps_verifies_and_ranks_its_games(every_game: GameInfo,
                                                            settings: Settings,
                                                            tmp_path: Path) -> None:
    from door.store import RecordRejected, Store
    from door.web.pages import hall_page
    from door.web.public import PublicData

    info = every_game
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'every.db'}", host="test-host")
    assert await store.start()
    try:
        ann = await store.players.player("direct", "ann", "Ann")
        game = played(info)
        now = datetime.now(UTC)
        await store.scores.finish_game(ann.id, game.record(), game.score, str(game.outcome), False,
                                       now - timedelta(minutes=2), now)
        mine, count = await store.scores.player_games(ann.id, 0, 10)   # "Your games": every game
        assert count == 1 and mine[0].record == game.record()
        top = await store.scores.top(info.name)
        if info.hall.counts(str(game.outcome), False):
            assert [(e.alias, e.score) for e in top] == [("Ann", game.score)]
            assert await store.scores.game_record(top[0].game_id) == game.record()
        else:
            assert top == []
        with pytest.raises(RecordRejected):              # a score its moves do not make
            await store.scores.finish_game(ann.id, game.record(), game.score + 1,
                                           str(game.outcome), False, now, now)
        public = PublicData(settings, store)
        hall = await public.hall(info.name)
        page = hall_page("Test Door", hall)
        assert hall["title"] == info.hall_name
        if top:
            assert f">{info.hall.score_column}<" in page and "Ann" in page
    finally:
        await store.close()


# -- the replay and watch viewers --------------------------------------------------------------

async def test_the_replay_viewer_steps_to_the_final_score(every_game: GameInfo,
                                                          settings: Settings) -> None:
    from pyteterm import ScreenCaller

    from door.session import Services, Session
    from door.ui.game.replay import Replay

    game = played(every_game)
    moves = len(game.actions)

    class Caller(ScreenCaller):
        def __init__(self) -> None:
            self.terminal = QueueTerminal(charset="utf8")
            self.session = Session(self.terminal, Services(settings))
            self.task = asyncio.create_task(
                Replay(self.session, game.record(), "Ada", game.score).run())

    caller = Caller()
    try:
        await caller.wait_for(f"The deal, before move 1 of {moves}")
        assert "Replay: Ada's" in caller.text
        caller.send("\x1b[F")                                  # End: the last move
        await caller.wait_for(f"Move {moves} of {moves}")
        caller.send("q")
        await asyncio.wait_for(caller.task, WAIT)
    finally:
        caller.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await caller.task


async def test_a_watcher_sees_each_move(every_game: GameInfo, settings: Settings) -> None:
    from door.session import Services, Session
    from door.ui.menus.watch import watch_game
    from door.watching.hub import WatchHub

    hub = WatchHub()
    game = challenge(every_game)
    watched = hub.offer("Ann", every_game.title, f"#{game.number}", game, True)
    terminal = QueueTerminal(charset="utf8")
    task = asyncio.create_task(watch_game(Session(terminal, Services(settings)), watched))
    loop = asyncio.get_running_loop()

    async def until(check, what: str) -> None:
        deadline = loop.time() + WAIT
        while not check():
            assert loop.time() < deadline, f"never {what}"
            await asyncio.sleep(0.005)

    try:
        await until(lambda: "1 watching" in terminal.term.text, "watching")
        assert every_game.title in terminal.term.text
        for _ in range(2):
            before = terminal.term.text
            game.play((game.hints() or game.legal_moves())[0])
            watched.look("")
            await until(lambda b=before: terminal.term.text != b, "the move drawn")
        hub.withdraw(watched)
        await until(lambda: "Ann has left this game" in terminal.term.text, "told")
        terminal.inbox.put_nowait(b" ")
        await asyncio.wait_for(task, WAIT)
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


# -- the main menu and the daily board, over telnet --------------------------------------------

async def test_the_menu_offers_it_and_the_daily_board_deals_it(
        every_game: GameInfo, door_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from serverhelp import new_member, running

    from door.ui.game import daily_status

    monkeypatch.setattr(daily_status, "CLOCK", lambda: NOON)
    info = every_game
    offer_game(door_home, info)
    deal = info.daily_deal(DAY)
    async with running(door_home, ssh=False) as ports:
        caller = await new_member(ports.telnet, "Dora", "daily-pw")
        assert caller.term.find(f"[{info.menu_key}]  {info.label}")
        caller.send("d")
        index = gamelist.daily_games().index(info.name) + 1
        await caller.wait_for(f"{index}. {info.title}")
        line = next(line for line in caller.term.lines if f"{index}. {info.title}" in line)
        assert re.search(rf"#{deal.number}\b", line), line
        caller.send(str(index))
        await caller.wait_for(f"Today: {info.title} #{deal.number}")
        caller.send("p")
        await caller.wait_for("Daily challenge of 2031-05-17")
        assert f"{info.title} #{deal.number}" in caller.term.text
        if info.still_winnable:            # V: asked of the solver pool's worker process
            await caller.settle()
            caller.send("v")
            await caller.wait_until(lambda: any(answer in caller.term.text for answer in (
                CAN, CANNOT, "Could not tell")), "the solver's answer", timeout=4 * WAIT)
        caller.close()
