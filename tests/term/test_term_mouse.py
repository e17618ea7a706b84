"""Mouse reports in the key decoder: the SGR form always, the X10 form once the session has
asked for the mouse (SCO's F1 is the same ``CSI M`` and stays F1), releases and motion
swallowed, split reads decoded as whole ones, and which terminals are asked."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from door.term.keys import Key, KeyDecoder
from door.term.mouse import reports_mouse


def decode(data: bytes, mouse: bool = False, encoding: str = "cp437") -> list[Key]:
    decoder = KeyDecoder(encoding)
    decoder.mouse = mouse
    return decoder.feed(data) + decoder.flush()


@pytest.mark.parametrize(("report", "key"), [
    (b"\x1b[<0;35;12M", Key("click", "", 34, 11)),
    (b"\x1b[<2;1;1M", Key("right-click", "", 0, 0)),
    (b"\x1b[<1;80;24M", Key("middle-click", "", 79, 23)),
    (b"\x1b[<64;3;4M", Key("wheel-up", "", 2, 3)),
    (b"\x1b[<65;3;4M", Key("wheel-down", "", 2, 3)),
    (b"\x1b[<16;5;6M", Key("click", "", 4, 5)),    # Ctrl-click: a click
    (b"\x1b[<4;200;60M", Key("click", "", 199, 59)),  # Shift, a wide window
])
def test_sgr_presses_are_keys_with_their_cell(report: bytes, key: Key) -> None:
    assert decode(report) == [key]
    assert decode(report, mouse=True) == [key]
    assert key.is_mouse and not key.is_char


@pytest.mark.parametrize("report", [
    b"\x1b[<0;35;12m",   # a release
    b"\x1b[<32;35;12M",  # motion with the button down
    b"\x1b[<35;35;12M",  # motion, no button
    b"\x1b[<66;1;1M",    # the wheel sideways
    b"\x1b[<0;0;5M",     # column 0: no cell
    b"\x1b[<0;5M",       # two fields
    b"\x1b[<0;1234567;5M",  # absurd
])
def test_what_is_no_click_is_swallowed_whole(report: bytes) -> None:
    assert decode(report + b"a") == [Key("char", "a")]


def test_x10_reports_once_the_mouse_is_on() -> None:
    press, release = b"\x1b[M !+", b"\x1b[M#!+"   # column 1, row 11; button 3: a release
    assert decode(press + release + b"q", mouse=True) == [Key("click", "", 0, 10),
                                                          Key("char", "q")]
    assert decode(b"\x1b[M\"%&", mouse=True) == [Key("right-click", "", 4, 5)]
    assert decode(b"\x1b[M`##", mouse=True) == [Key("wheel-up", "", 2, 2)]
    # Past column 95 the column's byte is above 127: read back from CP437.
    assert decode(b"\x1b[M \xa0!", mouse=True) == [Key("click", "", 127, 0)]


def test_sco_f1_stays_f1() -> None:
    assert decode(b"\x1b[M") == [Key("f1")]
    assert decode(b"\x1b[Mq") == [Key("f1"), Key("char", "q")]  # the mouse off: F1 at once
    decoder = KeyDecoder()
    decoder.mouse = True
    assert decoder.feed(b"\x1b[M") == []  # the mouse on: a report's bytes may follow ...
    assert decoder.pending
    assert decoder.flush() == [Key("f1")]  # ... none did (the session's Esc delay): F1


reports = st.builds(
    lambda sgr, button, col, row, release: (
        f"\x1b[<{button};{col};{row}{'m' if release else 'M'}".encode() if sgr
        else b"\x1b[M" + bytes([32 + button % 96, 32 + col % 200, 32 + row % 200])),
    st.booleans(), st.integers(0, 99), st.integers(1, 300), st.integers(1, 300), st.booleans())
streams = st.lists(st.one_of(reports, st.sampled_from([b"a", b"\r", b"\x1b[A", b"\x1bOw"])),
                   max_size=6).map(b"".join)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(data=streams, encoding=st.sampled_from(("cp437", "utf8")), mouse=st.booleans())
def test_reports_split_into_single_bytes_decode_the_same(data: bytes, encoding: str,
                                                          mouse: bool) -> None:
    whole = decode(data, mouse, encoding)
    split = KeyDecoder(encoding)
    split.mouse = mouse
    one_by_one = [key for i in range(len(data)) for key in split.feed(data[i:i + 1])]
    assert one_by_one + split.flush() == whole
    for key in whole:
        assert key.x >= 0 and key.y >= 0
        assert key.is_mouse or (key.x, key.y) == (0, 0)


@pytest.mark.parametrize(("term_type", "reports"), [
    ("xterm", True), ("XTERM-256COLOR", True), ("putty", True), ("syncterm", True),
    ("screen.xterm-256color", True), ("tmux-256color", True), ("rxvt-unicode", True),
    ("ansi", False), ("vt100", False), ("linux", False), ("", False), ("dumb", False),
])
def test_which_terminals_are_asked(term_type: str, reports: bool) -> None:
    assert reports_mouse(term_type) is reports
