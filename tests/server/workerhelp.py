"""Helpers for tests of ``reussite serve --workers 2``: the real server in a process group of
its own, which worker took a call, and one caller in each worker."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from pyteterm import TelnetCaller
from serverhelp import call
from waiting import WAIT


@asynccontextmanager
async def serving(home: Path, *command: str) -> AsyncIterator[tuple[asyncio.subprocess.Process,
                                                                    int]]:
    """A real ``reussite serve --workers 2`` (or ``command``), stopped by SIGKILL of its
    whole group if the test did not stop it."""
    args = command or ("-m", "door", "--home", str(home), "--log-level", "info", "serve",
                       "--telnet-port", "0", "--ssh-port", "-1", "--workers", "2")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, *args, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL, start_new_session=True)
    try:
        line = (await asyncio.wait_for(proc.stdout.readline(), WAIT)).decode()
        found = re.search(r"telnet on \S+ port (\d+)", line)
        assert found, line
        yield proc, int(found.group(1))
    finally:
        if proc.returncode is None:
            os.killpg(proc.pid, signal.SIGKILL)
            await proc.wait()


def log_text(home: Path) -> str:
    return (home / "data" / "reussite.log").read_text(encoding="utf-8")


async def worker_of(home: Path, caller: TelnetCaller) -> int:
    """Which worker answered this caller (its connect line in the log names it)."""
    port = caller.writer.get_extra_info("sockname")[1]
    pattern = re.compile(rf"\(worker (\d+)\): telnet connect from 127\.0\.0\.1:{port}\b")
    deadline = time.monotonic() + WAIT
    while not (found := pattern.search(log_text(home))):
        assert time.monotonic() < deadline, "the connect line never reached the log"
        await asyncio.sleep(0.05)
    return int(found.group(1))


async def one_per_worker(home: Path, port: int) -> dict[int, TelnetCaller]:
    """A caller at the login screen in each of the two workers (the kernel picks the
    worker: callers that land where one is already waiting hang up and call again)."""
    callers: dict[int, TelnetCaller] = {}
    for _ in range(60):
        caller = await call(port, timeout=WAIT)
        worker = await worker_of(home, caller)
        if worker in callers:
            caller.close()
        else:
            callers[worker] = caller
        if len(callers) == 2:
            return callers
    raise AssertionError("the kernel never gave a connection to both workers")
