"""What a caller types for another caller is stripped of everything a terminal acts on."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from door.store.text import clean_line, clean_text


def _inert(text: str, newlines: bool) -> bool:
    for ch in text:
        if ch == "\n" and newlines:
            continue
        if unicodedata.category(ch) in ("Cc", "Cf"):
            return False
    return True


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=200))
def test_no_control_survives(text: str) -> None:
    assert _inert(clean_line(text, 1000), newlines=False)
    assert _inert(clean_text(text, 1000), newlines=True)


@given(st.text(alphabet=st.sampled_from("ab \x1b[]0;7?P\\\x07\x9b\x9dmHJ\n\r12"), max_size=80))
def test_escape_soup_is_inert(text: str) -> None:
    assert "\x1b" not in clean_text(text, 1000) and "\x1b" not in clean_line(text, 1000)


def test_plain_text_survives() -> None:
    assert clean_line("  Ünïcode  ♠ ♥   ok ", 40) == "Ünïcode ♠ ♥ ok"
    assert clean_text("one\r\ntwo\rthree\n\tfour  \n\n", 100) == "one\ntwo\nthree\n    four"
    assert clean_line("x" * 50, 10) == "x" * 10
