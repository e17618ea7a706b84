"""sysop.ini's ``[door]`` section: the door's name, its sysop, where its screens and data are.

Its own module, light to import, because ``reussite door`` draws its caller's first screen
(the title, in the door's name) from it before :mod:`door.config` and the game registry load:
:func:`glance_door` reads this one section, and :mod:`door.config` reads every section,
this one included, with the same class and parsers.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .file import ConfigError, parse_ini, read_ini
from .values import Parser, on_off, seconds_between, text, text_up_to


def path(value: str) -> Path:
    return Path(text(value))


NAME = text_up_to(40)  # the door's and the sysop's names, on 80-column screens


@dataclass(frozen=True)
class DoorSettings:
    name: str = "Réussite"
    sysop: str = "Sysop"
    ansi_dir: Path = Path("ansi")
    data_dir: Path = Path("data")
    goodbye_pause: float = 1.5  # seconds the goodbye stays up, unless a key comes first
    confirm_quit: bool = True  # the main menu's Quit asks "Log off? (Y/n)" first


DOOR_KEYS: dict[str, Parser] = {
    "name": NAME, "sysop": NAME, "ansi_dir": path, "data_dir": path,
    "goodbye_pause": seconds_between(0, 60), "confirm_quit": on_off}
"""``[door]``'s keys and their parsers."""


def glance_door(home: Path) -> DoorSettings | None:
    """``home/sysop.ini``'s ``[door]`` section, or None when the file or the section has
    any problem: :func:`door.config.load_settings` reads the whole file next, and says
    what the problem is in one line."""
    try:
        text, where = read_ini(home)
        parser, _ = parse_ini(text, str(where))
        if not parser.has_section("door"):
            return DoorSettings()
        return DoorSettings(**{key: DOOR_KEYS[key](raw)
                               for key, raw in parser["door"].items()})
    except (ConfigError, ValueError, KeyError):
        return None
