"""The play page's files as a real serve() sends them: named by their hash and cached for
good, compressed (brotli or gzip, as the browser takes), fonts as WOFF2 with their type and
every character the door's screens draw."""

from __future__ import annotations

import gzip
import re
from pathlib import Path
from typing import Any

import brotli
from serverhelp import running
from webhelp import get

from door.term.width import ONE_CELL
from door.web.assets import Assets, accepted

STATIC = Path(__file__).resolve().parents[2] / "door" / "web" / "static"
XTERM = STATIC / "vendor" / "xterm" / "xterm.js"


async def raw(port: int, path: str, **headers: str) -> tuple[int, Any, bytes]:
    """A GET whose body comes back as sent (not decompressed by the client); its headers
    looked up in any case."""
    import aiohttp

    async with aiohttp.ClientSession(auto_decompress=False) as http, http.get(
            f"http://127.0.0.1:{port}{path}", headers=headers) as response:
        return response.status, response.headers.copy(), await response.read()


async def test_files_go_by_their_hash_compressed_and_cached_for_good(door_home: Path) -> None:
    async with running(door_home, ssh=False, web=True) as ports:
        _, _, html = await get(ports.web, "/")
        script = re.search(r'src="(/static/vendor/xterm/xterm\.[0-9a-f]{10}\.js)"', html)
        assert script, html
        url = script.group(1)
        original = XTERM.read_bytes()

        status, headers, body = await raw(ports.web, url, **{"Accept-Encoding": "gzip, br"})
        assert status == 200 and headers["Content-Encoding"] == "br"
        assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert headers["Content-Type"].startswith("text/javascript")
        assert headers["Vary"] == "Accept-Encoding"
        assert brotli.decompress(body) == original and len(body) < len(original) / 4

        status, headers, body = await raw(ports.web, url, **{"Accept-Encoding": "gzip"})
        assert headers["Content-Encoding"] == "gzip" and gzip.decompress(body) == original

        status, headers, body = await raw(ports.web, url, **{"Accept-Encoding": "identity"})
        assert "Content-Encoding" not in headers and body == original

        # The plain name answers too, revalidated by its ETag.
        status, headers, _ = await raw(ports.web, "/static/vendor/xterm/xterm.js")
        assert status == 200 and headers["Cache-Control"] == "no-cache"
        status, _, _ = await raw(ports.web, "/static/vendor/xterm/xterm.js",
                                 **{"If-None-Match": headers["ETag"]})
        assert status == 304
        assert (await raw(ports.web, "/static/vendor/xterm/xterm.0000000000.js"))[0] == 404


async def test_fonts_are_woff2_named_by_the_style_sheet(door_home: Path) -> None:
    async with running(door_home, ssh=False, web=True) as ports:
        _, _, html = await get(ports.web, "/")
        sheet = re.search(r'href="(/static/play\.[0-9a-f]{10}\.css)"', html).group(1)
        _, _, css = await get(ports.web, sheet)
        fonts = re.findall(r'url\("(/static/vendor/fonts/[^"]+)"\)', css)
        assert len(fonts) == 2 and all(re.search(r"\.[0-9a-f]{10}\.woff2$", f) for f in fonts)
        for font in fonts:
            assert f'href="{font}" as="font"' in html  # preloaded: no wait for the sheet
            status, headers, body = await raw(ports.web, font, **{"Accept-Encoding": "br"})
            assert status == 200 and headers["Content-Type"] == "font/woff2"
            assert "Content-Encoding" not in headers and body[:4] == b"wOF2"
            assert len(body) < 40_000


def test_the_fonts_draw_every_character_of_the_doors_screens() -> None:
    """Cut to printable ASCII and door/term/width.py's ONE_CELL (what the door's screens
    draw) by scripts/vendor-web.sh; DejaVu Sans Mono itself lacks three of them."""
    from fontTools.ttLib import TTFont

    wanted = {ord(c) for c in ONE_CELL} | set(range(0x20, 0x7F))
    for face in ("DejaVuSansMono", "DejaVuSansMono-Bold"):
        font = TTFont(STATIC / "vendor" / "fonts" / f"{face}.woff2")
        missing = wanted - set(font.getBestCmap())
        assert missing <= {0x2024, 0x2025, 0x2027}, sorted(map(hex, missing))
        assert "Bitstream" in font["name"].getDebugName(0)  # the notices travel with it


def test_a_style_sheet_names_files_by_their_hash() -> None:
    assets = Assets(STATIC)
    sheet = assets.by_path["play.css"].body.decode()
    assert assets.url("vendor/fonts/DejaVuSansMono.woff2") in sheet
    assert "DejaVuSansMono.woff2" not in sheet.replace(
        assets.by_path["vendor/fonts/DejaVuSansMono.woff2"].hashed, "")


def test_accept_encoding_is_read_as_browsers_write_it() -> None:
    assert accepted("gzip, deflate, br, zstd") == {"gzip", "deflate", "br", "zstd"}
    assert accepted("br;q=0, gzip;q=0.8") == {"gzip"}
    assert accepted("") == set()
