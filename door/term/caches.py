"""The terminal layer's caches that callers fill as they draw, emptied together once a burst
of calls is over (door/serve/collector.py's quiet collection, issue #36).

Each is bounded, and each fills again within a few frames; but what a burst (a flood, a
fuzzer typing random text) put in them lives on, spread over the memory that the burst's
calls have freed, and keeps whole arenas of Python's allocator from going back to the
system once the burst is over.
"""

from __future__ import annotations

from . import render, screen, width


def forget_caches() -> None:
    """Empty them all: drawn text runs, shared idle rows, escape sequences, text widths."""
    screen.forget_runs()
    render.forget_common_rows()
    for cached in (render.sgr_change, render.cursor_move, width.char_width,
                   width._wide_width, width._wide_clip):
        cached.cache_clear()
