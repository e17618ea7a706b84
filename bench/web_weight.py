"""The play page's weight and its time to a first screen on an emulated Fast 3G line.

A real ``serve()`` with its web listener on a port the OS picks, in a throwaway home, and
the headless Chromium of the tests (Debian's ``chromium`` driven by Playwright) with the
line slowed by DevTools' own throttling (``Network.emulateNetworkConditions``: 1.6 Mbit/s
down, 750 kbit/s up, 150 ms round trip, as DevTools' "Fast 3G" preset).  Two loads:

- **first**: an empty cache, as a new caller's browser;
- **repeat**: the same browser opening the page again (a caller coming back).

For each: the bytes the browser received over HTTP (``encodedDataLength``: headers and
bodies as they came over the wire, compressed or not; the WebSocket's frames are not
counted), the requests made, the bytes the cache answered, and the milliseconds from the
start of the navigation to the door's login screen in the terminal ("Handle:" in xterm.js's
buffer): when a caller can start typing.

    nice -n 10 python bench/web_weight.py [--runs 3]

Needs what bench/web_screenshots.py needs (chromium, and the test extra's packages).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "tests"), str(REPO / "tests" / "server")]

FAST_3G = {"offline": False, "latency": 150, "downloadThroughput": 1_600_000 / 8,
           "uploadThroughput": 750_000 / 8}
"""DevTools' throttling, in bytes per second and milliseconds of round trip."""
READY = "() => !!(window.reussite && window.reussite.screenText().includes('Handle:'))"


async def load(page: Any, cdp: Any, url: str) -> dict[str, float]:
    """One navigation to ``url``: bytes over the wire, from the cache, requests, and the
    milliseconds to the login screen."""
    wire: dict[str, float] = {}
    cached: set[str] = set()
    sizes: dict[str, float] = {}

    def finished(event: dict[str, Any]) -> None:
        wire[event["requestId"]] = event.get("encodedDataLength", 0)

    def from_cache(event: dict[str, Any]) -> None:
        cached.add(event["requestId"])

    def received(event: dict[str, Any]) -> None:
        sizes[event["requestId"]] = event["response"].get("encodedDataLength", 0)

    cdp.on("Network.loadingFinished", finished)
    cdp.on("Network.requestServedFromCache", from_cache)
    cdp.on("Network.responseReceived", received)
    await page.goto(url, wait_until="commit")
    await page.wait_for_function(READY, polling=50, timeout=60_000)
    ms = await page.evaluate("performance.now()")
    await page.wait_for_load_state("load")
    cdp.remove_listener("Network.loadingFinished", finished)
    cdp.remove_listener("Network.requestServedFromCache", from_cache)
    cdp.remove_listener("Network.responseReceived", received)
    over_wire = sum(v for k, v in wire.items() if k not in cached)
    return {"bytes": over_wire, "requests": len(wire) - len(cached & set(wire)),
            "cached": len(cached), "ms": ms}


async def one_run(url: str) -> tuple[dict[str, float], dict[str, float]]:
    from browserhelp import browser_page

    async with browser_page(width=1000, height=700) as page:
        cdp = await page.context.new_cdp_session(page)
        await cdp.send("Network.enable")
        await cdp.send("Network.emulateNetworkConditions", FAST_3G)
        first = await load(page, cdp, url)
        await page.goto("about:blank")
        repeat = await load(page, cdp, url)
        return first, repeat


async def main(runs: int) -> None:
    from benchkit import make_door_home
    from serverhelp import running

    import door

    home = Path(tempfile.mkdtemp(prefix="reussite-weight-"))
    try:
        make_door_home(home)
        async with running(home, ssh=False, web=True) as ports:
            url = f"http://127.0.0.1:{ports.web}/"
            results = [await one_run(url) for _ in range(runs)]
    finally:
        shutil.rmtree(home, ignore_errors=True)
    load_avg = os.getloadavg()[0]
    print(f"door from {Path(door.__file__).parent}; {runs} runs, load average {load_avg:.1f}")
    print("Fast 3G emulated: 1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip")
    print(f"{'load':<8}{'KB over the wire':>18}{'requests':>10}{'from cache':>12}"
          f"{'ms to login screen (median, min-max)':>40}")
    for i, name in enumerate(("first", "repeat")):
        rows = [r[i] for r in results]
        ms = [r["ms"] for r in rows]
        print(f"{name:<8}{statistics.median(r['bytes'] for r in rows) / 1000:>18.1f}"
              f"{statistics.median(r['requests'] for r in rows):>10.0f}"
              f"{statistics.median(r['cached'] for r in rows):>12.0f}"
              f"{statistics.median(ms):>28.0f} ({min(ms):.0f}-{max(ms):.0f})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="browsers started (default 3)")
    args = parser.parse_args()
    from web_screenshots import missing

    if lacking := missing():
        print("web_weight.py needs " + "; ".join(lacking), file=sys.stderr)
        sys.exit(2)
    asyncio.run(main(max(1, args.runs)))
