"""BBS colour codes: each family, the Monte Carlo letters, and any text at all."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from door.term.codes import PAGE_BREAK, parse_codes, parse_color, strip_codes
from door.term.screen import BLACK, BLUE, CYAN, GREEN, RED, WHITE, YELLOW, Attr

ANSI = Path(__file__).resolve().parents[2] / "ansi"


def spans(text: str, **kw) -> list:
    return [span for line in parse_codes(text, **kw) if line for span in line]


def test_wildcat_hex_pairs() -> None:
    assert spans("@1F@hi@0E@yo") == [("hi", Attr(WHITE, BLUE, True)), ("yo", Attr(YELLOW, BLACK,
                                                                                    True))]
    assert spans("@9C@x") == [("x", Attr(RED, BLUE, True, True))]  # background 9: blink bit
    assert spans("mail@ab@x") == [("mail@ab@x", Attr())]  # lower case is text, as Synchronet


def test_monte_carlo_letters_follow_the_palette() -> None:
    palette = {"heading": Attr(RED), "highlight": Attr(GREEN), "body": Attr(CYAN),
               "normal": Attr(WHITE)}
    assert spans("@E@a@H@b@B@c@N@d", palette=palette) == [
        ("a", Attr(RED)), ("b", Attr(GREEN)), ("c", Attr(CYAN)), ("d", Attr(WHITE))]


def test_pcboard_codes_with_save_and_restore() -> None:
    assert spans("@X1Fa@X00@X4Eb@XFFc") == [("a", Attr(WHITE, BLUE, True)),
                                            ("b", Attr(YELLOW, RED, True)),
                                            ("c", Attr(WHITE, BLUE, True))]


def test_pipe_codes() -> None:
    assert spans("|04r|12R|17b|24k||x|45") == [
        ("r", Attr(RED)), ("R", Attr(RED, bright=True)), ("b", Attr(RED, BLUE, True)),
        ("k|x|45", Attr(RED, BLACK, True, True))]


def test_synchronet_ctrl_a() -> None:
    assert spans("\x01hY\x01y\x014b\x01nn\x01+\x01rR\x01-W") == [
        ("Y", Attr(WHITE, BLACK, True)), ("b", Attr(YELLOW, BLUE, True)), ("n", Attr()),
        ("R", Attr(RED)), ("W", Attr())]
    doc = parse_codes("page one\x01lpage two\x01]three\x01zgone")
    assert doc == [[("page one", Attr())], PAGE_BREAK, [("page two", Attr())],
                   [("three", Attr())]]


def test_ansi_sgr_and_other_escapes() -> None:
    assert spans("\x1b[1;31mR\x1b[2J\x1b[0mW") == [("R", Attr(RED, bright=True)), ("W", Attr())]


def test_lines_tabs_controls_and_eof() -> None:
    doc = parse_codes("a\tb\r\n\x03\x1aafter the end")
    assert doc == [[("a       b", Attr())], [("♥", Attr())]]


WILDCAT_INS = """\
                        @E@ INSTRUCTIONS

@H@Monte Carlo is a solitaire card game. The objective of the game is to
remove all the cards from the tableau.

                    @N@    SCORING
                    @E@    _______
"""
"""The opening of MONTE.INS, the Wildcat! 5 door's instructions (1996), as it was written."""


def test_a_wildcat_instruction_file() -> None:
    lines = [line for line in parse_codes(WILDCAT_INS) if line is not None]
    assert lines[0][-1] == (" INSTRUCTIONS", Attr(YELLOW, BLACK, True))
    assert "@" not in strip_codes(WILDCAT_INS)


@pytest.mark.parametrize("name", sorted(p.name for p in ANSI.glob("*.ins")))
def test_the_shipped_instruction_files_leave_no_code_in_the_text(name: str) -> None:
    text = (ANSI / name).read_bytes().decode("cp437")  # as the door reads it
    assert "@" not in strip_codes(text)


@pytest.mark.parametrize(("text", "attr"), [
    ("bright yellow on blue", Attr(YELLOW, BLUE, True)), ("cyan", Attr(CYAN)),
    ("1E", Attr(YELLOW, BLUE, True)), ("light grey", Attr(WHITE, BLACK, True)),
    ("blinking red on white", Attr(RED, WHITE, False, True))])
def test_parse_color(text: str, attr: Attr) -> None:
    assert parse_color(text) == attr


@pytest.mark.parametrize("bad", ["", "purple", "on", "1G", "bright yellow on"])
def test_parse_color_rejects_with_the_expected_form(bad: str) -> None:
    with pytest.raises(ValueError, match="expected"):
        parse_color(bad)


TOKENS = ["@", "|", "\x01", "\x1b", "[", "X", "0", "1", "F", "E", "H", "B", "N", "9", ";", "m",
          "\n", "\r", "\t", "\x1a", "a", "é", "\x03", "@CLS@", "@PAUSE@", "\x00", "\xa0", "2"]
# One cheap draw per example: each random byte picks a token (or is any character).
code_text = st.binary(max_size=16).map(
    lambda raw: "".join(TOKENS[b % 32] if b % 32 < len(TOKENS) else chr(b * 7 + 1) for b in raw))


@pytest.mark.slow
@settings(max_examples=10_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=code_text)
def test_fuzz_any_text_parses_without_raising(text: str) -> None:
    doc = parse_codes(text)
    for line in doc:
        if line is not None:
            for chunk, attr in line:
                assert chunk and chunk.isprintable(), chunk
                assert isinstance(attr, Attr)
