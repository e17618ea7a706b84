"""Password hashes: what is stored, what is checked, and that a hash's memory goes back."""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest
from waiting import WAIT

from door.store.accounts import check_password, hash_password


@pytest.mark.slow
def test_a_hash_checks_its_password_and_no_other() -> None:
    stored = hash_password("correct horse")
    assert stored.startswith("scrypt$16384$8$1$")
    assert "correct horse" not in stored
    assert check_password("correct horse", stored)
    assert not check_password("correct hors", stored)
    assert not check_password("Correct horse", stored)


def test_each_hash_has_its_own_salt() -> None:
    assert hash_password("same") != hash_password("same")


@pytest.mark.parametrize("stored", ["", "plain", "md5$1$2$3$4$5", "scrypt$x$8$1$AAAA$AAAA",
                                    "scrypt$16384$8$1$not base64!$AAAA"])
def test_a_malformed_hash_is_a_refusal_not_an_error(stored: str) -> None:
    assert not check_password("anything", stored)


HASH_TWICE_PER_THREAD = """
import asyncio
from door.store.accounts import _hashing, hash_password

def rss_kib():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))

async def main():
    before = rss_kib()  # the module has hashed once already, on this thread
    for _ in range(3):
        await asyncio.gather(*(_hashing("", hash_password, "pw") for _ in range(4)))
    print(rss_kib() - before)

asyncio.run(main())
"""


@pytest.mark.slow
@pytest.mark.skipif(sys.platform != "linux" or platform.libc_ver()[0] != "glibc",
                    reason="the kept buffer is glibc's behaviour, read from /proc")
def test_hashing_threads_do_not_keep_scrypts_buffer() -> None:
    """Each hash takes a 16 MiB buffer; left to itself glibc keeps it in each hashing
    thread's heap once one such block was freed (32 MiB held for good by two threads)."""
    out = subprocess.run([sys.executable, "-c", HASH_TWICE_PER_THREAD], capture_output=True,
                         text=True, check=True, timeout=4 * WAIT)
    grown_kib = int(out.stdout)
    assert grown_kib < 8 * 1024, f"RSS grew {grown_kib} KiB over 12 hashes"


@pytest.mark.skipif(not sys.platform.startswith("linux"),
                    reason="niceness is a thread's own on Linux only; elsewhere it is left")
async def test_hashes_run_at_a_lower_priority_than_the_event_loop() -> None:
    """The event loop's thread keeps its niceness; the hashing threads take 10 more, so a
    burst of logins waits for the cores rather than the callers playing (bench/soak.py)."""
    import os
    import threading

    from door.store.accounts import HASHING_NICE, _hashing

    loop_nice = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    hashing_nice = await _hashing("127.0.0.1", lambda: os.getpriority(
        os.PRIO_PROCESS, threading.get_native_id()))
    assert hashing_nice == min(19, loop_nice + HASHING_NICE)
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == loop_nice


@pytest.mark.skipif(not sys.platform.startswith("linux"),
                    reason="niceness is a thread's own on Linux only; elsewhere it is left")
async def test_a_line_s_first_check_is_hashed_at_the_event_loop_s_priority() -> None:
    """The first lane's thread keeps the loop's niceness (door/gate/hash_budget.py): a caller's
    first try does not wait for whatever CPU the callers playing leave."""
    import os
    import threading

    from door.gate.hash_budget import FIRST
    from door.store.accounts import _hashing

    loop_nice = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    first_nice = await _hashing("127.0.0.0/24", lambda: os.getpriority(
        os.PRIO_PROCESS, threading.get_native_id()), lane=FIRST)
    assert first_nice == loop_nice
