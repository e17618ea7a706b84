"""Every sysop.ini snippet in README.md and docs/*.md loads through the door's real loader, so
a guide that drifts from the code fails here, not on a sysop's first start.

A snippet is a ```ini block (unless its first line is a comment naming another file, such as
``# /etc/systemd/system/reussite.service``), any other block with one of sysop.ini's
``[section]`` headers on a line of its own, or an inline ``[section] key = value``
(tests/docsnippets.py finds them; a new page or snippet is checked without a word here).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from docsnippets import Snippet, ini_snippets, pages, read, split

from door.catalog import registry as gamelist
from door.config import _SECTIONS, ConfigError, parse_settings

SECTIONS = {*_SECTIONS, *gamelist.names(), "menu", "boards"}


def snippets() -> list[Snippet]:
    found: list[Snippet] = []
    for page in pages():
        found.extend(ini_snippets(*read(page), SECTIONS))
    return found


def load(snippet: Snippet, home: Path) -> None:
    """Load ``snippet`` as its page's lines: an error names the page and the line in it."""
    page, line = snippet.where.rsplit(":", 1)
    before = int(line) - (2 if snippet.kind == "span" else 1)  # a span's key is on its line
    parse_settings("\n" * max(before, 0) + snippet.text, home, Path(page))


@pytest.mark.parametrize("snippet", snippets(), ids=lambda snippet: snippet.where)
def test_the_snippet_loads(snippet: Snippet, tmp_path: Path) -> None:
    try:
        load(snippet, tmp_path)
        problem = ""
    except ConfigError as exc:
        problem = str(exc)
    if problem:
        pytest.fail(f"this sysop.ini snippet does not load: {problem}", pytrace=False)


def test_the_guides_snippets_are_found() -> None:
    """The finder reads the real pages: the guides' hub and standalone examples are in."""
    where = {snippet.where.split(":")[0] for snippet in snippets()}
    assert {"docs/sysop-standalone.md", "docs/sysop-bbs-setup.md", "docs/web.md"} <= where


PAGE = """\
# A page

```ini
[server]
bind = 0.0.0.0   ; a comment after a value
```

```ini
# /etc/systemd/system/reussite.service
[Unit]
Description=not sysop.ini
```

```ini
; sysop.ini of the hub
[boards]
```

```
[web]
enabled = on
```

```sh
echo [web]
```

Set `[limits] idle_timeout = 120` and `[Unit] After = x`, or `telnet_port = 23`.
"""


def test_what_counts_as_a_snippet() -> None:
    found = list(ini_snippets(*split("page.md", PAGE), SECTIONS))
    assert [(snippet.where, snippet.kind) for snippet in found] == [
        ("page.md:4", "ini"), ("page.md:15", "ini"), ("page.md:20", ""), ("page.md:28", "span")]
    assert found[-1].text == "[limits]\nidle_timeout = 120\n"


def test_a_drifted_snippet_fails(tmp_path: Path) -> None:
    """What the parametrized test sees when a guide names a key the door does not have."""
    (snippet,) = ini_snippets(*split("page.md", "```ini\n[server]\ntelnet = 23\n```\n"),
                              SECTIONS)
    with pytest.raises(ConfigError, match=r"^page\.md:3: \[server\] telnet: unknown key"):
        load(snippet, tmp_path)
