"""ANSI art: SAUCE, the interpreter's sequences, and any bytes at all."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyteterm import PyteTerminal
from term_oracle import mismatches

from door.term.art import load_art, strip_sauce
from door.term.charset import Charset
from door.term.render import Renderer
from door.term.screen import BLACK, BLUE, RED, WHITE, YELLOW, Attr, Screen


def sauce(width: int = 80, ice: bool = False, comments: list[bytes] = (), datatype: int = 1,
          filetype: int = 1) -> bytes:
    record = bytearray(b"SAUCE00" + b"Title".ljust(35) + b"Artist".ljust(20)
                       + b"Group".ljust(20) + b"20260101" + bytes(4))
    record += bytes([datatype, filetype]) + width.to_bytes(2, "little") + (25).to_bytes(2, "little")
    record += bytes(4) + bytes([len(comments), 1 if ice else 0]) + bytes(22)
    assert len(record) == 128
    block = b"COMNT" + b"".join(c.ljust(64) for c in comments) if comments else b""
    return b"\x1a" + block + bytes(record)


def test_sauce_record_comments_and_eof_are_stripped() -> None:
    body, info = strip_sauce(b"ART\x1b[0m" + sauce(comments=[b"hello", b"world"], ice=True))
    assert body == b"ART\x1b[0m"
    assert info is not None and (info.title, info.author, info.width) == ("Title", "Artist", 80)
    assert info.ice_colors


def test_no_sauce_still_cuts_at_eof() -> None:
    assert strip_sauce(b"abc\x1ajunk") == (b"abc", None)


def test_ice_colours_do_not_blink() -> None:
    screen = Screen()
    load_art(screen, b"\x1b[5;44mA" + sauce(ice=True))
    assert screen.cells[0][0].attr == Attr(WHITE, BLUE)
    screen = Screen()
    load_art(screen, b"\x1b[5;44mA" + sauce(ice=False))
    assert screen.cells[0][0].attr == Attr(WHITE, BLUE, blink=True)


def test_width_from_sauce_wraps_narrow_art() -> None:
    screen = Screen()
    load_art(screen, b"0123456789ABC" + sauce(width=10))
    assert screen.text()[0].rstrip() == "0123456789" and screen.text()[1].rstrip() == "ABC"


def test_eighty_columns_wrap_without_crlf() -> None:
    screen = Screen()
    assert load_art(screen, b"x" * 80 + b"y") == 2
    assert screen.text()[1].rstrip() == "y"


def test_cursor_moves_erases_and_save_restore() -> None:
    screen = Screen()
    art = (b"\x1b[1;33mhello\x1b[s\x1b[5;10H\x1b[31;44mX\x1b[u!\x1b[2B\x1b[3DZ"
           b"\x1b[10;1Habcdef\x1b[3D\x1b[K\x1b7\x1b[12;1Hq\x1b8w")
    load_art(screen, art)
    text = screen.text()
    assert text[0].startswith("hello!")
    assert text[4][9] == "X" and screen.cells[4][9].attr == Attr(RED, BLUE, True)
    assert text[2][3] == "Z"
    assert text[9].startswith("abcw ") and text[11].startswith("q")
    assert screen.cells[0][0].attr == Attr(YELLOW, BLACK, True)


def test_art_taller_than_the_screen_scrolls_but_a_trailing_newline_does_not() -> None:
    screen = Screen(80, 24)
    load_art(screen, b"".join(b"line %d\r\n" % i for i in range(24)))
    assert screen.text()[0].startswith("line 0") and screen.text()[23].startswith("line 23")
    load_art(screen, b"".join(b"line %d\r\n" % i for i in range(26)))
    assert screen.text()[0].startswith("line 2")


def test_garbage_still_shows_its_text() -> None:
    screen = Screen()
    load_art(screen, b"\x1b[=255h\x1b[?7hHello\x1b[20;999H\x1b[xyz\x1bQ World\x1b[")
    text = "".join(screen.text())
    assert "Hello" in text and "World" in text and "255" not in text


def test_art_composes_and_diffs_with_live_text() -> None:
    screen = Screen()
    load_art(screen, b"\x1b[44m\x1b[2J\x1b[1;37mTITLE")
    screen.put(10, 10, "live", Attr(RED, BLACK))
    charset = Charset("cp437")
    term = PyteTerminal()
    renderer = Renderer(charset)
    term.feed(renderer.frame(screen))
    assert mismatches(term, screen, charset) == []


TOKENS = [b"\x1b[", b"\x1b", b"1", b"5", b";", b"m", b"H", b"J", b"K", b"A", b"C", b"s", b"u",
          b"?", b"=", b"\r", b"\n", b"\x08", b"\t", b"x", b"\xdb", b"\x03", b"\x1a", b"SAUCE00",
          b"99", b"7", b"8"]
# One cheap draw per example: each random byte picks a token (or stands for itself).
art_bytes = st.binary(max_size=14).map(
    lambda raw: b"".join(TOKENS[b % 32] if b % 32 < len(TOKENS) else bytes([b]) for b in raw))


@pytest.mark.slow
@settings(max_examples=10_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=art_bytes)
def test_fuzz_any_bytes_load_without_raising(data: bytes) -> None:
    screen = Screen(80, 24)
    top = len(data) % 4
    end = load_art(screen, data, top)
    assert top <= end <= 24
    assert len(screen.cells) == 24 and all(len(line) == 80 for line in screen.cells)


def test_red_on_black_default_after_reset() -> None:
    screen = Screen()
    load_art(screen, b"\x1b[31mr\x1b[0mw\x1b[7mv")
    assert [c.attr for c in screen.cells[0][:3]] == [Attr(RED), Attr(), Attr(BLACK, WHITE)]
    assert BLACK == 0
