"""The one log policy (door/logs/policy.py): repeating warnings held back and summed up in one
line, and what a stranger sent escaped, on real handlers writing real files."""

from __future__ import annotations

import logging
from pathlib import Path

from door.logs.policy import RepeatLimit, SafeFormatter, apply_log_policy, limit_repeats


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def record(msg: str, *args: object, level: int = logging.WARNING,
           name: str = "telnetlib3.stream_writer") -> logging.LogRecord:
    return logging.LogRecord(name, level, __file__, 1, msg, args, None)


class Lines(logging.Handler):
    """The lines one logger writes, formatted by the door's policy."""

    def __init__(self, limit: RepeatLimit) -> None:
        super().__init__()
        self.lines: list[str] = []
        self.setFormatter(SafeFormatter("%(levelname)s %(message)s"))
        self.addFilter(limit)

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


def a_logger(name: str, limit: RepeatLimit) -> tuple[logging.Logger, Lines]:
    logger = logging.getLogger(name)
    logger.propagate = False
    logger.handlers[:] = []
    logger.setLevel(logging.DEBUG)
    handler = Lines(limit)
    logger.addHandler(handler)
    return logger, handler


def test_a_burst_per_kind_then_one_summary_line_when_the_window_ends() -> None:
    clock = Clock()
    limit = RepeatLimit(burst=3, window_s=60, clock=clock)
    logger, out = a_logger("test.loglimit.burst", limit)
    for i in range(253):
        clock.now = i * 0.1
        logger.warning("bad option from %s", f"peer{i}")
    logger.warning("another kind %s", 1)  # kinds are counted apart
    assert out.lines == ["WARNING bad option from peer0", "WARNING bad option from peer1",
                         "WARNING bad option from peer2", "WARNING another kind 1"]
    clock.now = 61
    logger.info("a caller connects")  # any line after the window brings the summary
    assert out.lines[4:] == [
        "WARNING … 250 more like this in the last 60 s, not logged: bad option from peer252",
        "INFO a caller connects"]
    logger.warning("bad option from %s", "peer300")  # a new window: let through again
    assert out.lines[-1] == "WARNING bad option from peer300"


def test_info_passes_and_one_record_gets_one_verdict_at_every_handler() -> None:
    limit = RepeatLimit(burst=1, clock=Clock())
    assert all(limit.filter(record("connect %s", i, level=logging.INFO)) for i in range(50))
    first, second = record("refused %s", 1), record("refused %s", 2)
    assert limit.filter(first) and limit.filter(first)  # stderr, then the log file
    assert not limit.filter(second) and not limit.filter(second)


def test_a_flood_gives_a_summary_line_in_the_file_when_the_server_stops(
        tmp_path: Path) -> None:
    """A real file handler with the door's policy; the count comes out when the limit is
    taken off (``serve`` stopping), though the window is not over."""
    from door.logs.files import open_log

    logger = logging.getLogger("test.loglimit.file")
    logger.propagate = False
    handler = open_log(tmp_path / "log.txt", "%(levelname)s %(name)s: %(message)s")
    logger.addHandler(handler)
    remove = limit_repeats([handler])
    try:
        for i in range(255):
            logger.warning("flood %d", i)
    finally:
        remove()
        logger.removeHandler(handler)
        handler.close()
    lines = (tmp_path / "log.txt").read_text().splitlines()
    assert lines[:5] == [f"WARNING test.loglimit.file: flood {i}" for i in range(5)]
    assert len(lines) == 6 and lines[5].startswith(
        "WARNING test.loglimit.file: … 250 more like this in the last ")
    assert lines[5].endswith(" s, not logged: flood 254")


def test_what_a_stranger_sent_is_escaped_and_tracebacks_keep_their_lines() -> None:
    limit = RepeatLimit(clock=Clock())
    logger, out = a_logger("test.loglimit.escape", limit)
    logger.info("login %s from %s", "Eve\x1b]0;pwned\x07\x1b[2J", "a\nFORGED LINE")
    logger.info("terminal type %r, path %s", "xterm\x1b[31m", "/\u202eevil\x9b")
    try:
        raise ValueError("bad \x1b[5m handle\nsecond line")
    except ValueError:
        logger.exception("handle %s", "\x00x")
    assert out.lines[0] == "INFO login Eve\\x1b]0;pwned\\x07\\x1b[2J from a\\nFORGED LINE"
    assert out.lines[1] == "INFO terminal type 'xterm\\x1b[31m', path /\\u202eevil\\x9b"
    error = out.lines[2].splitlines()
    assert error[0] == "ERROR handle \\x00x" and error[1].startswith("Traceback")
    assert error[-2:] == ["ValueError: bad \\x1b[5m handle", "second line"]
    assert not any(ch in "".join(out.lines) for ch in "\x1b\x07\x00\u202e\x9b")


def test_apply_log_policy_on_stderr_too(capsys) -> None:
    logger = logging.getLogger("test.loglimit.stderr")
    logger.propagate = False
    handler = apply_log_policy(logging.StreamHandler())
    logger.addHandler(handler)
    try:
        logger.warning("from %s", "\x1b[31mred")
    finally:
        logger.removeHandler(handler)
    assert "from \\x1b[31mred" in capsys.readouterr().err
