"""Who's online: node, handle, what they are doing, idle time — from the store's node table,
so callers on every door server sharing the database are listed."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from ...session import Session
from ...store import OnlineNode, StoreError
from ...store.visit import node_doing
from ..shared import theme
from ..shared.key_overlay import is_help, show_menu_keys
from ..shared.keymap import HELP
from ..shared.widgets import header, message, status_line


def idle_text(seconds: float) -> str:
    seconds = max(0, int(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


def draw(session: Session, nodes: list[OnlineNode], note: str = "",
         now: datetime | None = None) -> None:
    """The table; a Server column appears only when several door servers share the database
    (their node numbers overlap)."""
    screen = session.screen
    now = now or datetime.now(UTC)
    screen.clear()
    header(session, "Who's Online")
    hosts = sorted({n.host for n in nodes})
    several = len(hosts) > 1
    left = 2
    cols = ("Srv  " if several else "") + f"{'Node':>4}  {'Handle':<20}  {'Doing':<30}  Idle"
    screen.put(2, left, cols, theme.BRIGHT)
    room = screen.rows - 6
    for i, node in enumerate(nodes[:room]):
        server = f"{hosts.index(node.host) + 1:<3}  " if several else ""
        handle = (node.alias or "(logging in)")[:20]
        line = (f"{server}{node.node:>4}  {handle:<20}  {node.activity[:30]:<30}  "
                f"{idle_text((now - node.heartbeat).total_seconds())}")
        attr = theme.SELECTED if node.node == session.caller.node and not several \
            else theme.LABEL
        screen.put(4 + i, left, line, attr)
    if len(nodes) > room:
        screen.put(4 + room, left, f"… and {len(nodes) - room} more", theme.LABEL)
    if note:
        message(session, note, theme.WARNING)
    status_line(session, f"R refreshes · {HELP.label} keys · any other key returns")


ACTIVITY = "Who's Online"


def as_seen_here(session: Session, nodes: list[OnlineNode]) -> list[OnlineNode]:
    """The caller's own row says what they are doing: this screen (its write to who's
    online goes on in the background and may not be in yet)."""
    token = session.caller.token[:32]
    return [replace(n, activity=ACTIVITY) if token and n.token == token else n for n in nodes]


async def whos_online(session: Session) -> None:
    node_doing(session.store, session.caller, session.player, ACTIVITY)
    try:
        while True:
            note = ""
            nodes: list[OnlineNode] = []
            if session.store is None:
                note = "Who's online needs the database, which this door runs without."
            else:
                try:
                    nodes = as_seen_here(session, await session.store.online.nodes())
                except StoreError as exc:
                    note = str(exc)
            draw(session, nodes, note)
            await session.show()
            key = await session.key()
            if is_help(key):
                await show_menu_keys(session, "Who's online", [("R", "refresh the list"),
                                                               ("other keys", "back")])
                continue
            if key.name == "resize" or (key.is_char and key.char.lower() == "r"):
                continue
            return
    finally:
        node_doing(session.store, session.caller, session.player, "main menu")
