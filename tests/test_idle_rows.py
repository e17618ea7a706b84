"""Idle callers' screens share their equal rows (door/serve/idle_rows.py): only screens unchanged
across a whole look, once, and never a row changed since its frame."""

from __future__ import annotations

from typing import Any

from door.serve.idle_rows import IdleRows
from door.term import Renderer, Screen


class Caller:
    """What IdleRows reads of a session: its screen and renderer."""

    def __init__(self, screen: Screen, renderer: Renderer) -> None:
        self.screen, self.renderer = screen, renderer


def caller(text: str) -> Any:
    screen, renderer = Screen(), Renderer()
    screen.put(2, 4, text)
    renderer.frame(screen)
    return Caller(screen, renderer)


async def test_screens_idle_across_a_look_share_their_rows() -> None:
    callers = [caller("Handle:"), caller("Handle:"), caller("Handle:")]
    idle = IdleRows(lambda: callers)
    await idle.look()  # the first look only notes each screen's version
    assert idle.shared == 0
    callers[2].screen.put(5, 0, "typing")  # this one is not idle: drawn since
    await idle.look()
    first, second, busy = (c.screen for c in callers)
    assert first.cells[2] is second.cells[2]
    assert busy.cells[2] is not first.cells[2]
    assert all(a is b for a, b in zip(first.cells, second.cells, strict=True))
    shared = idle.shared
    assert shared >= 24  # the second screen's rows at least
    await idle.look()  # unchanged since: not hashed again
    assert idle.shared == shared


async def test_a_screen_with_a_frame_not_yet_sent_is_left_alone() -> None:
    waiting = caller("Handle:")
    waiting.screen.put(3, 0, "not sent yet")
    idle = IdleRows(lambda: [waiting, caller("Handle:")])
    await idle.look()
    await idle.look()
    assert waiting.screen.cells[2] is not waiting.screen.cells[0]  # its rows are its own
