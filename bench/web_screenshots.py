"""The README's pictures of the web door, taken by the same headless Chromium the tests use:
the play page in the middle of a Monte Carlo game, and a hall-of-fame page, at desktop size;
on a phone (360×740, touch) held sideways in a game with its key bar and held upright; the
hall of fame at 360 px; a replay.

A real ``serve()`` with its web listener on a port the OS picks, in a throwaway home; three
players' finished games are stored first so that the hall of fame has rows.

    python bench/web_screenshots.py            # replaces docs/screens/web-*.png (7 files)
    python bench/web_screenshots.py --out DIR  # somewhere else, to compare before replacing

Needs Debian's ``chromium`` (apt-get install chromium; or $REUSSITE_CHROMIUM naming another)
and the test extra's Python packages, ``playwright`` (which drives that browser and downloads
none) and ``pyte`` (the test servers' helpers import it): ``pip install -e '.[test]'``.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import shutil
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "tests"), str(REPO / "tests" / "server")]

OUT = REPO / "docs" / "screens"
NUMBER = 11982
PLAYERS = (("Ada", 3), ("Bertrand", 5), ("Cleo", 12))  # handle, deal played to its end


def missing() -> list[str]:
    """What this machine lacks to take the pictures, each with how to get it."""
    from browserhelp import chromium_path

    lacking = [f"the Python package {name} (pip install -e '.[test]')"
               for name in ("pyte", "playwright") if importlib.util.find_spec(name) is None]
    if chromium_path() is None:
        lacking.append("chromium (apt-get install chromium, or $REUSSITE_CHROMIUM)")
    return lacking


async def store_scores(home: Path) -> None:
    from door.config import load_settings
    from door.games.montecarlo import MonteCarlo
    from door.store.visit import open_store

    store = await open_store(load_settings(home))
    try:
        for handle, number in PLAYERS:
            player = await store.players.player("direct", handle.lower(), handle)
            game = MonteCarlo.new(number)
            while game.legal_moves():
                game.play(game.legal_moves()[0])
            ended = datetime.now(UTC)
            await store.scores.finish_game(player.id, game.record(), game.score, game.status.value,
                                           False, ended - timedelta(minutes=4), ended)
    finally:
        await store.close()


async def main(out: Path) -> None:
    from browserhelp import PHONE, browser_page, sign_up, tap_key, type_keys, wait_for_text
    from serverhelp import running

    from door.games.montecarlo import MonteCarlo

    out.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="reussite-shots-"))
    try:
        shutil.copy(REPO / "sysop.ini", home / "sysop.ini")
        (home / "ansi").mkdir()
        (home / "data").mkdir()
        await store_scores(home)
        async with running(home, ssh=False, web=True) as ports, \
                browser_page(width=960, height=640) as page:
            url = f"http://127.0.0.1:{ports.web}"
            await page.goto(f"{url}/")
            await sign_up(page, "Daphne", "daphne-pw")
            await type_keys(page, "c")
            await wait_for_text(page, "Game number:")
            await type_keys(page, f"{NUMBER}\r")
            await wait_for_text(page, f"Monte Carlo #{NUMBER}")
            game = MonteCarlo.new(NUMBER)
            for _ in range(4):
                move = game.legal_moves()[0]
                await type_keys(page, move)
                game.play(move)
                await wait_for_text(page, f"Score {game.score}")
            await page.wait_for_timeout(600)  # the cursor's blink, the last frame painted
            await page.screenshot(path=str(out / "web-play.png"))
            await page.goto(f"{url}/halloffame/montecarlo")
            await page.screenshot(path=str(out / "web-halloffame.png"), full_page=True)
            replay = await page.get_attribute("a[href^='/replay/']", "href")
            await page.goto(url + str(replay))
            await wait_for_text(page, "Replay")
            for _ in range(6):
                await page.keyboard.press("ArrowRight")
            await wait_for_text(page, "Move 6 of")
            await page.wait_for_timeout(300)
            await page.screenshot(path=str(out / "web-replay.png"))
        async with running(home, ssh=False, web=True) as ports, \
                browser_page(width=740, height=360, **PHONE) as page:
            url = f"http://127.0.0.1:{ports.web}"
            await page.goto(f"{url}/")
            await tap_key(page, "⌨")
            await sign_up(page, "Phoebe", "phoebe-pw")
            await tap_key(page, "A")
            await wait_for_text(page, "Game number:")
            await type_keys(page, "7\r")
            await wait_for_text(page, "Aunt Mary #7")
            await tap_key(page, "S")
            await page.wait_for_timeout(600)
            await page.screenshot(path=str(out / "web-phone-landscape.png"))
            await page.set_viewport_size({"width": 360, "height": 740})
            await page.wait_for_timeout(600)
            await page.screenshot(path=str(out / "web-phone-portrait.png"))
            await page.goto(f"{url}/halloffame/montecarlo")
            await page.screenshot(path=str(out / "web-phone-halloffame.png"), full_page=True)
        print(f"wrote web-play, web-halloffame, web-replay, web-phone-landscape, "
              f"web-phone-portrait and web-phone-halloffame .png in {out}")
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, metavar="DIR",
                        help="where the PNG files go (default: docs/screens)")
    args = parser.parse_args()
    if lacking := missing():
        print("web_screenshots.py needs " + "; ".join(lacking), file=sys.stderr)
        sys.exit(2)
    asyncio.run(main(args.out))
