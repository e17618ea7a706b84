"""Whether the BBS that started ``reussite door`` is still there.

A door learns that its caller hung up from its pty or pipe (EIO, end of file) or from the
BBS's SIGHUP.  A BBS that dies (killed, crashed) while another process still holds the pty
open (a helper of the BBS, a terminal multiplexer) sends neither, and the visit would go on
to the idle limit.  This watches the process that started the door: the door's parent, and
when that is a shell that only runs the door (a door script: ``#!/bin/sh`` … ``reussite
door``), the shell's parent too, and so on up to the first process that is no shell.

How, on Linux 5.3 and later: ``pidfd_open`` gives a descriptor that becomes readable when
that process ends, whoever its parent is; the event loop waits on it, so nothing polls and a
reused process number cannot fool it.  Elsewhere the door asks every :data:`POLL_S` seconds
whether its parent changed (``os.getppid()``: an orphan is taken over by init or a
subreaper), and, where there is a /proc, whether the processes above a shell parent are
still there under their names.

Not ``prctl(PR_SET_PDEATHSIG)``: it fires when the *thread* that started the door ends, not
the process, so a BBS that starts doors from a thread that then goes away (a node's thread,
a thread pool trimming itself) would have its doors killed in the middle of a visit; it is
also a signal (one more to tell apart from the BBS's own SIGHUP), cleared by a set-uid
exec, and follows the direct parent only.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
from collections.abc import Callable
from dataclasses import dataclass

SHELLS = frozenset({"sh", "ash", "bash", "dash", "ksh", "mksh", "zsh", "busybox"})
"""Process names of shells: a door script's shell is not the BBS, its parent may be."""
MAX_LAUNCHERS = 4
"""Processes watched at most (a parent and the shells above it)."""
POLL_S = 1.0
"""Without pidfd_open: how often the door asks whether its parent changed."""


@dataclass(frozen=True)
class Launcher:
    """One process between the door and the BBS (the BBS itself last)."""

    pid: int
    name: str

    def __str__(self) -> str:
        return f"process {self.pid}" + (f" ({self.name})" if self.name else "")


def _stat(pid: int) -> tuple[str, int] | None:
    """(name, parent's pid) of ``pid`` from Linux's /proc; None elsewhere or once gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return None
    head, _, tail = text.rpartition(")")  # the name may hold spaces and brackets
    fields = tail.split()
    if "(" not in head or len(fields) < 2 or not fields[1].isdigit():
        return None
    return head.split("(", 1)[1], int(fields[1])


def launchers() -> list[Launcher]:
    """The door's parent and, while it is a shell, the process above it: nearest first."""
    pid = os.getppid()
    found = _stat(pid)
    chain = [Launcher(pid, found[0] if found else "")]
    while found is not None and found[0] in SHELLS and len(chain) < MAX_LAUNCHERS:
        pid = found[1]
        if pid <= 1:  # init, or a shell started by nothing: the shell is all there is
            break
        found = _stat(pid)
        if found is None:
            break
        chain.append(Launcher(pid, found[0]))
    return chain


class BBSWatch:
    """Once started, calls ``on_gone(why)`` once, in the event loop, when a process that
    started the door has ended (``why``: a sentence for the log).  Made as the door starts,
    before its loop runs: the parent it records is the BBS, not init after an early death."""

    def __init__(self) -> None:
        self.parent = os.getppid()
        self.chain = launchers()
        self._pidfds: dict[int, Launcher] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._on_gone: Callable[[str], None] | None = None
        self._poll: asyncio.TimerHandle | None = None
        self._told = False

    def start(self, loop: asyncio.AbstractEventLoop, on_gone: Callable[[str], None]) -> None:
        self._loop, self._on_gone = loop, on_gone
        for launcher in self.chain:
            try:
                fd = os.pidfd_open(launcher.pid)
            except (AttributeError, OSError):  # not Linux 5.3+, or gone already
                break
            self._pidfds[fd] = launcher
            loop.add_reader(fd, self._ended, fd)
        if len(self._pidfds) < len(self.chain):  # what pidfds cannot follow: the parent
            self._poll = loop.call_later(POLL_S, self._check)
        why = self.gone()
        if why is not None:  # it ended while the door was starting
            loop.call_soon(self._tell, why)

    def gone(self) -> str | None:
        """Why the BBS is gone, or None while it is there: asked now, not waited for (the
        visit asks again before it logs an idle time-out)."""
        if os.getppid() != self.parent:
            return f"the door's parent, {self.chain[0]}, ended"
        followed = set(self._pidfds.values())
        for fd, launcher in self._pidfds.items():
            with contextlib.suppress(OSError, ValueError):
                if select.select([fd], [], [], 0)[0]:
                    return f"{launcher} ended"
        for launcher in self.chain[1:]:  # no pidfd for it: Linux's /proc, by name
            if launcher not in followed and launcher.name:
                found = _stat(launcher.pid)
                if found is None or found[0] != launcher.name:
                    return f"{launcher} ended"
        return None

    def stop(self) -> None:
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None
        for fd in self._pidfds:
            if self._loop is not None:
                with contextlib.suppress(Exception):
                    self._loop.remove_reader(fd)
            with contextlib.suppress(OSError):
                os.close(fd)
        self._pidfds.clear()

    def _ended(self, fd: int) -> None:
        launcher = self._pidfds.get(fd)
        if self._loop is not None:
            self._loop.remove_reader(fd)
        if launcher is not None:
            self._tell(f"{launcher} ended")

    def _check(self) -> None:
        why = self.gone()
        if why is not None:
            self._tell(why)
        elif self._loop is not None:
            self._poll = self._loop.call_later(POLL_S, self._check)

    def _tell(self, why: str) -> None:
        if not self._told and self._on_gone is not None:
            self._told = True
            self._on_gone(why)
