"""The play page's files (``door/web/static/``) as browsers get them: light and cached for good.

- **Named by their content**: ``/static/play.3fa2c1d0e9.js`` never changes, so it is sent
  with ``Cache-Control: immutable`` and a browser that has it never asks again; the page
  names each file by its hashed name.  The plain name (``/static/play.js``) still answers,
  ``no-cache`` with an ETag, for anyone linking to it.  A style sheet's ``url(/static/…)``
  is rewritten to the hashed names before its own hash is taken, so a new font gives the
  style sheet a new name too.
- **Compressed once, kept in memory**: brotli (quality 11) and gzip (level 9) of every text
  file, made in a thread when the listener starts (:meth:`Assets.compress_all`: about a
  second of one core, for xterm.js's brotli) and on first use for any not made yet; a
  browser gets the smallest its ``Accept-Encoding`` takes.  Nothing is written to disk:
  the package may be read-only, and a new version of a file is a new process anyway.
- **The right type**: ``font/woff2`` for the fonts, not ``application/octet-stream``.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import brotli  # type: ignore[import-untyped]  # no stubs; compress() is all we call

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
HASH_CHARS = 10
TYPES = {".js": "text/javascript", ".css": "text/css", ".woff2": "font/woff2",
         ".svg": "image/svg+xml", ".html": "text/html", ".txt": "text/plain",
         ".png": "image/png"}
"""Content types by suffix; anything else (LICENSE) is plain text."""
TEXT = {"text/javascript", "text/css", "image/svg+xml", "text/html", "text/plain"}
"""Types worth compressing (a WOFF2 font or a PNG is compressed already)."""
CSS_URL = re.compile(r"""url\(\s*["']?/static/([^"')\s]+)["']?\s*\)""")
SKIP = {"MANIFEST.txt"}


def hashed_name(path: str, digest: str) -> str:
    """``vendor/xterm/xterm.js`` → ``vendor/xterm/xterm.<digest>.js``."""
    pure = PurePosixPath(path)
    return str(pure.with_name(f"{pure.stem}.{digest}{pure.suffix}"))


@dataclass
class Asset:
    """One static file: its bytes, type, hash, and its compressed forms once made."""

    path: str
    body: bytes
    content_type: str
    digest: str
    encoded: dict[str, bytes] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def hashed(self) -> str:
        return hashed_name(self.path, self.digest)

    @property
    def compressible(self) -> bool:
        return self.content_type in TEXT

    def compress(self) -> None:
        """Make the compressed forms (once; in a thread: brotli takes a while), keeping
        only those smaller than the file."""
        if not self.compressible:
            return
        with self._lock:
            if self.encoded:
                return
            made = {"gzip": gzip.compress(self.body, 9, mtime=0),
                    "br": brotli.compress(self.body, quality=11)}
            self.encoded = {k: v for k, v in made.items() if len(v) < len(self.body)} or {
                "identity": self.body}


def accepted(header: str) -> set[str]:
    """The codings an ``Accept-Encoding`` header takes (``q=0`` refuses one)."""
    out = set()
    for part in header.lower().split(","):
        name, _, params = part.strip().partition(";")
        if name and not re.search(r"q\s*=\s*0(\.0*)?\s*$", params.strip()):
            out.add(name.strip())
    return out


class Assets:
    """Every file under ``root``, read once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.by_path: dict[str, Asset] = {}
        self.by_hashed: dict[str, Asset] = {}
        files = sorted(p for p in root.rglob("*") if p.is_file() and p.name not in SKIP)
        # Style sheets last: they name the other files by their hashed names.
        for path in sorted(files, key=lambda p: p.suffix == ".css"):
            name = path.relative_to(root).as_posix()
            body = path.read_bytes()
            if path.suffix == ".css":
                body = CSS_URL.sub(lambda m: f'url("{self.url(m.group(1))}")',
                                   body.decode("utf-8")).encode("utf-8")
            digest = hashlib.sha256(body).hexdigest()[:HASH_CHARS]
            asset = Asset(name, body, TYPES.get(path.suffix, "text/plain"), digest)
            self.by_path[name] = asset
            self.by_hashed[asset.hashed] = asset

    def url(self, path: str) -> str:
        """The address a page names ``path`` by: its hashed name (KeyError: no such file)."""
        return f"/static/{self.by_path[path].hashed}"

    def find(self, name: str) -> tuple[Asset, bool] | None:
        """The file asked for as ``/static/<name>``, and whether by its hashed name."""
        asset = self.by_hashed.get(name)
        if asset is not None:
            return asset, True
        asset = self.by_path.get(name)
        return (asset, False) if asset is not None else None

    async def body(self, asset: Asset, accept_encoding: str) -> tuple[bytes, str | None]:
        """The bytes to send and their ``Content-Encoding`` (None: as they are)."""
        if not asset.compressible:
            return asset.body, None
        if not asset.encoded:
            await asyncio.to_thread(asset.compress)
        takes = accepted(accept_encoding)
        choices = [(len(data), coding) for coding, data in asset.encoded.items()
                   if coding in takes]
        if not choices:
            return asset.body, None
        _, coding = min(choices)
        return asset.encoded[coding], coding

    def compress_all(self) -> None:
        """Every compressed form, made now (the listener's start runs this in a thread)."""
        for asset in self.by_path.values():
            asset.compress()
