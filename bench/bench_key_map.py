"""The key map's cost on the caller's line: bytes to show ``?`` over each game and close it.

    python bench/bench_key_map.py

For each game, on a fresh deal at 80 × 24 and in each charset, through a real Session and
Renderer on a counting terminal: the bytes of the board's first frame, of ``?`` (the map
drawn over it) and its closing key together, and of the game's next frame after it (0 when
the map put back exactly what it covered: nothing left to redraw).  A 2400 baud modem sends
some 240 bytes a second.  Never run by the test suite.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from benchkit import CountingTerminal

from door.catalog import registry as gamelist
from door.config import load_settings
from door.session import Services, Session

HOME = Path(__file__).resolve().parent.parent
CHARSETS = ("cp437", "utf8", "ascii")


async def measure(name: str, charset: str) -> tuple[int, int, int]:
    info = gamelist.game(name)
    terminal = CountingTerminal(charset, answer=b"z")   # any key closes the map
    session = Session(terminal, Services(load_settings(HOME)))
    screen = info.screen_class()(session, info.engine_class().new(7))
    screen.draw()
    await session.show()
    first = terminal.sent
    await screen.show_help()
    shown = terminal.sent - first
    screen.draw()
    await session.show()
    return first, shown, terminal.sent - first - shown


async def main() -> None:
    print("| game | charset | first frame B | ? and close B | next frame B |")
    print("|---|---|---:|---:|---:|")
    for name in gamelist.names():
        for charset in CHARSETS:
            first, shown, after = await measure(name, charset)
            print(f"| {gamelist.title(name)} | {charset} | {first} | {shown} | {after} |")


if __name__ == "__main__":
    asyncio.run(main())
