"""``reussite serve --workers 2`` holds a stranger to the limits of one server: failed logins
counted in one worker lock the handle in the other, and the caps per address count the
connections of both workers together."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from serverhelp import configure
from waiting import WAIT, until
from workerhelp import one_per_worker, serving

from door.config import load_settings
from door.store import Store

LOCKED = "Too many failed logins on that handle"


async def make_account(home: Path, handle: str, password: str) -> None:
    store = Store(load_settings(home).database_url)
    try:
        await store.start()
        await store.accounts.signup(handle, password)
    finally:
        await store.close()


async def test_failed_logins_in_one_worker_lock_the_handle_in_the_other(
        door_home: Path) -> None:
    configure(door_home, login_attempts=2)
    await make_account(door_home, "victim", "the-real-one")
    async with serving(door_home) as (_, port):
        callers = await one_per_worker(door_home, port)
        first, second = callers[1], callers[2]
        for attempt in range(2):  # both tries in worker 1: the handle locks from here
            first.send("victim\r")
            await first.wait_for("Password:", WAIT)
            first.send("wrong-guess\r")
            if attempt == 0:
                await first.wait_for("Wrong handle or password", WAIT)
        await first.wait_for(LOCKED, WAIT)
        # Worker 2 never saw a try: it refuses the handle before any password all the same
        # (the lockout reaches it through the supervisor; until it has, Esc at the password
        # prompt goes back to the handle without a try).
        async def shows(check: Callable[[str], bool]) -> None:
            async def shown() -> bool:
                await second.pump(0.01)
                return check(second.term.text)
            await until(shown, f"worker 2's screen changed:\n{second.term.text}")

        async def refused_in_worker_2() -> bool:
            await shows(lambda text: "Password:" in text or LOCKED in text)
            if LOCKED in second.term.text:
                return True
            second.send("\x1b")
            await shows(lambda text: "Password:" not in text)
            second.send("victim\r")
            return False

        second.send("victim\r")
        await until(refused_in_worker_2, "worker 2 refused the handle locked in worker 1")
        for caller in callers.values():
            caller.close()


async def read_until_told(reader: asyncio.StreamReader) -> bytes:
    """The first bytes the server sends: a telnet request (let in) or a line (refused)."""
    return await asyncio.wait_for(reader.read(1), WAIT)


async def test_the_caps_per_address_count_both_workers(door_home: Path) -> None:
    """24 silent connections from one address, max_per_address 3: whichever worker the
    kernel gives each to, 3 are open at the end, not 3 per worker."""
    configure(door_home, max_per_address=3, login_per_address=3, first_byte_timeout=300)
    async with serving(door_home) as (_, port):
        lines = []
        for _ in range(24):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            await read_until_told(reader)  # admitted (and maybe an older one dropped), or not
            lines.append((reader, writer))

        async def closed(reader: asyncio.StreamReader) -> bool:
            while not reader.at_eof():
                try:
                    await asyncio.wait_for(reader.read(4096), 0.01)
                except TimeoutError:
                    return False
                except ConnectionError:
                    return True
            return True

        async def all_but_three_closed() -> bool:
            return sum([await closed(reader) for reader, _ in lines]) >= 21

        await until(all_but_three_closed, "21 of 24 connections closed by the server")
        assert sum([await closed(reader) for reader, _ in lines]) == 21
        for _, writer in lines:
            writer.close()
