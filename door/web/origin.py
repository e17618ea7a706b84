"""Which requests are for this door: the ``Host`` they name, and for the play page's
WebSocket the ``Origin`` of the page that opened it.

A page on another site cannot read this door's answers, unless its own name is pointed at
this door's address (DNS rebinding): the browser then sends ``Host: evil.example`` and
``Origin: http://evil.example`` and treats the answers as that site's.  So a request is
served only when its Host is

- the host of ``[web] public_url`` (and its port), the name callers use; or
- an address (``127.0.0.1:8023``, ``[::1]:8023``, ``192.0.2.7``) or ``localhost``: a
  rebinding page never sends those, since its own name is what its browser asked for.

A WebSocket is opened only from a page of this door: an Origin equal to ``public_url``, to
one of ``[web] origins``, or to the scheme, host and port the request itself was sent to.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

Origin = tuple[str, str, int]
"""(scheme, host, port): ``("https", "bbs.example.org", 443)``."""
DEFAULT_PORTS = {"http": 80, "https": 443}


def parse_origin(text: str) -> Origin | None:
    """An Origin header or a setting's ``scheme://host[:port]``, as a tuple; None for
    anything else (``null``, a path, another scheme)."""
    try:
        url = urlsplit(text.strip().rstrip("/").lower())
        port = url.port
    except ValueError:
        return None
    if url.scheme not in DEFAULT_PORTS or not url.hostname or url.path or url.query:
        return None
    return url.scheme, url.hostname, port or DEFAULT_PORTS[url.scheme]


def parse_host(header: str) -> tuple[str, int | None] | None:
    """A Host header as (host, port), the port None when it names none; None when it is
    not a host (``[::1``, ``a b``, ``x:99999``)."""
    text = header.strip().lower()
    if not text or any(c in text for c in "/?#@ \t"):
        return None
    try:
        url = urlsplit(f"//{text}")
        port = url.port
    except ValueError:
        return None
    return (url.hostname, port) if url.hostname else None


def is_address(host: str) -> bool:
    """An IP address (``::1`` without its brackets) or ``localhost``."""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def host_allowed(header: str, public: Origin | None) -> bool:
    """Whether a request naming ``header`` as its Host is for this door.  A Host without a
    port matches ``public_url`` too: a reverse proxy in front may send the name alone."""
    host = parse_host(header)
    if host is None:
        return False
    name, port = host
    if is_address(name):
        return True
    return public is not None and name == public[1] and port in (None, public[2])


def origin_allowed(origin_header: str, host_header: str, scheme: str,
                   public: Origin | None, others: tuple[str, ...]) -> bool:
    """Whether a WebSocket opened by a page of ``origin_header`` may play: that page is
    this door's (see the module's docstring).  No Origin at all is refused: every browser
    sends one, so its absence is a program pretending to be one."""
    origin = parse_origin(origin_header)
    if origin is None:
        return False
    if origin == public or origin in {parse_origin(o) for o in others}:
        return True
    host = parse_host(host_header)  # the door's own page, reached by an address
    return (host is not None and is_address(host[0])
            and origin == (scheme, host[0], host[1] or DEFAULT_PORTS[scheme]))
