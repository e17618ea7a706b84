"""The web door: the play page (a terminal in the browser on a WebSocket) and the public
pages (hall of fame, best on one deal, who's online, daily challenge) with their JSON twins.
docs/web.md is the sysop's guide; app.py has the routes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ..config import Settings
from ..gate.pool import LoginPool
from ..net.buffers import bound_send_buffers
from ..net.terminal import Terminal
from ..session import Services
from ..store import Store

__all__ = ["start_web_for"]


async def start_web_for(settings: Settings, run_session: Callable[[Terminal], Awaitable[None]],
                        pool: LoginPool | None, store: Store | None, hosts: list[str],
                        port: int, listeners: list[Any],
                        reuse_port: bool = False,
                        viewing: Services | None = None) -> tuple[int, str]:
    """Start the HTTP listener of a server (``reussite serve``'s one call, and a worker
    process's), which runs each caller's visit with ``run_session``, holds callers not yet
    logged in in ``pool``, keeps ``store`` and shows watchers games with ``viewing``: on
    [web] bind, else ``hosts``, at ``port`` (0: any).  The listener is added to
    ``listeners`` (closed with the others); returns the bound port and the URL for the
    start-up line."""
    from .app import start_web  # local: the web door's modules load only when it is on

    web_hosts = [h.strip() for h in settings.web.bind.split(",") if h.strip()] or hosts
    listener = await start_web(settings, run_session, pool, store, web_hosts, port,
                               reuse_port=reuse_port, viewing=viewing)
    listeners.append(listener)
    bound_send_buffers(listener.sockets)
    scheme = "https" if settings.web_tls else "http"
    host = web_hosts[0]
    host = f"[{host}]" if ":" in host else host
    return listener.port, f"{scheme}://{host}:{listener.port}/"
