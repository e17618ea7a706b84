"""A real Synchronet BBS on loopback for the tests that launch the door from it.

Synchronet is not part of this repository, and nothing here builds it: these tests run
where ``$REUSSITE_SYNCHRONET`` names a Synchronet tree built from its source elsewhere (its
``exec/`` holding the ``sbbs`` and ``makeuser`` programs beside the stock JavaScript
modules, and its stock ``ctrl/`` and ``text/``).  Each test gets a BBS of its own in a
temporary folder: a copy of ``ctrl/`` (the tree is never written to), users made with
``makeuser``, the terminal server alone on two free loopback ports, and the online
programs the test adds.  Callers log in over RLogin with ``password / alias /
xtrn=CODE``, which Synchronet's ``logon.js`` turns into that program at once.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import time
from pathlib import Path

from programs import stop
from waiting import WAIT

ENV = "REUSSITE_SYNCHRONET"
SKIP_REASON = (
    f"${ENV} is not set: these tests need a Synchronet 3.22 built from its source outside "
    "this repository (nothing here builds it). They are skipped wherever it is absent, "
    "CI included ($CI set or not): CI does not build Synchronet.")

XTRN_NATIVE, XTRN_STDIO, MULTIUSER = 1 << 14, 1 << 2, 1 << 0
DROPFILE_TYPES = {"DOOR.SYS": 3, "DOOR32.SYS": 12, "none": 0}
"""Synchronet's xtrn types: 3 the 52-line DOOR.SYS ("GAP (extended)"), 12 DOOR32.SYS."""


def synchronet_tree() -> Path | None:
    """The Synchronet tree of ``$REUSSITE_SYNCHRONET``, if it holds a built ``sbbs``."""
    value = os.environ.get(ENV)
    if not value:
        return None
    tree = Path(value)
    if not (tree / "exec" / "sbbs").exists():
        raise RuntimeError(f"${ENV}={value}: no exec/sbbs there (a Synchronet tree with "
                           "its programs built)")
    return tree


def free_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as probe:
        return probe.getsockname()[1]


class Synchronet:
    """One BBS in ``root``: :meth:`add_user`, :meth:`add_program`, then :meth:`start`."""

    def __init__(self, tree: Path, root: Path) -> None:
        self.tree, self.root = tree, root
        self.ctrl = root / "ctrl"
        shutil.copytree(tree / "ctrl", self.ctrl)
        for name in ("exec", "text"):
            (root / name).symlink_to(tree / name)
        for folder in ("data/user", "mods", *(f"node{n}" for n in range(1, 5))):
            (root / folder).mkdir(parents=True)
        for n in range(1, 5):
            shutil.copy(tree / "node1" / "node.ini", root / f"node{n}" / "node.ini")
        self.telnet_port, self.rlogin_port = free_port(), free_port()
        self._configure()
        self.proc: subprocess.Popen | None = None

    def _configure(self) -> None:
        ini = self.ctrl / "sbbs.ini"
        text = ini.read_text(encoding="latin-1")
        for section, key, value in (
                ("Global", "Interface", "127.0.0.1"),
                ("BBS", "TelnetPort", str(self.telnet_port)),
                ("BBS", "RLoginPort", str(self.rlogin_port)),
                ("BBS", "Options", "XTRN_MINIMIZED | ALLOW_RLOGIN"),
                ("Mail", "AutoStart", "false"), ("FTP", "AutoStart", "false"),
                ("Web", "AutoStart", "false"), ("Services", "AutoStart", "false")):
            text = _set_key(text, section, key, value)
        ini.write_text(text, encoding="latin-1")
        main = self.ctrl / "main.ini"
        main.write_text(main.read_text(encoding="latin-1").replace(
            "new_install=true", "new_install=false"), encoding="latin-1")

    def add_user(self, alias: str, password: str) -> None:
        subprocess.run([str(self.tree / "exec" / "makeuser"), str(self.ctrl), alias,
                        "-P", password, "-R", f"{alias} Tester", "-S", "50"],
                       check=True, capture_output=True, timeout=WAIT)

    def add_program(self, code: str, command: str, *, startup_dir: Path | str = "",
                    dropfile: str = "DOOR.SYS", io: str = "stdio") -> None:
        """An online program in section GAMES (``io``: "stdio", "socket", or "js" for one
        of Synchronet's own JavaScript modules, ``?name``)."""
        if len(command) > 100:
            raise ValueError(f"{command!r}: Synchronet keeps 100 characters of a command")
        settings = MULTIUSER
        if io != "js":
            settings |= XTRN_NATIVE | (XTRN_STDIO if io == "stdio" else 0)
        with (self.ctrl / "xtrn.ini").open("a", encoding="latin-1") as ini:
            ini.write(f"[prog:GAMES:{code}]\n\tname={code}\n\tars=\n\texecution_ars=\n"
                      f"\ttype={DROPFILE_TYPES[dropfile]}\n\tsettings={settings}\n"
                      f"\tevent=0\n\tcost=0\n\tcmd={command}\n\tclean_cmd=\n"
                      f"\tstartup_dir={startup_dir}\n\ttextra=0\n\tmax_time=0\n"
                      "\tmax_inactivity=0\n")

    def start(self) -> None:
        """Run the terminal server until it takes RLogin connections."""
        env = {**os.environ, "SBBSCTRL": str(self.ctrl)}
        self.log = (self.root / "sbbs.out").open("wb")
        self.proc = subprocess.Popen([str(self.root / "exec" / "sbbs"), "nd", "ne", "nh"],
                                     cwd=self.root, env=env, stdin=subprocess.DEVNULL,
                                     stdout=self.log, stderr=subprocess.STDOUT)
        listening = f"RLogin Server listening on socket 127.0.0.1 port {self.rlogin_port}"
        end = time.monotonic() + WAIT
        while listening not in self.output():
            if self.proc.poll() is not None:
                raise AssertionError(f"sbbs exited {self.proc.returncode}: "
                                     f"{self.output()[-2000:]}")
            if time.monotonic() > end:
                raise AssertionError(f"Synchronet never listened for RLogin: "
                                     f"{self.output()[-2000:]}")
            time.sleep(0.1)

    def output(self) -> str:
        """What sbbs printed (its log lines)."""
        return (self.root / "sbbs.out").read_text(encoding="latin-1")

    def stop(self) -> None:
        stop(self.proc)
        if self.proc is not None:
            self.log.close()


def _set_key(text: str, section: str, key: str, value: str) -> str:
    start = text.index(f"\n[{section}]")
    end = text.find("\n[", start + 2)
    end = len(text) if end < 0 else end
    body, count = re.subn(rf"(?m)^(\s*){key}\s*=.*$", rf"\g<1>{key} = {value}",
                          text[start:end], count=1)
    if count != 1:
        raise AssertionError(f"sbbs.ini: no {key} in [{section}]")
    return text[:start] + body + text[end:]
