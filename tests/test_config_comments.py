"""sysop.ini takes comments after values (`` ;`` or `` #``, whitespace before), as INI files
elsewhere do; a value that must hold one is written in double quotes (door/ini/comments.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from door.config import ConfigError, parse_settings
from door.ini.comments import without_comments


def test_comments_after_values_sections_and_continuations(tmp_path: Path) -> None:
    text = ("[server]   ; the listener\n"
            "bind = 0.0.0.0          ; the boards must reach it\n"
            "rlogin_port = 2513      # off by default; 513 is RLogin's own port\n"
            "                        ; CAP_NET_BIND_SERVICE)\n"
            "telnet_port: 2424 ;colon as the delimiter, no space after the ;\n"
            "\n[database]\n"
            "url =          ; empty: SQLite in data/\n"
            "\n[door]\n"
            "name = Club#1  ; a # inside a word is kept\n")
    settings = parse_settings(text, tmp_path)
    assert settings.server.bind == "0.0.0.0"
    assert (settings.server.rlogin_port, settings.server.telnet_port) == (2513, 2424)
    assert settings.database.url == ""
    assert settings.door.name == "Club#1"


def test_a_quoted_value_keeps_what_would_be_a_comment(tmp_path: Path) -> None:
    text = ('[door]\nname = "Club #1 ; the best"   ; shown on the title\n'
            'sysop = ""Quoted" Sysop"\n'
            '\n[boards]\nXA = "s3cret;#x | 127.0.0.1 | Xanadu #2"\n'
            'YB = secret#no-space | 127.0.0.2 | Yonder ; a comment\n')
    settings = parse_settings(text, tmp_path)
    assert settings.door.name == "Club #1 ; the best"
    assert settings.door.sysop == '"Quoted" Sysop'
    xa, yb = settings.boards
    assert (xa.secret, xa.name) == ("s3cret;#x", "Xanadu #2")
    assert (yb.secret, yb.name) == ("secret#no-space", "Yonder")


def test_a_value_that_only_starts_with_a_quote_keeps_it(tmp_path: Path) -> None:
    text = '[door]\nname = "Bob" Door ; the name\nsysop = "Ann\n'
    settings = parse_settings(text, tmp_path)
    assert (settings.door.name, settings.door.sysop) == ('"Bob" Door', '"Ann')


@pytest.mark.parametrize(("text", "expected"), [
    ("[server]\ntelnet_port = 23x ; the port\n",
     ":2: [server] telnet_port: expected a whole number 1–65535, got '23x'"),
    ("[server]\njust words ; and a comment\n", ":2: expected `key = value`, got 'just words"),
    ("[sever] ; typo\nbind = 127.0.0.1\n", ":1: [sever]: unknown section"),
    ('[menu]\nquit = Q | "Log off #1" | on\n', ":2: [menu] quit: expected `hot key | label | "
                                              "on or off`, got 'Q | \"Log off'"),
])
def test_mistakes_still_name_the_line(tmp_path: Path, text: str, expected: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_settings(text, tmp_path, tmp_path / "sysop.ini")
    assert expected in str(caught.value)


def test_lines_keep_their_numbers_and_endings() -> None:
    text = "; top\r\n[door]\r\nname = X ; c\r\n  ; more\r\n\r\n"
    assert without_comments(text) == "; top\r\n[door]\r\nname = X\r\n  ; more\r\n\r\n"
