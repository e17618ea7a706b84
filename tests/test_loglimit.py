"""Repeating warnings are held back: a few of each kind per minute, then a count."""

from __future__ import annotations

import logging

from door.loglimit import RepeatLimit


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def record(msg: str, *args: object, level: int = logging.WARNING,
           name: str = "telnetlib3.stream_writer") -> logging.LogRecord:
    return logging.LogRecord(name, level, __file__, 1, msg, args, None)


def test_a_burst_per_kind_then_a_count_on_the_next_window() -> None:
    clock = Clock()
    limit = RepeatLimit(burst=3, window_s=60, clock=clock)
    passed = [limit.filter(record("bad option from %s", f"peer{i}")) for i in range(10)]
    assert passed == [True] * 3 + [False] * 7
    assert limit.filter(record("another kind %s", 1))  # kinds are counted apart
    clock.now = 61
    later = record("bad option from %s", "peer99")
    assert limit.filter(later)
    assert later.getMessage() == ("bad option from peer99 (and 7 more like this in the last "
                                  "60 s, not logged)")
    again = record("bad option from %s", "peer100")
    assert limit.filter(again) and "more like this" not in again.getMessage()


def test_info_passes_and_one_record_gets_one_verdict_at_every_handler() -> None:
    limit = RepeatLimit(burst=1, clock=Clock())
    assert all(limit.filter(record("connect %s", i, level=logging.INFO)) for i in range(50))
    first, second = record("refused %s", 1), record("refused %s", 2)
    assert limit.filter(first) and limit.filter(first)  # stderr, then the log file
    assert not limit.filter(second) and not limit.filter(second)


def test_on_real_handlers(tmp_path) -> None:
    from door.loglimit import limit_repeats

    logger = logging.getLogger("test.loglimit")
    logger.propagate = False
    handler = logging.FileHandler(tmp_path / "log.txt", encoding="utf-8")
    logger.addHandler(handler)
    remove = limit_repeats([handler])
    try:
        for i in range(100):
            logger.warning("flood %d", i)
    finally:
        remove()
        logger.removeHandler(handler)
        handler.close()
    assert (tmp_path / "log.txt").read_text().splitlines() == [f"flood {i}" for i in range(5)]
