"""The one interface every transport gives a session: bytes in, bytes out, a size, a charset."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable

from ..term import Charset

DEFAULT_COLS, DEFAULT_ROWS = 80, 24
MAX_ROWS = 60


def sane_size(cols: int | None, rows: int | None) -> tuple[int, int]:
    """Clamp a reported window size: always 80 columns wide, 24 to 60 rows tall."""
    rows = rows if rows and rows >= DEFAULT_ROWS else DEFAULT_ROWS
    return DEFAULT_COLS, min(rows, MAX_ROWS)


class Terminal(ABC):
    """One caller's connection, whatever the transport.

    ``read`` returns raw bytes (``b""`` at end of connection); the session decodes keys.
    Transports call :meth:`resized` when the window changes; the session listens through
    ``on_resize``.
    """

    def __init__(self, cols: int = DEFAULT_COLS, rows: int = DEFAULT_ROWS,
                 charset: Charset | None = None, term_type: str = "", peer: str = "") -> None:
        self.cols, self.rows = sane_size(cols, rows)
        self.charset = charset or Charset("cp437")
        self.color = True
        self.term_type = term_type.lower()
        self.peer = peer
        self.on_resize: Callable[[int, int], None] | None = None

    def resized(self, cols: int, rows: int) -> None:
        size = sane_size(cols, rows)
        if size != (self.cols, self.rows):
            self.cols, self.rows = size
            if self.on_resize:
                self.on_resize(*size)

    @abstractmethod
    async def read(self) -> bytes:
        """The next bytes from the caller; ``b""`` when the caller has gone."""

    @abstractmethod
    def write(self, data: bytes) -> None: ...

    @abstractmethod
    async def drain(self) -> None:
        """Wait until written bytes are on their way (raises ConnectionError if gone)."""

    @abstractmethod
    async def close(self) -> None: ...
