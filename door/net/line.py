"""Has the caller's line dropped?  Asked of the kernel, not of the bytes still to be read.

A caller who pastes a lot and hangs up leaves the end of their stream (a FIN, a reset, a
pty's hang-up) behind the bytes the door has not taken yet: reading is paced, or paused
while the door catches up, so the transport cannot see it.  ``poll`` can: POLLRDHUP (Linux)
is set as soon as the peer has closed its side, POLLHUP and POLLERR on a reset socket, a
pipe with no writer left or a hung-up pty, however many bytes still wait in front of them.
Without POLLRDHUP (other systems) a plain FIN is seen only once those bytes are read, as
before; a reset, a closed pipe and a hung-up pty still are.
"""

from __future__ import annotations

import select

RDHUP = getattr(select, "POLLRDHUP", 0)
DROPPED = select.POLLHUP | select.POLLERR | select.POLLNVAL | RDHUP
"""Events that say the far end is gone (POLLNVAL: the descriptor itself is closed)."""


def line_dropped(fd: int) -> bool:
    """True when the far end of ``fd`` (a socket, pipe or pty) has hung up or reset,
    whatever is still buffered; False when it has not, or the system cannot say."""
    if fd < 0:
        return False
    try:
        poller = select.poll()
        poller.register(fd, RDHUP)  # HUP, ERR and NVAL are always reported; data is not
        events = poller.poll(0)
    except (AttributeError, OSError, ValueError):  # no poll() here, or no such descriptor
        return False
    return any(mask & DROPPED for _, mask in events)
