"""Render one screenshot per game (and the terminal settings) to docs/screens/*.png.

Each game is dealt from a fixed number and played a few moves by its benchmark's player (or
the engine's hints), drawn once, written as a plain CP437 repaint and turned into a PNG by
Debian's ``ansilove`` (CP437 ANSI with a real VGA font).  Re-run it when screens change:

    python bench/screenshots.py            # needs: apt-get install ansilove
    python bench/screenshots.py --out DIR  # somewhere else, to compare before replacing
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from benchkit import CountingTerminal, plain_repaint

from door.config import load_settings
from door.session import Session
from door.term import Charset

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "docs" / "screens"


def _session() -> tuple[Session, CountingTerminal]:
    terminal = CountingTerminal("cp437", answer=b"y")
    terminal.charset = Charset("cp437", c0_glyphs=True)  # suits as CP437 glyphs
    return Session(terminal, load_settings(REPO)), terminal


async def montecarlo(path: Path) -> None:
    from door.games.montecarlo import MonteCarlo
    from door.ui.montecarlo_screen import MonteCarloScreen

    session, terminal = _session()
    screen = MonteCarloScreen(session, MonteCarlo.new(123))
    for _ in range(9):
        hints = [h for h in screen.game.hints() if h != "c"]
        if hints:
            screen.play(hints[0])
    screen.draw()
    path.write_bytes(plain_repaint(session.screen, terminal.charset))


async def auntmary(path: Path) -> None:
    from door.games.auntmary import AuntMary
    from door.ui.auntmary_screen import AuntMaryScreen

    session, terminal = _session()
    screen = AuntMaryScreen(session, AuntMary.new(2))
    for _ in range(12):
        hints = screen.game.hints()
        if hints:
            screen.play(hints[0])
    screen.draw()
    path.write_bytes(plain_repaint(session.screen, terminal.charset))


async def settings_screen(path: Path) -> None:
    from door.ui.settings import draw

    session, terminal = _session()
    draw(session)
    path.write_bytes(plain_repaint(session.screen, terminal.charset))


async def main(out: Path) -> int:
    from bench_ui_anciento import screenshot as anciento
    from bench_ui_mariant import screenshot as mariant

    ansilove = shutil.which("ansilove")
    if ansilove is None:
        print("ansilove is not installed: apt-get install ansilove", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    shots = {"mariant": mariant, "montecarlo": montecarlo, "auntmary": auntmary,
             "anciento": anciento, "terminal-settings": settings_screen}
    with tempfile.TemporaryDirectory() as tmp:
        for name, make in shots.items():
            ans = Path(tmp) / f"{name}.ans"
            await make(ans)
            png = out / f"{name}.png"
            subprocess.run([ansilove, "-q", "-o", str(png), str(ans)], check=True)
            print(f"{png}  ({ans.stat().st_size} bytes of CP437)")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, metavar="DIR",
                        help="where the PNG files go (default: docs/screens)")
    sys.exit(asyncio.run(main(parser.parse_args().out)))
