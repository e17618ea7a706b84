"""A worker's side of its channel to the supervisor (``serve --workers``, door/serve/workers.py),
once it listens: its failed logins told to the supervisor, the other workers' applied to its
own guard (door/gate/guard.py), one JSON line each way."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket

from ..gate.guard import LoginLimiter

log = logging.getLogger(__name__)

MAX_LINE = 65536
"""Bytes of one line on the channel, at most (a failure is a few dozen)."""


class SupervisorLink:
    """The channel of one worker, seen from the worker."""

    def __init__(self, channel: socket.socket, limiter: LoginLimiter) -> None:
        self.channel, self.limiter = channel, limiter
        self._writer: asyncio.StreamWriter | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        reader, self._writer = await asyncio.open_unix_connection(sock=self.channel,
                                                                  limit=MAX_LINE)
        self.limiter.publish = self._tell
        self._task = asyncio.create_task(self._listen(reader))

    def _tell(self, event: list[str]) -> None:
        if self._writer is not None and not self._writer.is_closing():
            self._writer.write(json.dumps({"guard": event}).encode() + b"\n")

    async def _listen(self, reader: asyncio.StreamReader) -> None:
        while True:
            try:
                line = await reader.readline()
            except (ValueError, OSError) as exc:  # a line past MAX_LINE: not ours
                log.warning("supervisor link: %s; no more failed logins from the others", exc)
                return
            if not line:
                return
            try:
                message = json.loads(line)
                self.limiter.apply(message["guard"], float(message.get("age", 0.0)))
            except (ValueError, KeyError, TypeError):
                continue

    async def stop(self) -> None:
        self.limiter.publish = None
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._writer is not None:
            self._writer.close()
