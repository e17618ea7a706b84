"""telnetlib3's per-connection tables made when first needed (door/net/telnetlib3_private.py): the
door's writer keeps no bound method of its own in its callback tables, builds the special
line characters' table and the subnegotiation buffer only when asked, and telnetlib3 still
answers through them: a window size after negotiation, a handler set later."""

from __future__ import annotations

from telnetlib3 import slc
from telnetlib3.telopt import NAWS, NOP, TTYPE
from test_telnet_fast_path import IAC, SB, SE, Line, line  # noqa: F401  (the fixture)
from waiting import until

from door.net.telnet import GuardedTelnetWriter
from door.net.telnetlib3_private import TABLES, BoundLater


def writer_of(call: Line) -> GuardedTelnetWriter:
    assert call.terminal is not None
    writer = call.terminal._writer
    assert isinstance(writer, GuardedTelnetWriter)
    return writer


async def test_the_callback_tables_keep_no_method_of_the_writer(line: Line) -> None:  # noqa: F811
    writer = writer_of(line)
    for name in TABLES:
        table = getattr(writer, name)
        assert isinstance(table, BoundLater), name
        kept = list((table._set or {}).values())
        assert not [f for f in kept if getattr(f, "__self__", None) is writer], name
    assert writer._iac_callback[NOP] == writer.handle_nop  # bound when looked up
    assert NOP in writer._iac_callback
    on_naws = writer._ext_callback[NAWS]  # set by telnetlib3's server after the writer's own
    assert on_naws.__self__ is line.protocol


async def test_the_special_line_characters_are_made_when_first_asked(line: Line) -> None:  # noqa: F811
    writer = writer_of(line)
    assert writer._slctab_made is None
    table = writer.slctab
    assert table.keys() == slc.generate_slctab(writer.default_slc_tab).keys()
    assert writer.slctab is table


async def test_a_window_size_after_negotiation_is_read_and_its_buffer_let_go(
        line: Line) -> None:  # noqa: F811
    writer = writer_of(line)
    assert writer._sb_deque is None  # nothing being subnegotiated
    await line.send(IAC + SB + NAWS + b"\x00\x64\x00\x28" + IAC + SE)  # 100 × 40
    await line.send(b"k")
    await until(lambda: bytes(line.heard) == b"k", "the key arrived")
    assert line.terminal is not None and line.terminal.window == (100, 40)
    assert writer._sb_deque is None


async def test_a_handler_set_later_is_the_one_called(line: Line) -> None:  # noqa: F811
    writer = writer_of(line)
    got: list[str] = []
    writer.set_ext_callback(TTYPE, got.append)
    assert writer._ext_callback[TTYPE] == got.append
    writer._ext_callback[TTYPE]("xterm")
    assert got == ["xterm"]


def test_bound_later_reads_like_the_table_it_stands_for() -> None:
    class Owner:
        def one(self) -> str:
            return "one"

    owner, names = Owner(), {b"\x01": "one"}
    table = BoundLater(owner, names)
    assert table[b"\x01"]() == "one" and table.get(b"\x02") is None
    table[b"\x02"] = str
    assert list(table) == [b"\x01", b"\x02"] and len(table) == 2
    table.clear()
    assert b"\x01" not in table and len(table) == 0
    assert names == {b"\x01": "one"}  # shared by every connection: left as it was
