"""BBS dropfiles (DOOR.SYS, DOOR32.SYS, DORINFOx.DEF) into one frozen :class:`DropfileCaller`.

Tolerant of every real writer's quirks (research/dropfiles.md §2–4): any line ending, missing
or extra lines, trailing comments, ``COMn`` with or without colon, OpenDoors' ``COM0:STDIO``
and ``COM0:SOCKETn``, 16-bit clamps and absurd time values, icy_board's DOOR.SYS that omits
line 5, WWIV's DOOR32.SYS seconds-as-minutes, x84's doubled handle.  Strict in what it
reports: every value it had to guess, clamp or repair is named in ``warnings``, and a file
it cannot make sense of raises :class:`DropfileError` with one clear line.  Standard library
only, so ``reussite dropfile`` starts fast.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from ..logs.printable import printable

MAX_TIME_LEFT_S = 24 * 3600
"""No BBS grants more than a day per call: longer values are clamps or garbage."""
DEFAULT_TIME_LEFT_S = 60 * 60
"""Used (with a warning) when a dropfile's time left cannot be read at all."""
MAX_NAME = 40
MAX_DIGITS = 20
"""Digits a dropfile number may have (leading zeros aside): any 64-bit value fits.  A longer
one is garbage (and Python refuses to convert one of 4,300 digits or more)."""
MAX_HANDLE = 2**31 - 1
"""The largest descriptor number there can be (a C int)."""
MAX_BAUD = 10**9
QUOTE_MAX = 40
"""Characters of a line a warning or an error quotes."""
FIXED_TIMES = {15360: "ENiGMA½ (DOOR.SYS) and x84",
               546 * 60: "ENiGMA½ (DOOR32.SYS and DORINFOx.DEF)"}
"""Time-left values some BBSes write for every caller whatever their real time ("TODO" in
ENiGMA½'s core/dropfile.js): a warning names the writer."""
MAX_FILE_BYTES = 64 * 1024

DOOR_SYS, DOOR32_SYS, DORINFO = "DOOR.SYS", "DOOR32.SYS", "DORINFO"
JSON_KEYS = ("format", "user_name", "alias", "user_id", "node", "security_level", "location",
             "time_left_s", "ansi", "screen_rows", "comm", "socket_handle", "baud", "warnings")

_DORINFO_NAME = re.compile(r"dorinfo[0-9a-z]\.def", re.IGNORECASE)
_GRAPHICS = {"GR", "NG", "7E", "RIP"}
_YES_NO = {"Y", "N", ""}
_DATE = re.compile(r"\d{1,2}[-/]\d{1,2}[-/]\d{2,4}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class DropfileError(Exception):
    """The file is missing, unreadable or not a dropfile; ``str()`` is one line."""


@dataclass(frozen=True, slots=True)
class DropfileCaller:
    """Who the BBS sent us, as its dropfile says.  ``as_json()`` gives the public keys."""

    format: str
    user_name: str
    alias: str
    user_id: str
    node: int
    security_level: int
    location: str
    time_left_s: int
    ansi: bool
    screen_rows: int | None
    comm: str  # "local" | "serial" | "telnet": what the file says, not what the fds are
    socket_handle: int | None
    baud: int | None
    warnings: tuple[str, ...] = ()
    seven_bit: bool = False  # DOOR.SYS "7E": a 7-bit caller, so ASCII only
    bbs: str = ""  # DOOR32.SYS line 4 or DORINFO line 1, when the file names its BBS
    path: str = field(default="", compare=False)

    def as_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["warnings"] = list(self.warnings)
        return {key: data[key] for key in JSON_KEYS}


# -- finding and reading the file ---------------------------------------------------------

def find_dropfile(path: str | Path) -> Path:
    """The dropfile at ``path``, or inside the folder ``path`` (names matched in any case).

    In a folder holding several, DOOR32.SYS wins (it may carry a socket handle), then
    DOOR.SYS, then the lowest DORINFOx.DEF.
    """
    path = Path(path)
    if path.is_dir():
        try:
            names = sorted(p.name for p in path.iterdir() if p.is_file())
        except OSError as exc:
            raise DropfileError(f"{_named(path)}: cannot list the folder: {exc.strerror}"
                                ) from None
        for wanted in ("door32.sys", "door.sys"):
            for name in names:
                if name.lower() == wanted:
                    return path / name
        for name in names:
            if _DORINFO_NAME.fullmatch(name):
                return path / name
        raise DropfileError(f"{_named(path)}: no DOOR.SYS, DOOR32.SYS or DORINFOx.DEF in this "
                            "folder")
    if not path.exists() and path.parent.is_dir():
        for sibling in path.parent.iterdir():  # the BBS may have written it in another case
            if sibling.name.lower() == path.name.lower():
                return sibling
    if not path.exists():
        raise DropfileError(f"{_named(path)}: no such file or folder")
    return path


def read_dropfile(path: str | Path) -> DropfileCaller:
    """Find, read and parse a dropfile; raises :class:`DropfileError` if it is unusable."""
    found = find_dropfile(path)
    try:
        with found.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise DropfileError(f"{_named(found)}: cannot read: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise DropfileError(f"{_named(found)}: {MAX_FILE_BYTES // 1024} KB or more: not a "
                            "dropfile")
    try:
        caller = parse_dropfile(data, found.name)
    except DropfileError as exc:
        raise DropfileError(f"{_named(found)}: {exc}") from None
    return replace(caller, path=str(found))


def _named(path: Path) -> str:
    """A dropfile's path as an error line names it: escape bytes in it shown, not sent."""
    return printable(str(path))


def detect_format(lines: list[str], name: str = "") -> str:
    """DOOR.SYS, DOOR32.SYS or DORINFO: from the file name, else from the content."""
    lower = name.lower()
    if lower.endswith("door32.sys"):
        return DOOR32_SYS
    if lower.endswith("door.sys"):
        return DOOR_SYS
    if re.search(r"dorinfo[0-9a-z]\.def$", lower):
        return DORINFO
    first = lines[0].strip().upper() if lines else ""
    if first.startswith("COM"):
        return DOOR_SYS
    if len(lines) > 3 and lines[3].strip().upper().startswith("COM"):
        return DORINFO
    if re.fullmatch(r"[0-9]", first) and 9 <= len(lines) <= 14:
        return DOOR32_SYS
    raise DropfileError("not a DOOR.SYS, DOOR32.SYS or DORINFOx.DEF (unknown name and "
                        "content)")


def split_lines(data: bytes) -> list[str]:
    """CP437 text (never fails) split on CRLF, LF or CR; a final newline adds no line."""
    text = data.decode("cp437")
    lines = re.split(r"\r\n|\n|\r", text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def parse_dropfile(data: bytes, name: str = "") -> DropfileCaller:
    """Parse dropfile bytes; ``name`` (the file name) picks the format when it can."""
    if b"\x00" in data.rstrip(b"\x00\x1a"):
        raise DropfileError("binary data (NUL bytes): not a text dropfile")
    lines = split_lines(data.rstrip(b"\x00\x1a"))
    if not any(line.strip() for line in lines):
        raise DropfileError("the file is empty")
    fmt = detect_format(lines, name)
    notes = _Notes()
    if fmt == DOOR32_SYS:
        return _parse_door32(lines, notes)
    if fmt == DORINFO:
        return _parse_dorinfo(lines, name, notes)
    return _parse_door_sys(lines, notes)


# -- small field readers: each records a warning when it has to guess ---------------------

class _Notes(list[str]):
    """The warnings of one parse, in line order."""

    def add(self, text: str) -> None:
        if text not in self:
            self.append(text)


def _line(lines: list[str], number: int) -> str:
    """Line ``number`` (1-based) without surrounding blanks; ``""`` past the end."""
    return lines[number - 1].strip() if 0 < number <= len(lines) else ""


def _whole(text: str, number: int, what: str) -> int | None:
    """The leading (signed) whole number of ``text``, line ``number`` (``what`` it holds),
    or None: the one reader of every number in a dropfile.  More than :data:`MAX_DIGITS`
    digits raise :class:`DropfileError` naming the line."""
    match = re.match(r"\s*([-+]?)0*(\d+)", text)
    if not match:
        return None
    digits = match.group(2)
    if len(digits) > MAX_DIGITS:
        raise DropfileError(f"line {number} ({what}): a number {len(digits)} digits long: "
                            "no dropfile value is")
    value = int(digits)
    return -value if match.group(1) == "-" else value


def _shown(text: str) -> str:
    """A line as a warning or an error quotes it: escaped, cut after QUOTE_MAX characters."""
    if len(text) <= QUOTE_MAX:
        return repr(text)
    return f"{text[:QUOTE_MAX]!r}… ({len(text)} characters)"


def _text(raw: str, what: str, number: int, notes: _Notes) -> str:
    """A name or place: control characters removed, length capped (both with a warning)."""
    clean = _CONTROL.sub("", raw).strip()
    if clean != raw.strip():
        notes.add(f"line {number} ({what}): control characters removed")
    clean = " ".join(clean.split())
    if len(clean) > MAX_NAME:
        notes.add(f"line {number} ({what}): cut to {MAX_NAME} characters")
        clean = clean[:MAX_NAME].rstrip()
    return clean


def _undouble(name: str, number: int, notes: _Notes) -> str:
    """x84 writes ``handle handle`` and ENiGMA½ ``first first``: keep one."""
    words = name.split(" ")
    half = len(words) // 2
    if len(words) % 2 == 0 and half and words[:half] == words[half:]:
        notes.add(f"line {number}: name {_shown(name)} is the same words twice: read as "
                  f"{_shown(' '.join(words[:half]))}")
        return " ".join(words[:half])
    return name


def _number(lines: list[str], number: int, what: str, default: int, notes: _Notes,
            low: int = 0, high: int = 2**31 - 1) -> int:
    value = _whole(_line(lines, number), number, what)
    if value is None:
        notes.add(f"line {number} ({what}): {_shown(_line(lines, number))} is not a number: "
                  f"{default} assumed")
        return default
    if not low <= value <= high:
        clamped = min(max(value, low), high)
        notes.add(f"line {number} ({what}): {value} is out of range: {clamped} used")
        return clamped
    return value


def _node(value: int | None, where: str, notes: _Notes) -> int:
    if value is None:
        notes.add(f"{where} (node): not a number: node 1 assumed")
        return 1
    if not 0 <= value <= 9999:
        notes.add(f"{where} (node): {value} is out of range: node 1 assumed")
        return 1
    return value


def _time_left(seconds: int | None, minutes: int | None, notes: _Notes, where: str) -> int:
    """Seconds left from a seconds and/or a minutes figure: the sane one, clamped to a day."""
    candidates = []
    if seconds is not None and seconds > 0:
        candidates.append(seconds)
    if minutes is not None and minutes > 0:
        candidates.append(minutes * 60)
    if not candidates:
        if seconds == 0 or minutes == 0:
            notes.add(f"{where}: no time left")
            return 0
        notes.add(f"{where}: time left unreadable: {DEFAULT_TIME_LEFT_S // 60} minutes "
                  "assumed")
        return DEFAULT_TIME_LEFT_S
    best = candidates[0]
    if len(candidates) == 2 and abs(candidates[0] - candidates[1]) >= 60:
        notes.add(f"{where}: {seconds} s and {minutes} min disagree: the smaller used")
        best = min(candidates)
    if best > MAX_TIME_LEFT_S:
        notes.add(f"{where}: {best} s is more than a day: clamped to {MAX_TIME_LEFT_S} s")
        best = MAX_TIME_LEFT_S
    fixed = FIXED_TIMES.get(best)
    if fixed:
        notes.add(f"{where}: {best} s ({best // 60} min) is the fixed figure {fixed} write, "
                  "not the caller's real time: give the door --time-left MIN (or the BBS's "
                  "time-left argument)")
    return best


def _rows(text: str, number: int, notes: _Notes) -> int | None:
    value = _whole(text, number, "screen rows")
    if value is None:
        if text:
            notes.add(f"line {number} (screen rows): {_shown(text)} is not a number: ignored")
        return None
    if not 10 <= value <= 200:
        notes.add(f"line {number} (screen rows): {value} is not a sane height: ignored")
        return None
    return value


# -- DOOR.SYS -------------------------------------------------------------------------------

def _port(first: str, notes: _Notes) -> tuple[str, int | None]:
    """Line 1: ``COMn[:]``, ``COM0:STDIO``, ``COM0:SOCKETn`` → (comm, socket handle)."""
    upper = first.strip().upper()
    match = re.fullmatch(r"COM(\d+):?(STDIO|SOCKET(\d+)|HANDLE(\d+))?", upper)
    if not match:
        notes.add(f"line 1 (port): {_shown(first)} is not COMn: local assumed")
        return "local", None
    if match.group(3) is not None:
        return "telnet", _handle(_whole(match.group(3), 1, "socket handle"), 1, notes)
    if match.group(2) or _whole(match.group(1), 1, "port") == 0:
        return "local", None
    return "serial", None


def _handle(value: int | None, number: int, notes: _Notes) -> int | None:
    """A socket handle: a descriptor number, or None (with a warning) past any there is."""
    if value is not None and value > MAX_HANDLE:
        notes.add(f"line {number} (handle): {value} is no descriptor number: ignored")
        return None
    return value


def _baud(value: int | None, number: int, notes: _Notes) -> int | None:
    """A line's speed, None for none (0, negative) or for an absurd one (with a warning)."""
    if value is not None and value > MAX_BAUD:
        notes.add(f"line {number} (baud): {value} is no line speed: ignored")
        return None
    return value if value and value > 0 else None


def _realign_door_sys(lines: list[str], notes: _Notes) -> list[str]:
    """Put line 20 (graphics mode) back on line 20 when a writer left lines out.

    icy_board omits line 5 (research/dropfiles.md §2.4); the RemoteAccess documentation's
    example omits line 14 and lines 23–24.  A file with no graphics line near 20 is not a
    DOOR.SYS we can trust: the caller of this function raises.
    """
    def graphics_at(number: int) -> bool:
        return _line(lines, number).upper() in _GRAPHICS
    if graphics_at(20) or len(lines) < 19:
        return lines
    if graphics_at(19):
        if _line(lines, 5).upper() in {"Y", "N"} and _line(lines, 9).upper() not in _YES_NO:
            notes.add("line 5 (DTE rate) is missing, as icy_board writes: later lines read "
                      "one line further on")
            lines = [*lines[:4], "", *lines[4:]]
        else:
            notes.add("a line before line 20 is missing (taken to be line 14, the password, "
                      "as in the RemoteAccess documentation example): later lines read one "
                      "line further on")
            lines = [*lines[:13], "", *lines[13:]]
        if _DATE.fullmatch(_line(lines, 23)):
            notes.add("lines 23–24 (conferences) are missing: later lines read two lines "
                      "further on")
            lines = [*lines[:22], "", "", *lines[22:]]
    return lines


def _parse_door_sys(lines: list[str], notes: _Notes) -> DropfileCaller:
    if not _line(lines, 1).upper().startswith("COM"):
        return _parse_doorway(lines, notes)
    count = len(lines)
    data = lines
    # Comment lines after the data (edandd): only past line 31, where no field starts with ;
    for number in range(32, count + 1):
        if lines[number - 1].lstrip().startswith(";"):
            data = lines[:number - 1]
            notes.add(f"lines {number}–{count}: comment lines after the data, ignored")
            break
    if len(data) < 21:
        raise DropfileError(f"only {len(data)} lines: a DOOR.SYS has 31 or 52")
    data = _realign_door_sys(data, notes)
    graphics = _line(data, 20).upper()
    node_value = _whole(_line(data, 4), 4, "node")
    if graphics not in _GRAPHICS and node_value is None:
        raise DropfileError(f"does not follow the DOOR.SYS layout: line 4 (node) is "
                            f"{_shown(_line(data, 4))} and line 20 (graphics mode) is "
                            f"{_shown(_line(data, 20))}")
    filled = len(data)
    while filled > 31 and not data[filled - 1].strip():
        filled -= 1
    if len(data) not in (31, 52) and filled not in (31, 52):
        notes.add(f"{len(data)} lines where DOOR.SYS has 31 or 52: read what is there")
    comm, handle = _port(_line(data, 1), notes)
    if graphics not in _GRAPHICS:
        notes.add(f"line 20 (graphics mode): {_shown(_line(data, 20))} is not GR, NG, 7E or RIP: "
                  "ANSI assumed")
    user_name = _undouble(_text(data[9] if len(data) > 9 else "", "user name", 10, notes), 10,
                          notes)
    alias = _text(_line(data, 36), "alias", 36, notes) if len(data) >= 36 else ""
    if not user_name and not alias:
        raise DropfileError("no user name on line 10 and no alias on line 36")
    baud = _baud(_whole(_line(data, 2), 2, "baud"), 2, notes)
    if baud is None:
        baud = _baud(_whole(_line(data, 5), 5, "DTE rate"), 5, notes)
    return DropfileCaller(
        format=DOOR_SYS, user_name=user_name or alias, alias=alias or user_name,
        user_id=_text(_line(data, 26), "user record", 26, notes),
        node=_node(node_value, "line 4", notes),
        security_level=_number(data, 15, "security level", 0, notes, 0, 65535),
        location=_text(_line(data, 11), "location", 11, notes),
        time_left_s=_time_left(_whole(_line(data, 18), 18, "seconds left"),
                               _whole(_line(data, 19), 19, "minutes left"), notes,
                               "lines 18–19 (time left)"),
        ansi=graphics != "NG" and graphics != "7E",
        screen_rows=_rows(_line(data, 21), 21, notes),
        comm=comm, socket_handle=handle, baud=baud, warnings=tuple(notes),
        seven_bit=graphics == "7E")


def _parse_doorway(lines: list[str], notes: _Notes) -> DropfileCaller:
    """DoorWay's DOOR.SYS: name, port, baud, minutes, G/M (research/dropfiles.md §2.1)."""
    if (len(lines) < 4 or _whole(_line(lines, 4), 4, "minutes left") is None
            or _whole(_line(lines, 2), 2, "port") is None):
        raise DropfileError(f"line 1 is {_shown(_line(lines, 1))} where a DOOR.SYS has its COM "
                            "port, and the file is not DoorWay's form either")
    notes.add("line 1 is not a COM port: read as DoorWay's DOOR.SYS (name, port, baud, "
              "minutes, graphics)")
    name = _text(lines[0], "user name", 1, notes)
    if not name:
        raise DropfileError("no user name on line 1")
    port = _whole(_line(lines, 2), 2, "port") or 0
    baud = _baud(_whole(_line(lines, 3), 3, "baud"), 3, notes)
    return DropfileCaller(
        format=DOOR_SYS, user_name=name, alias=name, user_id="", node=1, security_level=0,
        location="", time_left_s=_time_left(None, _whole(_line(lines, 4), 4, "minutes left"),
                                            notes, "line 4 (minutes left)"),
        ansi=_line(lines, 5).upper() != "M", screen_rows=None,
        comm="serial" if port else "local", socket_handle=None, baud=baud,
        warnings=tuple(notes))


# -- DOOR32.SYS -----------------------------------------------------------------------------

def _parse_door32(lines: list[str], notes: _Notes) -> DropfileCaller:
    if len(lines) < 9:
        raise DropfileError(f"only {len(lines)} lines: a DOOR32.SYS has 11")
    if len(lines) != 11:
        notes.add(f"{len(lines)} lines where DOOR32.SYS has 11: read what is there")
    kind = _whole(_line(lines, 1), 1, "comm type")
    handle = _handle(_whole(_line(lines, 2), 2, "handle"), 2, notes)
    if kind is None or not 0 <= kind <= 2:
        notes.add(f"line 1 (comm type): {_shown(_line(lines, 1))} is not 0, 1 or 2: "
                  f"{'telnet' if handle and handle > 0 else 'local'} assumed")
        kind = 2 if handle and handle > 0 else 0
    comm = ("local", "serial", "telnet")[kind]
    socket_handle: int | None = None
    if handle is not None and handle >= 0:
        if comm == "telnet":
            socket_handle = handle
        elif comm == "local" and handle > 0:
            notes.add(f"lines 1–2: comm type 0 (local) with handle {handle}, as WWIV and "
                      "Envy write for a live socket: handle kept")
            socket_handle = handle
    elif handle is None:
        notes.add(f"line 2 (handle): {_shown(_line(lines, 2))} is not a number: ignored")
    bbs = _text(_line(lines, 4), "BBS name", 4, notes)
    real = _undouble(_text(_line(lines, 6), "real name", 6, notes), 6, notes)
    alias = _text(_line(lines, 7), "alias", 7, notes)
    if not real and not alias:
        raise DropfileError("no real name on line 6 and no alias on line 7")
    minutes = _whole(_line(lines, 9), 9, "minutes left")
    if minutes is not None and bbs.upper().startswith("WWIV") and minutes > 0:
        notes.add(f"line 9 (minutes left): WWIV writes seconds here: {minutes} read as "
                  "seconds")
        seconds, minutes = minutes, None
    elif minutes is not None and minutes > 1440 and minutes % 60 == 0:
        notes.add(f"line 9 (minutes left): {minutes} minutes is more than a day and a "
                  "multiple of 60: read as seconds")
        seconds, minutes = minutes, None
    else:
        seconds = None
    emulation = _whole(_line(lines, 10), 10, "emulation")
    if emulation is None:
        notes.add(f"line 10 (emulation): {_shown(_line(lines, 10))} is not a number: ANSI "
                  "assumed")
    node = _whole(_line(lines, 11), 11, "node")
    baud = _baud(_whole(_line(lines, 3), 3, "baud"), 3, notes)
    return DropfileCaller(
        format=DOOR32_SYS, user_name=real or alias, alias=alias or real,
        user_id=_text(_line(lines, 5), "user record", 5, notes),
        node=_node(node, "line 11", notes),
        security_level=_number(lines, 8, "security level", 0, notes, 0, 65535),
        location="",
        time_left_s=_time_left(seconds, minutes, notes, "line 9 (time left)"),
        ansi=emulation is None or emulation >= 1, screen_rows=None, comm=comm,
        socket_handle=socket_handle, baud=baud, warnings=tuple(notes), bbs=bbs)


# -- DORINFOx.DEF ---------------------------------------------------------------------------

def _dorinfo_node(name: str, notes: _Notes) -> int:
    """The node from the file name: 1–9 as written, ``0`` = 10 (ENiGMA½, x84), A–Z = 10–35
    (OpenDoors, Synchronet).  The conventions disagree past 9: a warning says so."""
    match = re.search(r"dorinfo([0-9a-z])\.def$", name.lower())
    if not match:
        return 1
    digit = match.group(1)
    if digit in "123456789":
        return int(digit)
    node = 10 if digit == "0" else ord(digit) - ord("a") + 10
    notes.add(f"file name {name}: node {node} assumed (BBSes number DORINFO files past 9 "
              "differently; --node sets it)")
    return node


def _parse_dorinfo(lines: list[str], name: str, notes: _Notes) -> DropfileCaller:
    if len(lines) < 12:
        raise DropfileError(f"only {len(lines)} lines: a DORINFOx.DEF has 12 or 13")
    if len(lines) > 13:
        notes.add(f"{len(lines)} lines where DORINFOx.DEF has 12 or 13: lines 14 on ignored")
    port = _line(lines, 4).upper()
    match = re.fullmatch(r"COM(\d+):?", port)
    if not match:
        notes.add(f"line 4 (port): {_shown(_line(lines, 4))} is not COMn: local assumed")
    com = _whole(match.group(1), 4, "port") if match else None
    comm = "serial" if com else "local"
    rate = _line(lines, 5)
    if not re.fullmatch(r"\d+( BAUD(-R)?(,[NEO],[78],[12])?)?", rate.upper()):
        notes.add(f"line 5 (rate): {_shown(rate)} is not 'nnnn BAUD,N,8,1': the number read")
    baud = _baud(_whole(rate, 5, "rate"), 5, notes)
    first = _text(_line(lines, 7), "first name", 7, notes)
    last = _text(_line(lines, 8), "last name", 8, notes)
    user_name = _undouble(" ".join(part for part in (first, last) if part), 7, notes)
    if not user_name:
        raise DropfileError("no user name on lines 7–8")
    graphics = _whole(_line(lines, 10), 10, "graphics")
    if graphics is None:
        notes.add(f"line 10 (graphics): {_shown(_line(lines, 10))} is not a number: ANSI "
                  "assumed")
    bbs = _text(_line(lines, 1), "BBS name", 1, notes)
    return DropfileCaller(
        format=DORINFO, user_name=user_name, alias=user_name, user_id="",
        node=_dorinfo_node(name, notes),
        security_level=_number(lines, 11, "security level", 0, notes, 0, 65535),
        location=_text(_line(lines, 9), "location", 9, notes),
        time_left_s=_time_left(None, _whole(_line(lines, 12), 12, "minutes left"), notes,
                               "line 12 (minutes left)"),
        ansi=graphics is None or graphics >= 1, screen_rows=None, comm=comm,
        socket_handle=None, baud=baud, warnings=tuple(notes), bbs=bbs)
