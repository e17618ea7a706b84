"""Member boards: who an RLogin caller is, from sysop.ini's ``[boards]`` and their opening.

A board's BBS sends its shared secret in one RLogin user-name field and its caller's handle
in the other (Synchronet's ``rlogin.js`` sends the alias first, ENiGMA½'s rlogin modules and
Mystic the password first: either order is taken).  Door networks often put the board's own
tag before the handle (``[XA]Pat``); it is dropped, since the board is known by its secret.

The caller becomes the player ``handle@TAG``: store source ``board:TAG``, user id the handle in
lower case.  So a board's callers keep their own scores and messages, two boards' callers of
the same handle are two players, and every list that shows an alias shows the board too.
"""

from __future__ import annotations

import hmac
import re
from dataclasses import dataclass

from ..config import Board
from ..net.rlogin import Hello
from ..store.text import clean_line

SOURCE_PREFIX = "board:"
HANDLE_MAX = 30  # with "@" and a tag of up to 8, an alias fits the store's 40
_TAG_PREFIX = re.compile(r"^\s*\[[^\]]{0,16}\]\s*")


def board_source(tag: str) -> str:
    """The store's ``players.source`` of a board's callers."""
    return f"{SOURCE_PREFIX}{tag}"


@dataclass(frozen=True)
class BoardLogin:
    """An RLogin caller a member board vouches for."""

    board: Board
    handle: str
    xtrn: str | None = None  # the door code asked for, if any

    @property
    def alias(self) -> str:
        return f"{self.handle}@{self.board.tag}"

    @property
    def source(self) -> str:
        return board_source(self.board.tag)

    @property
    def user_id(self) -> str:
        return self.handle.lower()


class BoardRefused(Exception):
    """The opening names no member board, or no caller; ``str()`` is the line for the log."""


def _same(secret: str, field: str) -> bool:
    return hmac.compare_digest(secret.encode("utf-8"), field.encode("utf-8"))


def board_login(boards: list[Board] | tuple[Board, ...], hello: Hello) -> BoardLogin:
    """The board whose secret is in one user-name field (boards already matched by the
    caller's address), and the handle in the other; BoardRefused otherwise."""
    for board in boards:
        # Both fields are compared for every board: the time taken says nothing of which.
        in_server = _same(board.secret, hello.server_user)
        in_client = _same(board.secret, hello.client_user)
        if in_server or in_client:
            handle = hello.client_user if in_server else hello.server_user
            handle = clean_line(_TAG_PREFIX.sub("", handle), HANDLE_MAX)
            if not handle:
                raise BoardRefused(f"board {board.tag} sent no user name")
            return BoardLogin(board, handle, hello.xtrn or None)
    raise BoardRefused("wrong secret")
