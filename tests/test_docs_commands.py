"""Every ``reussite …`` command line in README.md and docs/*.md is read by the door's real
argument parser (door/cli.py), so a guide that names a gone option, a renamed command or a
bad value fails here.

Lines in code blocks (shell, cron, a BBS's command field, ENiGMA½'s ``cmd``/``args``) must
parse whole.  Inline mentions may leave out what a command requires (`reussite door` in a
sentence), but every word they give must be right.  In a synopsis, the placeholders
(``GAME``, ``N``, ``DIR`` — argparse's own metavars) stand for a sample value of their
argument, ``[…]`` are optional parts, ``a|b`` each alternative, ``…`` "and more"; a BBS's
macros (``%f``, ``{node}``, ``@USER@``) stand for a number or a path.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re

import pytest
from docsnippets import Command, commands, pages, read, split

from door.cli import build_parser

ELLIPSES = {"…", "..."}
MACRO = re.compile(r"%\S+|\{\w+\}|@\w+@")
SAMPLES = ("1", "2026-12-01", "1-10", "mode=relaxed")
"""Values tried, in order, for a placeholder whose argument converts its text."""


def found() -> list[Command]:
    every: list[Command] = []
    for page in pages():
        every.extend(commands(*read(page)))
    return every


def subcommands(parser: argparse.ArgumentParser) -> argparse._SubParsersAction | None:
    return next((action for action in parser._actions
                 if isinstance(action, argparse._SubParsersAction)), None)


def sample(action: argparse.Action, placeholder: str) -> str:
    """A value ``action`` accepts, for the placeholder a synopsis writes."""
    if action.choices:
        return str(next(iter(action.choices)))
    convert = action.type
    if convert is None or not callable(convert):
        return placeholder
    for text in SAMPLES:
        try:
            convert(text)
        except (ValueError, TypeError, argparse.ArgumentTypeError):
            continue
        return text
    return placeholder


def concrete(words: tuple[str, ...]) -> tuple[list[str], set[str]]:
    """The words with placeholders and macros replaced by sample values, ``[ ]`` dropped;
    and the option names the words use (to check that each exists)."""
    parser = build_parser()
    chain = [parser]
    out: list[str] = []
    options: set[str] = set()
    wants_value: argparse.Action | None = None  # the option just given takes a value
    for word in words:
        word = word.strip("[]")
        option, wants_value = wants_value, None
        if word in ELLIPSES and option is not None:  # `--format …`: some value of it
            out.append(sample(option, "x"))
            continue
        if not word or word in ELLIPSES:
            continue
        if MACRO.fullmatch(word):
            out.append("1")
            continue
        sub = subcommands(chain[-1])
        if sub is not None and (word in sub.choices or word == sub.metavar):
            name = word if word in sub.choices else next(iter(sub.choices))
            chain.append(sub.choices[name])
            out.append(name)
            continue
        if word.startswith("-") and not re.fullmatch(r"-\d+", word):
            options.add(word.split("=", 1)[0])
            out.append(word)
            wants_value = next((action for parser in chain for action in parser._actions
                                if word in action.option_strings and action.nargs != 0), None)
            continue
        action = next((action for parser in reversed(chain) for action in parser._actions
                       if action.metavar == word), None)
        out.append(sample(action, word) if action is not None else word)
    return out, options


def known_options(words: list[str]) -> set[str]:
    """Every option string of the parsers ``words`` go through."""
    parser = build_parser()
    known = {option for action in parser._actions for option in action.option_strings}
    for word in words:
        sub = subcommands(parser)
        if sub is None or word not in sub.choices:
            continue
        parser = sub.choices[word]
        known |= {option for action in parser._actions for option in action.option_strings}
    return known


def parse(words: list[str]) -> str:
    """What the real parser says about ``words``: "" when it takes them."""
    errors = io.StringIO()
    with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
        try:
            build_parser().parse_args(words)
        except SystemExit as exc:
            if exc.code:  # 0: --help or --version, which end the parse on purpose
                return errors.getvalue().strip().splitlines()[-1]
    return ""


def problem(command: Command) -> str:
    words, options = concrete(command.words)
    unknown = sorted(options - known_options(words))
    if unknown:
        return f"no such option: {', '.join(unknown)}"
    said = parse(words)
    elided = not command.complete or any(w in ELLIPSES for w in command.words)
    left_out = ("the following arguments are required", "expected one argument",
                "expected at least one argument")
    if said and elided and any(words in said for words in left_out):
        return ""  # a mention, or "…": what it leaves out is not wrong
    return said


@pytest.mark.parametrize("command", found(),
                         ids=lambda command: f"{command.where} {' '.join(command.words)}")
def test_the_command_line_parses(command: Command) -> None:
    said = problem(command)
    if said:
        pytest.fail(f"{command.where}: `{command.shown}`: {said}", pytrace=False)


def test_the_pages_commands_are_found() -> None:
    where = {command.where.split(":")[0] for command in found() if command.complete}
    assert {"README.md", "docs/sysop-standalone.md", "docs/sysop-bbs-setup.md",
            "docs/storage.md"} <= where


PAGE = """\
```sh
python3 -m venv .venv && .venv/bin/pip install /path/to/reussite   # not the door
cd /srv && REUSSITE_HOME=/srv reussite serve --web-port 8023   # a comment --bogus
reussite sysop bulletin daily \\
    --format text
```

```cron
*/30 * * * * /opt/reussite/venv/bin/reussite sysop bulletin montecarlo -o x.ans
```

```
reussite door DROPFILE [--node N] [--charset cp437|utf8]
                       [--telnet|--no-telnet]
reussite sysop scores GAME [--number N]     a hall of fame
```

```ini
ExecStart=/srv/reussite/.venv/bin/reussite serve
```

```hjson
    cmd: /opt/reussite/venv/bin/reussite
    args: [ "door", "{dropFilePath}", "--node", "{node}" ]
```

```hjson
    cmd: /opt/reussite/venv/bin/reussite
    args: [
        --home
        "/opt/reussite/home", 'sysop'
        who
    ]
```

A mention: `reussite door`, and `ExecStart=/x/reussite serve`; `WorkingDirectory=/x/reussite`.
"""


def test_what_counts_as_a_command() -> None:
    seen = [(command.where, " ".join(command.words), command.complete)
            for command in commands(*split("page.md", PAGE))]
    assert seen == [
        ("page.md:3", "serve --web-port 8023", True),
        ("page.md:4", "sysop bulletin daily --format text", True),
        ("page.md:9", "sysop bulletin montecarlo -o x.ans", True),
        ("page.md:13", "door DROPFILE [--node N] [--charset cp437] [--telnet]", True),
        ("page.md:13", "door DROPFILE [--node N] [--charset utf8] [--no-telnet]", True),
        ("page.md:15", "sysop scores GAME [--number N]", True),
        ("page.md:19", "serve", True),
        ("page.md:23", "door {dropFilePath} --node {node}", True),
        ("page.md:28", "--home /opt/reussite/home sysop who", True),
        ("page.md:36", "door", False),
        ("page.md:36", "serve", False),
    ]
    assert all(not problem(command) for command in commands(*split("page.md", PAGE)))


@pytest.mark.parametrize(("line", "expected"), [
    ("reussite serve --web 8023", "no such option: --web"),
    ("reussite serv", "invalid choice: 'serv'"),
    ("reussite sysop bulletin montecarlo --format pdf", "invalid choice: 'pdf'"),
    ("reussite door", "the following arguments are required: DROPFILE"),
    ("reussite door DROPFILE --node N --bogus", "no such option: --bogus"),
])
def test_a_drifted_line_fails(line: str, expected: str) -> None:
    (command,) = commands(*split("page.md", f"```sh\n{line}\n```\n"))
    assert expected in problem(command)
