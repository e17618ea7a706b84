"""telnetlib3's private names, checked where the door takes them (door/net/telnetlib3_private.py).

An upgrade of telnetlib3 may rename or drop any of them without notice.  The first test
looks each one up on the objects that carry it and names every one that is gone, with the
installed version, so the upgrade fails here in one readable line instead of as an
AttributeError deep in a caller's visit.  The last keeps the names in that one module:
door/net/telnet.py touches none of them itself.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import telnetlib3

from door.net import telnetlib3_private as private
from door.net.telnet import DoorTelnetServer

TELNET_PY = Path(private.__file__).with_name("telnet.py")


async def test_every_name_the_door_takes_is_there() -> None:
    """On bare objects of each class (the door's reader and protocol, telnetlib3's listener
    and writer): no connection needed, so a telnetlib3 that breaks the fast path
    still fails here in one line rather than by a session that never starts."""
    found: dict[str, object] = {
        "TelnetReader": private.DoorTelnetReader(), "TelnetServer": DoorTelnetServer(),
        "Server": telnetlib3.Server(None),
        "TelnetWriter": private.TelnetWriter(None, None, server=True),  # its state: __init__'s
        "Option": private.TelnetWriter(None, None, server=True).local_option}
    missing = []
    for table in (private.PRIVATE, private.HOOKS):
        for owner, names in table.items():
            missing += [f"{owner}.{name}" for name in names if not hasattr(found[owner], name)]
    parameters = inspect.signature(telnetlib3.TelnetServer.__init__).parameters
    missing += [f"TelnetServer(..., {name}=)" for name in private.SERVER_PARAMETERS
                if name not in parameters]
    assert not missing, (f"telnetlib3 {private.VERSION} lacks what "
                         f"door/net/telnetlib3_private.py uses: {', '.join(missing)}")


def test_the_objects_checked_are_the_ones_the_door_uses() -> None:
    assert issubclass(DoorTelnetServer, private.CLASSES["TelnetServer"])
    assert issubclass(DoorTelnetServer.reader_class, private.CLASSES["TelnetReader"])
    assert issubclass(DoorTelnetServer.writer_class, private.CLASSES["TelnetWriter"])
    assert private.CLASSES["Server"] is telnetlib3.Server


def _names(node: ast.AST) -> set[str]:
    return {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}


def test_the_telnet_module_touches_no_private_name_itself() -> None:
    """In door/net/telnet.py: no private name of telnetlib3's on ``self`` in a class built
    on telnetlib3's, nor on any other object anywhere."""
    private_names = {name for names in private.PRIVATE.values() for name in names}
    tree = ast.parse(TELNET_PY.read_text(encoding="utf-8"))
    derived = {"ServerState", "DoorTelnetReader", "TelnetReader", "TelnetWriter", "Server"}
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and {ast.unparse(b) for b in node.bases} & derived:
            found |= _names(node) & private_names
        if (isinstance(node, ast.Attribute) and node.attr in private_names
                and not (isinstance(node.value, ast.Name) and node.value.id == "self")):
            found.add(node.attr)
    assert not found, f"door/net/telnet.py uses {sorted(found)}: go through telnetlib3_private"


def test_the_door_shadows_none_of_telnetlib3s_names_by_chance() -> None:
    """The helpers added on telnetlib3's classes (``closing``, ``quiet``, ``held`` …) are
    names telnetlib3 does not have: an upgrade that adds one would be shadowed silently."""
    overrides = {"__init__", "feed_data"}  # on purpose: the lean reader's way in
    for ours, theirs in ((private.ServerState, telnetlib3.TelnetServer),
                         (private.DoorTelnetReader, telnetlib3.TelnetReader)):
        added = {name for name in vars(ours) if not name.startswith("__")} | {"__init__"}
        clash = {name for name in added - overrides if hasattr(theirs, name)}
        assert not clash, f"telnetlib3 {private.VERSION}'s {theirs.__name__} has {sorted(clash)}"
