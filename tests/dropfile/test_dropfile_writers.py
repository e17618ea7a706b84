"""Synthetic dropfiles as each BBS writes them (research/dropfiles.md §2.3, §3.2, §4.2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from door.bbs.dropfile import (
    MAX_TIME_LEFT_S,
    DropfileError,
    find_dropfile,
    parse_dropfile,
    read_dropfile,
)

# The 52 lines of the GAP spec's example (Rick Greer), lines 43–52 from real writers.
SPEC = ["COM1:", "2400", "8", "1", "19200", "Y", "Y", "Y", "Y", "Rick Greer",
        "Lewisville, Tx.", "214 221-7814", "214 221-7814", "PASSWORD", "110", "1456",
        "03/14/88", "7560", "126", "GR", "23", "Y", "1,2,3,4,5,6,7", "7", "01/01/99", "1",
        "Y", "0", "0", "0", "999999", "10/22/88", "G:\\GAP\\MAIN", "G:\\GAP\\GEN", "Michael",
        "Stud", "00:05", "Y", "N", "Y", "14", "0", "07/07/90", "14:37", "00:00", "32768",
        "0", "0", "0", "None", "0", "0"]


def door_sys(changes: dict[int, str], eol: str = "\r\n", lines: int = 52,
             final: bool = True) -> bytes:
    """The spec example with 1-based line ``changes``, cut to ``lines`` lines."""
    body = list(SPEC)
    for number, value in changes.items():
        body[number - 1] = value
    text = eol.join(body[:lines]) + (eol if final else "")
    return text.encode("cp437")


def test_spec_example_reads_plainly() -> None:
    caller = parse_dropfile(door_sys({}), "DOOR.SYS")
    assert (caller.user_name, caller.alias, caller.node, caller.security_level) == (
        "Rick Greer", "Stud", 1, 110)
    assert (caller.time_left_s, caller.screen_rows, caller.comm, caller.baud) == (
        7560, 23, "serial", 2400)
    assert caller.ansi and caller.warnings == ()


@pytest.mark.parametrize("eol,final", [("\r\n", True), ("\n", True), ("\r", True),
                                       ("\n", False), ("\r\n", False)])
def test_any_line_ending_reads_the_same(eol: str, final: bool) -> None:
    assert parse_dropfile(door_sys({}, eol, final=final), "door.sys") == parse_dropfile(
        door_sys({}), "DOOR.SYS")


def test_synchronet_native_door_sys() -> None:
    """LF, flag letters on line 23, seconds clamped to 32767, chat handle on 36, 7E."""
    data = door_sys({1: "COM0:", 2: "115200", 5: "115200", 10: "Deuce Real", 18: "32767",
                     19: "546", 20: "GR", 21: "50", 23: "ABCDEFGHIJ", 24: "0", 26: "42",
                     36: "Deuce", 41: "263"}, "\n")
    caller = parse_dropfile(data, "DOOR.SYS")
    assert (caller.alias, caller.user_name, caller.user_id) == ("Deuce", "Deuce Real", "42")
    assert (caller.time_left_s, caller.screen_rows, caller.comm) == (32767, 50, "local")
    assert caller.warnings == ()
    seven = parse_dropfile(door_sys({20: "7E"}, "\n"), "door.sys")
    assert seven.seven_bit and not seven.ansi


def test_synchronet_gap_31_lines_then_21_blank() -> None:
    data = door_sys({}, "\n", lines=31) + b"\n" * 21
    caller = parse_dropfile(data, "DOOR.SYS")
    assert caller.alias == "Rick Greer"  # no line 36: the user name
    assert caller.warnings == ()


def test_enigma_twelve_hour_times_and_fixed_15360() -> None:
    data = door_sys({1: "COM1:", 2: "57600", 5: "57600", 10: "Bryan Ashby", 12: "123-456-7890",
                     14: "NOPE", 17: "11/30/26", 18: "15360", 19: "256", 21: "25", 36: "NuSkooler",
                     44: "04:59", 45: "04:59", 33: "X:\\MAIN\\", 34: "X:\\GEN\\"})
    caller = parse_dropfile(data, "DOOR.SYS")
    assert (caller.alias, caller.time_left_s, caller.screen_rows) == ("NuSkooler", 15360, 25)
    assert any("ENiGMA" in w and "--time-left" in w for w in caller.warnings)


@pytest.mark.parametrize("name,data", [
    ("door32.sys", b"2\r\n-1\r\n57600\r\nMy Board\r\n1\r\nReal\r\nAlias\r\n30\r\n546\r\n1\r\n"
                   b"1\r\n"),
    ("DORINFO1.DEF", b"My Board\r\nSys\r\nSys\r\nCOM1\r\n57600\r\n0\r\nAlias\r\nAlias\r\n\r\n"
                     b"1\r\n30\r\n546\r\n-1\r\n"),
])
def test_enigma_fixed_546_minutes_in_door32_and_dorinfo(name: str, data: bytes) -> None:
    """ENiGMA½'s DOOR32.SYS and DORINFOx.DEF say 546 minutes for everyone (a TODO)."""
    caller = parse_dropfile(data, name)
    assert caller.time_left_s == 546 * 60
    assert [w for w in caller.warnings if "ENiGMA½ (DOOR32.SYS and DORINFOx.DEF)" in w
            and "--time-left" in w]


def test_mystic_integer_birthday_and_blank_lines() -> None:
    data = door_sys({1: "COM0:", 12: "", 13: "", 14: "", 23: "", 24: "", 25: "", 27: "",
                     32: "2460683", 36: "g00r00", 41: "3", 43: "00/00/00"}, "\n")
    caller = parse_dropfile(data, "DOOR.SYS")
    assert (caller.alias, caller.comm, caller.warnings) == ("g00r00", "local", ())


def test_wwiv_port_without_colon_and_real_name_on_13() -> None:
    data = door_sys({1: "COM0", 4: "3", 5: "38400", 13: "Real Name", 14: "X", 23: "1,2,3",
                     36: "SYSOP"}, "\n")
    caller = parse_dropfile(data, "door.sys")
    assert (caller.comm, caller.node, caller.alias, caller.baud) == ("local", 3, "SYSOP",
                                                                     2400)
    assert caller.warnings == ()
    assert parse_dropfile(door_sys({1: "COM2"}), "door.sys").comm == "serial"


def test_renegade_unclamped_seconds_and_pm_time() -> None:
    data = door_sys({1: "COM0:", 2: "0", 5: "0", 18: "1965406", 19: "32756", 44: "4:59 pm"})
    caller = parse_dropfile(data, "DOOR.SYS")
    assert caller.time_left_s == MAX_TIME_LEFT_S and caller.baud is None
    assert any("clamped" in w for w in caller.warnings)


def test_magicka_envy_four_digit_years_and_none() -> None:
    data = door_sys({1: "COM1:", 2: "38400", 12: "00-0000-0000", 14: "SECRET",
                     17: "01-01-1971", 21: "25", 23: "", 24: "", 25: "", 32: "01-01-1971",
                     37: "none", 43: "01-01-1971", 50: "None."})
    assert parse_dropfile(data, "door.sys").warnings == ()


def test_x84_doubled_handle_and_last_line_lf() -> None:
    body = door_sys({10: "biff biff", 18: "15360", 19: "256", 36: "biff"}, final=False)
    caller = parse_dropfile(body + b"\n", "DOOR.SYS")
    assert (caller.user_name, caller.alias) == ("biff", "biff")
    assert any("same words twice" in w for w in caller.warnings)


def test_icy_board_omits_line_5() -> None:
    body = [line for number, line in enumerate(SPEC, 1) if number != 5]
    body[3] = "2"  # node
    data = ("\r\n".join(body) + "\r\n").encode()
    caller = parse_dropfile(data, "DOOR.SYS")
    assert len(body) == 51
    assert (caller.user_name, caller.node, caller.security_level) == ("Rick Greer", 2, 110)
    assert (caller.time_left_s, caller.screen_rows, caller.alias) == (7560, 23, "Stud")
    assert any("icy_board" in w for w in caller.warnings)


def test_old_1988_form_with_n_on_line_5_is_not_shifted() -> None:
    caller = parse_dropfile(door_sys({5: "N"}, lines=31), "DOOR.SYS")
    assert (caller.user_name, caller.time_left_s, caller.warnings) == ("Rick Greer", 7560, ())


def test_opendoors_stdio_and_socket_ports() -> None:
    assert parse_dropfile(door_sys({1: "COM0:STDIO"}), "DOOR.SYS").comm == "local"
    sock = parse_dropfile(door_sys({1: "COM0:SOCKET7"}), "DOOR.SYS")
    assert (sock.comm, sock.socket_handle) == ("telnet", 7)


def test_doorway_form() -> None:
    caller = parse_dropfile(b"JOHN DOE\r\n0\r\n2400\r\n45\r\nG\r\nA\r\n", "DOOR.SYS")
    assert (caller.user_name, caller.time_left_s, caller.comm, caller.ansi) == (
        "JOHN DOE", 45 * 60, "local", True)
    assert any("DoorWay" in w for w in caller.warnings)


def test_seconds_and_minutes_that_disagree_take_the_smaller() -> None:
    caller = parse_dropfile(door_sys({18: "9000", 19: "30"}), "DOOR.SYS")
    assert caller.time_left_s == 1800
    assert any("disagree" in w for w in caller.warnings)


def test_junk_numbers_are_guessed_and_said() -> None:
    caller = parse_dropfile(door_sys({4: "x", 15: "lots", 18: "", 19: "?", 21: "999"}),
                            "DOOR.SYS")
    assert (caller.node, caller.security_level, caller.screen_rows) == (1, 0, None)
    assert caller.time_left_s == 3600
    assert len(caller.warnings) == 4


def test_control_characters_never_reach_a_name() -> None:
    caller = parse_dropfile(door_sys({36: "evil\x1b[2Jname\x07"}), "DOOR.SYS")
    assert caller.alias == "evil[2Jname"
    assert any("control characters" in w for w in caller.warnings)


def door32(lines: list[str], eol: str = "\n") -> bytes:
    return eol.join(lines).encode()


@pytest.mark.parametrize("lines,comm,handle,minutes,warns", [
    # Synchronet stdio door: 0 and -1; socket door: 2 and the passthru fd.
    (["0", "-1", "115200", "Synchronet BBS for Linux  Version 3.22a", "7", "Real", "Alias",
      "50", "60", "1", "3"], "local", None, 60, 0),
    (["2", "5", "115200", "Synchronet BBS for Linux  Version 3.22a", "7", "Real", "Alias",
      "50", "60", "1", "3"], "telnet", 5, 60, 0),
    # ENiGMA½: 2 with -1 (no socket sharing), 546 minutes for everyone (warned).
    (["2", "-1", "115200", "ENiGMA BBS", "1", "Real", "Alias", "10", "546", "1", "1"],
     "telnet", None, 546, 1),
    # Mystic on Unix: 2 with handle 0 (meaning stdin).
    (["2", "0", "38400", "Mystic 1.10 A38", "1", "Real", "Alias", "10", "60", "1", "1"],
     "telnet", 0, 60, 0),
    # WWIV: 0 (local) on Unix, and seconds on the minutes line.
    (["0", "7", "38400", "WWIV 5.7.2", "1", "Real", "Alias", "10", "3600", "1", "1"],
     "local", 7, 60, 2),
    # Envy: 0 with a live socket fd; unknown comm type 5.
    (["5", "9", "38400", "Envy 1.0", "1", "Real", "Alias", "10", "30", "1", "1"],
     "telnet", 9, 30, 1),
])
def test_door32_writers(lines: list[str], comm: str, handle: int | None, minutes: int,
                        warns: int) -> None:
    caller = parse_dropfile(door32(lines, "\r\n"), "door32.sys")
    assert (caller.comm, caller.socket_handle, caller.time_left_s) == (comm, handle,
                                                                       minutes * 60)
    assert (caller.alias, caller.user_name) == ("Alias", "Real")
    assert caller.bbs == " ".join(lines[3].split())
    assert len(caller.warnings) == warns, caller.warnings


def test_door32_x84_doubled_handle_minutes_as_seconds_and_emulations() -> None:
    base = ["0", "0", "57600", "x/84", "3", "biff biff", "biff", "30", "256", "1", "1"]
    caller = parse_dropfile(door32(base, "\r\n") + b"\n", "DOOR32.SYS")
    assert (caller.user_name, caller.alias) == ("biff", "biff")
    big = parse_dropfile(door32([*base[:8], "7200", *base[9:]]), "door32.sys")
    assert big.time_left_s == 7200
    for emulation, ansi in (("0", False), ("1", True), ("4", True), ("5", True), ("", True)):
        caller = parse_dropfile(door32([*base[:9], emulation, "1"]), "door32.sys")
        assert caller.ansi is ansi


def dorinfo(lines: list[str], eol: str = "\r\n") -> bytes:
    return eol.join(lines).encode("cp437")


def test_dorinfo_enigma_style() -> None:
    """Only the rate on line 5, the first name twice, graphics 2, and -1 on line 13."""
    data = dorinfo(["Xibalba", "Bryan", "Bryan", "COM1", "57600", "0", "Bob", "Bob",
                    "Anywhere", "2", "30", "546", "-1"])
    caller = parse_dropfile(data, "DORINFO1.DEF")
    assert (caller.user_name, caller.baud, caller.ansi, caller.time_left_s) == (
        "Bob", 57600, True, 546 * 60)
    assert (caller.bbs, caller.comm) == ("Xibalba", "serial")


@pytest.mark.parametrize("name,node,warned", [("DORINFO3.DEF", 3, False),
                                              ("dorinfo0.def", 10, True),
                                              ("DORINFOA.DEF", 10, True),
                                              ("dorinfob.def", 11, True)])
def test_dorinfo_node_from_the_name(name: str, node: int, warned: bool) -> None:
    data = dorinfo(["BBS", "Sys", "Op", "COM0", "0 BAUD,N,8,1", "0", "A", "B", "", "0", "5",
                    "10"])
    caller = parse_dropfile(data, name)
    assert caller.node == node and not caller.ansi
    assert bool(caller.warnings) is warned


def test_folder_lookup_in_any_case(tmp_path: Path) -> None:
    (tmp_path / "dorinfo1.def").write_bytes(dorinfo(
        ["BBS", "Sys", "Op", "COM0", "0 BAUD,N,8,1", "0", "A", "B", "", "1", "5", "10"]))
    assert read_dropfile(tmp_path).format == "DORINFO"
    (tmp_path / "door.sys").write_bytes(door_sys({}))
    assert read_dropfile(tmp_path).format == "DOOR.SYS"
    (tmp_path / "Door32.Sys").write_bytes(door32(
        ["2", "-1", "1", "B", "1", "R", "A", "1", "9", "1", "1"]))
    found = read_dropfile(tmp_path)
    assert found.format == "DOOR32.SYS" and found.path.endswith("Door32.Sys")
    assert find_dropfile(tmp_path / "DOOR.SYS") == tmp_path / "door.sys"


@pytest.mark.parametrize("data,name,says", [
    (b"", "DOOR.SYS", "empty"),
    (b"\r\n\r\n", "door32.sys", "empty"),
    (b"COM1:\r\n2400\r\n", "DOOR.SYS", "only 2 lines"),
    (b"2\n5\n", "door32.sys", "only 2 lines"),
    (b"\x00\x01\x02ELF", "DOOR.SYS", "binary"),
    (b"hello\nworld\n", "notes.txt", "not a DOOR.SYS"),
])
def test_unusable_files_say_why(data: bytes, name: str, says: str) -> None:
    with pytest.raises(DropfileError, match=says):
        parse_dropfile(data, name)


def test_missing_path_and_empty_folder(tmp_path: Path) -> None:
    with pytest.raises(DropfileError, match="no such file"):
        read_dropfile(tmp_path / "nope" / "DOOR.SYS")
    with pytest.raises(DropfileError, match=r"no DOOR\.SYS, DOOR32\.SYS or DORINFOx\.DEF"):
        read_dropfile(tmp_path)
