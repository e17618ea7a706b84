"""Character sets: one character per cell (two for a wide one), whatever it is, in every mode."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from door.term.charset import Charset
from door.term.screen import WIDE_TAIL

MODES = [Charset("cp437"), Charset("cp437", True), Charset("utf8"), Charset("ascii")]
NEVER = set(b"\x00\x07\x08\x09\x0a\x0d\x1a\x1b\x7f")  # bytes a terminal would execute


@pytest.mark.slow
@pytest.mark.parametrize("charset", MODES, ids=lambda c: f"{c.name}{'+g' if c.c0_glyphs else ''}")
@settings(max_examples=2000, deadline=None)
@given(ch=st.characters())
def test_any_character_is_one_harmless_cell(charset: Charset, ch: str) -> None:
    data = charset.encode_char(ch)
    assert len(charset.shows(ch)) == 1
    assert not NEVER & set(data)
    if charset.name == "ascii":
        assert max(data) < 128
    if charset.name == "cp437":
        assert len(data) == 1
        assert data[0] >= 32 or charset.c0_glyphs


def test_the_usual_glyphs() -> None:
    cp437, glyphs, utf8, ascii_ = MODES
    assert cp437.encode("╔═╗│▒é") == b"\xc9\xcd\xbb\xb3\xb1\x82"
    assert cp437.encode("♠♥♦♣") == b"SHDC" and glyphs.encode("♠♥♦♣") == b"\x06\x03\x04\x05"
    assert utf8.encode("♥") == "♥".encode() and utf8.encode("\u4e00") == "\u4e00".encode()
    # A wide character has two cells on the screen; the right one (WIDE_TAIL) sends nothing
    # in UTF-8, where the glyph covers it, and a blank beside the "?" elsewhere.
    assert utf8.encode_char(WIDE_TAIL) == b""
    assert cp437.encode_char(WIDE_TAIL) == b" " == ascii_.encode_char(WIDE_TAIL)
    assert ascii_.encode("╔═╗│▒♥é…½") == b"+=+|#He.%"
    assert glyphs.encode("→←•") == b"><*"  # 0x1A, 0x1B and 0x07 would act, not show


def test_callers_share_an_encoding_only_with_the_same_charset() -> None:
    """Callers share one cache per (charset, glyphs): a caller whose terminal has the
    CP437 glyphs must never get another's fallback for the same character, nor the reverse."""
    for first, second in ((Charset("cp437", True), Charset("cp437")),
                          (Charset("cp437"), Charset("cp437", True)),
                          (Charset("utf8"), Charset("ascii"))):
        first.encode_char("♣")
        assert second.encode_char("♣") == {"cp437": b"\x05" if second.c0_glyphs else b"C",
                                            "ascii": b"C"}[second.name]
    assert Charset("utf8").encode_char("♣") == "♣".encode()
