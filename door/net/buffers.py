"""Buffer sizes every listener shares: the kernel send buffer it gives its callers (telnet,
SSH, RLogin, web), and how much of a caller's input the door holds before it stops reading.

Small on purpose: a caller who never reads fills the send buffer soon, so Session's drain
times out and drops them, instead of the door queueing frames for them in memory; a caller
who sends faster than the door takes keys (a paste, a flood) waits in the kernel's buffers
(and their own), not in the door's memory.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterable

SEND_BUFFER = 64 * 1024
"""Kernel send buffer per caller (the kernel doubles it): a frame is a few KiB, and a caller
who never reads fills it soon, so Session's drain times out and drops them."""
READ_SIZE = 4096
"""The most one read hands the session: a paste is taken (and paced, and looked at for a
hang-up) a few thousand keys at a time, never all at once."""
INPUT_HELD = 64 * 1024
"""Bytes of a caller's input waiting for the session before the socket stops being read
(read again once half of them are taken): a flood then waits in the kernel's buffers."""


def bound_send_buffers(sockets: Iterable[socket.socket] | None) -> None:
    """Accepted sockets inherit the listening socket's buffer sizes (Linux, BSD)."""
    for sock in sockets or ():
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
