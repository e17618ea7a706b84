"""``reussite serve``: the direct-dial server, answering telnet callers on one asyncio loop."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal

from .config import Settings
from .net.telnet import start_telnet
from .net.terminal import Terminal
from .session import Caller, Session, run_visit
from .store import Store
from .store.visit import identify, node_gone, node_seen, open_store

log = logging.getLogger(__name__)


class NodeTable:
    """Node numbers for callers: each gets the lowest free one."""

    def __init__(self, max_nodes: int) -> None:
        self.max_nodes = max_nodes
        self._used: set[int] = set()

    def take(self) -> int | None:
        for node in range(1, self.max_nodes + 1):
            if node not in self._used:
                self._used.add(node)
                return node
        return None

    def give_back(self, node: int) -> None:
        self._used.discard(node)


def session_runner(settings: Settings, nodes: NodeTable, store: Store | None = None):
    async def run(terminal: Terminal) -> None:
        node = nodes.take()
        if node is None:
            terminal.write(b"\r\nAll nodes are busy. Please call again later.\r\n")
            await terminal.drain()
            return
        try:
            caller = Caller(alias="Guest", node=node)
            player = await identify(store, caller)
            await node_seen(store, node, player, "main menu")
            await run_visit(Session(terminal, settings, caller, store=store, player=player))
        finally:
            await node_gone(store, node)
            nodes.give_back(node)
    return run


async def serve(settings: Settings, bind: str, port: int,
                started: asyncio.Future | None = None) -> int:
    """Run until SIGINT/SIGTERM.  ``started`` receives the bound port (tests use port 0)."""
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    nodes = NodeTable(settings.server.max_nodes)
    store = await open_store(settings)
    server = await start_telnet(bind, port, session_runner(settings, nodes, store))
    bound = server.sockets[0].getsockname()[1]
    log.info("telnet: listening on %s port %s (home %s)", bind, bound, settings.home)
    print(f"Réussite is answering telnet on {bind} port {bound}. Ctrl-C stops it.", flush=True)
    if started is not None:
        started.set_result(bound)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        server.close()
        await server.wait_closed()
        await store.close()
        log.info("telnet: stopped")
    return 0
