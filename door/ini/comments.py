"""Comments after a value in sysop.ini, and quoted values: the lines as configparser gets them.

INI files everywhere take ``port = 2513   ; why``, and sysops copy such lines from guides.
A ``;`` or ``#`` starts a comment when it begins the line or follows whitespace; one inside
a word (``abc#1``, a URL's ``#`` or ``;``) is kept.  A value that must hold `` #`` or `` ;``
(a name such as ``Club #1``) is written in double quotes, the whole value:
``name = "Club #1"   ; shown on the title``.  The quotes go and nothing between them is a
comment; a value that only starts with a quote keeps it.  Lines keep their numbers, since
error messages name them.

configparser's own ``inline_comment_prefixes`` would cut a quoted value too: this is the
one place sysop.ini's comments are cut (``door.config`` reads nothing else).
"""

from __future__ import annotations

import re
from configparser import ConfigParser

COMMENT = re.compile(r"\s[;#]")
"""Whitespace, then ``;`` or ``#``: where a comment after a value begins."""
_AFTER_CLOSING_QUOTE = re.compile(r"(?:\s+[;#].*)?\s*")
"""What may follow a quoted value's closing quote: nothing, or a comment."""
_KEY_LINE = ConfigParser.OPTCRE  # configparser's own ``key = value`` / ``key: value``


def without_comments(text: str) -> str:
    """``text`` with the comments after values, section headers and continuation lines
    removed, and quoted values unquoted; whole-line comments stay (configparser skips them)."""
    return "".join(_line(line) for line in text.splitlines(keepends=True))


def _line(line: str) -> str:
    body = line.rstrip("\r\n")
    end = line[len(body):]
    stripped = body.strip()
    if not stripped or stripped[0] in "#;":
        return line
    match = None if body[0].isspace() or stripped[0] == "[" else _KEY_LINE.match(body)
    if match is None:  # a section header, a continuation line, or a mistake to report
        return _cut(body, 0) + end
    value = body[match.start("value"):]
    if value.startswith('"'):
        for close in (i for i, ch in enumerate(value) if ch == '"' and i > 0):
            if _AFTER_CLOSING_QUOTE.fullmatch(value, close + 1):
                return body[:match.start("value")] + value[1:close] + end
    return _cut(body, match.end("vi")) + end


def _cut(body: str, start: int) -> str:
    """``body`` up to the first comment at or after ``start`` (just after the ``=``, so
    that ``url =   ; none`` is an empty value)."""
    found = COMMENT.search(body, start)
    return body[:found.start()].rstrip() if found else body
