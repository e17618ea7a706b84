"""The terminal layer: cell buffer, renderer, character sets, keys, colour codes and art.

It knows nothing of games or sockets: screens draw into a :class:`Screen`, a
:class:`Renderer` turns successive frames into the bytes a caller's terminal needs, and a
:class:`KeyDecoder` turns the caller's bytes into named keys.  ``codes`` reads BBS colour
codes in text, ``art`` draws .ans files, ``detect`` chooses the charset.  docs/terminal.md.
"""

from ..compiled import load_hot_modules

load_hot_modules()  # the compiled modules, unless older than their source: door/compiled.py

from .charset import Charset  # noqa: E402  (after the guard, by design)
from .codes import parse_codes, parse_color  # noqa: E402
from .keys import Key, KeyDecoder  # noqa: E402
from .render import Renderer  # noqa: E402
from .screen import Attr, Cell, Screen  # noqa: E402

__all__ = ["Attr", "Cell", "Charset", "Key", "KeyDecoder", "Renderer", "Screen", "parse_codes",
           "parse_color"]
