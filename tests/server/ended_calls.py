"""Calls that end, made from a process of their own: ``python ended_calls.py KIND PORT COUNT``.

tests/server/test_call_cycles.py counts what the server's ended calls leave in reference
cycles; the callers' own objects (telnetlib3's client, asyncssh's, aiohttp's, pyte's) would
be counted with them if they called from the test's process, so they call from here.
Each KIND is one way a call ends; ``new-member`` signs Mona up, whom the others call as."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from pyteterm import PyteCaller  # noqa: E402
from serverhelp import SSHCaller, call, login, signup, to_menu  # noqa: E402
from webhelp import WebCaller  # noqa: E402

from door.games.montecarlo import MonteCarlo, position_name  # noqa: E402

HANDLE, PASSWORD = "Mona", "mona-pass"


async def play(caller: PyteCaller, number: int) -> None:
    """From the main menu into Monte Carlo ``number`` (a new deal: a kept game of Mona's
    is left for later), and its first pair taken."""
    caller.send("c")
    await caller.wait_until(lambda: any(text in caller.term.text for text in (
        "Game number:", "Resume your")), "the deal's question")
    if "Resume your" in caller.term.text:
        caller.send("n")
        await caller.wait_for("Game number:")
    caller.send(f"{number}\r")
    await caller.wait_for(f"Monte Carlo #{number}")
    p, q = MonteCarlo.new(number).pairs()[0]
    caller.send(position_name(p) + position_name(q))
    await caller.settle()


async def log_off(caller: PyteCaller) -> None:
    """Out of the game (kept) and the door: the door hangs up."""
    await caller.leave_game()
    caller.send("q")
    await caller.wait_for("(Y/n)")
    caller.send("y")
    await caller.settle(0.5)
    caller.send(" ")
    await caller.wait_closed()


async def new_member(port: int) -> None:
    caller = await call(port)
    await signup(caller, HANDLE, PASSWORD)
    await to_menu(caller)
    caller.close()
    await caller.wait_closed()


async def telnet(port: int, number: int, hang_up: bool) -> None:
    caller = await call(port)
    await login(caller, HANDLE, PASSWORD)
    await to_menu(caller)
    await play(caller, number)
    if hang_up:  # in the middle of the game
        caller.close()
    else:
        await log_off(caller)
    await caller.wait_closed()


async def wrong_password(port: int) -> None:
    caller = await call(port)
    await login(caller, HANDLE, "not-the-password")
    await caller.wait_for("Wrong handle or password")
    caller.close()
    await caller.wait_closed()


async def ssh(port: int, number: int) -> None:
    caller = await SSHCaller.connect(port, HANDLE.lower(), PASSWORD)
    await to_menu(caller)
    await play(caller, number)
    await log_off(caller)
    caller.conn.close()
    await caller.conn.wait_closed()


async def web(port: int, number: int) -> None:
    caller = await WebCaller.connect(port)
    try:
        await caller.wait_for("Handle:")
        await login(caller, HANDLE, PASSWORD)
        await to_menu(caller)
        await play(caller, number)
        await log_off(caller)
    finally:
        await caller.close()


async def main(kind: str, port: int, count: int) -> None:
    for n in range(count):
        number = 100 + n
        if kind == "new-member":
            await new_member(port)
        elif kind == "telnet":
            await telnet(port, number, hang_up=False)
        elif kind == "telnet-hang-up":
            await telnet(port, number, hang_up=True)
        elif kind == "wrong-password":
            await wrong_password(port)
        elif kind == "ssh":
            await ssh(port, number)
        elif kind == "web":
            await web(port, number)
        else:
            raise SystemExit(f"no such kind of call: {kind}")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
