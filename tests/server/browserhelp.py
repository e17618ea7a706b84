"""A real headless Chromium for the web tests and the README's screenshots: Debian's
``chromium`` package driven by Playwright's Python package, which is told where the system
browser is (``executable_path``) and so never downloads a browser of its own."""

from __future__ import annotations

import asyncio
import contextlib
import os
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
async def browser_page(width: int = 1000, height: int = 700) -> AsyncIterator[Any]:
    """A page in a fresh headless Chromium (its own user-data-dir, removed after)."""
    from playwright.async_api import async_playwright

    path = chromium_path()
    assert path, "no chromium: apt-get install chromium (or set REUSSITE_CHROMIUM)"
    profile = tempfile.mkdtemp(prefix="reussite-chromium-")
    try:
        async with async_playwright() as playwright:
            context = await playwright.chromium.launch_persistent_context(
                profile, executable_path=path, args=FLAGS, headless=True,
                viewport={"width": width, "height": height})
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
