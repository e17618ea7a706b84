"""Render one screenshot per game, its end box (and Mariant's end offer), and the terminal
settings to docs/screens/*.png.

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
from door.session import Services, Session
from door.term import Charset

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "docs" / "screens"


def _session() -> tuple[Session, CountingTerminal]:
    terminal = CountingTerminal("cp437", answer=b"y")
    terminal.charset = Charset("cp437", c0_glyphs=True)  # suits as CP437 glyphs
    return Session(terminal, Services(load_settings(REPO))), terminal


async def montecarlo(path: Path) -> None:
    from door.games.montecarlo import MonteCarlo
    from door.ui.montecarlo.screen import MonteCarloScreen

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
    from door.ui.auntmary.screen import AuntMaryScreen

    session, terminal = _session()
    screen = AuntMaryScreen(session, AuntMary.new(2))
    for _ in range(12):
        hints = screen.game.hints()
        if hints:
            screen.play(hints[0])
    screen.draw()
    path.write_bytes(plain_repaint(session.screen, terminal.charset))


def _dead_games() -> dict[str, object]:
    """Each game played from a real deal to where no move is left (or none can win): the
    positions tests/server/test_game_endings_telnet.py plays through a telnet door."""
    from door.games.anciento import Anciento
    from door.games.auntmary import AuntMary
    from door.games.mariant import Mariant
    from door.games.montecarlo import MonteCarlo

    mariant = Mariant.new(1)
    while mariant.stock_count:
        mariant.play("d")
    montecarlo = MonteCarlo.new(18)
    while montecarlo.legal_moves():
        montecarlo.play(montecarlo.legal_moves()[0])
    auntmary = AuntMary.new(273)
    while not auntmary.cannot_win:
        auntmary.play(auntmary.deal_move() or "s")
    anciento = Anciento.new(3)
    while not anciento.is_over:
        anciento.play(anciento.legal_moves()[0])
    return {"mariant": mariant, "montecarlo": montecarlo, "auntmary": auntmary,
            "anciento": anciento}


def _screen_of(name: str, session: Session, game: object):
    from door.catalog import registry as gamelist

    return gamelist.game(name).screen_class()(session, game)


def end_box(name: str, rank: int | None):
    """The end box of ``name``'s dead game, ended at the end offer (``rank``: its place)."""
    async def shot(path: Path) -> None:
        from door.ui.game.screen import draw_end_box

        session, terminal = _session()
        screen = _screen_of(name, session, _dead_games()[name])
        screen.end_here(screen.end_reason())
        draw_end_box(screen, rank, "", "")
        path.write_bytes(plain_repaint(session.screen, terminal.charset))
    return shot


async def end_offer(path: Path) -> None:
    """Mariant's end offer, where nothing can move and nothing is left to deal."""
    session, terminal = _session()
    screen = _screen_of("mariant", session, _dead_games()["mariant"])
    screen.draw_end_offer(screen.end_reason())
    path.write_bytes(plain_repaint(session.screen, terminal.charset))


async def settings_screen(path: Path) -> None:
    from door.ui.menus.settings import draw

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
             "anciento": anciento, "terminal-settings": settings_screen,
             "mariant-offer": end_offer, "mariant-end": end_box("mariant", None),
             "montecarlo-end": end_box("montecarlo", 1), "auntmary-end": end_box("auntmary", 2),
             "anciento-end": end_box("anciento", 1)}
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
