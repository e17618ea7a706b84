"""What the web door's handlers share: the app's key to the door's parts, where the static
files are, and who is calling."""

from __future__ import annotations

import contextlib
import ipaddress
from pathlib import Path

from aiohttp import web

from ..config import Networks, address_in

STATIC = Path(__file__).parent / "static"
DOOR_KEY = web.AppKey("door", dict)
"""``request.app[DOOR_KEY]``: settings, run (the door's session), pool, store, public
(PublicData), assets, tokens (ResumeTokens), public_origin, viewers (a count), viewing
(the read-only viewers' Services)."""


def peer_of(request: web.Request, proxies: Networks) -> str:
    """``host:port`` of the caller: the connection's, or, from a proxy listed in [web]
    proxies, the last address of its X-Forwarded-For (the one that proxy saw)."""
    peer = request.transport.get_extra_info("peername") if request.transport else None
    host, port = (peer[0], peer[1]) if peer else ("?", 0)
    forwarded = request.headers.get("X-Forwarded-For", "")
    if forwarded and address_in(host, proxies):
        last = forwarded.split(",")[-1].strip()
        with contextlib.suppress(ValueError):
            host = str(ipaddress.ip_address(last))
    return f"{host}:{port}"
