"""A real headless Chromium for the web tests and the README's screenshots: Debian's
``chromium`` package driven by Playwright's Python package, which is told where the system
browser is (``executable_path``) and so never downloads a browser of its own."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import tempfile
import time
from collections.abc import AsyncIterator
from typing import Any

from waiting import WAIT

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage"]
"""Launch flags known to work on these machines (root, no GPU, no network) and in CI
containers (whose /dev/shm is often too small for Chromium's shared memory)."""
BROWSER_ENV = "REUSSITE_CHROMIUM"  # another browser binary, if not the system's chromium


def chromium_path() -> str | None:
    return os.environ.get(BROWSER_ENV) or shutil.which("chromium") or shutil.which(
        "chromium-browser")


@contextlib.asynccontextmanager
async def browser_page(width: int = 1000, height: int = 700, **options: Any
                       ) -> AsyncIterator[Any]:
    """A page in a fresh headless Chromium (its own user-data-dir, removed after);
    ``options`` for its context (``has_touch=True, is_mobile=True`` for a phone)."""
    from playwright.async_api import async_playwright

    path = chromium_path()
    assert path, "no chromium: apt-get install chromium (or set REUSSITE_CHROMIUM)"
    profile = tempfile.mkdtemp(prefix="reussite-chromium-")
    try:
        async with async_playwright() as playwright:
            context = await playwright.chromium.launch_persistent_context(
                profile, executable_path=path, args=FLAGS, headless=True,
                viewport={"width": width, "height": height}, **options)
            try:
                page = context.pages[0] if context.pages else await context.new_page()
                yield page
            finally:
                await context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


async def screen_text(page: Any) -> str:
    """The door's screen as xterm.js holds it (its buffer, row by row)."""
    return await page.evaluate("() => window.reussite ? window.reussite.screenText() : ''")


async def wait_for_text(page: Any, needle: str, timeout: float = WAIT) -> str:
    """Poll the terminal's buffer until ``needle`` is on the screen; fail showing it."""
    deadline = time.monotonic() + timeout
    while True:
        text = await screen_text(page)
        if needle in text:
            return text
        if time.monotonic() > deadline:
            raise AssertionError(f"{needle!r} never appeared; screen:\n{text}")
        await asyncio.sleep(0.1)


async def type_keys(page: Any, text: str) -> None:
    """Keys as a person types them into the terminal ("\\r" is Enter)."""
    for part in text.split("\r")[:-1]:
        await page.keyboard.type(part)
        await page.keyboard.press("Enter")
    await page.keyboard.type(text.split("\r")[-1])


async def sign_up(page: Any, handle: str, password: str, timeout: float = WAIT) -> str:
    """From the play page's login screen to the main menu, as a new user; the menu's
    screen text."""
    await wait_for_text(page, "Handle:", timeout)
    await type_keys(page, "new\r")
    await wait_for_text(page, "New user", timeout)
    await type_keys(page, f"{handle}\r")
    await wait_for_text(page, "Password:", timeout)
    await type_keys(page, f"{password}\r")
    await wait_for_text(page, "Again:", timeout)
    await type_keys(page, f"{password}\r")
    await wait_for_text(page, "Press any key", timeout)
    await type_keys(page, " ")
    return await wait_for_text(page, "Your choice", timeout)


PHONE = {"has_touch": True, "is_mobile": True, "device_scale_factor": 3}
"""A phone's context: touch, a mobile viewport, three device pixels to a CSS pixel."""


async def tap_key(page: Any, label: str) -> None:
    """Tap a button of the play page's key bar (touch, as a finger would)."""
    exact = re.compile(f"^{re.escape(label)}$")
    await page.locator("#keybar button").filter(has_text=exact).first.tap()


class LineProxy:
    """A TCP relay between the browser and the door on loopback, whose lines can be cut
    (:meth:`cut`: every connection reset at once, as a dropped line)."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.server: asyncio.Server | None = None
        self.pairs: list[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = []

    async def __aenter__(self) -> LineProxy:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.cut()
        assert self.server is not None
        self.server.close()

    @property
    def port(self) -> int:
        assert self.server is not None
        return self.server.sockets[0].getsockname()[1]

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        self.pairs.append((writer, up_writer))

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(Exception):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            with contextlib.suppress(Exception):
                dst.close()
        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def cut(self) -> None:
        for down, up in self.pairs:
            for writer in (down, up):
                writer.transport.abort()
        self.pairs.clear()
