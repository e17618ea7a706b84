"""The kernel send buffer every listener gives its callers (telnet, SSH, RLogin, web).

Small on purpose: a caller who never reads fills it soon, so Session's drain times out and
drops them, instead of the door queueing frames for them in memory.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterable

SEND_BUFFER = 64 * 1024
"""Kernel send buffer per caller (the kernel doubles it): a frame is a few KiB, and a caller
who never reads fills it soon, so Session's drain times out and drops them."""


def bound_send_buffers(sockets: Iterable[socket.socket] | None) -> None:
    """Accepted sockets inherit the listening socket's buffer sizes (Linux, BSD)."""
    for sock in sockets or ():
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
