"""The terminal layer: cell buffer, renderer, character sets, keys, colour codes and art.

It knows nothing of games or sockets: screens draw into a :class:`Screen`, a
:class:`Renderer` turns successive frames into the bytes a caller's terminal needs, and a
:class:`KeyDecoder` turns the caller's bytes into named keys.  ``codes`` reads BBS colour
codes in text, ``art`` draws .ans files, ``detect`` chooses the charset.  docs/terminal.md.
"""

from .charset import Charset
from .codes import parse_codes, parse_color
from .keys import Key, KeyDecoder
from .render import Renderer
from .screen import Attr, Cell, Screen

__all__ = ["Attr", "Cell", "Charset", "Key", "KeyDecoder", "Renderer", "Screen", "parse_codes",
           "parse_color"]
