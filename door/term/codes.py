"""Text with BBS colour codes into coloured lines (research/dropfiles.md §8 has the tables).

Understood, all at once since sysops mix them:

- Wildcat ``@BF@``: background and foreground hex digits (upper case, as Synchronet reads
  them), and the Wildcat macros ``@CLS@`` and ``@PAUSE@`` (a new page).
- The one-letter codes of the Monte Carlo door's instruction file, ``@E@ @H@ @B@ @N@``: we
  define them as heading, highlight, body and normal, coloured by sysop.ini ``[colors]``.
- PCBoard ``@Xbf`` (``@X00`` saves the colour and ``@XFF`` restores it, as Synchronet does).
- Pipe codes ``|00``–``|15`` foreground, ``|16``–``|23`` background, ``|24``–``|31``
  background with blink; ``||`` is a literal bar.
- Synchronet Ctrl-A (``\\x01`` + letter), case-insensitive; ``L`` and ``P`` start a page.
- ANSI SGR sequences (``ESC [ … m``); any other escape sequence is dropped.

Any text is accepted: what is not a code is text, control characters become their CP437
glyphs (as in art), and nothing raises.
"""

from __future__ import annotations

import re

from .charset import CP437_C0
from .screen import (
    BLACK,
    BLUE,
    COLOR_NAMES,
    CYAN,
    DEFAULT,
    GREEN,
    MAGENTA,
    PC_TO_ANSI,
    RED,
    WHITE,
    YELLOW,
    Attr,
)

Span = tuple[str, Attr]
Line = list[Span]
PAGE_BREAK = None  # an item of a document that starts a new page

# The Monte Carlo door's letters, and our defaults for them (sysop.ini [colors] overrides).
LETTER_ROLES = {"E": "heading", "H": "highlight", "B": "body", "N": "normal"}
DEFAULT_PALETTE = {"heading": Attr(YELLOW, BLACK, True), "highlight": Attr(WHITE, BLACK, True),
                   "body": Attr(CYAN, BLACK), "normal": DEFAULT}

_CTRL_A_FG = {"k": BLACK, "r": RED, "g": GREEN, "y": YELLOW, "b": BLUE, "m": MAGENTA,
              "c": CYAN, "w": WHITE}
_TOKEN = re.compile(
    r"@(?P<wc>[0-9A-F]{2})@"
    r"|@(?P<letter>[EHBN])@"
    r"|@(?P<macro>CLS|PAUSE)@"
    r"|@X(?P<pcb>[0-9A-Fa-f]{2})"
    r"|\|(?P<pipe>[0-3][0-9])"
    r"|(?P<bars>\|\|)"
    r"|\x01(?P<ctrla>[\s\S])"
    r"|\x1b\[(?P<sgr>[0-9;]{0,40})m"
    r"|(?P<esc>\x1b(?:\[[\x30-\x3f]{0,40}[\x20-\x2f]*[\x40-\x7e]?|[\s\S])?)"
    r"|(?P<eof>\x1a)")


def parse_color(value: str) -> Attr:
    """A sysop's colour: two hex digits (a PC attribute such as ``1E``) or words such as
    ``bright yellow on blue`` (``blinking`` too).  Raises ValueError with the expected form."""
    text = value.strip().lower()
    if re.fullmatch(r"[0-9a-f]{2}", text):
        return Attr.from_pc(int(text, 16))
    words = text.replace(",", " ").split()
    bright = blink = False
    fg, bg = WHITE, BLACK
    names = {**{name: i for i, name in enumerate(COLOR_NAMES)}, "grey": WHITE, "gray": WHITE,
             "brown": YELLOW}
    i = 0
    while i < len(words):
        word = words[i]
        if word in ("bright", "light", "high"):
            bright = True
        elif word in ("blink", "blinking"):
            blink = True
        elif word == "on" and i + 1 < len(words) and words[i + 1] in names:
            bg = names[words[i + 1]]
            i += 1
        elif word in names:
            fg = names[word]
        else:
            raise ValueError("expected a colour such as `bright yellow on blue` or two hex "
                             "digits such as 1E")
        i += 1
    if not words:
        raise ValueError("expected a colour such as `bright yellow on blue`")
    return Attr(fg, bg, bright, blink)


def parse_codes(text: str, palette: dict[str, Attr] | None = None,
                base: Attr | None = None) -> list[Line | None]:
    """Split ``text`` into lines of coloured spans; ``None`` items are page breaks."""
    colors = {**DEFAULT_PALETTE, **(palette or {})}
    attr = base or colors["normal"]
    start = attr
    saved: list[Attr] = []
    lines: list[Line | None] = []
    line: Line = []
    pos = 0

    def add(chunk: str) -> None:
        nonlocal line
        parts = chunk.replace("\r", "").split("\n")
        for k, part in enumerate(parts):
            if k:
                lines.append(line)
                line = []
            if part:
                part = _printable(part)
                if line and line[-1][1] == attr:  # one span per colour run
                    line[-1] = (line[-1][0] + part, attr)
                else:
                    line.append((part, attr))

    for match in _TOKEN.finditer(text):
        add(text[pos:match.start()])
        pos = match.end()
        kind = match.lastgroup
        value = match.group(kind) if kind else ""
        if kind == "wc":
            attr = Attr.from_pc(int(value, 16))
        elif kind == "letter":
            attr = colors[LETTER_ROLES[value]]
        elif kind == "macro":
            if line:  # an empty line here is only the start of the line after a newline
                lines.append(line)
            lines.append(PAGE_BREAK)
            line = []
        elif kind == "pcb":
            code = value.upper()
            if code == "00":
                saved.append(attr)
            elif code == "FF":
                attr = saved.pop() if saved else start
            else:
                attr = Attr.from_pc(int(code, 16))
        elif kind == "pipe":
            piped = _pipe(attr, int(value))
            if piped is None:  # |32 and up are not codes: keep the text
                add(match.group(0))
            else:
                attr = piped
        elif kind == "bars":
            add("|")
        elif kind == "ctrla":
            result = _ctrl_a(attr, value, saved, start)
            if result == "page":
                if line:
                    lines.append(line)
                lines.append(PAGE_BREAK)
                line = []
            elif result == "newline":
                lines.append(line)
                line = []
            elif result == "eof":
                pos = len(text)
                break
            elif isinstance(result, Attr):
                attr = result
        elif kind == "sgr":
            attr = _sgr(attr, value, start)
        elif kind == "eof":
            pos = len(text)
            break
        # kind == "esc": any other escape sequence is dropped
    add(text[pos:])
    lines.append(line)
    return lines


def strip_codes(text: str) -> str:
    """The text alone, without any colour code (for logs and plain-text tests)."""
    return "\n".join("".join(t for t, _ in line) for line in parse_codes(text) if line is not None)


def _printable(text: str) -> str:
    """Control characters as their CP437 glyphs; tabs as spaces to the next multiple of 8."""
    if text.isprintable():
        return text
    out: list[str] = []
    width = 0
    for ch in text:
        if ch == "\t":
            out.append(" " * (8 - width % 8))
            width += len(out[-1])
            continue
        width += 1
        if ord(ch) < 32:
            out.append(CP437_C0[ord(ch)] if ord(ch) else " ")
        elif not ch.isprintable():
            out.append(" " if ch.isspace() else "?")  # a no-break space is a space
        else:
            out.append(ch)
    return "".join(out)


def _pipe(attr: Attr, code: int) -> Attr | None:
    if code < 16:
        return Attr(PC_TO_ANSI[code & 7], attr.bg, bool(code & 8), attr.blink)
    if code < 32:
        return Attr(attr.fg, PC_TO_ANSI[(code - 16) & 7], attr.bright, code >= 24)
    return None


def _ctrl_a(attr: Attr, code: str, saved: list[Attr], start: Attr) -> Attr | str | None:
    c = code.lower()
    if c in _CTRL_A_FG:
        return attr._replace(fg=_CTRL_A_FG[c])
    if "0" <= c <= "7":  # backgrounds in ANSI order (1 is red)
        return attr._replace(bg=int(c))
    if c == "h":
        return attr._replace(bright=True)
    if c in "ie":  # blink; bright background is the blink bit on PC terminals
        return attr._replace(blink=True)
    if c == "n":
        return start
    if c == "-":
        return saved.pop() if saved else start
    if c == "_":
        return start if attr.blink or attr.bg != BLACK else attr
    if c == "+":
        saved.append(attr)
        return None
    if c in "lp":
        return "page"
    if c == "]":
        return "newline"
    if c == "z":
        return "eof"
    return None  # cursor moves and the rest: nothing to show in a paged text


def _sgr(attr: Attr, params: str, start: Attr) -> Attr:
    for part in params.split(";") if params else ["0"]:
        p = int(part[:4]) if part.isdigit() else 0
        if p == 0:
            attr = DEFAULT
        elif p == 1:
            attr = attr._replace(bright=True)
        elif p == 5:
            attr = attr._replace(blink=True)
        elif p == 22:
            attr = attr._replace(bright=False)
        elif p == 25:
            attr = attr._replace(blink=False)
        elif 30 <= p <= 37:
            attr = attr._replace(fg=p - 30)
        elif 40 <= p <= 47:
            attr = attr._replace(bg=p - 40)
        elif p == 39:
            attr = attr._replace(fg=WHITE)
        elif p == 49:
            attr = attr._replace(bg=BLACK)
    return attr
