""""Still winnable?" through a real telnet door with its store: asked, kept with the
unfinished game, recorded when it ends, marked in the hall of fame."""

from __future__ import annotations

from pathlib import Path

from homehelp import configure
from serverhelp import new_member, open_game, running
from waiting import WAIT, until

from door.config import load_settings
from door.games.auntmary import AuntMary
from door.solvers.pool import URGENT, solver_pool
from door.ui.game.screen import SOLVER_PROVED
from door.ui.game.still_winnable import CAN, CANNOT, HALL_LEGEND, THINKING

HARD = 55
"""An Aunt Mary deal the solver cannot settle for minutes (as in tests/test_solving.py)."""


async def test_asked_kept_recorded_and_marked(door_home: Path) -> None:
    async with running(door_home, ssh=False) as ports:
        caller = await new_member(ports.telnet, "Vera", "still-pw")
        await open_game(caller, "a", 2, "Aunt Mary")        # a deal nobody can win
        caller.send("v")
        await caller.wait_for(CANNOT, 2 * WAIT)
        assert SOLVER_PROVED in caller.term.text              # the end offer, turned down
        await caller.leave_game()                            # kept, with the question
        caller.send("a")
        await caller.wait_for("Resume your Aunt Mary game #2?")
        caller.send("y")
        await caller.wait_for("Aunt Mary #2")
        caller.send("v")                                     # asked again: the offer again
        await caller.wait_for(SOLVER_PROVED, 2 * WAIT)
        caller.send("e")                                     # ended there: a game lost
        await caller.wait_for('The solver helped 2 times (hints, "still winnable?"): the hall')
        caller.send("m")
        await caller.wait_for("Your choice")
        caller.send("h")
        await caller.wait_for("Hall of Fame")
        caller.send("3")
        await caller.wait_for("Aunt Mary: Hall of Fame")
        row, _ = caller.term.find("Vera")
        assert "0v #2" in caller.term.lines[row]
        assert HALL_LEGEND in caller.term.text
        caller.send("\x1b")
        await caller.wait_for("Your choice")
        await open_game(caller, "c", 2)                     # Monte Carlo #2 can be won
        caller.send("v")
        await caller.wait_for(CAN, 2 * WAIT)
        caller.close()


async def test_a_question_goes_before_another_callers_deal_verdict(door_home: Path) -> None:
    """One solver worker, busy on Aunt Mary #55's verdict for a caller who just opened it (a
    deal the solver cannot settle for minutes).  Another caller's "still winnable?" is
    answered all the same: the background job is suspended, not made to wait for, and
    goes on afterwards.  V on #55 before any move is that same verdict: no second job."""
    configure(door_home, section="solver", workers=1, budget=120)
    async with running(door_home, ssh=False) as ports:
        pool = solver_pool(load_settings(door_home))
        first = await new_member(ports.telnet, "Otto", "first-pw")
        await open_game(first, "a", HARD, "Aunt Mary")
        await until(lambda: pool.running == 1, "the deal's verdict on its way")

        second = await new_member(ports.telnet, "Petra", "second-pw")
        await open_game(second, "a", 2, "Aunt Mary")
        game = AuntMary.new(2)
        game.play("s")
        second.send("s")
        await second.wait_for(f"Stock {len(game.stock)} ")
        second.send("v")
        await second.wait_for(CANNOT)
        assert verdict_job(pool, HARD).state != "done"         # suspended, not dropped
        await until(lambda: verdict_job(pool, HARD).state == "running",
                    "#55's verdict going on")
        second.close()

        first.send("v")                                       # as dealt: the same question
        await first.wait_for(THINKING)
        await until(lambda: verdict_job(pool, HARD).priority == URGENT, "the job made urgent")
        assert sum(job.spec["number"] == HARD for job in pool._jobs.values()) == 1
        await first.leave_game()
        await until(lambda: not pool._jobs, "the job dropped when its caller left")
        first.close()


def verdict_job(pool, number: int):
    (job,) = [job for job in pool._jobs.values() if job.spec.get("number") == number]
    return job
