"""The log files after a rotation (door/logs/files.py): moved away by hand (or by logrotate),
new lines go to a new file at the path, from ``serve`` alone, from the supervisor and from
each worker of ``serve --workers 2``, and from a ``door`` a BBS started; filled up, the file
is rotated once by whichever process filled it, and the others follow."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
from pathlib import Path

from doorproc import PtyDoor, door_command
from serverhelp import call, running
from waiting import WAIT, until
from workerhelp import log_text, one_per_worker, serving

from door.logs.files import open_log

SAMPLES = Path(__file__).parent.parent / "dropfile" / "samples"


def moved_aside(log: Path) -> Path:
    """Move the log where logrotate would (``.1``), as it does before its ``create``."""
    old = log.with_name(log.name + ".moved")
    os.replace(log, old)
    return old


def text_of(path: Path) -> str:
    return path.read_text(encoding="utf-8") if path.exists() else ""


async def test_serve_writes_a_new_file_once_its_log_was_moved(door_home: Path,
                                                               caplog) -> None:
    caplog.set_level(logging.INFO)
    log = door_home / "data" / "reussite.log"
    async with running(door_home, ssh=False) as ports:
        await until(lambda: "listening: telnet" in text_of(log), "the listening line")
        old = moved_aside(log)
        caller = await call(ports.telnet)
        await until(lambda: "telnet connect from 127.0.0.1" in text_of(log),
                    "the connect line in a new reussite.log")
        caller.close()
    assert "telnet connect" not in text_of(old)
    assert os.stat(log).st_mode & 0o777 == 0o600


async def test_supervisor_and_workers_write_a_new_file_once_the_log_was_moved(
        door_home: Path) -> None:
    log = door_home / "data" / "reussite.log"
    async with serving(door_home) as (proc, port):
        await until(lambda: "supervisor: 2 workers answering" in log_text(door_home),
                    "the supervisor's start line")
        pids = {int(n): int(pid) for n, pid in
                re.findall(r"supervisor: worker (\d) is pid (\d+)", log_text(door_home))}
        old = moved_aside(log)
        callers = await one_per_worker(door_home, port)  # each worker's connect line ...
        for worker in (1, 2):
            assert f"(worker {worker}): telnet connect" in log_text(door_home)
        os.kill(pids[2], signal.SIGKILL)  # ... and the supervisor's line about worker 2
        await until(lambda: re.search(r"door.serve.workers: supervisor: worker 2 \(pid \d+\) died",
                                      text_of(log)) is not None,
                    "the supervisor's line in the new file")
        assert "died" not in text_of(old) and "telnet connect" not in text_of(old)
        for caller in callers.values():
            caller.close()
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), WAIT) == 0
    assert "supervisor: all workers stopped" in text_of(log)


def test_a_door_writes_a_new_file_once_door_log_was_moved(door_home: Path,
                                                          tmp_path: Path) -> None:
    dropfile = tmp_path / "DOOR.SYS"
    dropfile.write_bytes((SAMPLES / "mystic_demoscene_DOOR.SYS").read_bytes())
    log = door_home / "data" / "door.log"
    door = PtyDoor(door_command(door_home, dropfile), door_home)
    try:
        door.wait_for("Press any key")
        old = moved_aside(log)
        door.send(b" ")
        door.wait_for("Your choice")
        door.send(b"qy")
        assert door.finish() == 0
    finally:
        door.close()
    assert "back to the BBS, exit code 0" in text_of(log)
    assert "dropfile" in text_of(old) and "exit code" not in text_of(old)


def test_a_full_log_is_rotated_once_and_every_writer_follows(tmp_path: Path) -> None:
    """Two processes append to one file rotated at 2,000 bytes, keeping 3 old ones, taking
    turns of 10 lines (pipes pass the turn: on a busy machine one writer could otherwise
    finish before the other starts, and its lines be rotated away): the file is rotated
    (never more than 3 old ones), and each writer's lines are in the files in its order,
    its newest kept -- each followed the other's rotations.  (A file may grow past the size
    while the other writer holds the rotation's lock: how far depends on the scheduler, so
    it is not asserted.)"""
    path = tmp_path / "reussite.log"
    lines, turn = 300, 10
    to_child, from_parent = os.pipe()
    to_parent, from_child = os.pipe()
    pid = os.fork()
    if pid == 0:  # the second writer: a process of its own, as a worker is
        code = 1
        try:
            _write_lines(path, "child", lines, turn, wait=to_child, done=from_child)
            code = 0
        finally:
            os._exit(code)
    _write_lines(path, "parent", lines, turn, wait=to_parent, done=from_parent, first=True)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    files = [path, *(path.with_name(f"reussite.log.{n}") for n in (1, 2, 3))]
    assert all(f.exists() for f in files) and not path.with_name("reussite.log.4").exists()
    written = [line for f in reversed(files) if f.exists()
               for line in f.read_text().splitlines()]
    for who in ("parent", "child"):
        numbers = [int(line.split()[1]) for line in written if line.startswith(who)]
        assert numbers and numbers == sorted(numbers), (who, numbers)
        assert numbers[-1] == lines - 1  # the newest kept


def _write_lines(path: Path, who: str, count: int, turn: int, wait: int, done: int,
                 first: bool = False) -> None:
    """Write ``count`` lines, ``turn`` at a time: before each turn (but the first writer's
    first) read a byte from ``wait``, after it write one to ``done``."""
    logger = logging.getLogger(f"test.rotation.{who}")
    logger.propagate = False
    logger.setLevel(logging.INFO)
    handler = open_log(path, "%(message)s", max_bytes=2000, backups=3)
    logger.addHandler(handler)
    try:
        for i in range(count):
            if i % turn == 0 and not (first and i == 0):
                assert os.read(wait, 1) == b"."
            logger.info("%s %d %s", who, i, "x" * 20)
            if i % turn == turn - 1:
                os.write(done, b".")
    finally:
        logger.removeHandler(handler)
        handler.close()
