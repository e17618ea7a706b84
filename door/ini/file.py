"""Finding sysop.ini and reading it into sections, with one clear error line naming the file
and line: the part of reading settings that ``reussite door`` needs before its caller's first
screen (:mod:`door.ini.door_section`), so without :mod:`door.config`'s typed sections and the
game registry, which load after it.
"""

from __future__ import annotations

import configparser
import os
from pathlib import Path

from .comments import without_comments

CONFIG_NAME = "sysop.ini"
HOME_ENV = "REUSSITE_HOME"
QUOTE_MAX = 60
"""Characters of a bad value (or name) an error line shows: a 5,000-character value pasted by
mistake must not flood the sysop's screen."""
BOM = "\ufeff"
"""What Windows Notepad puts at the start of a UTF-8 file: not part of the first line."""


class ConfigError(Exception):
    """A problem in sysop.ini; ``str()`` is the one line shown to the sysop."""


def quote(value: str) -> str:
    """A bad value as an error line shows it: quoted, cut after QUOTE_MAX characters."""
    if len(value) <= QUOTE_MAX:
        return repr(value)
    return f"{value[:QUOTE_MAX]!r}… ({len(value)} characters)"


def cut(name: str) -> str:
    """A section or key name as an error line shows it, cut after QUOTE_MAX characters."""
    return name if len(name) <= QUOTE_MAX else name[:QUOTE_MAX] + "…"


def find_home(start: Path | None = None) -> Path | None:
    """The folder holding sysop.ini: the current folder or a parent, else $REUSSITE_HOME."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / CONFIG_NAME).is_file():
            return folder
    env = os.environ.get(HOME_ENV)
    return Path(env).resolve() if env else None


def read_ini(home: Path) -> tuple[str, Path]:
    """The text of ``home/sysop.ini`` and its path; ConfigError when it cannot be read."""
    path = home / CONFIG_NAME
    try:
        return path.read_text(encoding="utf-8"), path
    except FileNotFoundError:
        raise ConfigError(
            f"{path}: file not found (run `reussite init {home}` to make one)"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None


def parse_ini(text: str, where: str) -> tuple[configparser.ConfigParser, str]:
    """sysop.ini's ``text`` in sections (keys in lower case) and the text configparser read
    (comments after values cut: :mod:`door.ini.comments`); ConfigError names ``where`` and
    the line of a malformed one."""
    text = text.removeprefix(BOM)
    parser = configparser.ConfigParser(interpolation=None, strict=True,
                                       inline_comment_prefixes=None)  # keys: lower case
    plain = without_comments(text)  # comments after values cut, quoted values kept whole
    try:
        parser.read_string(plain, source=where)
    except configparser.MissingSectionHeaderError as exc:
        raise ConfigError(f"{where}:{exc.lineno}: expected a [section] header before "
                          f"{quote(exc.line.strip())}") from None
    except configparser.DuplicateSectionError as exc:
        raise ConfigError(f"{where}:{exc.lineno}: [{cut(exc.section)}] appears twice"
                          ) from None
    except configparser.DuplicateOptionError as exc:
        raise ConfigError(f"{where}:{exc.lineno}: [{cut(exc.section)}] {cut(exc.option)}: "
                          "key appears twice") from None
    except configparser.ParsingError as exc:
        lineno = exc.errors[0][0] if exc.errors else 0
        rows = text.splitlines()
        line = rows[lineno - 1].strip() if 0 < lineno <= len(rows) else ""
        raise ConfigError(f"{where}:{lineno}: expected `key = value`, got {quote(line)}"
                          ) from None
    return parser, plain
