"""A real ENiGMA½ BBS on loopback for the tests that launch the door and the bridge from it.

ENiGMA½ is not part of this repository, and nothing here builds it: these tests run where
``$REUSSITE_ENIGMA`` names an ENiGMA½ tree installed from its source elsewhere (``main.js``
beside the ``node_modules`` that ``npm install`` built, its native modules included) and
``node`` is on the PATH.  The tree is never written to: each BBS lives in a folder of its
own, with the configuration and menus that ``./oputil.js config new`` writes (made here the
way it makes them, since it writes them into the tree), its databases, logs and dropfile
folders there too, telnet on one free port of 127.0.0.1 and no other listener.  The
door's entries are the guide's own (docs/sysop-bbs-setup.md), read from the page and put
in the doors menu file the guide names.  Callers are telnet clients that answer ENiGMA½'s
cursor-position probes, as a real terminal does.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import time
from pathlib import Path

from docsnippets import ROOT, read
from programs import stop
from pyteterm import TelnetCaller
from waiting import WAIT

ENV = "REUSSITE_ENIGMA"
SKIP_REASON = (
    f"${ENV} is not set: these tests need an ENiGMA½ installed from its source outside this "
    "repository (nothing here builds it), and node on the PATH. They are skipped wherever "
    "it is absent, CI included ($CI set or not): CI does not build ENiGMA½.")
GUIDE = ROOT / "docs" / "sysop-bbs-setup.md"
GUIDE_PATHS = ("/opt/reussite/venv/bin/reussite", "/opt/reussite/home", "/opt/reussite/bridge")
"""What the guide's entries name, and each test replaces: the command, the door's home and
the bridge's home."""
MENU_TEMPLATES = ("message_base", "private_mail", "login", "new_user", "doors", "file_base",
                  "activitypub")
"""The menu files ``./oputil.js config new`` makes from ``misc/menu_templates/``, in the
order of the main menu file's ``includes``."""


def enigma_tree() -> Path | None:
    """The ENiGMA½ tree of ``$REUSSITE_ENIGMA``, if it is installed."""
    value = os.environ.get(ENV)
    if not value:
        return None
    tree = Path(value)
    if not (tree / "main.js").exists() or not (tree / "node_modules").is_dir():
        raise RuntimeError(f"${ENV}={value}: no main.js and node_modules there (an ENiGMA½ "
                           "tree after npm install)")
    if shutil.which("node") is None:
        raise RuntimeError(f"${ENV} is set but node is not on the PATH")
    return tree


def free_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as probe:
        return probe.getsockname()[1]


def menu_file_name(board: str) -> str:
    """The board name as ``oputil.js config new`` turns it into menu file names."""
    name = re.sub(r'[/?<>\\:*|"\x00-\x1f\x80-\x9f]', "", board)  # sanitize-filename's cut
    return re.sub(r"_+", "_", re.sub(r"[^a-z0-9_-]", "_", name, flags=re.I)).lower()


def guide_entries() -> dict[str, str]:
    """The guide's ENiGMA½ hjson blocks, by the menu (or submit entry) each one adds."""
    entries: dict[str, str] = {}
    for block in read(GUIDE)[0]:
        if block.kind != "hjson":
            continue
        named = re.match(r"\s*(\w+):\s*\{", block.text)
        if named:
            entries[named.group(1)] = block.text
        else:
            entries["submit"] = block.text
    return entries


class Enigma:
    """One BBS in ``root``: :meth:`add_menu` and :meth:`add_command`, then :meth:`start`,
    and :meth:`apply` for its users (the first one is its sysop)."""

    def __init__(self, tree: Path, root: Path, board: str = "Xanadu BBS") -> None:
        self.tree, self.root = tree, root
        self.menus = root / "config" / "menus"
        self.menus.mkdir(parents=True)
        self.telnet_port = free_port()
        prefix = menu_file_name(board)
        includes = []
        for name in MENU_TEMPLATES:
            includes.append(f"{prefix}-{name}.hjson")
            shutil.copy(tree / "misc" / "menu_templates" / f"{name}.in.hjson",
                        self.menus / includes[-1])
        main = (tree / "misc" / "menu_templates" / "main.in.hjson").read_text(encoding="utf-8")
        self.main_menu = self.menus / f"{prefix}-main.hjson"
        self.main_menu.write_text(main.replace("%INCLUDE_FILES%", "\n\t\t".join(includes)),
                                  encoding="utf-8")
        self.doors_menu = self.menus / f"{prefix}-doors.hjson"
        self.config = root / "config" / "config.hjson"
        self.config.write_text(json.dumps(self._settings(board), indent=2), encoding="utf-8")
        self.proc: subprocess.Popen | None = None

    def _settings(self, board: str) -> dict:
        """config.hjson: the board, everything it writes under ``root``, telnet alone."""
        off = {"enabled": False}
        where = {name: str(self.root / name) + "/" for name in ("logs", "db", "drop", "mail")}
        return {
            "general": {"boardName": board, "menuFile": str(self.main_menu)},
            "paths": {"config": str(self.root / "config") + "/",
                      "security": str(self.root / "config" / "security"),
                      "logs": where["logs"], "db": where["db"],
                      "modsDb": where["db"] + "mods/", "dropFiles": where["drop"],
                      "emailInbound": where["mail"] + "email/"},
            "users": {"avatars": {"storagePath": str(self.root / "userdata" / "avatars")}},
            "fileBase": {"areaStoragePrefix": str(self.root / "file_base") + "/"},
            "logging": {"rotatingFile": {"level": "info"}},
            "loginServers": {
                "telnet": {"port": self.telnet_port, "address": "127.0.0.1", "enabled": True},
                "ssh": off, "webSocket": {"ws": off, "wss": off}},
            "contentServers": {"web": {"http": off, "https": off}, "gopher": off,
                               "nntp": {"nntp": off, "nntps": off}},
            "messageConferences": {"local": {
                "name": "Local", "desc": "Local Areas", "sort": 1, "default": True,
                "areas": {"general": {"name": "General", "desc": "General chit-chat",
                                      "sort": 1, "default": True}}}},
        }

    def add_menu(self, entry: str) -> None:
        """An hjson menu entry, inside the doors menu file's ``menus: { … }`` block."""
        text = self.doors_menu.read_text(encoding="utf-8")
        opened = re.search(r"\bmenus:\s*\{\n", text)
        assert opened, f"{self.doors_menu}: no menus block"
        self.doors_menu.write_text(text[:opened.end()] + entry + "\n" + text[opened.end():],
                                   encoding="utf-8")

    def add_command(self, entry: str) -> None:
        """A ``submit`` entry at the head of ``doorsMainMenu``'s list."""
        text = self.doors_menu.read_text(encoding="utf-8")
        found = re.search(r"doorsMainMenu:\s*\{.*?\bsubmit:\s*\[\n", text, re.DOTALL)
        assert found, f"{self.doors_menu}: no doorsMainMenu submit list"
        self.doors_menu.write_text(text[:found.end()] + entry + "\n" + text[found.end():],
                                   encoding="utf-8")

    def start(self) -> None:
        """Run ENiGMA½ until it has started (its telnet server listening)."""
        self.log = (self.root / "enigma.out").open("wb")
        self.proc = subprocess.Popen(["node", str(self.tree / "main.js"), "--config",
                                      f"{self.config.parent}/"],
                                     cwd=self.tree, stdin=subprocess.DEVNULL,
                                     stdout=self.log, stderr=subprocess.STDOUT)
        end = time.monotonic() + WAIT * 2  # node loads some 1,500 modules first
        while "System started!" not in self.output():
            if self.proc.poll() is not None:
                raise AssertionError(f"ENiGMA½ exited {self.proc.returncode}: "
                                     f"{self.output()[-2000:]}")
            if time.monotonic() > end:
                raise AssertionError(f"ENiGMA½ never started: {self.output()[-2000:]}")
            time.sleep(0.1)

    def output(self) -> str:
        """What ENiGMA½ printed on its console."""
        return (self.root / "enigma.out").read_text(encoding="utf-8", errors="replace")

    def bbs_log(self) -> str:
        """ENiGMA½'s own log (bunyan JSON lines)."""
        path = self.root / "logs" / "enigma-bbs.log"
        return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""

    def stop(self) -> None:
        stop(self.proc)
        if self.proc is not None:
            self.log.close()

    async def connect(self) -> TelnetCaller:
        """A telnet caller at the login matrix."""
        caller = await TelnetCaller.connect(self.telnet_port, term_type="ansi")
        await caller.wait_for("log off")
        return caller

    async def apply(self, alias: str, password: str) -> None:
        """The new user application, as a caller fills it in (the first user is the
        sysop, who is not asked for feedback)."""
        caller = await self.connect()
        await caller.settle()
        caller.send("\x1b[B\r")  # down to "apply"
        await caller.wait_for("smash your keyboard")
        caller.send(" ")
        await caller.wait_for("NEW USER APPLICATION")
        for value, shown in ((alias, alias), (f"{alias} Tester", f"{alias} Tester"),
                             ("19800101", "1980/01/01"), ("M", "sex·······: M"),
                             ("Loopback", "Loopback"), ("", ""),
                             (f"{alias.lower()}@example.org", f"{alias.lower()}@example.org"),
                             ("", ""), (password, "password: " + "*" * len(password)),
                             (password, "confirm·: " + "*" * len(password))):
            caller.send(value + "\t")
            if shown:
                await caller.wait_for(shown)
        caller.send("\r")  # apply
        await caller.wait_for("smash your keyboard")
        caller.close()

    async def log_in(self, alias: str, password: str) -> TelnetCaller:
        """A caller logged in and through ENiGMA½'s login screens to its main menu."""
        caller = await self.connect()
        await caller.settle()
        caller.send("\r")  # "login"
        await caller.settle()
        caller.send(f"{alias}\r")
        await caller.settle()
        caller.send(f"{password}\r")
        deadline = time.monotonic() + WAIT
        while not at_menu(caller, "Main Menu"):
            await caller.settle(0.3)
            if at_menu(caller, "Main Menu"):
                break
            if time.monotonic() > deadline:
                raise AssertionError(f"never at the main menu; screen:\n{caller.term.text}")
            caller.send("\r")  # a pause, "add a oneliner?", "global newscan?": the default
        return caller

    async def to_doors(self, alias: str, password: str) -> TelnetCaller:
        """A caller at the doors menu."""
        caller = await self.log_in(alias, password)
        caller.send("d\r")
        await caller.wait_until(lambda: at_menu(caller, "Doors Menu"), "at the doors menu")
        return caller


def at_menu(caller: TelnetCaller, name: str) -> bool:
    """ENiGMA½'s menu ``name`` waits for a command (its status line and prompt)."""
    return name in caller.term.text and "...cmd:" in caller.term.text

