"""Reading what a peer sends without letting it choose how much memory that takes."""

from __future__ import annotations

from aiohttp import StreamReader

CHUNK = 64 * 1024


class TooLarge(ValueError):
    """More bytes than the reader allows."""


async def read_at_most(stream: StreamReader, limit: int) -> bytes:
    """The whole body of ``stream`` (a request's or a response's), or TooLarge as soon as
    it passes ``limit`` bytes.  ``StreamReader.read(n)`` returns what has arrived so far,
    not n bytes: a large body comes in many reads."""
    chunks: list[bytes] = []
    size = 0
    while chunk := await stream.read(CHUNK):
        size += len(chunk)
        if size > limit:
            raise TooLarge(f"more than {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)
