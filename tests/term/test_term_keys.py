"""The key decoder: every terminal family's keys, split bytes, and any bytes at all."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from door.term import keys as keys_module
from door.term.keys import Key, KeyDecoder

FAMILIES = {
    "syncterm/ansi-bbs": {
        b"\x1b[A": "up", b"\x1b[B": "down", b"\x1b[C": "right", b"\x1b[D": "left",
        b"\x1b[H": "home", b"\x1b[K": "end", b"\x1b[V": "pgup", b"\x1b[U": "pgdn",
        b"\x1b[@": "ins", b"\x1bOP": "f1", b"\x1bOS": "f4", b"\x1bOt": "f5", b"\x1bOu": "f6",
        b"\x1bOv": "f7", b"\x1bOl": "f8", b"\x1bOw": "f9", b"\x1bOx": "f10", b"\x08": "backspace",
    },
    "vt100": {
        b"\x1bOA": "up", b"\x1bOB": "down", b"\x1bOC": "right", b"\x1bOD": "left",
        b"\x1bOP": "f1", b"\x1bOQ": "f2", b"\x1bOR": "f3", b"\x1bOS": "f4", b"\x1bOM": "enter",
    },
    "vt220": {
        b"\x1b[1~": "home", b"\x1b[2~": "ins", b"\x1b[3~": "del", b"\x1b[4~": "end",
        b"\x1b[5~": "pgup", b"\x1b[6~": "pgdn", b"\x1b[17~": "f6", b"\x1b[24~": "f12",
        b"\x7f": "backspace",
    },
    "xterm": {
        b"\x1b[H": "home", b"\x1b[F": "end", b"\x1bOH": "home", b"\x1bOF": "end",
        b"\x1b[15~": "f5", b"\x1b[21~": "f10", b"\x1b[23~": "f11",
        b"\x1b[1;5C": "ctrl-right", b"\x1b[1;2A": "shift-up", b"\x1b[1;3D": "alt-left",
        b"\x1b[1;6B": "ctrl-shift-down", b"\x1b[5;5~": "ctrl-pgup", b"\x1b[3;2~": "shift-del",
        b"\x1b[1;2P": "shift-f1", b"\x1b[1;5R": "ctrl-f3", b"\x1b[Z": "shift-tab",
    },
    "putty": {
        b"\x1b[11~": "f1", b"\x1b[12~": "f2", b"\x1b[13~": "f3", b"\x1b[14~": "f4",
        b"\x1bOT": "f5", b"\x1bOY": "f10", b"\x1bOZ": "f11", b"\x1bO[": "f12",  # VT100+ mode
        b"\x1b[1~": "home", b"\x1b[4~": "end", b"\x1bOD": "left",
    },
    "rxvt": {
        b"\x1b[7~": "home", b"\x1b[8~": "end", b"\x1b[5^": "ctrl-pgup", b"\x1b[6$": "shift-pgdn",
        b"\x1b[a": "shift-up", b"\x1bOd": "ctrl-left",
    },
    "linux console": {
        b"\x1b[[A": "f1", b"\x1b[[B": "f2", b"\x1b[[C": "f3", b"\x1b[[D": "f4", b"\x1b[[E": "f5",
        b"\x1b[1~": "home", b"\x1b[4~": "end", b"\x1b[G": "pgdn", b"\x1b[3~": "del",
    },
    "sco": {
        b"\x1b[M": "f1", b"\x1b[N": "f2", b"\x1b[O": "f3", b"\x1b[P": "f4", b"\x1b[Q": "f5",
        b"\x1b[R": "f6", b"\x1b[S": "f7", b"\x1b[T": "f8", b"\x1b[W": "f11", b"\x1b[X": "f12",
        b"\x1b[H": "home", b"\x1b[F": "end", b"\x1b[I": "pgup", b"\x1b[G": "pgdn",
        b"\x1b[L": "ins",
    },
    "plain keys": {
        b"\r": "enter", b"\r\n": "enter", b"\r\x00": "enter", b"\n": "enter", b"\t": "tab",
        b"\x7f": "backspace", b"\x08": "backspace", b"\x01": "ctrl-a", b"\x12": "ctrl-r",
        b"\x1a": "ctrl-z", b"\x1d": "ctrl-]",
    },
}
CASES = [(family, seq, name) for family, table in FAMILIES.items() for seq, name in table.items()]


@pytest.mark.parametrize(("family", "seq", "name"), CASES,
                         ids=[f"{f}:{s!r}" for f, s, _ in CASES])
def test_family_key_table(family: str, seq: bytes, name: str) -> None:
    decoder = KeyDecoder()
    assert decoder.feed(seq) + decoder.flush() == [Key(name)]
    assert not decoder.pending


def test_printable_characters_in_each_encoding() -> None:
    assert KeyDecoder("cp437").feed(b"a\x82Z") == [Key("char", c) for c in "aéZ"]
    assert KeyDecoder("utf8").feed("aé♥".encode()) == [Key("char", c) for c in "aé♥"]


def test_lone_escape_needs_a_flush() -> None:
    decoder = KeyDecoder()
    assert decoder.feed(b"\x1b") == []
    assert decoder.pending
    assert decoder.flush() == [Key("esc")]
    assert decoder.feed(b"\x1b\x1b[A") == [Key("esc"), Key("up")]


def test_unknown_sequences_are_swallowed_whole() -> None:
    decoder = KeyDecoder()
    for junk in (b"\x1b[99~", b"\x1b[?1;2c", b"\x1b[12;40R", b"\x1b[1;2;3;4;5;6q",
                 b"\x1b[>0;95;0c", b"\x1bOz", b"\x1b[=255h", b"\x1b[9;9X"):
        assert decoder.feed(junk + b"k") == [Key("char", "k")], junk


def test_cursor_report_is_remembered_not_typed() -> None:
    decoder = KeyDecoder()
    assert decoder.feed(b"\x1b[7;12R") == []
    assert decoder.last_report == (7, 12)


def test_cr_lf_split_across_reads_is_one_enter() -> None:
    decoder = KeyDecoder()
    assert decoder.feed(b"x\r") == [Key("char", "x"), Key("enter")]
    assert decoder.feed(b"\ny") == [Key("char", "y")]


key_bytes = st.lists(st.one_of(st.sampled_from([s for _, s, _ in CASES]),
                               st.binary(max_size=4)), max_size=6).map(b"".join)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(data=key_bytes, encoding=st.sampled_from(("cp437", "utf8")))
def test_one_byte_at_a_time_decodes_the_same(data: bytes, encoding: str) -> None:
    whole = KeyDecoder(encoding)
    together = whole.feed(data) + whole.flush()
    split = KeyDecoder(encoding)
    one_by_one = [key for i in range(len(data)) for key in split.feed(data[i:i + 1])]
    assert one_by_one + split.flush() == together


@pytest.mark.slow
@settings(max_examples=10_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=12), encoding=st.sampled_from(("cp437", "utf8", "ascii")))
def test_fuzz_any_bytes_decode_without_raising(data: bytes, encoding: str) -> None:
    decoder = KeyDecoder(encoding)
    keys = decoder.feed(data) + decoder.flush()
    assert not decoder.pending
    for key in keys:
        assert isinstance(key, Key) and key.name
        if key.is_char:
            assert len(key.char) == 1 and key.char.isprintable()


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(reads=st.lists(st.one_of(st.sampled_from(sorted(keys_module._WHOLE)),
                                st.sampled_from([b"\r", b"\r\n", b"\r\0", b"\n", b"\0"]),
                                st.sampled_from([s for _, s, _ in CASES]),
                                st.binary(max_size=3)), max_size=8),
       encoding=st.sampled_from(("cp437", "utf8")))
@example(reads=[b"\xc3", b"a", b"\xa9"], encoding="utf8")  # half a character, then a letter
@example(reads=[b"\x1b", b"[", b"A"], encoding="cp437")  # an arrow in three reads
@example(reads=[b"\r", b"\x1b[A"], encoding="cp437")
@example(reads=[b"\r", b"\n", b"\r", b"\0", b"\n"], encoding="cp437")  # CR, then its pair
@example(reads=[b"\r\n", b"\n", b"\r", b"h", b"\r\0", b"\r"], encoding="utf8")
def test_whole_key_reads_decode_as_the_table_does(reads: list[bytes], encoding: str) -> None:
    """The short cut for a read that is one whole common key (a letter, an arrow, an
    Enter) gives what the character-at-a-time decoding gives, whatever came before it (half
    a sequence, a CR whose LF may follow, half a UTF-8 character)."""
    fast = KeyDecoder(encoding)
    with_short_cut = [key for data in reads for key in fast.feed(data)] + fast.flush()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(keys_module, "_WHOLE", {})
        patch.setattr(keys_module, "_ENTERS", {})
        slow = KeyDecoder(encoding)
        without = [key for data in reads for key in slow.feed(data)] + slow.flush()
    assert with_short_cut == without
