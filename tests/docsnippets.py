"""What the documentation shows a sysop to type: sysop.ini snippets and ``reussite`` command
lines, found in README.md and docs/*.md (a new page or snippet is picked up by itself), for
tests/test_docs_ini.py and tests/test_docs_commands.py to check against the real loader and
the real argument parser.

Markdown is read just enough: fenced blocks (with their language) and inline code spans.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@dataclass(frozen=True)
class Snippet:
    where: str  # page:line, for the test's name and its failure
    text: str
    kind: str  # "ini", "sh", "cron", "hjson", "" (untagged), …; "span" for inline code


_FENCE = re.compile(r"^ {0,3}(```+|~~~+)\s*([\w+-]*)")
_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)


def read(page: Path) -> tuple[list[Snippet], list[Snippet]]:
    """The fenced blocks and the inline code spans of ``page``."""
    name = page.relative_to(ROOT).as_posix()
    return split(name, page.read_text(encoding="utf-8"))


def split(name: str, text: str) -> tuple[list[Snippet], list[Snippet]]:
    """The fenced blocks (line: their first line of content) and inline spans of ``text``."""
    blocks: list[Snippet] = []
    prose: list[str] = []  # the lines outside blocks ("" for a block's lines)
    lines = text.splitlines()
    number = 0
    while number < len(lines):
        opened = _FENCE.match(lines[number])
        if opened is None:
            prose.append(lines[number])
            number += 1
            continue
        fence, kind = opened.group(1), opened.group(2).lower()
        end = number + 1
        while end < len(lines) and not lines[end].lstrip().startswith(fence):
            end += 1
        blocks.append(Snippet(f"{name}:{number + 2}", "\n".join(lines[number + 1:end]), kind))
        prose.extend([""] * (min(end, len(lines) - 1) - number + 1))
        number = end + 1
    outside = "\n".join(prose)
    spans = [Snippet(f"{name}:{outside.count(chr(10), 0, found.start()) + 1}",
                     re.sub(r"\s*\n\s*", " ", found.group(2)).strip(), "span")
             for found in _SPAN.finditer(outside)]
    return blocks, spans


# -- sysop.ini -------------------------------------------------------------------------

_OTHER_FILE = re.compile(r"\s*[;#]\s*(?P<name>\S*\.\w+)(?:\s|$)")
"""A block whose first line is a comment naming a file (``# /etc/systemd/system/x.service``)
shows that file, not sysop.ini, when the name is not sysop.ini."""
_INLINE_KEY = re.compile(r"\[(\w+)\]\s+(\w+\s*=.*)")
NOT_INI = {"json", "hjson", "python", "py", "nginx", "cron", "pycon", "console"}


def ini_snippets(blocks: list[Snippet], spans: list[Snippet],
                 sections: set[str]) -> Iterator[Snippet]:
    """The sysop.ini in a page: ```ini blocks (unless their first line names another file),
    any other block with a ``[section]`` of sysop.ini's on a line of its own, and inline
    ``[section] key = value`` spans.  ``sections``: the names sysop.ini knows."""
    header = re.compile(rf"^\s*\[({'|'.join(map(re.escape, sections))})\]\s*([;#].*)?$",
                        re.MULTILINE)
    for block in blocks:
        first = next((line for line in block.text.splitlines() if line.strip()), "")
        other = _OTHER_FILE.match(first)
        if block.kind == "ini":
            if other is None or other.group("name").rsplit("/", 1)[-1] == "sysop.ini":
                yield block
        elif block.kind not in NOT_INI and header.search(block.text):
            yield block
    for span in spans:
        found = _INLINE_KEY.fullmatch(span.text)
        if found and found.group(1) in sections:
            yield Snippet(span.where, f"[{found.group(1)}]\n{found.group(2)}\n", "span")


# -- command lines ---------------------------------------------------------------------

@dataclass(frozen=True)
class Command:
    where: str
    words: tuple[str, ...]  # after ``reussite``
    shown: str  # as the page writes it
    complete: bool  # a command line to type as it is (a code block's line), not a mention


_OPERATORS = {"&&", "||", ";", "|", "(", ")", "&"}
_WRAPPERS = {"sudo", "exec", "time", "nohup", "env"}
_ALTERNATIVES = re.compile(r"(?<![\w|])([^\s\[\]|()]+(?:\|[^\s\[\]|()]+)+)")
"""``cp437|utf8|ascii`` or ``--telnet|--no-telnet`` in a synopsis: one of them."""


def _is_reussite(word: str) -> bool:
    return word.rsplit("/", 1)[-1] == "reussite"


def commands(blocks: list[Snippet], spans: list[Snippet]) -> Iterator[Command]:
    """Every ``reussite …`` command in a page's blocks (one per line, a synopsis's indented
    continuation lines joined) and inline spans; a synopsis's alternatives ``a|b`` give one
    command per alternative."""
    for block in blocks:
        if block.kind == "hjson":
            yield from _hjson_commands(block)
            continue
        if block.kind in ("json", "python", "py", "nginx"):
            continue
        lines = block.text.splitlines()
        start_line = int(block.where.rsplit(":", 1)[1])
        number = 0
        while number < len(lines):
            line, first = lines[number], number
            while number + 1 < len(lines) and (
                    line.endswith("\\")  # a shell line goes on
                    or (not block.kind and re.match(r"\s+[\[-]", lines[number + 1]))):
                number += 1  # ... and so does a synopsis, indented
                line = line.removesuffix("\\") + " " + lines[number].strip()
            number += 1
            where = f"{block.where.rsplit(':', 1)[0]}:{start_line + first}"
            if block.kind == "cron":
                line = " ".join(line.split()[5:])
            if not block.kind:  # an untagged block may put a description column after
                line = re.split(r"\s{3,}", line.strip())[0]
            yield from _in_line(where, line, complete=True)
    for span in spans:
        yield from _in_line(span.where, span.text, complete=False)


def _in_line(where: str, line: str, complete: bool) -> Iterator[Command]:
    line = re.sub(r"(^|\s)#.*$", "", line)  # a shell comment (not %# or a#b)
    groups = _ALTERNATIVES.findall(line)
    count = max((len(group.split("|")) for group in groups), default=1)
    for pick in range(count):
        variant = line
        for group in groups:
            choices = group.split("|")
            variant = variant.replace(group, choices[min(pick, len(choices) - 1)], 1)
        for words in _commands_of(variant):
            yield Command(where, words, line.strip(), complete)


def _commands_of(line: str) -> Iterator[tuple[str, ...]]:
    """The arguments of each ``reussite`` word in command position in a shell line."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|()")
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        tokens = list(lexer)
    except ValueError:  # an unclosed quote: not a shell line
        return
    at_start = True
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if token in _OPERATORS:
            at_start = True
            continue
        if not at_start:
            continue
        assignment = re.fullmatch(r"([A-Za-z_]\w*)=(.*)", token)
        if assignment and assignment.group(1).startswith("Exec"):  # systemd's ExecStart=…
            token = assignment.group(2)
        elif assignment or token in _WRAPPERS:
            continue
        at_start = False
        if _is_reussite(token):
            end = index
            while end < len(tokens) and tokens[end] not in _OPERATORS:
                end += 1
            yield tuple(tokens[index:end])
            index = end


def _hjson_commands(block: Snippet) -> Iterator[Command]:
    """ENiGMA½'s door entries: ``cmd: …/reussite`` with its ``args: [ "…", … ]``."""
    for found in re.finditer(r"cmd:\s*(\S+)\s*\n(?:.*\n)*?\s*args:\s*\[([^\]]*)\]", block.text):
        if _is_reussite(found.group(1).strip("\"'")):
            line = block.text.count("\n", 0, found.start()) + int(block.where.rsplit(":")[1])
            words = tuple(_hjson_strings(found.group(2)))
            yield Command(f"{block.where.rsplit(':', 1)[0]}:{line}", words,
                          f"{found.group(1)} {' '.join(words)}", complete=True)


def _hjson_strings(items: str) -> Iterator[str]:
    """An hjson array's strings: quoted ones (several to a line), or a quoteless one, which
    runs to the end of its line."""
    for line in items.splitlines():
        line = line.strip().rstrip(",").strip()
        if not line or line.startswith(("#", "//")):
            continue
        if line.startswith(("\"", "'")):
            yield from (a or b for a, b in re.findall(r'"((?:[^"\\]|\\.)*)"|\'([^\']*)\'',
                                                      line))
        else:
            yield line
