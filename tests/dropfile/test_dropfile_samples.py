"""Every real dropfile in samples/ (copied byte for byte, provenance in samples/SOURCES.md)
parses to the caller the file describes; the MALFORMED ones fail clearly or parse with
warnings."""

from __future__ import annotations

from pathlib import Path

import pytest

from door.bbs.dropfile import JSON_KEYS, DropfileError, read_dropfile

SAMPLES = Path(__file__).parent / "samples"

# file: {field: expected}, read off the file itself and SOURCES.md.
EXPECTED: dict[str, dict[str, object]] = {
    "cycon-odyssey_DOOR.SYS": dict(  # Renegade-style, CRLF, 1965406 s unclamped
        format="DOOR.SYS", user_name="CORPORAL CLEGG", alias="Corporal Clegg", node=2,
        security_level=255, location="Media, PA", time_left_s=86400, screen_rows=23,
        comm="local", baud=None, user_id="1", ansi=True),
    "mystic_demoscene_DOOR.SYS": dict(  # Mystic: integer birthday on line 32
        user_name="Dexter Cellfish", alias="dexter", node=1, security_level=255,
        location="Hokksund", time_left_s=59940, screen_rows=24, comm="serial", baud=38400),
    "mg_advent_talisman_door.sys": dict(  # 1991 s vs 33 min: seconds kept (same minute)
        user_name="Robbie Whiting", alias="j0hnny a1pha", security_level=10,
        time_left_s=1991, screen_rows=25, comm="local", baud=38400, warnings=[]),
    "edandd_DOOR.SYS": dict(  # 31 lines, line 5 = N, trailing ; comments
        user_name="John Stephenson", alias="John Stephenson", location="Kingston, Ont",
        security_level=100, time_left_s=86390, screen_rows=25, comm="local", baud=None),
    "roo_DOOR.SYS": dict(  # COM4 without colon, 31 lines
        user_name="Frank Boyd", comm="serial", baud=19200, security_level=9,
        time_left_s=59880, screen_rows=19, user_id="1"),
    "space-ace_DOOR.SYS": dict(  # mixed CRLF/LF, 55 lines
        user_name="BEAN ZILLA", alias="Sysop", location="BBS Archives", security_level=99,
        time_left_s=27120, user_id="43", screen_rows=25),
    "DOCEXAMPLE_remoteaccess_DOOR.SYS": dict(  # the RA doc example: lines 14, 23–24 missing
        user_name="John Parlin", location="Brooklyn Center, MN, USA", security_level=100,
        time_left_s=18780, screen_rows=24, comm="serial", baud=9600, user_id="0"),
    "ec2game_talisman_door32.sys": dict(  # no final newline, handle 8
        format="DOOR32.SYS", user_name="Mason Green", alias="Zzzzrrr", node=0,
        security_level=100, time_left_s=90 * 60, comm="telnet", socket_handle=8,
        baud=38400, location="", screen_rows=None, warnings=[]),
    "godoors_talisman_door32.sys": dict(
        alias="aLPHA", time_left_s=821 * 60, comm="telnet", socket_handle=8, node=1),
    "toilet-redux_talisman_door32.sys": dict(  # local, handle 0, baud 67600
        alias="aLPHA", comm="local", socket_handle=None, baud=67600, node=1),
    "mg_advent_test_door32.sys": dict(
        user_name="John Smith", alias="JohnS", socket_handle=1234, security_level=255,
        time_left_s=3600),
    "ghostnet_specexample_door32.sys": dict(  # the DOOR32 spec's own example
        user_name="James Coyle", alias="g00r00", security_level=255, time_left_s=58 * 60,
        comm="local", socket_handle=None, ansi=True),
    "bbs-sabacc_test_door32.sys": dict(
        user_name="Test Player", alias="TestUser", time_left_s=90 * 60, socket_handle=8),
    "jezebel_DORINFO1.DEF": dict(  # 12 lines, COM2
        format="DORINFO", user_name="Jason Kessler", alias="Jason Kessler",
        location="Port Orchard, WA", security_level=10, time_left_s=3600, comm="serial",
        baud=38400, node=1, user_id="", screen_rows=None),
    "renegade_RG119SRC_DORINFO1.DEF": dict(  # 32762 minutes: clamped to a day
        user_name="LEE PALMER", security_level=255, time_left_s=86400, comm="local",
        baud=None),
    "sonic_bbs_dorinfo1.def": dict(  # COM2: with colon, empty last name and location
        user_name="anubis", location="", security_level=0, time_left_s=19 * 60, baud=2400,
        comm="serial"),
    "opendoors_example_DORINFO1.DEF": dict(
        user_name="TEST USER", location="UNKNOWN LOCATION", time_left_s=3600, comm="local"),
    "MALFORMED_esterian_conquest_DORINFO1.DEF": dict(  # 16 lines, 9000 minutes
        user_name="HANNIBAL Player", location="Orlando, FL", security_level=100,
        time_left_s=86400, baud=19200),
}


def test_every_sample_is_covered() -> None:
    files = {p.name for p in SAMPLES.iterdir() if p.name != "SOURCES.md"}
    assert files == {*EXPECTED, "MALFORMED_esterian_conquest_DOOR.SYS"}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_parses_to_its_caller(name: str) -> None:
    caller = read_dropfile(SAMPLES / name)
    data = caller.as_json()
    assert tuple(data) == JSON_KEYS
    for key, value in EXPECTED[name].items():
        assert data[key] == value, key


def test_clamps_and_guesses_are_reported() -> None:
    cycon = read_dropfile(SAMPLES / "cycon-odyssey_DOOR.SYS")
    assert any("1965406" in w and "clamped" in w for w in cycon.warnings)
    ra = read_dropfile(SAMPLES / "DOCEXAMPLE_remoteaccess_DOOR.SYS")
    assert any("line 14" in w for w in ra.warnings)
    assert any("23–24" in w for w in ra.warnings)
    edandd = read_dropfile(SAMPLES / "edandd_DOOR.SYS")
    assert edandd.warnings == ("lines 34–36: comment lines after the data, ignored",)
    space = read_dropfile(SAMPLES / "space-ace_DOOR.SYS")
    assert any("55 lines" in w for w in space.warnings)
    malformed = read_dropfile(SAMPLES / "MALFORMED_esterian_conquest_DORINFO1.DEF")
    assert any("16 lines" in w for w in malformed.warnings)
    assert any("clamped" in w for w in malformed.warnings)


def test_malformed_door_sys_is_refused_in_one_clear_line() -> None:
    with pytest.raises(DropfileError) as caught:
        read_dropfile(SAMPLES / "MALFORMED_esterian_conquest_DOOR.SYS")
    message = str(caught.value)
    assert "\n" not in message
    assert "MALFORMED_esterian_conquest_DOOR.SYS" in message
    assert "line 4 (node) is 'N'" in message and "line 20 (graphics mode) is '2'" in message
