"""The one parser of numbers a caller types (or a client sends): ASCII digits 0-9 and nothing
else Unicode calls a digit, whatever bytes the caller's terminal sends (CP437 or UTF-8)."""

from __future__ import annotations

import sys
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from door.net.rlogin import parse_hello
from door.term import KeyDecoder
from door.term.digits import MAX_DIGITS, is_digit, parse_number
from door.ui.shared.number_input import choice_number

ASCII_DIGITS = "0123456789"
DIGIT_CLASSES = ("Nd", "Nl", "No")  # decimal digits, letter numbers (Ⅻ), other (² ½ ①)


def every_unicode_digit() -> list[str]:
    """Every code point Python or Unicode calls a digit or a number, in any script."""
    found = []
    for code in range(sys.maxunicode + 1):
        ch = chr(code)
        if (unicodedata.category(ch) in DIGIT_CLASSES or ch.isdigit() or ch.isdecimal()
                or ch.isnumeric()):
            found.append(ch)
    return found


UNICODE_DIGITS = every_unicode_digit()
NON_ASCII_DIGITS = [ch for ch in UNICODE_DIGITS if ch not in ASCII_DIGITS]


def typed(data: bytes, charset: str) -> str:
    """The characters a caller's bytes become at the door's key decoder."""
    return "".join(key.char for key in KeyDecoder(charset).feed(data) if key.is_char)


def test_the_digit_classes_are_really_there() -> None:
    """The sweep below is not vacuous: superscripts, Arabic-Indic, fullwidth, circled."""
    assert len(NON_ASCII_DIGITS) > 1500
    for ch in "²³¹٣۴߅१০੩૪୫௬౭೮൯๑໒༣၄႕០᠑\uff13①Ⅻ½":
        assert ch in NON_ASCII_DIGITS


def test_no_other_unicode_digit_is_a_digit_alone_or_among_ascii_ones() -> None:
    for ch in NON_ASCII_DIGITS:
        assert not is_digit(ch), repr(ch)
        for text in (ch, f"{ch}1", f"1{ch}", f"12{ch}34"):
            assert parse_number(text) is None, repr(text)
        assert choice_number(ch, 9) is None, repr(ch)


@pytest.mark.parametrize("charset", ["cp437", "utf8"])
def test_every_high_byte_in_either_charset_is_refused(charset: str) -> None:
    """Bytes 0x80-0xFF alone (CP437: ² is 0xFD) and as the lead byte of two-byte UTF-8
    characters before and after a digit: never a digit, never an exception."""
    for byte in range(0x80, 0x100):
        samples = [bytes([byte]), bytes([byte]) + b"1", b"1" + bytes([byte])]
        if charset == "utf8" and 0xC2 <= byte <= 0xDF:
            samples += [bytes([byte, follow]) + b"1" for follow in range(0x80, 0xC0)]
        for data in samples:
            text = typed(data, charset)
            assert not any(is_digit(ch) for ch in text if ch not in ASCII_DIGITS)
            if not all(ch in ASCII_DIGITS for ch in text):
                assert parse_number(text) is None, (data, text)


def test_the_superscript_of_the_report() -> None:
    assert typed(b"\xfd1", "cp437") == "²1"
    assert parse_number("²1") is None and not is_digit("²")
    assert "²".isdigit()  # what once let it through to int()


@given(st.text(alphabet=st.sampled_from(ASCII_DIGITS), min_size=1, max_size=MAX_DIGITS))
def test_ascii_digits_are_their_number(text: str) -> None:
    assert parse_number(text) == int(text)
    assert parse_number(f" {text} ") == int(text)


@given(st.lists(st.sampled_from(ASCII_DIGITS + "".join(NON_ASCII_DIGITS[::7])), min_size=1,
                max_size=12))
def test_a_mix_is_a_number_only_when_all_ascii(chars: list[str]) -> None:
    text = "".join(chars)
    expected = int(text) if all(c in ASCII_DIGITS for c in text) else None
    assert parse_number(text) == expected


@pytest.mark.slow
@given(st.text())
def test_any_text_gives_a_number_or_none(text: str) -> None:
    digits = text.strip(" ")
    ascii_number = 0 < len(digits) <= MAX_DIGITS and all(c in ASCII_DIGITS for c in digits)
    assert parse_number(text) == (int(digits) if ascii_number else None)


@pytest.mark.parametrize("text", ["", " ", "-1", "+1", "1.5", "1e3", "0x1F", "1_000", "1 2",
                                  "\t1", "1" * (MAX_DIGITS + 1)])
def test_what_is_not_a_number(text: str) -> None:
    assert parse_number(text) is None


def test_choices_of_a_numbered_list() -> None:
    assert [choice_number(c, 4) for c in "012345"] == [None, 1, 2, 3, 4, None]
    assert choice_number("", 4) is None and choice_number("12", 9) is None


def test_an_rlogin_terminal_speed_in_other_digits_is_no_speed() -> None:
    hello = parse_hello("\0alice\0secret\0ansi/²٣\0".encode())
    assert hello is not None and hello.speed is None and hello.term_type == "ansi"
    assert parse_hello(b"\0alice\0secret\0ansi/38400\0").speed == 38400
