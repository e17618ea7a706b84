"""Charset choice: the hints in order, and the cursor probe end to end over telnet."""

from __future__ import annotations

import pytest
from pyteterm import TelnetCaller

from door.term.detect import PROBE, LateAnswer, from_hints, from_probe, read_reports


@pytest.mark.parametrize(("kwargs", "name", "glyphs"), [
    ({"saved": "ascii", "bbs_hint": "gr", "term_type": "syncterm"}, "ascii", False),
    ({"saved": "cp437+glyphs", "lang": "en_US.UTF-8"}, "cp437", True),
    ({"bbs_hint": "GR", "lang": "en_US.UTF-8"}, "cp437", False),
    ({"bbs_hint": "NG", "term_type": "syncterm"}, "ascii", False),
    ({"term_type": "SyncTERM", "lang": "en_US.UTF-8"}, "cp437", True),
    ({"term_type": "dumb"}, "ascii", False),
    ({"term_type": "xterm-256color", "lang": "en_US.UTF-8"}, "utf8", False),
    ({"term_type": "xterm", "charset": "UTF-8"}, "utf8", False),
    ({"term_type": "ansi", "lang": "C", "charset": "IBM437"}, "cp437", False),
])
def test_hints_in_the_issues_order(kwargs: dict, name: str, glyphs: bool) -> None:
    choice = from_hints(**kwargs)
    assert choice is not None
    assert (choice.charset.name, choice.charset.c0_glyphs) == (name, glyphs)


@pytest.mark.parametrize("kwargs", [{}, {"term_type": "xterm-256color"}, {"lang": "C"},
                                    {"saved": "klingon", "bbs_hint": "maybe"}])
def test_no_conclusive_hint_means_probe(kwargs: dict) -> None:
    assert from_hints(**kwargs) is None


def test_reading_probe_answers() -> None:
    reports, rest = read_reports(b"ab\x1b[3;1Rc\x1b[3;2R\x1b[A")
    assert reports == [(3, 1), (3, 2)] and rest == b"abc\x1b[A"
    assert from_probe(reports).charset.name == "utf8"
    assert from_probe([(3, 1), (3, 3)]).charset.name == "cp437"
    assert from_probe([(3, 1)]) is None and from_probe([(3, 1), (4, 1)]) is None
    assert PROBE.startswith(b"\r\x1b[6n") and PROBE.endswith(b"\x1b[6n")


async def test_probe_picks_utf8_for_a_utf8_terminal_that_answers(screen_door) -> None:
    port = await screen_door()
    caller = await TelnetCaller.connect(port, charset="utf8", term_type="xterm-256color")
    await caller.wait_for("Press any key")
    assert "R  É  U  S  S  I  T  E" in caller.term.text
    assert "╔" in caller.term.text and "╔".encode() in caller.term.raw
    assert b"\xc9" not in caller.term.raw.replace("É".encode(), b"")
    caller.close()


async def test_probe_picks_cp437_for_a_cp437_terminal_that_answers(screen_door) -> None:
    port = await screen_door()
    caller = await TelnetCaller.connect(port, charset="cp437")
    await caller.wait_for("Press any key")
    assert "R  É  U  S  S  I  T  E" in caller.term.text and "╔" in caller.term.text
    assert "╔".encode() not in caller.term.raw
    caller.close()


async def test_silent_terminal_gets_cp437_and_the_title(screen_door) -> None:
    port = await screen_door()
    caller = await TelnetCaller.connect(port, charset="utf8", answer_cpr=False)
    await caller.wait_for("Press any key")
    assert b"\xc9" in caller.term.raw  # CP437 ╔, shown as garbage by this UTF-8 terminal
    assert "╔" not in caller.term.text
    caller.send("x")  # keys still work after the probe gave up
    await caller.wait_for("Test pattern")
    caller.close()


def test_a_late_answer_is_picked_out_of_what_the_caller_sends() -> None:
    """Two cursor reports, however the network cuts them, decide; the bytes around them
    are the caller's."""
    late = LateAnswer(until=10.0)
    assert late.feed(b"\x1b[5;1R\x1b[5", 1.0) == (b"", None, False)
    rest, choice, over = late.feed(b";2Rjo", 1.5)
    assert (rest, over) == (b"jo", True)
    assert choice is not None and choice.charset.name == "utf8"
    late = LateAnswer(until=10.0)
    rest, choice, over = late.feed(b"\x1b[5;1R\x1b[5;3R", 1.0)
    assert (rest, over) == (b"", True)
    assert choice is not None and choice.charset.name == "cp437"


def test_a_key_before_any_answer_or_the_deadline_ends_the_listening() -> None:
    """A terminal answers before its user can see a prompt: a key first means no answer is
    coming (a NUL is the door's own wake-up, not a key); so does the deadline."""
    late = LateAnswer(until=10.0)
    assert late.feed(b"\0", 1.0) == (b"\0", None, False)
    assert late.feed(b"\x1b[", 1.0) == (b"", None, False)  # a report begun, maybe ...
    assert late.feed(b"Ax", 1.0) == (b"\x1b[Ax", None, True)  # ... no: an arrow, a key
    late = LateAnswer(until=10.0)
    assert late.feed(b"\x1b[5;1R", 1.0) == (b"", None, False)
    assert late.feed(b"\x1b[5;2R", 11.0) == (b"\x1b[5;2R", None, True)
