"""The quiet collection (door/serve/collector.py) empties the caches a burst of calls filled
before it collects and trims (issue #36: RSS back near its level before the burst); a
collection while calls are still ending leaves them be."""

from __future__ import annotations

from door.serve.collector import CallCollector
from door.term import render, screen, width
from door.term.caches import forget_caches


def test_the_quiet_collection_empties_the_caches_first() -> None:
    emptied: list[int] = []
    collector = CallCollector(batch=10**6, forget=[lambda: emptied.append(1)])
    collector.collect(trim=True)
    assert emptied == []  # no call ended since the last collection: nothing to do
    collector.ended(live=0)
    collector.collect()  # a batch collection, calls still ending: caches kept
    assert emptied == []
    collector.ended(live=0)
    collector.collect(trim=True)
    assert emptied == [1] and collector.ended_since == 0


def test_forget_caches_empties_the_terminal_layers_caches() -> None:
    page = screen.Screen(80, 24)
    page.put(0, 0, "a run of text kept for the next frame", screen.Attr())
    render.cursor_move(3, 4, 0, 0)
    width.char_width("é")
    assert screen._RUNS and render.cursor_move.cache_info().currsize
    forget_caches()
    assert not screen._RUNS
    assert render.cursor_move.cache_info().currsize == 0
    assert width.char_width.cache_info().currsize == 0
    page.put(1, 0, "drawn again after", screen.Attr())  # the screen draws on as before
    assert "".join(cell.ch for cell in page.cells[1][:17]) == "drawn again after"
