"""Fuzzing the parser: whatever the bytes, only DropfileError may escape, and a parse that
succeeds gives values of the documented types and ranges."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_dropfile_writers import SPEC

from door.bbs.dropfile import JSON_KEYS, MAX_TIME_LEFT_S, DropfileError, parse_dropfile

pytestmark = pytest.mark.slow  # each test starts the door or works for seconds

NAMES = st.sampled_from(["DOOR.SYS", "door32.sys", "DORINFO1.DEF", "dorinfoz.def", "x.txt",
                         ""])
FIELD = st.one_of(st.sampled_from(["", "0", "-1", "N", "Y", "GR", "NG", "7E", "RIP", "COM0:",
                                   "COM1", "COM0:SOCKET3", "32767", "15360", "99999999999",
                                   "01/01/99", "4:59 pm", ";", "biff biff"]),
                  st.text(max_size=12), st.integers(-10**12, 10**12).map(str),
                  # numbers past any bound: up to 5,000 digits, signed, after COM or SOCKET
                  st.tuples(st.sampled_from(["", "-", "+", "COM", "COM0:SOCKET", "0" * 30]),
                            st.integers(15, 5000)).map(lambda t: t[0] + "7" * t[1]),
                  st.text(max_size=3000))
EOL = st.sampled_from(["\r\n", "\n", "\r"])


def check(data: bytes, name: str) -> None:
    try:
        caller = parse_dropfile(data, name)
    except DropfileError as exc:
        assert str(exc) and "\n" not in str(exc)
        assert len(str(exc)) < 300 and str(exc).isprintable(), str(exc)
        return
    out = caller.as_json()
    assert tuple(out) == JSON_KEYS
    assert out["format"] in ("DOOR.SYS", "DOOR32.SYS", "DORINFO")
    assert 0 <= out["time_left_s"] <= MAX_TIME_LEFT_S
    assert 0 <= out["node"] <= 9999 and 0 <= out["security_level"] <= 65535
    assert out["comm"] in ("local", "serial", "telnet")
    assert out["screen_rows"] is None or 10 <= out["screen_rows"] <= 200
    assert out["alias"] and out["user_name"]
    assert isinstance(out["user_id"], str) and isinstance(out["warnings"], list)
    assert not any(ord(c) < 32 for c in out["alias"] + out["user_name"] + out["location"])
    assert len(out["location"]) <= 40 and len(out["user_id"]) <= 40
    # DORINFO's name is a first and a last name of 40 each (and its alias)
    assert len(out["user_name"]) <= 2 * 40 + 1 and len(out["alias"]) <= 2 * 40 + 1
    assert all(len(warning) < 400 for warning in out["warnings"]), out["warnings"]
    assert out["socket_handle"] is None or 0 <= out["socket_handle"] < 2**31
    assert out["baud"] is None or 0 < out["baud"] <= 10**9


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=600), NAMES)
def test_random_bytes(data: bytes, name: str) -> None:
    check(data, name)


@settings(max_examples=300, deadline=None)
@given(st.lists(FIELD, min_size=0, max_size=60), NAMES, EOL)
def test_random_fields(fields: list[str], name: str, eol: str) -> None:
    check(eol.join(fields).encode("utf-8", "replace"), name)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.integers(1, 52), FIELD, max_size=8), st.integers(0, 60), EOL)
def test_spec_example_with_damage(changes: dict[int, str], keep: int, eol: str) -> None:
    lines = list(SPEC)
    for number, value in changes.items():
        lines[number - 1] = value
    check(eol.join(lines[:keep]).encode("utf-8", "replace"), "DOOR.SYS")
