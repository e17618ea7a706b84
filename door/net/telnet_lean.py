"""telnetlib3's per-connection tables, made when first needed instead of for every
connection (issue #36: an idle caller's memory).

For every connection telnetlib3's writer fills five tables with some 55 bound methods of
its own (the handlers of IAC commands, special line characters, extended options), builds
the 30-entry table of special line characters (30 objects) and two deques for
subnegotiations (760 bytes each, empty): about 8 KiB per connection, 18 KiB with the rest
of telnetlib3's state, for tables that a door connection reads a few times while it
negotiates and then almost never (the door reads every byte as a key itself).

:class:`LeanWriterState` is mixed into the door's writer (door/net/telnet.py): after
telnetlib3's own ``__init__`` it swaps the five tables for :class:`BoundLater` mappings,
which name the handlers and bind one when it is looked up, and it lets go of the special
line characters' table and of the deques, made again, the same, the first time telnetlib3
asks for them (a client negotiating LINEMODE, a subnegotiation).  telnetlib3 behaves as
before: only where its state lives changes.  It relies on telnetlib3 5.x's private
attribute names, all of them listed in ``TABLES`` and the properties below.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterator
from typing import Any

from telnetlib3 import slc

TABLES = ("_iac_callback", "_slc_callback", "_ext_callback", "_ext_send_callback",
          "_ext_offer_callback")
"""telnetlib3's tables of callbacks (command byte(s) → handler), filled in its writer's
``__init__`` with the writer's own methods and later by ``set_*_callback``."""

_NAMES: dict[tuple[type, str, bool], dict[bytes, str]] = {}
"""Per writer class, table and side (server or client): the handlers' method names, shared
by every connection."""


class BoundLater:
    """A table of callbacks as telnetlib3 uses it (look up, ``in``, set, ``get``, clear),
    whose default entries are method names of ``owner``, bound at each look-up, shared by
    every connection; only callbacks set later (``set_ext_callback`` …) are kept here."""

    __slots__ = ("_names", "_owner", "_set")

    def __init__(self, owner: object, names: dict[bytes, str]) -> None:
        self._owner = owner
        self._names = names
        self._set: dict[bytes, Callable[..., Any]] | None = None

    def __getitem__(self, cmd: bytes) -> Callable[..., Any]:
        if self._set is not None and cmd in self._set:
            return self._set[cmd]
        return getattr(self._owner, self._names[cmd])  # KeyError, as a dict's

    def get(self, cmd: bytes, default: Any = None) -> Any:
        try:
            return self[cmd]
        except KeyError:
            return default

    def __setitem__(self, cmd: bytes, func: Callable[..., Any]) -> None:
        if self._set is None:
            self._set = {}
        self._set[cmd] = func

    def __contains__(self, cmd: object) -> bool:
        return (self._set is not None and cmd in self._set) or cmd in self._names

    def __iter__(self) -> Iterator[bytes]:
        yield from self._names
        if self._set is not None:
            yield from (cmd for cmd in self._set if cmd not in self._names)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def clear(self) -> None:
        self._names = {}  # the shared names stay as they are for the others
        self._set = None


def bound_later(owner: object, table: dict[bytes, Callable[..., Any]], key: tuple[type, str, bool]
                ) -> BoundLater:
    """``table`` (telnetlib3's, as its ``__init__`` left it) as a :class:`BoundLater`: the
    entries that are ``owner``'s own methods by name, the others kept as they are."""
    own = {cmd: name for cmd, func in table.items()
           if getattr(func, "__self__", None) is owner
           and getattr(type(owner), name := method_name(func), None) is func.__func__}  # type: ignore[attr-defined]
    names = _NAMES.get(key)
    if names != own:  # the first connection of its kind (or a different one): its own names
        names = _NAMES.setdefault(key, own) if names is None else own
    lean = BoundLater(owner, names)
    for cmd, func in table.items():
        if cmd not in own:
            lean[cmd] = func
    return lean


def method_name(func: Callable[..., Any]) -> str:
    """The name a bound method's function was defined with."""
    return str(getattr(getattr(func, "__func__", None), "__name__", ""))


class LeanWriterState:
    """Mixed into a ``telnetlib3.TelnetWriter`` subclass, before it (module docstring)."""

    _slctab_made: dict[bytes, slc.SLC] | None = None
    _sb_deque: collections.deque[bytes] | None = None
    _slc_deque: collections.deque[bytes] | None = None
    default_slc_tab: dict[bytes, slc.SLC]  # telnetlib3's, on the writer's class
    server: bool

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in TABLES:
            table = getattr(self, name)
            if isinstance(table, dict):
                setattr(self, name, bound_later(self, table, (type(self), name, self.server)))
        self._slctab_made = None  # made again when first asked for: see slctab
        self._sb_deque = self._slc_deque = None

    @property
    def slctab(self) -> dict[bytes, slc.SLC]:
        """telnetlib3's table of special line characters, made from ``default_slc_tab``
        (as its ``__init__`` makes it) the first time it is asked for."""
        if self._slctab_made is None:
            self._slctab_made = slc.generate_slctab(self.default_slc_tab)
        return self._slctab_made

    @slctab.setter
    def slctab(self, table: dict[bytes, slc.SLC]) -> None:
        self._slctab_made = table

    @property
    def _sb_buffer(self) -> collections.deque[bytes]:
        """The subnegotiation being read, made when one begins; :meth:`drop_idle_buffers`
        lets an empty one go."""
        if self._sb_deque is None:
            self._sb_deque = collections.deque()
        return self._sb_deque

    @_sb_buffer.setter
    def _sb_buffer(self, buffer: collections.deque[bytes]) -> None:
        self._sb_deque = buffer

    @property
    def _slc_buffer(self) -> collections.deque[bytes]:
        """The special line characters being sent (LINEMODE), made when first needed."""
        if self._slc_deque is None:
            self._slc_deque = collections.deque()
        return self._slc_deque

    @_slc_buffer.setter
    def _slc_buffer(self, buffer: collections.deque[bytes]) -> None:
        self._slc_deque = buffer

    def drop_idle_buffers(self) -> None:
        """Let the subnegotiation buffers go while they are empty (between subnegotiations:
        the negotiation is over, or the next one makes them again)."""
        if self._sb_deque is not None and not self._sb_deque:
            self._sb_deque = None
        if self._slc_deque is not None and not self._slc_deque:
            self._slc_deque = None
